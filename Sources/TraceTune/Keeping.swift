public import TraceDomain
import TraceJSON
public import TraceReplay

/// How much worse than the start a figure no requirement names may get in a tune
/// (``TuneRequest/keep``): allowed = max(start × (1 + ``relative``), start + ``metres`` or
/// ``seconds``), rounded up to a tenth of the unit.
///
/// The standard, 10 %, 2 m, 2 s: a p95 is a quantile at 0.1 m (or 0.1 s) resolution, and a
/// neighbouring sample moves it by a few per cent; the absolute part lets a figure near zero move
/// by about the width of a GPS fix's error (or a second of the clock's ticks) without counting as
/// a loss. Written `10%,2m,2s`.
public struct KeepTolerance: Hashable, Sendable, CustomStringConvertible {
    /// The relative part: 0.1 lets a figure get 10 % worse.
    public var relative: Double
    /// The absolute part of a display error, metres.
    public var metres: Double
    /// The absolute part of a staleness or an arrival's delay, seconds.
    public var seconds: Double

    public init(relative: Double, metres: Double, seconds: Double) {
        self.relative = relative
        self.metres = metres
        self.seconds = seconds
    }

    /// 10 %, 2 m, 2 s.
    public static let standard = KeepTolerance(relative: 0.1, metres: 2, seconds: 2)

    /// The most a figure whose start's value is `start` may reach: max(start × (1 + relative),
    /// start + the absolute part in `figure`'s unit), rounded up to a tenth (so its requirement's
    /// text, e.g. `atPickup.helper.displayErrorP95<=29.3m`, reads back as the same bound; a bound
    /// within 10⁻⁷ above a tenth, a floating-point rounding, is that tenth).
    public func allowed(_ start: Double, _ figure: Requirement.Figure) -> Double {
        let absolute = figure.unit == "m" ? metres : seconds
        let bound = max(start * (1 + relative), start + absolute)
        // Not a tenth up for a bound a rounding above one (100 × 1.1 is 110.00000000000001).
        return (bound * 10 - 1e-6).rounded(.up) / 10
    }

    /// `10%,2m,2s`.
    public var description: String {
        "\(JSONWriter.number(relative * 100))%,\(JSONWriter.number(metres))m,\(JSONWriter.number(seconds))s"
    }

    /// Reads `REL%,ABSm,ABSs`: parts separated by commas, in any order, each optional (a part not
    /// given keeps the standard's): a percentage (`10%`), metres (`2m`, `0.5km`), seconds (`2s`,
    /// `1min`). Every part is at least 0; the percentage at most 1000.
    public init(parsing text: String) throws(RequirementError) {
        func fail(_ why: String) -> RequirementError { RequirementError(text: text, message: why, kind: "tolerance") }
        self = .standard
        var seen: Set<String> = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        }
        for part in parts {
            let digits = part.prefix { $0.isNumber || $0 == "." }
            let unit = String(part.dropFirst(digits.count))
            guard !digits.isEmpty, let number = Double(digits), number.isFinite else {
                throw fail("'\(part)': expected a number and its unit: a percentage (10%), metres (2m) or seconds (2s)")
            }
            let kind: String, value: Double
            switch unit {
            case "%": (kind, value) = ("%", number / 100)
            case "m": (kind, value) = ("m", number)
            case "km": (kind, value) = ("m", number * 1000)
            case "s": (kind, value) = ("s", number)
            case "min": (kind, value) = ("s", number * 60)
            default:
                throw fail(
                    "'\(part)': unit '\(unit)': expected % (worse by a share), m or km (display error), s or min (staleness, arrival)")
            }
            guard seen.insert(kind).inserted else {
                throw fail("'\(part)': the \(kind == "%" ? "percentage" : "'\(kind)' part") is given twice")
            }
            guard value <= (kind == "%" ? 10 : Requirement.largestBound) else {
                throw fail("'\(part)': too large (at most 1000% and \(JSONWriter.number(Requirement.largestBound)) of a unit)")
            }
            switch kind {
            case "%": relative = value
            case "m": metres = value
            default: seconds = value
            }
        }
    }
}

