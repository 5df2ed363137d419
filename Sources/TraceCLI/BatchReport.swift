import TraceBatch
import TraceDomain
import TraceEnergy
import TraceJSON
import TraceReplay
import TraceSharing

/// A batch's results, in the trips' order, and the reports made of them: the terminal table
/// (here), JUnit, Markdown and HTML (`BatchReport+*.swift`); the `--jsonl` lines are ``BatchLine``'s.
///
/// Every report has the same parts, in this order: the verdict (one line, with the counts); the
/// trips replayed (status, time, updates sent and energy per phone, the worst view); the trips
/// that failed, with their reasons; with a baseline, the figures beyond tolerance, one line per
/// trip, state and role; per state and role, the corpus's figures before → after (the baseline's,
/// or with `--compare` the other policy's), only those that changed; the corpus aggregate.
struct BatchReport {
    var inputs: [String]
    var header: BaselineHeader
    /// The `--compare` policy's name.
    var policyB: String?
    var jobs: Int
    var shard: Shard?
    var trips: [TripRun]
    var strict: Bool
    /// Joules in one mAh of the energy profile's battery (3.6 × nominal volts): converts the
    /// per-state joules to charge.
    var joulesPerMilliampHour: Double
    var gate: GateComparison?
    var baselinePath: String?
    /// The baseline gated against: its trips' figures give the corpus before.
    var baseline: Baseline?
    /// The view samples pooled over the trips replayed (``Pools``), for the corpus's p95s.
    var pools = Pools()
    /// `merge`: the indices of the batch's trips that no shard's lines had (not run).
    var notRun: [Int] = []
    /// The corpus folded trip by trip (``Folded``): the counts, tables and energy every report
    /// gives. ``BatchCommand/conclude(_:gate:sharded:writeBaseline:outputs:table:output:)`` folds
    /// ``trips``; `merge --summary` folds each line as it is read.
    var folded = Folded()
    /// `merge --summary`: the trips that did not pass, the first of them listed; nil for a full
    /// report. A summary keeps no trip (``trips`` is empty): its reports are
    /// `BatchReport+Summary.swift`'s.
    var notPassing: NotPassing?

    /// The trips with an outcome: replayed or failed.
    var tripsRun: Int { folded.replayed + folded.failed }

    /// The trips of the batch: those with an outcome and those not run.
    var corpusSize: Int { tripsRun + notRun.count }

    /// "3, 7, 12" (the first ten, then "and N more").
    var notRunText: String {
        let shown = notRun.prefix(10).map(String.init).joined(separator: ", ")
        return notRun.count > 10 ? "\(shown) and \(notRun.count - 10) more" : shown
    }

    /// The view samples of the trips, pooled as they finish (merging is order-free), so that a
    /// batch keeps three pools, not every trip's histograms: under the policy, under `--compare`'s,
    /// and over the trips the baseline lists (the corpus "after" of the gate's table).
    struct Pools {
        var a = PooledViews()
        var b = PooledViews()
        var compared = PooledViews()

        /// Pools `run`'s samples (`inBaseline`: its trip is one the baseline lists) and returns it
        /// without them.
        mutating func take(_ run: TripRun, inBaseline: Bool) -> TripRun {
            guard case .success(var r) = run.outcome else { return run }
            if let v = r.views {
                a.merge(v)
                if inBaseline { compared.merge(v) }
            }
            if let v = r.viewsB { b.merge(v) }
            r.views = nil
            r.viewsB = nil
            var kept = run
            kept.outcome = .success(r)
            return kept
        }
    }

    /// The corpus's figures folded trip by trip, one trip at a time and in any order (its sums are
    /// exact, ``TraceBatch/ExactSum``): the trips replayed and failed, the aggregates under each
    /// policy, the worst samples, the energy, and the gate's corpus before and after with its
    /// verdicts per figure. A full report folds its trips once the gate is made
    /// (``init(_:gate:baseline:)``); `merge --summary` folds each line as it is read and keeps no
    /// trip; the same per-trip steps, so both write the same tables.
    struct Folded {
        var replayed = 0, failed = 0
        /// The trips' figures under the policy and under `--compare`'s (the pools are added when
        /// read: ``aggregate(b:)``).
        var a = CorpusAggregate(), b = CorpusAggregate()
        /// The worst samples under each policy (kept with `--compare`).
        var maxima = ViewMaxima(), maximaB = ViewMaxima()
        /// Every phone's energy, J.
        var joules = ExactSum()
        /// The device profiles' energy.
        var spread = SpreadSum()
        /// The trips compared with the baseline: their figures there and now, and per figure the
        /// trips by verdict.
        var before = CorpusAggregate(), after = CorpusAggregate()
        var verdicts: [VerdictKey: VerdictCount] = [:]
        /// Trips with data problems, with inferred items, answered as each state (the full
        /// report's lists; a summary counts them).
        var withDataProblems = 0, withInferred = 0, asEachState = 0

