public import TraceDomain
public import TraceJSON
import TraceReplay
import TraceSharing

/// One figure of one trip compared with its baseline.
public struct ComparedFigure: Hashable, Sendable {
    public var state: FulfilmentStateKey
    public var role: Role
    public var metric: GateMetric
    /// Nil: no value (the baseline or the run has no such row, or a p95 without samples).
    public var old: Double?
    public var new: Double?
    public var tolerance: Tolerance
    public var verdict: GateVerdict

    /// Whether this figure fails the gate: a regression always; an improvement, or a figure that
    /// appeared or disappeared, under `strict`.
    public func fails(strict: Bool) -> Bool {
        switch verdict {
        case .regression: true
        case .improvement, .appeared, .disappeared: strict
        case .unchanged, .withinTolerance: false
        }
    }

    /// One line: "En Route, helper: updates sent 412 → 655 (+59 %), over tolerance 5 % and 2 updates".
    public var line: String {
        var text = "\(state.displayName), \(role.key): \(change)"
        let tol = "tolerance \(tolerance.text(metric))"
        switch verdict {
        case .regression: text += ", over \(tol)"
        case .improvement: text += ", better by more than \(tol): \(GateComparison.refreshAdvice)"
        case .appeared: text += ", measured now, not in the baseline"
        case .disappeared: text += ", in the baseline, not measured now"
        case .withinTolerance: text += ", within \(tol)"
        case .unchanged: text += ", unchanged"
        }
        return text
    }

    /// The move, without its place or its tolerance: "updates sent 412 → 655 (+59 %)".
    public var change: String {
        let m = metric
        func value(_ x: Double?) -> String {
            guard let x else { return "—" }
            return DecimalText.fixed(x, m.decimals) + (m.unit.isEmpty ? "" : " " + m.unit)
        }
        var text = "\(m.label) "
        if let old, let new {
            text += "\(DecimalText.fixed(old, m.decimals)) → \(value(new))"
            if old != 0 {
                let p = (new - old) / old * 100
                let digits = abs(p) >= 10 ? 0 : 1
                let mag = DecimalText.fixed(abs(p), digits)
                text += " (\(p > 0 ? "+" : p < 0 && mag.contains(where: { $0 != "0" && $0 != "." }) ? "−" : "")\(mag) %)"
            } else {
                text += " (from 0)"
            }
        } else {
            text += "\(value(old)) → \(value(new))"
        }
        return text
    }

    /// A text marker for the verdict, never colour alone: "▲" worse beyond tolerance, "▼" better
    /// beyond tolerance, "+" measured now only, "−" in the baseline only, "" otherwise.
    public var marker: String {
        switch verdict {
        case .regression: "▲"
        case .improvement: "▼"
        case .appeared: "+"
        case .disappeared: "−"
        case .unchanged, .withinTolerance: ""
        }
    }
}

extension Tolerance {
    /// "5 % and 2 updates", "10 % and 1.0 m": both allowances, in `metric`'s unit.
    public func text(_ metric: GateMetric) -> String {
        let p = relative * 100
        let abs = DecimalText.fixed(absolute, metric.decimals == 0 && absolute == absolute.rounded() ? 0 : 1)
        return "\(DecimalText.fixed(p, p == p.rounded() ? 0 : 1)) % and \(abs) \(metric.toleranceUnit)"
    }
}

/// One trip's comparison: every figure of every row in either the run or the baseline.
public struct TripComparison: Hashable, Sendable {
    public var trip: String
    public var figures: [ComparedFigure]

    public func failures(strict: Bool) -> [ComparedFigure] { figures.filter { $0.fails(strict: strict) } }
    public var regressions: [ComparedFigure] { figures.filter { $0.verdict == .regression } }
    public var improvements: [ComparedFigure] { figures.filter { $0.verdict == .improvement } }

    /// The figures a reader is shown (beyond tolerance, appeared or disappeared), one group per
    /// state and role, in the figures' order.
    public var groups: [GateGroup] {
        var out: [GateGroup] = []
        for f in figures where f.verdict != .unchanged && f.verdict != .withinTolerance {
            if let last = out.last, last.state == f.state, last.role == f.role {
                out[out.count - 1].figures.append(f)
            } else {
                out.append(GateGroup(trip: trip, state: f.state, role: f.role, figures: [f]))
            }
        }
        return out
    }
}

/// What the gate shows of one trip, state and role: its figures beyond tolerance (and those
/// that appeared or disappeared), on one line.
public struct GateGroup: Hashable, Sendable {
    public var trip: String
    public var state: FulfilmentStateKey
    public var role: Role
    /// Each with a verdict other than unchanged or within tolerance.
    public var figures: [ComparedFigure]

