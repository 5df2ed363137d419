public import TraceDomain
import TraceJSON
public import TraceReplay

/// A requirement a tuned policy must meet: a figure of a state (or of the whole trip) for one
/// role, or the delay with which a viewer sees an arrival, compared with a bound.
///
/// Written `SCOPE.ROLE.FIGURE OP BOUND UNIT`, spaces allowed around `OP`:
/// - `STATE.VIEWER.displayErrorP95 <= 25m`, `displayErrorMax` (metres: `m` or `km`): what the
///   viewer's map shows of the positions it is shown in the state (every sender the policy shows
///   it, the viewer's own position never), against their true positions, sampled as the replay
///   samples views (``ReplayResult/viewerViews``);
/// - `STATE.VIEWER.stalenessP95 <= 30s`, `stalenessMax` (seconds: `s` or `min`): the age of what
///   that map shows;
/// - `STATE.PHONE.sentPerMinute <= 6` (`/min` optional): updates the phone sent per minute of the
///   state;
/// - `trip.ROLE.FIGURE …`: the same over every state of the trip;
/// - `arrival.pickup.VIEWER <= 5s`, `arrival.dropoff.VIEWER`: seconds from the helper's arrival to
///   the first update that shows the viewer the helper within the arrival radius
///   (``ArrivalVisibility/lateSeconds``). An arrival the policy does not show the viewer by design,
///   or one that never happened, is not judged; one the viewer was to see and never saw is an
///   infinite delay.
///
/// `OP` is one of `<=`, `<`, `>=`, `>`. STATE is a state key (``FulfilmentState/key``, e.g.
/// `enRoute`), ROLE a role key (`hirer`, `helper`, `delegate`).
public struct Requirement: Hashable, Sendable, CustomStringConvertible {
    public enum Scope: Hashable, Sendable {
        case state(FulfilmentState)
        case trip
        case arrival(ArrivalPoint)
    }

    public enum Figure: String, CaseIterable, Hashable, Sendable {
        case displayErrorP95, displayErrorMax, stalenessP95, stalenessMax, sentPerMinute
        /// An arrival's delay (``Scope/arrival(_:)``).
        case arrivalDelay

        /// The figure's unit as printed.
        public var unit: String {
            switch self {
            case .displayErrorP95, .displayErrorMax: "m"
            case .stalenessP95, .stalenessMax, .arrivalDelay: "s"
            case .sentPerMinute: "/min"
            }
        }

        /// Whether it is a percentile (pooled over every sample across a corpus).
        var isPercentile: Bool { self == .displayErrorP95 || self == .stalenessP95 }
        /// Whether it is a view figure, judged per viewer.
        public var isView: Bool { self != .sentPerMinute && self != .arrivalDelay }
    }

    public enum Comparison: String, CaseIterable, Hashable, Sendable {
        case atMost = "<="
        case below = "<"
        case atLeast = ">="
        case above = ">"

        /// Whether `value` meets `bound`.
        public func holds(_ value: Double, _ bound: Double) -> Bool {
            switch self {
            case .atMost: value <= bound
            case .below: value < bound
            case .atLeast: value >= bound
            case .above: value > bound
            }
        }

        /// Whether larger values are worse (an upper bound).
        public var upper: Bool { self == .atMost || self == .below }
    }

    public var scope: Scope
    /// The viewer (view figures and arrivals) or the sending phone (``Figure/sentPerMinute``).
    public var role: Role
    public var figure: Figure
    public var comparison: Comparison
    /// In the figure's unit (metres, seconds, updates per minute).
    public var bound: Double
    /// The requirement in its normal form: no spaces, the bound in the figure's unit (`1km` reads `1000m`, `2min` reads `120s`).
    public var text: String
    /// An upper bound of each trip's own, in corpus order, for a requirement judged trip by trip
    /// (a kept figure: each trip within its tolerance of the start's value there,
    /// ``KeptFigure``); infinity: the trip is not judged. Nil: ``bound`` on every trip. Pooled,
    /// ``bound`` applies.
    public var tripBounds: [Double]?