        init() {}

        /// A full report's: its trips, and the trips its gate compared.
        init(_ trips: [TripRun], gate: GateComparison?, baseline: Baseline?) {
            var now: [String: TripMetrics] = [:]
            for t in trips {
                add(t)
                if case .success(let r) = t.outcome { now[t.trip.id] = r.metrics }
            }
            guard let gate, let baseline else { return }
            var before: [String: TripMetrics] = [:]
            for t in baseline.trips { before[t.id] = t.metrics }
            for c in gate.trips {
                if let b = before[c.trip], let n = now[c.trip] { add(c, before: b, now: n) }
            }
        }

        /// Folds one trip's outcome.
        mutating func add(_ run: TripRun) {
            guard case .success(let r) = run.outcome else {
                failed += 1
                return
            }
            replayed += 1
            a.add(r.metrics)
            if let m = r.metricsB { b.add(m) }
            if let m = r.maxima { maxima.merge(m) }
            if let m = r.maximaB { maximaB.merge(m) }
            for p in r.perPhone { joules.add(p.joules) }
            spread.add(r.spread)
            if !r.dataProblems.isEmpty { withDataProblems += 1 }
            if !r.inferred.isEmpty { withInferred += 1 }
            if !r.asEachState.isEmpty { asEachState += 1 }
        }

        /// Folds one trip the gate compared: its figures in the baseline and now, and how many
        /// trips moved beyond tolerance, per state, role and metric.
        mutating func add(_ c: TripComparison, before b: TripMetrics, now: TripMetrics) {
            before.add(b)
            after.add(now)
            for f in c.figures where f.verdict != .unchanged && f.verdict != .withinTolerance {
                let k = VerdictKey(state: f.state, role: f.role, metric: f.metric)
                switch f.verdict {
                case .regression: verdicts[k, default: VerdictCount()].worse += 1
                case .improvement: verdicts[k, default: VerdictCount()].better += 1
                default: verdicts[k, default: VerdictCount()].appearedOrGone += 1
                }
            }
        }
    }

    /// The trips' energy under every device profile, summed profile by profile (exactly): a
    /// corpus's range, when every trip was priced on the same profiles.
    struct SpreadSum {
        /// Trips with a spread.
        var count = 0
        var profiles: [String] = []
        /// The trips' spreads were not all of the same profiles.
        var differ = false
        var joules: [ExactSum] = [], milliampHours: [ExactSum] = []

        mutating func add(_ s: EnergySpread?) {
            guard let s else { return }
            count += 1
            if count == 1 {
                profiles = s.profiles
                joules = s.joules.map { _ in ExactSum() }
                milliampHours = joules
            }
            guard !differ, s.profiles == profiles else {
                differ = true
                return
            }
            for i in s.profiles.indices {
                joules[i].add(s.joules[i])
                milliampHours[i].add(s.milliampHours[i])
            }
        }

        /// The corpus's spread over `trips` trips; nil unless every one was priced on the same
        /// profiles.
        func total(trips: Int) -> EnergySpread? {
            guard count == trips, count > 0, !differ else { return nil }
            return EnergySpread(profiles: profiles, joules: joules.map(\.value), milliampHours: milliampHours.map(\.value))
        }
    }

    /// The trips that replayed, with their reports.
    var replayed: [(trip: BatchTrip, report: TripReport)] {
        trips.compactMap { t in
            guard case .success(let r) = t.outcome else { return nil }
            return (t.trip, r)
        }
    }

    /// The trips that failed, with why.
    var failed: [(trip: BatchTrip, error: BatchTripError)] {
        trips.compactMap { t in
            guard case .failure(let e) = t.outcome else { return nil }
            return (t.trip, e)
        }
    }

    var replayedMetrics: [String: TripMetrics] {
        var m: [String: TripMetrics] = [:]
        for t in replayed { m[t.trip.id] = t.report.metrics }
        return m
    }

    /// The corpus under the policy (or, `b`, under the compared one): the trips' sums (exact:
    /// any order gives the same), the p95s of the pooled samples.
    func aggregate(b: Bool = false) -> CorpusAggregate {
        var a = b ? folded.b : folded.a
        a.pool(b ? pools.b : pools.a)
        return a
    }

    /// Why the batch fails, on one line, as a terminal shows it; nil when it passes.
    var failureSummary: String? { failureSummary(Shown.terminal) }