    public var regressions: Int { figures.filter { $0.verdict == .regression }.count }
    public var improvements: Int { figures.filter { $0.verdict == .improvement }.count }
    public func fails(strict: Bool) -> Bool { figures.contains { $0.fails(strict: strict) } }

    /// "REGRESSION" when a figure regressed; "FAIL (strict)" when another fails under `strict`;
    /// else "passes".
    public func tag(strict: Bool) -> String {
        regressions > 0 ? "REGRESSION" : fails(strict: strict) ? "FAIL (strict)" : "passes"
    }

    /// "En Route, helper".
    public var place: String { "\(state.displayName), \(role.key)" }

    /// The group's marker, never colour alone: "▲" when a figure regressed, else "▼" when one
    /// improved beyond tolerance, else "±" (figures measured in only one of the two).
    public var marker: String { regressions > 0 ? "▲" : improvements > 0 ? "▼" : "±" }

    /// The class of the group's row in HTML: "regression" when it fails the gate (a regression,
    /// or anything beyond tolerance under `strict`), "improvement" when it improved and passes,
    /// nil otherwise.
    public func rowClass(strict: Bool) -> String? {
        fails(strict: strict) ? "regression" : improvements > 0 ? "improvement" : nil
    }

    /// The figures, each with its marker (``ComparedFigure/marker``): "▲ updates sent 412 → 655
    /// (+59 %), ▼ display error p95 20.0 → 12.0 m (−40 %)".
    public var changes: String { figures.map { "\($0.marker) \($0.change)" }.joined(separator: ", ") }

    /// The largest relative move of its figures, as a fraction (infinity for a move from 0 or a
    /// figure that appeared or disappeared): ranks the groups for a summary's top changes.
    public var largestChange: Double {
        figures.map { f in
            guard let a = f.old, let b = f.new, a != 0 else { return Double.infinity }
            return abs(b - a) / abs(a)
        }.max() ?? 0
    }
}

/// A batch compared with a baseline.
///
/// Every figure of every trip replayed is compared under its metric's tolerance. The figure (one
/// metric of one trip, state and role) is the gate's unit: its count is the figures that fail
/// (``failingFigures(strict:)``), and every report gives that count. A trip of the baseline that
/// was not run is **missing** (it fails: the gate cannot vouch for it), unless the run is one
/// shard of the corpus; a trip run that the baseline does not list is **new** (passes; fails
/// under `--strict`). A trip that failed to replay is neither: the batch reports it as a failure
/// of its own.
///
/// The trips are compared one by one (``add(trip:now:before:)``) and tallied in ``counts``, which
/// the verdict is made of; a gate that does not keep them (`keepsTrips` false: `merge --summary`)
/// has only the counts, and neither ``trips`` nor the names in ``new``.
public struct GateComparison: Hashable, Sendable {
    public var baseline: BaselineHeader
    public var current: BaselineHeader
    public var tolerances: Tolerances
    /// Every trip compared, in the order added; empty unless ``keepsTrips``.
    public private(set) var trips: [TripComparison] = []
    /// Baseline trips not attempted in this run.
    public var missing: [String] = []
    /// Trips replayed that the baseline does not list (their count: ``GateCounts/new``); empty
    /// unless ``keepsTrips``.
    public private(set) var new: [String] = []
    /// Differences in what was measured that do not stop the comparison (another policy, another
    /// TraceKit version, another profile).
    public var notes: [String]
    /// The trips compared and their figures by verdict, and the new trips: tallied as each trip
    /// is added, whether or not it is kept.
    public private(set) var counts = GateCounts()
    /// Whether ``trips`` and ``new`` keep each trip (false: the counts only, memory that does not
    /// grow with the trips).
    public let keepsTrips: Bool

    /// What the gate's messages advise when a baseline no longer fits (a removed trip, another
    /// schema or energy model). The library says what to do, not how: a command line that records
    /// baselines adds its own way of doing it wherever this phrase appears.
    public static let refreshAdvice = "refresh the baseline"

    /// Why a baseline cannot be compared with a run measured by `current`; nil when it can.
    /// A baseline of another energy model (name or version) is refused: its joules come from
    /// other formulas.
    public static func refusal(_ baseline: BaselineHeader, current: BaselineHeader) -> String? {
        guard baseline.energyModelName == current.energyModelName, baseline.energyModelVersion == current.energyModelVersion else {
            return
                "the baseline was measured with energy model \(baseline.energyModelName) \(baseline.energyModelVersion) and this TraceKit computes \(current.energyModelName) \(current.energyModelVersion); the numbers are not comparable: \(refreshAdvice)"
        }
        return nil
    }