    public init(scope: Scope, role: Role, figure: Figure, comparison: Comparison, bound: Double) {
        self.scope = scope
        self.role = role
        self.figure = figure
        self.comparison = comparison
        self.bound = bound
        let head: String =
            switch scope {
            case .state(let s): "\(s.key).\(role.key).\(figure.rawValue)"
            case .trip: "trip.\(role.key).\(figure.rawValue)"
            case .arrival(let p): "arrival.\(p.rawValue).\(role.key)"
            }
        text = "\(head)\(comparison.rawValue)\(JSONWriter.number(bound))\(figure.unit)"
    }

    public var description: String { text }

    /// The state the requirement is about; nil for the trip and arrivals.
    public var state: FulfilmentState? {
        if case .state(let s) = scope { return s }
        return nil
    }

    /// Parses `text`; the error says what is wrong and what is expected, in one line.
    public init(parsing text: String) throws(RequirementError) {
        let compact = String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        func fail(_ why: String) -> RequirementError { RequirementError(text: text, message: why) }
        guard let opRange = Self.operatorRange(compact) else {
            throw fail("no comparison: expected one of <=, <, >=, > (e.g. 'enRoute.hirer.displayErrorP95<=25m')")
        }
        let head = String(compact[..<opRange.lowerBound]), op = String(compact[opRange])
        let tail = String(compact[opRange.upperBound...])
        let parts = head.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw fail("expected SCOPE.ROLE.FIGURE (e.g. enRoute.hirer.displayErrorP95) or arrival.POINT.VIEWER before '\(op)'")
        }
        let scope: Scope, roleText: String, figure: Figure
        if parts[0] == "arrival" {
            guard let point = ArrivalPoint(rawValue: parts[1]) else {
                throw fail("unknown arrival '\(parts[1])': expected pickup or dropoff")
            }
            scope = .arrival(point)
            roleText = parts[2]
            figure = .arrivalDelay
        } else {
            if parts[0] == "trip" {
                scope = .trip
            } else if let s = FulfilmentState(parsing: parts[0]) {
                scope = .state(s)
            } else {
                throw fail(
                    "unknown scope '\(parts[0])': expected a state (\(FulfilmentState.allCases.map(\.key).joined(separator: ", "))), trip or arrival"
                )
            }
            roleText = parts[1]
            guard let f = Figure(rawValue: parts[2]), f != .arrivalDelay else {
                throw fail(
                    "unknown figure '\(parts[2])': expected one of \(Figure.allCases.filter { $0 != .arrivalDelay }.map(\.rawValue).joined(separator: ", "))"
                )
            }
            figure = f
        }
        guard let role = Role(parsing: roleText) else {
            throw fail("unknown role '\(roleText)': expected one of \(Role.allCases.map(\.key).joined(separator: ", "))")
        }
        // The bound: a number, then the unit.
        let digits = tail.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty, let number = Double(digits), number.isFinite else {
            throw fail("no bound after '\(op)': expected a number and its unit (\(Self.units(figure)))")
        }
        let unit = String(tail.dropFirst(digits.count))
        guard let scale = Self.scale(unit, figure) else {
            throw fail("unit '\(unit)' does not fit \(figure.rawValue): expected \(Self.units(figure))")
        }
        guard number * scale <= Self.largestBound else {
            throw fail("the bound is too large: at most \(JSONWriter.number(Self.largestBound)) in the figure's unit")
        }
        if case .arrival = scope, role == .helper {
            throw fail("the helper's own arrival is not shown to the helper: the viewer of an arrival is the hirer or the delegate")
        }
        self.init(scope: scope, role: role, figure: figure, comparison: Comparison(rawValue: op)!, bound: number * scale)
    }

    /// The largest bound (metres, seconds or updates a minute): 10^12, beyond any figure.
    public static let largestBound = 1e12

    /// The first comparison operator in `s` (`<=` and `>=` before `<` and `>`).
    private static func operatorRange(_ s: String) -> Range<String.Index>? {
        guard let i = s.firstIndex(where: { $0 == "<" || $0 == ">" }) else { return nil }
        let next = s.index(after: i)
        return next < s.endIndex && s[next] == "=" ? i..<s.index(after: next) : i..<next
    }

    private static func units(_ f: Figure) -> String {
        switch f.unit {
        case "m": "m or km"
        case "s": "s or min"
        default: "none or /min"
        }
    }

    /// The factor from `unit` to the figure's unit; nil when the unit does not fit.
    private static func scale(_ unit: String, _ f: Figure) -> Double? {
        switch (f.unit, unit) {
        case ("m", "m"): 1
        case ("m", "km"): 1000
        case ("s", "s"): 1
        case ("s", "min"): 60
        case ("/min", ""), ("/min", "/min"): 1
        default: nil
        }
    }
}