/// Figures released from keeping (``TuneRequest/released``): the tune may make them as bad as it
/// likes. Written like a requirement's head, shorter to release more:
/// - `all`: every figure (nothing is kept);
/// - `STATE`, `STATE.VIEWER`, `STATE.VIEWER.FIGURE` (a view figure: `displayErrorP95`,
///   `displayErrorMax`, `stalenessP95`, `stalenessMax`), e.g. `atPickup`,
///   `atPickup.helper.displayErrorP95`;
/// - `arrival`, `arrival.POINT`, `arrival.POINT.VIEWER`, e.g. `arrival.pickup.hirer`.
public struct KeepRelease: Hashable, Sendable, CustomStringConvertible {
    public enum Target: Hashable, Sendable {
        case all
        case state(FulfilmentState)
        /// An arrival point; nil: both.
        case arrival(ArrivalPoint?)
    }

    public var target: Target
    /// The viewer; nil: every one.
    public var viewer: Role?
    /// The figure (a state's view figures only); nil: every one.
    public var figure: Requirement.Figure?
    /// As written, without spaces.
    public var text: String

    public var description: String { text }

    /// Every figure: nothing is kept.
    public static let all = KeepRelease(target: .all, viewer: nil, figure: nil, text: "all")

    private init(target: Target, viewer: Role?, figure: Requirement.Figure?, text: String) {
        self.target = target
        self.viewer = viewer
        self.figure = figure
        self.text = text
    }

    /// Reads one release (see the type); the error says what is expected.
    public init(parsing text: String) throws(RequirementError) {
        let compact = String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        func fail(_ why: String) -> RequirementError { RequirementError(text: text, message: why, kind: "release") }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let states = FulfilmentState.allCases.map(\.key).joined(separator: ", ")
        func viewer(_ s: String) throws(RequirementError) -> Role {
            guard let r = Role(parsing: s) else {
                throw fail("unknown viewer '\(s)': expected one of \(Role.allCases.map(\.key).joined(separator: ", "))")
            }
            return r
        }
        switch parts[0] {
        case "all" where parts.count == 1:
            self = .all
            return
        case "arrival":
            guard parts.count <= 3 else {
                throw fail("expected arrival, arrival.POINT or arrival.POINT.VIEWER (e.g. arrival.pickup.hirer)")
            }
            var point: ArrivalPoint?
            if parts.count > 1 {
                guard let p = ArrivalPoint(rawValue: parts[1]) else {
                    throw fail("unknown arrival '\(parts[1])': expected pickup or dropoff")
                }
                point = p
            }
            let role = parts.count > 2 ? try viewer(parts[2]) : nil
            if role == .helper {
                throw fail("the helper's own arrival is not shown to the helper: the viewer of an arrival is the hirer or the delegate")
            }
            self.init(target: .arrival(point), viewer: role, figure: nil, text: compact)
        case "trip":
            throw fail("figures are kept per state: release the states (e.g. atPickup or atPickup.hirer) instead of the trip")
        default:
            guard let state = FulfilmentState(parsing: parts[0]) else {
                throw fail("unknown scope '\(parts[0])': expected all, a state (\(states)), STATE.VIEWER, STATE.VIEWER.FIGURE or arrival")
            }
            guard parts.count <= 3 else {
                throw fail("expected STATE, STATE.VIEWER or STATE.VIEWER.FIGURE (e.g. atPickup.hirer.displayErrorP95)")
            }
            let role = parts.count > 1 ? try viewer(parts[1]) : nil
            var figure: Requirement.Figure?
            if parts.count > 2 {
                guard let f = Requirement.Figure(rawValue: parts[2]), f.isView else {
                    throw fail(
                        "'\(parts[2])' is not a kept figure: expected one of \(Requirement.Figure.allCases.filter(\.isView).map(\.rawValue).joined(separator: ", "))"
                    )
                }
                figure = f
            }
            self.init(target: .state(state), viewer: role, figure: figure, text: compact)
        }
    }

    /// Whether it releases the kept figure `r` (a state's view figure or an arrival's delay).
    public func covers(_ r: Requirement) -> Bool {
        switch (target, r.scope) {
        case (.all, _): return true
        case (.state(let s), .state(let t)):
            return s == t && (viewer ?? r.role) == r.role && (figure ?? r.figure) == r.figure
        case (.arrival(let p), .arrival(let q)):
            return (p ?? q) == q && (viewer ?? r.role) == r.role
        default: return false
        }
    }
}