    /// A gate of `baseline` for a run measured by `current`, with no trip yet: add them with
    /// ``add(trip:now:before:)``, and set ``missing`` once every trip is in.
    /// - Throws: ``GateFileError`` when the baseline is refused (``refusal(_:current:)``).
    public init(baseline: BaselineHeader, file: String, current: BaselineHeader, tolerances: Tolerances, keepsTrips: Bool = true)
        throws(GateFileError)
    {
        if let reason = GateComparison.refusal(baseline, current: current) {
            throw GateFileError(file: file, line: 0, column: 0, field: "", message: reason)
        }
        self.baseline = baseline
        self.current = current
        self.tolerances = tolerances
        self.keepsTrips = keepsTrips
        var notes: [String] = []
        let b = baseline
        if b.policyName != current.policyName || b.policyFileVersion != current.policyFileVersion {
            notes.append(
                "the baseline was measured with policy \(b.policyName) (file version \(b.policyFileVersion)), this run with \(current.policyName) (file version \(current.policyFileVersion))"
            )
        }
        if b.energyLabel != current.energyLabel {
            notes.append("energy: the baseline used \(b.energyLabel), this run \(current.energyLabel)")
        }
        if b.view != current.view {
            notes.append(
                "view: the baseline used \(b.view), this run \(current.view); the views' figures are not comparable: \(GateComparison.refreshAdvice)"
            )
        }
        if b.receiverRadio != current.receiverRadio {
            notes.append("receiver radio: \(b.receiverRadio ? "on" : "off") in the baseline, \(current.receiverRadio ? "on" : "off") now")
        }
        if b.tracekitVersion != current.tracekitVersion {
            notes.append("the baseline was written by TraceKit \(b.tracekitVersion), this is \(current.tracekitVersion)")
        }
        self.notes = notes
    }

    /// Compares `results` (trip name → figures, for the trips replayed) of the trips `attempted`
    /// (in the batch's order) with `baseline`.
    /// - Parameters:
    ///   - tolerances: the tolerances to use (the baseline's, with any overrides applied).
    ///   - sharded: the run is one shard: baseline trips not attempted are not missing.
    /// - Throws: ``GateFileError`` when the baseline is refused (``refusal(_:current:)``).
    public init(
        baseline: Baseline, file: String, current: BaselineHeader, tolerances: Tolerances,
        attempted: [String], results: [String: TripMetrics], sharded: Bool
    ) throws(GateFileError) {
        try self.init(baseline: baseline.header, file: file, current: current, tolerances: tolerances)
        var byID: [String: TripMetrics] = [:]
        for t in baseline.trips { byID[t.id] = t.metrics }
        for id in attempted {
            guard let now = results[id] else { continue }
            add(trip: id, now: now, before: byID[id])
        }
        let tried = Set(attempted)
        missing = sharded ? [] : baseline.trips.map(\.id).filter { !tried.contains($0) }
    }

    /// Compares one trip replayed, `now`, with its figures in the baseline, `before` (nil: a new
    /// trip), and tallies it in ``counts`` (keeping it when ``keepsTrips``).
    /// - Returns: the trip's comparison; nil for a new trip.
    @discardableResult
    public mutating func add(trip id: String, now: TripMetrics, before: TripMetrics?) -> TripComparison? {
        guard let before else {
            counts.new += 1
            if keepsTrips { new.append(id) }
            return nil
        }
        let c = TripComparison(trip: id, figures: GateComparison.figures(old: before, new: now, tolerances: tolerances))
        counts.add(c)
        if keepsTrips { trips.append(c) }
        return c
    }

    /// Every figure of the rows in `new` (in its order), then of the rows only `old` has.
    static func figures(old: TripMetrics, new: TripMetrics, tolerances: Tolerances) -> [ComparedFigure] {
        var rows: [(FulfilmentStateKey, Role)] = new.rows.map { ($0.state, $0.role) }
        for r in old.rows where new.row(r.state, r.role) == nil { rows.append((r.state, r.role)) }
        var figures: [ComparedFigure] = []
        for (state, role) in rows {
            let o = old.row(state, role), n = new.row(state, role)
            for m in GateMetric.allCases {
                let a = o?.values[m], b = n?.values[m]
                let tol = tolerances[m]
                let verdict: GateVerdict =
                    switch (a, b) {
                    case (nil, nil): .unchanged
                    case (nil, .some): .appeared
                    case (.some, nil): .disappeared
                    case (.some(let x), .some(let y)): tol.verdict(old: x, new: y)
                    }
                figures.append(ComparedFigure(state: state, role: role, metric: m, old: a, new: b, tolerance: tol, verdict: verdict))
            }
        }
        return figures
    }