/// A requirement that could not be read: the text and why, in one line.
public struct RequirementError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var message: String
    /// What was read: "requirement", or "release" and "tolerance" (``KeepRelease``, ``KeepTolerance``).
    public var kind = "requirement"
    public var description: String { "\(kind) '\(text)': \(message)" }
}

/// How a requirement is judged across a corpus.
public enum CorpusJudgement: String, CaseIterable, Hashable, Sendable {
    /// Every trip must meet it (the default): the corpus's value is the worst trip's.
    case everyTrip = "every"
    /// The corpus's figure must meet it: percentiles over every sample of every trip (as batch's
    /// corpus rows pool them), maxima over all trips, updates per minute as all updates over all
    /// minutes; an arrival's delay is still the worst trip's.
    case pooled
}

/// One trip's contribution to a requirement's corpus figure.
public enum RequirementSample: Hashable, Sendable {
    /// The trip has no such figure (a state it never entered, a viewer shown nothing there by
    /// the policy, an arrival not judged): it does not count.
    case none
    /// A view figure's samples per sender the viewer is shown (indexed by ``TraceDomain/Role``'s
    /// raw value; empty for the others), and whether some sender the viewer was shown never
    /// reached its map in the scope: every sample of it without an update (an infinite error and
    /// staleness, which no bound meets).
    case views([QuantileHistogram], neverShown: Bool)
    /// Updates sent over seconds.
    case rate(updates: Int, seconds: Double)
    /// A single value (an arrival's delay; infinity: never seen).
    case value(Double)

    /// `self` and `other` pooled, for ``CorpusJudgement/pooled``: each sender's samples merged,
    /// updates and seconds summed, a single value the worse by `upper` (larger is worse when
    /// true). The order of pooling changes nothing the figures read (counts, bins, maxima).
    public func pooled(with other: RequirementSample, upper: Bool) -> RequirementSample {
        var pool = self
        pool.pool(other, upper: upper)
        return pool
    }

    /// ``pooled(with:upper:)`` in place: a pool of views merges `other`'s histograms into its
    /// own without copying them (`tune` pools every trip's samples for each candidate).
    public mutating func pool(_ other: RequirementSample, upper: Bool) {
        if case .views(var merged, let na) = self, case .views(let b, let nb) = other {
            self = .none  // the histograms held once, merged where they are
            for i in merged.indices where i < b.count { merged[i].merge(b[i]) }
            self = .views(merged, neverShown: na || nb)
            return
        }
        switch (self, other) {
        case (.none, let x): self = x
        case (_, .none): break
        case (.rate(let n, let t), .rate(let m, let u)): self = .rate(updates: n + m, seconds: t + u)
        case (.value(let x), .value(let y)): self = .value(upper ? max(x, y) : min(x, y))
        default: break  // samples of different requirements are never pooled
        }
    }
}

extension Requirement {
    /// What `result` (replayed with ``TraceReplay/ReplayOptions/viewerFigures``) contributes to
    /// this requirement.
    public func sample(_ result: ReplayResult) -> RequirementSample {
        switch (scope, figure) {
        case (.arrival(let point), _):
            guard let a = result.arrivals.first(where: { $0.point == point && $0.viewer == role }) else { return .none }
            switch a.absence {
            case nil: return .value(a.lateSeconds ?? 0)
            case .neverShown: return .value(.infinity)
            case .neverArrived, .notShownByDesign: return .none
            }
        case (_, .sentPerMinute):
            let m: StateRoleMetrics?
            if case .state(let s) = scope {
                m = result.states.first { $0.state == s && $0.entered }?[role]
            } else {
                m = result.roleTotals.first { $0.role == role }
            }
            guard let m, m.seconds > 0 else { return .none }
            return .rate(updates: m.sentUpdates, seconds: m.seconds)
        default:
            var senders = [QuantileHistogram](repeating: QuantileHistogram(), count: Role.allCases.count)
            var without = [Int](repeating: 0, count: Role.allCases.count)
            var any = false
            for v in result.viewerViews where v.viewer == role && v.sender != role && (state == nil || v.state == state) {
                let error = figure == .displayErrorP95 || figure == .displayErrorMax
                senders[v.sender.rawValue].merge(error ? v.view.displayErrorHistogram : v.view.stalenessHistogram)
                without[v.sender.rawValue] += v.view.withoutUpdate
                any = true
            }
            guard any else { return .none }
            let neverShown = senders.indices.contains { senders[$0].count == 0 && without[$0] > 0 }
            return .views(senders, neverShown: neverShown)
        }
    }