/// A figure no requirement names, kept within ``TuneRequest/keep`` of the start's value: an
/// upper-bound requirement (``requirement``) the search judges like the others. Judged trip by
/// trip (``CorpusJudgement/everyTrip``), each trip keeps its own start's value: its bounds are
/// per trip (``Requirement/tripBounds``), so a trip whose figure is poor anyway (a sparse
/// recording) does not loosen what the others keep. Pooled, the corpus's figure keeps the
/// start's pooled figure.
public struct KeptFigure: Hashable, Sendable {
    /// `FIGURE<=ALLOWED`, e.g. `atPickup.helper.displayErrorP95<=29.3m`; judged trip by trip,
    /// the largest trip's bound, with each trip's in ``Requirement/tripBounds``.
    public var requirement: Requirement
    /// The start's corpus value: pooled, or the worst trip's.
    public var start: Double
    /// Judged trip by trip: the start's value on each trip (nil: the trip has no such figure).
    public var tripStarts: [Double?]?

    /// The start's value on trip `trip` (its corpus value when pooled, or `trip` is nil).
    public func start(trip: Int?) -> Double? {
        guard let tripStarts, let trip else { return start }
        return tripStarts[trip]
    }
}

extension KeptFigure {
    /// Every figure that can be kept: each view figure of each state and viewer, then each
    /// arrival's delay for the hirer and the delegate (bounds not yet set).
    static let candidates: [Requirement] = {
        var list: [Requirement] = []
        for state in FulfilmentState.allCases {
            for viewer in Role.allCases {
                for figure in Requirement.Figure.allCases where figure.isView {
                    list.append(Requirement(scope: .state(state), role: viewer, figure: figure, comparison: .atMost, bound: 0))
                }
            }
        }
        for point in [ArrivalPoint.pickup, .dropoff] {
            for viewer in Role.allCases where viewer != .helper {
                list.append(Requirement(scope: .arrival(point), role: viewer, figure: .arrivalDelay, comparison: .atMost, bound: 0))
            }
        }
        return list
    }()

    /// The figures a tune keeps: every one of ``candidates`` that no requirement names (a
    /// requirement on the same state, or on the trip, with the same viewer and figure; or on the
    /// same arrival and viewer), that no release covers, and that the start has a finite value
    /// of on `results` (its replay of each trip): judged trip by trip, each trip with a finite
    /// value is bounded by `tolerance` over it (the others are not judged); pooled, the corpus's
    /// figure by `tolerance` over the start's pooled one. A figure the start never shows
    /// (infinitely wrong) or that no trip has is not kept: there is nothing to lose.
    public static func derive(
        requirements: [Requirement], tolerance: KeepTolerance, released: [KeepRelease], results: [ReplayResult], judgement: CorpusJudgement
    ) -> [KeptFigure] {
        var kept: [KeptFigure] = []
        for c in candidates {
            let named = requirements.contains { r in
                guard r.role == c.role && r.figure == c.figure else { return false }
                switch (r.scope, c.scope) {
                case (.trip, .state): return true
                default: return r.scope == c.scope
                }
            }
            guard !named, !released.contains(where: { $0.covers(c) }) else { continue }
            let samples = results.map { c.sample($0) }
            if c.pools(judgement) {
                guard let start = c.corpusValue(samples, judgement: judgement)?.value, start.isFinite else { continue }
                let r = Requirement(
                    scope: c.scope, role: c.role, figure: c.figure, comparison: .atMost, bound: tolerance.allowed(start, c.figure))
                kept.append(KeptFigure(requirement: r, start: start, tripStarts: nil))
            } else {
                let starts = samples.map { c.value($0) }
                let bounds = starts.map { v in v.map { $0.isFinite ? tolerance.allowed($0, c.figure) : .infinity } ?? .infinity }
                guard let largest = bounds.filter(\.isFinite).max(), let worst = starts.compactMap({ $0 }).max() else { continue }
                var r = Requirement(scope: c.scope, role: c.role, figure: c.figure, comparison: .atMost, bound: largest)
                r.tripBounds = bounds
                kept.append(KeptFigure(requirement: r, start: worst, tripStarts: starts))
            }
        }
        return kept
    }
}