    /// Why the batch fails, on one line, the baseline's path written with `shown` (the output's
    /// ``Shown`` function); nil when it passes.
    func failureSummary(_ shown: (String) -> String) -> String? {
        var parts: [String] = []
        if folded.failed > 0 { parts.append("\(folded.failed) of \(Self.plural(corpusSize, "trip")) failed to replay") }
        if !notRun.isEmpty {
            parts.append("\(notRun.count) of \(Self.plural(corpusSize, "trip")) not run (in no shard's lines: index \(notRunText))")
        }
        if let gate, let failing = gateFailing, !gate.passes(strict: strict) {
            // The count first, always (even 0 when only trips fail it), so that every report
            // carries the same number.
            var what = [failing]
            if strict && gate.improvements + gate.appearedOrDisappeared > 0 {
                what.append(gate.regressions > 0 ? "--strict: once none is worse, refresh the baseline" : "--strict: refresh the baseline")
            }
            if strict && gate.counts.new > 0 { what.append("\(Self.plural(gate.counts.new, "new trip")) (--strict)") }
            if !gate.missing.isEmpty { what.append("\(gate.missing.count) baseline trip\(gate.missing.count == 1 ? "" : "s") not run") }
            parts.append("gate failed against \(baselinePath.map(shown) ?? "the baseline"): " + what.joined(separator: ", "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The gate's count in its unit, the figure (one metric of one trip, state and role:
    /// ``GateComparison/failingFigures(strict:)``), in the words every report uses: "30 figures
    /// failing the gate (worse beyond tolerance)"; under `--strict` "31 figures failing the gate (30
    /// worse and 1 better beyond tolerance)"; "0 figures failing the gate". JUnit's failures are
    /// these figures, each a test case (and the trips missing, or new under `--strict`, each a
    /// case of its own). Never a "--" (JUnit's comment holds it). Nil without a baseline.
    var gateFailing: String? {
        guard let gate else { return nil }
        let n = gate.failingFigures(strict: strict)
        let text = "\(Self.plural(n, "figure")) failing the gate"
        guard n > 0 else { return text }
        guard strict else { return text + " (worse beyond tolerance)" }
        let r = gate.regressions, i = gate.improvements, a = gate.appearedOrDisappeared
        var kinds: [String] = []
        let beyond = [r > 0 ? "\(r) worse" : nil, i > 0 ? "\(i) better" : nil].compactMap { $0 }
        if !beyond.isEmpty { kinds.append(beyond.joined(separator: " and ") + " beyond tolerance") }
        if a > 0 { kinds.append("\(a) measured in only one of the two") }
        return text + " (" + kinds.joined(separator: ", ") + ")"
    }

    // MARK: The verdict

    /// "s" unless `n` is 1.
    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// Whether the batch passes: every trip replayed and the gate (if any) passed.
    var passed: Bool { failureSummary == nil }

    /// The gate's other counts, in figures too (the count that fails it is ``gateFailing``): "12
    /// trips compared, 26 figures better beyond tolerance (pass), 40 figures within tolerance (not
    /// listed)"; under `--strict` the figures better pass no more ("(strict)" at the end).
    var gateCounts: String? {
        guard let gate else { return nil }
        var s = "\(Self.plural(gate.counts.trips, "trip")) compared"
        if !strict {
            if gate.improvements > 0 { s += ", \(Self.plural(gate.improvements, "figure")) better beyond tolerance (pass)" }
            let a = gate.appearedOrDisappeared
            if a > 0 { s += ", \(Self.plural(a, "figure")) measured in only one of the two (pass)" }
        }
        s += ", \(Self.plural(gate.withinTolerance, "figure")) within tolerance (not listed)"
        // Missing trips (and, under --strict, new ones) fail the gate, so the reason before the
        // counts names them already.
        if gate.counts.new > 0 && !strict { s += ", \(Self.plural(gate.counts.new, "new trip"))" }
        return s + (strict ? " (strict)" : "")
    }

    /// The verdict as a terminal shows it (``verdict(_:)`` with ``Shown/terminal(_:)``).
    var verdict: String { verdict(Shown.terminal) }

    /// The verdict, on one line: passed or FAILED, why, and the counts; with a baseline, the
    /// gate's count (``gateFailing``) whether it passed or not. The baseline's path is written
    /// with `shown`.
    func verdict(_ shown: (String) -> String) -> String {
        let counts = gateCounts.map { " · " + $0 } ?? ""
        if let why = failureSummary(shown) { return "FAILED: \(why)\(counts)" }
        guard let path = baselinePath, let failing = gateFailing else {
            return "passed: all \(Self.plural(tripsRun, "trip")) replayed (no baseline given: nothing gated)"
        }
        return "passed: gate against \(shown(path)): \(failing)\(counts)"
    }

    // MARK: The trips

    static let tripHeader = [
        "Trip", "Status", "Data", "Time", "Updates sent", "Energy mAh", "Worst display error p95", "Worst staleness p95",
        "Device profiles mAh",
        "Category", "Inferred",
    ]
    /// The trips table's columns right-aligned as figures (HTML).
    static let tripNumeric: Set<Int> = [3]

    /// A trip's standing against the baseline, in words and markers, and its row's class
    /// (`regression`, `improvement`, nil): its figures failing the gate, which add up to the
    /// gate's count ("▲ 6 figures failing" when one is worse, "✗ 2 figures failing (strict)"
    /// otherwise), "▼ 2 figures better" (passing), "passed", "new"; "replayed" without a
    /// baseline. `compared`: the gate's trips by name (``comparedByTrip``), `new` its new trips.
    func status(_ id: String, compared: [String: TripComparison], new: Set<String>) -> (text: String, rowClass: String?) {
        guard gate != nil else { return ("replayed", nil) }
        if new.contains(id) { return newStanding }
        guard let t = compared[id] else { return ("replayed", nil) }
        return Self.standing(t, strict: strict)
    }

    /// A trip's standing in the gate's comparison (``status(_:compared:new:)``).
    static func standing(_ t: TripComparison, strict: Bool) -> (text: String, rowClass: String?) {
        let r = t.regressions.count, i = t.improvements.count, failing = t.failures(strict: strict).count
        if r > 0 { return ("▲ \(Self.plural(failing, "figure")) failing", "regression") }
        if failing > 0 { return ("✗ \(Self.plural(failing, "figure")) failing (strict)", "regression") }
        if i > 0 { return ("▼ \(Self.plural(i, "figure")) better", "improvement") }
        return ("passed", nil)
    }

    /// A new trip's standing (``status(_:compared:new:)``).
    var newStanding: (text: String, rowClass: String?) { strict ? ("✗ new (strict)", "regression") : ("new", nil) }

    /// The gate's trips by name (a batch may have millions: looked up, not searched).
    var comparedByTrip: [String: TripComparison] {
        var m: [String: TripComparison] = [:]
        for t in gate?.trips ?? [] { m[t.trip] = t }
        return m
    }

    /// "38.0 m (En Route, helper)": a worst-view figure, its state and its sender.
    static func worst(_ f: WorstViewFigure?, _ unit: String) -> String {
        guard let f else { return "—" }
        return "\(ReplayReport.fixed(f.value, 1)) \(unit) (\(f.state.displayName), \(f.sender.key))"
    }

    /// One row per trip replayed, with its class.
    var tripRows: [(cells: [String], rowClass: String?)] {
        let compared = comparedByTrip, new = Set(gate?.new ?? [])
        return replayed.map { t in
            let r = t.report, s = status(t.trip.id, compared: compared, new: new)
            return (
                [
                    t.trip.id, s.text, r.dataProblems.isEmpty ? "clean" : "⚠ \(Self.plural(r.dataProblems.count, "kind")) of problem",
                    InfoCommand.duration(r.seconds),
                    r.perPhone.map { "\($0.role.key) \($0.sent)" }.joined(separator: ", "),
                    r.perPhone.map { "\($0.role.key) \(ReplayReport.fixed($0.milliampHours, 1))" }.joined(separator: ", "),
                    Self.worst(r.worstView.displayErrorP95, "m"), Self.worst(r.worstView.stalenessP95, "s"),
                    r.spread?.range() ?? "—", r.category,
                    r.inferred.isEmpty ? "—" : Self.plural(r.inferred.count, "item"),
                ], s.rowClass
            )
        }
    }

    /// What the trips table's columns hold, in a line under it.
    static let tripLegend =
        "Device profiles: every phone's energy on the shipped device profiles, lowest to highest. Data: ⚠ marks a trip whose traces had problems, so its figures are computed on the data as read (each listed at the end, with what was done). Worst: the largest p95 of any state and sender (whose position the viewers saw). Inferred: scenario items taken from the traces (listed at the end)."

    static let asEachStateTitle =
        "As each state: the whole recording under each live state's row and viewers (trips without a credible pickup, or --as-each-state; their table row is of the inferred timeline)"

    /// The trips answered as each live state, and the answers (one text per state).
    var asEachStateRows: [[String]] {
        replayed.filter { !$0.report.asEachState.isEmpty }.map { [$0.trip.id] + $0.report.asEachState }
    }

    /// The trips whose traces had problems, and the problems with what was done with them.
    var dataProblemRows: [[String]] {
        replayed.filter { !$0.report.dataProblems.isEmpty }.map { [$0.trip.id, $0.report.dataProblems.joined(separator: ", ")] }
    }

    /// The trips that failed: name and reason.
    var failedRows: [[String]] { failed.map { [$0.trip.id, $0.error.message] } }

    /// The trips with inferred items, and the items.
    var inferredRows: [[String]] {
        replayed.filter { !$0.report.inferred.isEmpty }.map { [$0.trip.id, $0.report.inferred.joined(separator: ", ")] }
    }

    // MARK: The gate

    /// The gate's lines (``GateComparison/lines(strict:)``: one per trip, state and role beyond
    /// tolerance; the missing and new trips; the notes), naming the flag that refreshes a
    /// baseline.
    var gateListing: [String] { gate.map { $0.lines(strict: strict).map(BatchCommand.namingTheFlag) } ?? [] }

    /// The gate section's title, after "Gate against FILE: ", in every format: the gate's count
    /// (``gateFailing``), then "; nothing beyond tolerance", or "; the figures beyond tolerance,
    /// one line per trip, state and role" (a line holds every such figure of its place: the lines
    /// are not what is counted). Nil without a baseline.
    var gateTitle: String? {
        guard let gate, let failing = gateFailing else { return nil }
        return failing
            + (gate.counts.shown == 0 ? "; nothing beyond tolerance" : "; the figures beyond tolerance, one line per trip, state and role")
    }

    /// The gate's lines and each failed trip's reason (standard error, with `--jsonl`).
    var gateLines: [String] { failed.map { "FAILED \($0.trip.id): \($0.error.message)" } + gateListing }

    /// What the markers mean, and the tolerances: metrics with the same tolerance together.
    var gateLegend: String? {
        guard let gate else { return nil }
        var groups: [(labels: [String], text: String)] = []
        for m in GateMetric.allCases {
            let text = gate.tolerances[m].text(m)
            if let last = groups.last, last.text == text {
                groups[groups.count - 1].labels.append(m.rawValue)
            } else {
                groups.append(([m.rawValue], text))
            }
        }
        return
            "▲ worse and ▼ better beyond tolerance, + measured now only, − in the baseline only; tolerances (--tolerance METRIC=REL,ABS): "
            + groups.map { "\($0.labels.joined(separator: ", ")) \($0.text)" }.joined(separator: "; ")
    }

    /// The groups beyond tolerance, the largest first (regressions before improvements), for a
    /// summary's top changes.
    var topChanges: [GateGroup] {
        guard let gate else { return [] }
        return gate.groups.enumerated().sorted { x, y in
            let a = x.element, b = y.element
            if (a.regressions > 0) != (b.regressions > 0) { return a.regressions > 0 }
            if a.largestChange != b.largestChange { return a.largestChange > b.largestChange }
            return x.offset < y.offset
        }.map(\.element)
    }

    // MARK: Per state and role

    /// One figure of the per-state tables: its words and unit, decimals, its value in a corpus
    /// row, and the gate's metric it is (nil: shown, not gated).
    struct StateFigure {
        var label: String
        var decimals: Int
        /// Of a corpus row, or of the corpus's worst samples (``ViewMaxima``) at the row's place.
        var value: (CorpusAggregate.Row, ViewMaxima) -> Double?
        var metric: GateMetric?
        /// Joules shown with their charge in mAh: "548.7 (39.59)".
        var charge = false
    }

    /// The key figures per state and role: updates, the views (the p95 of the pooled samples and
    /// the largest trip's p95; with `maxima`, also the worst sample), energy in J and mAh.
    func stateFigures(maxima: Bool) -> [StateFigure] {
        func key(_ r: CorpusAggregate.Row) -> ViewMaxima.Key { ViewMaxima.Key(state: r.state, role: r.role) }
        let figures = [
            StateFigure(label: "updates delivered", decimals: 0, value: { r, _ in r.value(.delivered) }, metric: .delivered),
            StateFigure(label: "updates sent", decimals: 0, value: { r, _ in r.value(.sent) }, metric: .sent),
            StateFigure(label: "updates forwarded", decimals: 0, value: { r, _ in r.value(.forwarded) }, metric: .forwarded),
            StateFigure(
                label: "display error p95, m (pooled)", decimals: 1, value: { r, _ in r.value(.displayErrorP95) }, metric: .displayErrorP95),
            StateFigure(
                label: "display error p95, m (largest trip)", decimals: 1, value: { r, _ in r.p95Max[.displayErrorP95] }, metric: nil),
            StateFigure(label: "staleness p95, s (pooled)", decimals: 1, value: { r, _ in r.value(.stalenessP95) }, metric: .stalenessP95),
            StateFigure(label: "staleness p95, s (largest trip)", decimals: 1, value: { r, _ in r.p95Max[.stalenessP95] }, metric: nil),
            StateFigure(label: "display error max, m (worst sample)", decimals: 1, value: { $1.displayErrorMax[key($0)] }, metric: nil),
            StateFigure(label: "staleness max, s (worst sample)", decimals: 1, value: { $1.stalenessMax[key($0)] }, metric: nil),
            StateFigure(
                label: "energy, J (mAh)", decimals: 1, value: { r, _ in r.value(.energyTotal) }, metric: .energyTotal, charge: true),
        ]
        return maxima ? figures : figures.filter { !$0.label.hasSuffix("(worst sample)") }
    }

    static func stateHeader(before: String, after: String, gated: Bool) -> [String] {
        ["Role", "State", "Figure", before, after, "Change", "%"] + (gated ? ["Verdict"] : [])
    }
    static let stateNumeric: Set<Int> = [3, 4, 5, 6]

    /// Joules with their charge: "548.7 (39.59)" (J, then mAh), each written by `format`.
    func charge(_ joules: Double?, _ format: (Double?, Int) -> String) -> String {
        guard let joules else { return "—" }
        return "\(format(joules, 1)) (\(format(joules / joulesPerMilliampHour, 2)))"
    }

    /// The figures per state and role that differ between `before` and `after` (with the gate's
    /// verdict over the trips when `gated`; with `maxima`, the worst samples too), their rows'
    /// classes, and how many were the same.
    func stateChanges(
        _ before: CorpusAggregate, _ after: CorpusAggregate, maxima: (before: ViewMaxima, after: ViewMaxima)? = nil, gated: Bool
    ) -> (rows: [[String]], classes: [String?], unchanged: Int) {
        var keys = after.rows.map { ($0.state, $0.role) }
        for r in before.rows where after.row(r.state, r.role) == nil { keys.append((r.state, r.role)) }
        var rows: [[String]] = [], classes: [String?] = [], unchanged = 0
        let counts = gated ? verdictCounts : [:]
        for (state, role) in keys {
            let x = before.row(state, role), y = after.row(state, role)
            for f in stateFigures(maxima: maxima != nil) {
                let a = x.flatMap { f.value($0, maxima?.before ?? ViewMaxima()) }
                let b = y.flatMap { f.value($0, maxima?.after ?? ViewMaxima()) }
                let counted = f.metric.flatMap { counts[VerdictKey(state: state, role: role, metric: $0)] }
                // Shown when they differ at the decimals shown, or when the gate flagged the figure
                // in a trip (the corpus's sums can hide one trip's move behind another's).
                guard ChangeText.number(a, f.decimals) != ChangeText.number(b, f.decimals) || counted != nil else {
                    unchanged += 1
                    continue
                }
                let d = a.flatMap { a in b.map { $0 - a } }
                var row =
                    [role.key, state.displayName, f.label]
                    + (f.charge
                        ? [charge(a, ChangeText.number), charge(b, ChangeText.number), charge(d, ChangeText.signed)]
                        : [ChangeText.number(a, f.decimals), ChangeText.number(b, f.decimals), ChangeText.signed(d, f.decimals)])
                row.append(ChangeText.percent(a, b))
                var cls: String?
                if gated {
                    let verdict = f.metric == nil ? (text: "", rowClass: nil) : verdict(counted)
                    row.append(verdict.text)
                    cls = verdict.rowClass
                }
                rows.append(row)
                classes.append(cls)
            }
        }
        return (rows, classes, unchanged)
    }

    /// How many trips regressed, improved beyond tolerance, or had the figure appear or
    /// disappear, per state, role and metric (tallied as the trips are folded).
    var verdictCounts: [VerdictKey: VerdictCount] { folded.verdicts }

    struct VerdictKey: Hashable {
        var state: FulfilmentStateKey
        var role: Role
        var metric: GateMetric
    }

    /// Trips per verdict for one figure (``verdictCounts``).
    struct VerdictCount {
        var worse = 0, better = 0, appearedOrGone = 0
    }

    /// The gate's verdict on one figure over the trips compared, from ``verdictCounts``:
    /// "▲ regression in 2 trips", "▼ improvement in 1 trip", "+/− measured in only one of the two
    /// in 1 trip", each marked when it fails the gate under `--strict`; "within tolerance" when
    /// no trip moved beyond it.
    func verdict(_ c: VerdictCount?) -> (text: String, rowClass: String?) {
        let c = c ?? VerdictCount()
        let failsStrict = strict ? " (fails under --strict)" : ""
        var parts: [String] = []
        if c.worse > 0 { parts.append("▲ regression in \(Self.plural(c.worse, "trip"))") }
        if c.better > 0 { parts.append("▼ improvement in \(Self.plural(c.better, "trip"))\(failsStrict)") }
        if c.appearedOrGone > 0 {
            parts.append("+/− measured in only one of the two in \(Self.plural(c.appearedOrGone, "trip"))\(failsStrict)")
        }
        let rowClass =
            c.worse > 0 || (strict && c.appearedOrGone + c.better > 0) ? "regression" : c.better > 0 ? "improvement" : nil
        return (parts.isEmpty ? "within tolerance" : parts.joined(separator: ", "), rowClass)
    }

    /// The worst samples of the corpus under the policy (or, `b`, under the compared one).
    func viewMaxima(b: Bool = false) -> ViewMaxima { b ? folded.maximaB : folded.maxima }

    /// The corpus before and after, over the trips compared with the baseline (the p95s before:
    /// of the samples of all the baseline's trips, which it keeps pooled).
    var gatedAggregates: (before: CorpusAggregate, after: CorpusAggregate)? {
        guard gate != nil, let baseline else { return nil }
        var before = folded.before, after = folded.after
        before.pool(baseline.views)
        after.pool(pools.compared)
        return (before, after)
    }

    /// The per-state tables: a title, the header, the rows with their classes, and what was left
    /// out; the baseline's against this run, and this policy against `--compare`'s.
    var stateTables: [(title: String, header: [String], rows: [[String]], classes: [String?], leftOut: String?)] {
        var out: [(String, [String], [[String]], [String?], String?)] = []
        if let (before, after) = gatedAggregates, let path = baselinePath {
            let c = stateChanges(before, after, gated: true)
            out.append(
                (
                    "Per state and role, \(path) → this run (the \(Self.plural(before.trips, "trip")) compared; sums; p95: of the pooled samples\(before.trips == baseline?.trips.count ? "" : " (before: of all the baseline's \(Self.plural(baseline?.trips.count ?? 0, "trip")))") and the largest trip's)",
                    Self.stateHeader(before: "Baseline", after: "Now", gated: true), c.rows, c.classes,
                    ChangeText.leftOut(c.unchanged)
                ))
        }
        if let policyB {
            let c = stateChanges(aggregate(), aggregate(b: true), maxima: (viewMaxima(), viewMaxima(b: true)), gated: false)
            out.append(
                (
                    "Per state and role, policy \(header.policyName) (A) → \(policyB) (B) (every trip replayed; sums; p95: of the pooled samples and the largest trip's; max: the worst sample)",
                    Self.stateHeader(before: "A: \(header.policyName)", after: "B: \(policyB)", gated: false), c.rows, c.classes,
                    ChangeText.leftOut(c.unchanged)
                ))
        }
        return out
    }

    /// With `--compare`, the largest changes A → B among the states (not the totals) of the
    /// corpus, by |%| (a change from 0 first): updates sent, the pooled p95s, energy;
    /// "helper, En Route: updates sent 230 → 72 (−68.7 %)".
    var compareTop: [String] {
        guard policyB != nil else { return [] }
        let a = aggregate(), b = aggregate(b: true)
        var found: [(size: Double, order: Int, text: String)] = []
        for x in a.rows where x.state != .total {
            guard let y = b.row(x.state, x.role) else { continue }
            for m in [GateMetric.sent, .displayErrorP95, .stalenessP95, .energyTotal] {
                guard let u = x.value(m), let v = y.value(m), DecimalText.fixed(u, m.decimals) != DecimalText.fixed(v, m.decimals)
                else { continue }
                let unit = m.unit.isEmpty ? "" : " " + m.unit
                found.append(
                    (
                        u == 0 ? .infinity : abs(v - u) / abs(u), found.count,
                        "\(x.role.key), \(x.state.displayName): \(m.label) \(DecimalText.fixed(u, m.decimals)) → \(DecimalText.fixed(v, m.decimals))\(unit) (\(ChangeText.percent(u, v)))"
                    ))
            }
        }
        return found.sorted { $0.size != $1.size ? $0.size > $1.size : $0.order < $1.order }.map(\.text)
    }

    /// The corpus aggregates: this policy's, and with `--compare` the other's.
    var corpusTables: [(title: String, aggregate: CorpusAggregate)] {
        let a = aggregate()
        var out = [
            (
                "Corpus, policy \(header.policyName): \(Self.plural(a.trips, "trip")) replayed; per role and state (sums; p95: of the pooled samples / the largest trip's)",
                a
            )
        ]
        if let policyB { out.append(("Corpus, policy \(policyB)", aggregate(b: true))) }
        return out
    }

    /// "Energy of every phone over the 3 trips: 258.1 mAh under profile lte; the same replays
    /// 120.3–210.2 mAh across 6 device profiles (galaxy-s5 … nexus-5)"; nil when no trip replayed.
    var energyLine: String? {
        guard folded.replayed > 0 else { return nil }
        var line =
            "Energy of every phone over the \(Self.plural(folded.replayed, "trip")): \(ReplayReport.fixed(folded.joules.value / joulesPerMilliampHour, 1)) mAh under \(header.energyLabel)"
        // Summed exactly, so a merge of shards, in any order, and its summary write the same digits.
        if let s = folded.spread.total(trips: folded.replayed) {
            line += "; the same replays \(s.text())"
        } else if folded.spread.count > 0 {
            line += "; not every trip was priced on the same device profiles, so no range is given"
        }
        return line
    }

    // MARK: Table

    /// The terminal report. Text from files (paths, trip names, names, reasons, merged lines) is
    /// shown as ``Shown/terminal(_:)`` shows it: each line stays one line.
    var table: String {
        let t = Shown.terminal
        var out = tableHead
        if !replayed.isEmpty {
            out += "\nTrips replayed (\(replayed.count))\n"
            out += TextTable.aligned(header: Self.tripHeader, rows: tripRows.map(\.cells))
            out += Self.tripLegend + "\n"
        }
        if !failed.isEmpty {
            out += "\nFailed trips (\(failed.count)): not replayed, so neither in the tables nor gated\n"
            for f in failedRows { out += "  \(t(f[0])): \(t(f[1]))\n" }
        }
        if !notRun.isEmpty {
            out += "\nTrips not run (\(notRun.count)): in no shard's lines, so neither in the tables nor gated: index \(notRunText)\n"
        }
        if let path = baselinePath {
            let lines = gateListing
            out += "\nGate against \(t(path)): \(gateTitle ?? "")\n"
            if let legend = gateLegend, !lines.isEmpty { out += legend + "\n" }
            for l in lines { out += "  \(t(l))\n" }
        }
        out += tableAggregates
        if !asEachStateRows.isEmpty {
            out += "\n\(Self.asEachStateTitle)\n"
            for r in asEachStateRows { out += "  \(t(r[0])):\n" + r.dropFirst().map { "    \(t($0))\n" }.joined() }
        }
        if !dataProblemRows.isEmpty {
            out += "\nData problems, and what was done with them\n"
            for r in dataProblemRows { out += "  \(t(r[0])): \(t(r[1]))\n" }
        }
        if !inferredRows.isEmpty {
            out += "\nInferred items\n"
            for r in inferredRows { out += "  \(t(r[0])): \(t(r[1]))\n" }
        }
        return out
    }

    /// The table's first lines: the batch, the view, the verdict.
    var tableHead: String {
        let t = Shown.terminal
        var out = "Batch: \(Self.plural(corpusSize, "trip")) from \(t(inputs.joined(separator: ", ")))"
        if let shard { out += " (shard \(shard.index)/\(shard.count))" }
        out +=
            " · policy \(t(header.policyName))\(policyB.map { " vs \(t($0))" } ?? "") · energy \(t(header.energyLabel)) (an estimate) · \(Self.plural(jobs, "job")) · tracekit \(t(header.tracekitVersion))\n"
        out += "view \(t(header.view))\n\n"
        return out + "Verdict: \(verdict)\n"
    }

    /// The table's corpus parts: per state and role before → after, the corpus per role and
    /// state, the energy.
    var tableAggregates: String {
        let t = Shown.terminal
        var out = ""
        for s in stateTables {
            out += "\n\(t(s.title))\n"
            out += s.rows.isEmpty ? "No figure changed.\n" : TextTable.aligned(header: s.header, rows: s.rows)
            if let l = s.leftOut { out += l + "\n" }
        }
        for c in corpusTables {
            out += "\n\(t(c.title))\n"
            out += TextTable.aligned(header: Self.aggregateHeader, rows: aggregateRows(c.aggregate))
        }
        if let e = energyLine { out += "\n" + t(e) + "\n" }
        return out
    }

    static let aggregateHeader = [
        "Role", "State", "Trips", "Delivered", "Sent", "Forwarded", "Display error p95 m", "Stale p95 s", "Policy J", "Energy J",
        "Energy mAh",
    ]
    static let aggregateNumeric: Set<Int> = [2, 3, 4, 5, 8, 9, 10]

    func aggregateRows(_ a: CorpusAggregate) -> [[String]] {
        a.rows.map { r in
            func p95(_ m: GateMetric) -> String {
                guard let pooled = r.value(m), let mx = r.p95Max[m] else { return "—" }
                return "\(ReplayReport.fixed(pooled, 1)) / \(ReplayReport.fixed(mx, 1))"
            }
            let joules = r.value(.energyTotal) ?? 0
            return [
                r.role.key, r.state.displayName, "\(r.trips)", ChangeText.number(r.value(.delivered), 0),
                ChangeText.number(r.value(.sent), 0), ChangeText.number(r.value(.forwarded), 0), p95(.displayErrorP95), p95(.stalenessP95),
                ReplayReport.fixed((r.value(.energyFixes) ?? 0) + (r.value(.energyRadio) ?? 0), 1),
                ReplayReport.fixed(joules, 1), ReplayReport.fixed(joules / joulesPerMilliampHour, 2),
            ]
        }
    }
}