    /// The figure of one trip's sample (or of pooled samples); nil for
    /// ``RequirementSample/none``. A view figure is the worst of the senders the viewer is shown
    /// (the hirer who sees the helper and, for a ride, is shown nothing else, is judged on the
    /// helper), infinite when one of them never reached the viewer's map.
    public func value(_ s: RequirementSample) -> Double? {
        switch s {
        case .none: return nil
        case .value(let v): return v
        case .rate(let n, let seconds): return Double(n) / (seconds / 60)
        case .views(let senders, let neverShown):
            if neverShown { return .infinity }
            let values = senders.filter { $0.count > 0 }.compactMap { figure.isPercentile ? $0.quantile(0.95) : $0.max }
            return values.max()
        }
    }

    /// The views `requirements` judge (each view figure's viewer, in its state or in every state
    /// for the trip's): what the search's replays sample (``TraceReplay/ReplayOptions/sampledViews``).
    public static func judgedViews(_ requirements: [Requirement]) -> ViewSampling {
        var views = ViewSampling.none
        for r in requirements where r.figure.isView {
            switch r.scope {
            case .state(let s): views.insert(r.role, in: s)
            case .trip: views.insert(r.role)
            case .arrival: break
            }
        }
        return views
    }

    /// Whether the corpus's figure is pooled from the trips' samples (``CorpusJudgement/pooled``,
    /// except an arrival's delay, which is the worst trip's either way).
    public func pools(_ judgement: CorpusJudgement) -> Bool { judgement == .pooled && figure != .arrivalDelay }

    /// The corpus's figure from the trips' samples under `judgement`, and the trip it comes from
    /// (the worst one's index when judged trip by trip; nil when pooled); nil when no trip has
    /// the figure.
    /// With ``tripBounds``, judged trip by trip, the trip is the one closest to (or furthest
    /// beyond) its own bound: the largest value over bound.
    public func corpusValue(_ samples: [RequirementSample], judgement: CorpusJudgement) -> (value: Double, trip: Int?)? {
        if pools(judgement) {
            return value(samples.reduce(into: RequirementSample.none) { $0.pool($1, upper: comparison.upper) }).map { ($0, nil) }
        }
        if let tripBounds {
            var worst: (value: Double, trip: Int?, ratio: Double)?
            for (i, s) in samples.enumerated() where tripBounds[i].isFinite {
                guard let v = value(s) else { continue }
                let ratio = v / max(tripBounds[i], 1e-9)
                if let w = worst, ratio <= w.ratio { continue }
                worst = (v, i, ratio)
            }
            return worst.map { ($0.value, $0.trip) }
        }
        var worst: (value: Double, trip: Int?)?
        for (i, s) in samples.enumerated() {
            guard let v = value(s) else { continue }
            if let w = worst, comparison.upper ? v <= w.value : v >= w.value { continue }
            worst = (v, i)
        }
        return worst
    }

    /// The bound on trip `trip` (``tripBounds``), or ``bound``.
    public func bound(trip: Int?) -> Double {
        guard let tripBounds, let trip else { return bound }
        return tripBounds[trip]
    }

    /// How far `value` (of trip `trip`, for ``tripBounds``) is beyond the bound, relative to it
    /// (0 when it holds; at least 1e-9 when it does not, so a strict bound met with equality
    /// still counts).
    public func excess(_ value: Double, trip: Int? = nil) -> Double {
        let bound = bound(trip: trip)
        if comparison.holds(value, bound) { return 0 }
        if value.isInfinite { return 1e9 }
        let scale = max(abs(bound), 1e-9)
        return max((comparison.upper ? value - bound : bound - value) / scale, 1e-9)
    }
}