    /// Figures worse beyond tolerance (``GateVerdict/regression``), over every trip.
    public var regressions: Int { counts.regressions }
    /// Figures better beyond tolerance (``GateVerdict/improvement``), over every trip.
    public var improvements: Int { counts.improvements }
    /// Figures measured in only one of the baseline and the run, over every trip.
    public var appearedOrDisappeared: Int { counts.appearedOrDisappeared }

    /// The gate's count: the figures that fail it (``ComparedFigure/fails(strict:)``), over every
    /// trip. The unit is the **figure**, one metric of one trip, state and role, as the
    /// tolerances are per metric: the regressions; under `strict` also the improvements beyond
    /// tolerance and the figures that appeared or disappeared. Every report counts this, not the
    /// lines (a trip, state and role) that show the figures. A missing or new trip is no figure:
    /// counted apart (``missing``, ``GateCounts/new``).
    public func failingFigures(strict: Bool) -> Int { counts.failingFigures(strict: strict) }

    /// Whether the gate passes: no figure fails it (``failingFigures(strict:)``: no regression;
    /// under `strict` also no improvement and no figure that appeared or disappeared), no missing
    /// trip, and under `strict` no new trip.
    public func passes(strict: Bool) -> Bool {
        missing.isEmpty && !(strict && counts.new > 0) && failingFigures(strict: strict) == 0
    }

    /// Every trip's groups (``TripComparison/groups``), in the trips' order.
    public var groups: [GateGroup] { trips.flatMap(\.groups) }

    /// Figures that moved by no more than their tolerance: counted, not listed.
    public var withinTolerance: Int { counts.withinTolerance }

    /// One line on the improvements beyond tolerance, which pass unless strict: refresh the
    /// baseline to lock them in, but only once no figure regresses (a refresh now would lock
    /// the regressions in too).
    public var improvementAdvice: String {
        let what = "\(improvements) improvement\(improvements == 1 ? "" : "s") beyond tolerance (▼) pass"
        return regressions > 0
            ? "\(what); once the regressions are fixed, \(GateComparison.refreshAdvice) to lock them in"
            : "\(what): \(GateComparison.refreshAdvice) to lock them in"
    }

    /// The lines a person reads: the notes; one line per trip, state and role with a figure
    /// beyond tolerance (or one that appeared or disappeared), tagged by whether it fails; the
    /// missing and the new trips; and, when improvements pass, one line of advice. Without
    /// `trips`, the notes and the advice only (a summary lists the trips its own way).
    /// "REGRESSION ride: En Route, helper: ▲ updates sent 412 → 655 (+59 %), ▲ energy …".
    public func lines(strict: Bool, trips: Bool = true) -> [String] {
        var out: [String] = notes.map { "note: \($0)" }
        if trips {
            for g in groups { out.append("\(g.tag(strict: strict)) \(g.trip): \(g.place): \(g.changes)") }
        }
        if improvements > 0 && !strict { out.append(improvementAdvice) }
        guard trips else { return out }
        for id in missing {
            out.append("MISSING \(id): in the baseline but not run (removed or renamed? \(GateComparison.refreshAdvice))")
        }
        for id in new { out.append("\(strict ? "FAIL (strict)" : "passes") \(id): new, not in the baseline") }
        return out
    }
}

/// The gate's counts, tallied trip by trip (``GateComparison/add(trip:now:before:)``): the trips
/// compared, their figures by verdict (the figure is the gate's unit), and the new trips.
public struct GateCounts: Hashable, Sendable {
    /// Trips compared: replayed and in the baseline.
    public var trips = 0
    /// Figures worse beyond tolerance.
    public var regressions = 0
    /// Figures better beyond tolerance.
    public var improvements = 0
    /// Figures measured in only one of the baseline and the run.
    public var appearedOrDisappeared = 0
    /// Figures that moved by no more than their tolerance.
    public var withinTolerance = 0
    /// Trips replayed that the baseline does not list.
    public var new = 0

    public init() {}

    /// Tallies one trip compared.
    public mutating func add(_ t: TripComparison) {
        trips += 1
        for f in t.figures {
            switch f.verdict {
            case .regression: regressions += 1
            case .improvement: improvements += 1
            case .appeared, .disappeared: appearedOrDisappeared += 1
            case .withinTolerance: withinTolerance += 1
            case .unchanged: break
            }
        }
    }

    /// The figures failing the gate (``GateComparison/failingFigures(strict:)``).
    public func failingFigures(strict: Bool) -> Int { regressions + (strict ? improvements + appearedOrDisappeared : 0) }

    /// The figures a reader is shown (beyond tolerance, appeared or disappeared): those of the
    /// gate's groups (``GateComparison/groups``).
    public var shown: Int { regressions + improvements + appearedOrDisappeared }
}
