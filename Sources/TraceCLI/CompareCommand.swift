import TraceBatch
import TraceDomain
import TraceEnergy
import TraceJSON
import TraceReplay
import TraceSharing

/// `tracekit compare --policy A --policy B TRACE…`: the same trip replayed under two policies,
/// side by side, with the differences.
enum CompareCommand {
    /// The options of `compare`, with their defaults.
    struct Options: CommandOptions {
        var policies: [String] = []
        var inputs = ReplayInputs()
        var format = Format.table
        var split = SplitOptions()
        /// The traces.
        var arguments: [String] = []

        func validate() throws(CLIError) {
            guard policies.count == 2 else {
                throw .usage("'compare' needs --policy exactly twice (A, then B; 'seed' for the default table), got \(policies.count)")
            }
        }
    }

    enum Format: String, ArgumentChoice { case table, json, markdown }

    static let spec = CommandSpec<Options>(
        name: "compare",
        abstract: "Replay a trip under two policies and show both side by side with the differences.",
        discussion: """
            Replays the same inputs twice (the traces are read again for the second run), once with \
            each --policy, and prints per role and state that lasted, and for the trip, the two values of: updates \
            delivered, sent and forwarded, display error p95 and max (m), staleness p95 and max (s) \
            (what the viewers saw of the phone's position) and energy (J, with the charge in mAh), \
            with the difference B − A, absolute and in % of A: only the rows that differ at the \
            decimals shown, with a count of those left out (the JSON has every row). The biggest \
            changes (by |%|, then by the absolute difference; a change from 0 counts as the largest; \
            not the maxima) are marked and listed. \
            Every option of 'replay' that says what to replay applies to both runs. Exit status 0 \
            whatever the differences.
            """,
        positionals: [
            PositionalSpec(name: "TRACE…", help: "The helper's trace (or a trace whose tracks name their roles), as for replay.")
        ],
        positionalsOptional: true,
        variadic: true,
        options: [
            .list(
                "policy", \.policies, valueName: "FILE", help: "A policy file, or 'seed' for the default table; give it twice: A, then B.")
        ] + ReplayInputs.options.map { $0.on(\.inputs) } + SplitOptions.options.map { $0.on(\.split) } + [
            .value(
                "format", short: "f", \.format, valueName: "FORMAT",
                help: "Output format (JSON schema tracekit-compare/1; with --split, tracekit-compare-trips/1).")
        ],
        examples: [
            "tracekit compare --policy seed --policy quiet.json --scenario Traces/trips/ride/ride.scenario.json",
            "tracekit compare --policy seed --policy quiet.json trip.gpx --hirer hirer.gpx --format markdown",
        ])

    static let schema = "tracekit-compare/1"
    /// How many of the largest changes are marked.
    static let highlighted = 5

    /// One compared figure.
    enum Metric: String, CaseIterable {
        case delivered, sent, forwarded, displayErrorP95, displayErrorMax, stalenessP95, stalenessMax, energy

        var label: String {
            switch self {
            case .delivered: "delivered"
            case .sent: "sent"
            case .forwarded: "forwarded"
            case .displayErrorP95: "display error p95"
            case .displayErrorMax: "display error max"
            case .stalenessP95: "staleness p95"
            case .stalenessMax: "staleness max"
            case .energy: "energy"
            }
        }

        var unit: String {
            switch self {
            case .delivered, .sent, .forwarded: "updates"
            case .displayErrorP95, .displayErrorMax: "m"
            case .stalenessP95, .stalenessMax: "s"
            case .energy: "J"
            }
        }

        /// Whether its changes are ranked among the biggest: not the maxima (one sample each;
        /// the p95 says the same more robustly).
        var ranked: Bool {
            switch self {
            case .displayErrorMax, .stalenessMax: false
            case .delivered, .sent, .forwarded, .displayErrorP95, .stalenessP95, .energy: true
            }
        }

        /// The figure in `m`; nil when it has no value (no view sample): the gate's metric of the
        /// same name (the total, for energy), or the view's maximum.
        func value(_ m: StateRoleMetrics) -> Double? {
            switch self {
            case .delivered: GateMetric.delivered.value(m)
            case .sent: GateMetric.sent.value(m)
            case .forwarded: GateMetric.forwarded.value(m)
            case .displayErrorP95: GateMetric.displayErrorP95.value(m)
            case .displayErrorMax: m.view.displayErrorMaxMetres
            case .stalenessP95: GateMetric.stalenessP95.value(m)
            case .stalenessMax: m.view.stalenessMaxSeconds
            case .energy: GateMetric.energyTotal.value(m)
            }
        }

        /// Decimals shown.
        var decimals: Int {
            switch self {
            case .delivered, .sent, .forwarded: 0
            case .displayErrorP95, .displayErrorMax, .stalenessP95, .stalenessMax, .energy: 1
            }
        }
    }

    /// One row: a figure of one role in one state (nil: the trip's total) under A and B.
    struct Row {
        var state: FulfilmentState?
        var role: Role
        var metric: Metric
        var a: Double?
        var b: Double?

        var difference: Double? { a.flatMap { a in b.map { $0 - a } } }
        /// B − A in % of A; nil when A is 0 (or either is absent).
        var percent: Double? {
            guard let a, let d = difference, a != 0 else { return nil }
            return d / abs(a) * 100
        }
        var changed: Bool { a != b }
        /// Whether the tables show it: A and B differ at the decimals shown (a change in the last
        /// bits of a joule is in the JSON, not in a row that reads "173.4 → 173.4").
        var shown: Bool { ChangeText.number(a, metric.decimals) != ChangeText.number(b, metric.decimals) }
        /// Ranks changes: |%|, a change from 0 first, then |difference|.
        var size: (Double, Double) {
            guard changed else { return (-1, 0) }
            guard let d = difference else { return (.infinity, 0) }
            return (percent.map(abs) ?? .infinity, abs(d))
        }
    }

    /// The rows of two results of the same inputs: per role, each state that lasted in either, then
    /// the trip's total, each with every metric.
    static func rows(_ a: ReplayResult, _ b: ReplayResult) -> [Row] {
        var rows: [Row] = []
        for role in a.roles {
            for (sa, sb) in zip(a.states, b.states) where sa.seconds > 0 || sb.seconds > 0 {
                guard let ma = sa[role], let mb = sb[role] else { continue }
                for metric in Metric.allCases {
                    rows.append(Row(state: sa.state, role: role, metric: metric, a: metric.value(ma), b: metric.value(mb)))
                }
            }
            guard let ta = a.roleTotals.first(where: { $0.role == role }), let tb = b.roleTotals.first(where: { $0.role == role }) else {
                continue
            }
            for metric in Metric.allCases {
                rows.append(Row(state: nil, role: role, metric: metric, a: metric.value(ta), b: metric.value(tb)))
            }
        }
        return rows
    }

    /// The indices of the largest changes among per-state rows (not totals, not the maxima, only
    /// those that differ at the decimals shown), largest first;
    /// ties keep the rows' order.
    static func biggest(_ rows: [Row]) -> [Int] {
        let changed = rows.indices.filter { rows[$0].shown && rows[$0].state != nil && rows[$0].metric.ranked }
        let sorted = changed.sorted { i, j in
            let x = rows[i].size, y = rows[j].size
            return x.0 != y.0 ? x.0 > y.0 : x.1 != y.1 ? x.1 > y.1 : i < j
        }
        return Array(sorted.prefix(highlighted))
    }

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        let sources = options.policies
        var job = try ReplayCommand.Job(options.inputs, traces: options.arguments, command: "compare")
        job.options.rules.recordingGapSeconds = options.split.gap.seconds
        if options.split.split { return try runTrips(options, job, output) }
        var results: [ReplayResult] = []
        for source in sources {
            job.options.policy = try PolicyCommands.load(source)
            var none = NoReplayObserver()
            var result = try job.replay(observer: &none)
            result.asEachState = try job.asEachState(for: result, asked: options.inputs.asEachState)
            results.append(result)
        }
        ReplayCommand.Job.warn(results[0])  // the traces' and scenario's warnings are the same under both policies
        let report = Report(a: results[0], b: results[1], sources: (sources[0], sources[1]))
        switch options.format {
        case .json: output.write(JSONWriter.string(report.json) + "\n")
        case .markdown: output.write(report.markdown)
        case .table: output.write(report.table)
        }
    }

    /// `--split`: each trip compared as its own request, then the trips' totals under A and B.
    static func runTrips(_ options: Options, _ job: ReplayCommand.Job, _ output: Output) throws(CLIError) {
        let sources = options.policies
        var runs: [TripReplays] = []
        var job = job
        for source in sources {
            job.options.policy = try PolicyCommands.load(source)
            do {
                runs.append(
                    try Replay.runTrips(
                        job.inputs, scenario: job.spec, options: job.options, rules: options.split.rules,
                        asEachState: options.inputs.asEachState))
            } catch {
                throw ReplayCommand.Job.cliError(error)
            }
        }
        let (a, b) = (runs[0], runs[1])
        for t in a.trips {
            for w in t.result.warnings { printToStandardError("tracekit: warning: trip \(t.trip.index): \(w)") }
        }
        let reports = zip(a.trips, b.trips).map { Report(a: $0.result, b: $1.result, sources: (sources[0], sources[1])) }
        let names = job.inputs.map(\.path)
        switch options.format {
        case .json:
            let trips: [JSONValue] = zip(a.trips, reports).map { t, r in
                .object([
                    ("index", .number(Double(t.trip.index))), ("start", .string(t.trip.start.iso8601)),
                    ("end", .string(t.trip.end.iso8601)),
                    ("compare", r.json),
                ])
            }
            let value = JSONValue.object([
                ("schema", .string("tracekit-compare-trips/1")), ("traces", .array(names.map { .string($0) })),
                ("trips", .array(trips)), ("total", .object([("a", TripsReport.total(a)), ("b", TripsReport.total(b))])),
            ])
            output.write(JSONWriter.string(value) + "\n")
        case .markdown:
            var out = "## TraceKit compare, trip by trip\n\n" + TripsReport.header(a, inputs: names.map(Shown.markdown)) + "\n"
            for (t, r) in zip(a.trips, reports) { out += "\n#### " + TripsReport.title(t.trip, of: a.trips.count) + "\n\n" + r.markdown }
            out += "\n#### Total\n\n```\n" + totals(a, b, sources) + "```\n"
            output.write(out)
        case .table:
            var out = TripsReport.header(a, inputs: names.map(Shown.terminal)) + "\n"
            for (t, r) in zip(a.trips, reports) { out += "\n=== " + TripsReport.title(t.trip, of: a.trips.count) + "\n" + r.table }
            out += "\nTotal over \(a.trips.count) trip\(a.trips.count == 1 ? "" : "s"):\n" + totals(a, b, sources)
            output.write(out)
        }
    }

    /// Per role: updates sent and charge under A and B over every trip.
    static func totals(_ a: TripReplays, _ b: TripReplays, _ sources: [String]) -> String {
        let tb = b.totals
        let rows = a.totals.map { ra -> [String] in
            let rb = tb.first { $0.role == ra.role }
            return [
                ra.role.key, "\(ra.sentUpdates)", rb.map { "\($0.sentUpdates)" } ?? "—", DecimalText.fixed(ra.milliampHours, 2),
                rb.map { DecimalText.fixed($0.milliampHours, 2) } ?? "—",
            ]
        }
        return TextTable.aligned(header: ["Role", "sent A", "sent B", "mAh A", "mAh B"], rows: rows)
            + "A = \(sources[0]), B = \(sources[1])\n"
    }

    /// The comparison, in each output format.
    struct Report {
        var a: ReplayResult
        var b: ReplayResult
        var sources: (String, String)
        var rows: [Row]
        var marked: [Int]

        init(a: ReplayResult, b: ReplayResult, sources: (String, String)) {
            self.a = a
            self.b = b
            self.sources = sources
            rows = CompareCommand.rows(a, b)
            marked = CompareCommand.biggest(rows)
        }

        var headerA: String { "A: \(a.policy.name)" }
        var headerB: String { "B: \(b.policy.name)" }

        func where_(_ r: Row) -> String { r.state?.displayName ?? "Total" }

        /// A figure; energy also as charge, "754.1 (54.41)" (J, then mAh).
        func number(_ x: Double?, _ m: Metric) -> String {
            guard m == .energy, let x else { return ChangeText.number(x, m.decimals) }
            return "\(ChangeText.number(x, 1)) (\(ChangeText.number(x / a.energyProfile.joulesPerMilliampHour, 2)))"
        }

        func signed(_ x: Double?, _ m: Metric) -> String {
            guard m == .energy, let x else { return ChangeText.signed(x, m.decimals) }
            return "\(ChangeText.signed(x, 1)) (\(ChangeText.signed(x / a.energyProfile.joulesPerMilliampHour, 2)))"
        }

        func percent(_ r: Row) -> String { ChangeText.percent(r.a, r.b) }

        func metricLabel(_ m: Metric) -> String { m == .energy ? "energy, J (mAh)" : "\(m.label), \(m.unit)" }

        /// One role's rows that changed, and how many of its rows did not.
        func cells(_ role: Role, highlight: String) -> (rows: [[String]], unchanged: Int) {
            let mine = rows.indices.filter { rows[$0].role == role }
            let shown = mine.filter { rows[$0].shown }.map { i in
                let r = rows[i]
                let mark = marked.firstIndex(of: i).map { "\(highlight)\($0 + 1)" } ?? ""
                return [
                    where_(r), metricLabel(r.metric), number(r.a, r.metric), number(r.b, r.metric), signed(r.difference, r.metric),
                    percent(r), mark,
                ]
            }
            return (shown, mine.count - shown.count)
        }

        /// What the view's figures of a phone are, under its table.
        static let legend =
            "Display error and staleness: what the viewers saw of this phone's position (max: the worst sample, not ranked). Energy in J, charge in mAh in brackets."

        func line(_ i: Int) -> String {
            let r = rows[i], d = r.metric.decimals
            return
                "\(r.role.key), \(where_(r)): \(r.metric.label) \(ChangeText.number(r.a, d)) → \(ChangeText.number(r.b, d)) \(r.metric.unit) (\(ChangeText.signed(r.difference, d)), \(percent(r)))"
        }

        var summary: [String] {
            var lines = [
                "Compare: \(Shown.terminal(traces))",
                "  A  policy \(a.policy.name) (\(Shown.terminal(sources.0)))",
                "  B  policy \(b.policy.name) (\(Shown.terminal(sources.1)))",
                "  energy \(Shown.terminal(a.energyModel)) (an estimate) · receiver radio \(a.receiverRadio ? "on" : "off") · \(a.start.iso8601) … \(a.end.iso8601)",
            ]
            if !a.view.isIdeal { lines.append("  view \(a.view.summary)") }
            if let d = deviceLine { lines.append("  devices \(d)") }
            let problems = a.dataProblems
            lines.append(
                "  data \(problems.isEmpty ? "clean: no problem in the traces" : "\(DataProblem.summary(problems)) (read with --on-problem \(a.problemPolicy.rawValue))")"
            )
            let inferred = a.scenario.assumedItems
            lines.append("  inferred \(inferred.isEmpty ? "nothing" : inferred.joined(separator: ", "))")
            return lines + perStateLines
        }

        /// The recording as each live state under A and under B (no credible pickup, or
        /// `--as-each-state`): two lines per state; empty when it was not replayed so.
        var perStateLines: [String] {
            let la = ReplaySummary(a).perStateLines, lb = ReplaySummary(b).perStateLines
            guard !la.isEmpty, la.count == lb.count else { return [] }
            var lines = [
                "  as each state: the whole recording under each live state's row and viewers\(a.scenario.lacksCrediblePickup ? " (no stop after setting off: no credible pickup, so the tables below rest on an inferred pickup at the first fix)" : "")"
            ]
            for (x, y) in zip(la, lb) {
                lines += ["    \(x.label), A: \(x.text)", "    \(y.label), B: \(y.text)"]
            }
            return lines
        }

        var traces: String { a.scenario.traces.map(\.path).joined(separator: ", ") }

        /// "every phone on 6 device profiles: A 40.5–86.5 mAh, B 35.2–80.1 mAh (A: galaxy-s5 … nexus-5)":
        /// the same replays priced on the shipped device profiles; nil when they were not.
        var deviceLine: String? {
            guard let sa = a.energySpread, let sb = b.energySpread else { return nil }
            return
                "every phone on \(sa.profiles.count) device profiles: A \(sa.range()) mAh, B \(sb.range()) mAh (A: \(sa.profiles[sa.lowest]) … \(sa.profiles[sa.highest]))"
        }

        var conclusion: [String] {
            if !rows.contains(where: \.changed) { return ["No differences: both policies give the same numbers."] }
            if !rows.contains(where: \.shown) {
                return ["Differences only below the decimals shown: the tables show no change (the JSON has every figure)."]
            }
            guard !marked.isEmpty else {
                let inStates = rows.contains { $0.shown && $0.state != nil }
                return [
                    inStates
                        ? "Differences only in the worst samples (display error and staleness max): see the tables."
                        : "Differences only in the trip's totals."
                ]
            }
            return ["Biggest changes (B − A):"] + marked.enumerated().map { "  \($0.offset + 1). " + line($0.element) }
        }

        var table: String {
            var out = summary.joined(separator: "\n") + "\n"
            for role in a.roles {
                let c = cells(role, highlight: "◀ ")
                out += "\n\(role.key.capitalizedFirst)'s phone\n"
                out +=
                    c.rows.isEmpty
                    ? "No figure changed.\n"
                    : TextTable.aligned(header: ["State", "Metric", headerA, headerB, "B − A", "%", ""], rows: c.rows)
                if let l = ChangeText.leftOut(c.unchanged) { out += l + "\n" }
            }
            return out + Self.legend + "\n\n" + conclusion.joined(separator: "\n") + "\n"
        }

        var markdown: String {
            let (nameA, nameB) = (Shown.markdownCode(a.policy.name), Shown.markdownCode(b.policy.name))
            var out = "### TraceKit compare: \(nameA) → \(nameB)\n\n"
            out += "- **Traces:** " + a.scenario.traces.map { Shown.markdownCode($0.path) }.joined(separator: ", ") + "\n"
            out += "- **A:** \(nameA) (\(Shown.markdownCode(sources.0))) · **B:** \(nameB) (\(Shown.markdownCode(sources.1)))\n"
            out += "- **Energy:** \(Shown.markdown(a.energyModel)) (an estimate) · receiver radio \(a.receiverRadio ? "on" : "off")\n"
            if let d = deviceLine { out += "- **Devices:** \(d)\n" }
            if !a.view.isIdeal { out += "- **View:** \(a.view.summary)\n" }
            let inferred = a.scenario.assumedItems
            out += "- **Data:** \(a.dataProblems.isEmpty ? "clean: no problem in the traces" : DataProblem.summary(a.dataProblems))\n"
            out += "- **Inferred:** \(inferred.isEmpty ? "nothing" : inferred.joined(separator: ", "))\n"
            for l in perStateLines { out += "- " + l.drop { $0 == " " } + "\n" }
            for role in a.roles {
                out += "\n#### \(role.key.capitalizedFirst)'s phone\n\n"
                var c = cells(role, highlight: "**#")
                for i in c.rows.indices where !c.rows[i][6].isEmpty { c.rows[i][6] += "**" }
                out +=
                    c.rows.isEmpty
                    ? "No figure changed.\n"
                    : TextTable.markdown(
                        header: [
                            "State", "Metric", "A: \(Shown.markdown(a.policy.name))", "B: \(Shown.markdown(b.policy.name))", "B − A", "%",
                            "Rank",
                        ], rows: c.rows)
                if let l = ChangeText.leftOut(c.unchanged) { out += "\n" + l + ".\n" }
            }
            out += "\n" + Self.legend + "\n"
            let c = conclusion
            out += "\n**\(c[0])**\n"
            for l in c.dropFirst() { out += "- " + l.drop { $0 == " " }.drop { $0 != " " }.dropFirst() + "\n" }
            return out
        }

        var json: JSONValue {
            func opt(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
            func side(_ r: ReplayResult, _ source: String) -> JSONValue {
                .object([
                    ("policy", .object([("name", .string(r.policy.name)), ("fileVersion", .number(Double(r.policy.fileVersion)))])),
                    ("source", .string(source)),
                ])
            }
            func row(_ i: Int) -> JSONValue {
                let r = rows[i]
                var members: [(String, JSONValue)] = [
                    ("state", r.state.map { .string($0.key) } ?? .string("total")), ("role", .string(r.role.key)),
                    ("metric", .string(r.metric.rawValue)), ("unit", .string(r.metric.unit)),
                    ("a", opt(r.a)), ("b", opt(r.b)), ("difference", opt(r.difference)), ("percent", opt(r.percent)),
                    ("rank", marked.firstIndex(of: i).map { .number(Double($0 + 1)) } ?? .null),
                ]
                if r.metric == .energy {
                    let perMilliampHour = a.energyProfile.joulesPerMilliampHour
                    members += [
                        ("aMilliampHours", opt(r.a.map { $0 / perMilliampHour })),
                        ("bMilliampHours", opt(r.b.map { $0 / perMilliampHour })),
                    ]
                }
                return .object(members)
            }
            // The recording as each live state under A and B, only when it was replayed so.
            let perState: [(String, JSONValue)] =
                a.asEachState.map { sa in
                    [("asEachState", .object([("a", .array(sa.map(\.json))), ("b", .array((b.asEachState ?? []).map(\.json)))]))]
                } ?? []
            return .object(
                [
                    ("schema", .string(CompareCommand.schema)),
                    ("tracekitVersion", .string(a.tracekitVersion)),
                    ("a", side(a, sources.0)), ("b", side(b, sources.1)),
                    ("energyModel", .object([("label", .string(a.energyModel)), ("receiverRadio", .bool(a.receiverRadio))])),
                    ("view", a.view.json),
                    ("traces", .array(a.scenario.traces.map { .string($0.path) })),
                    ("inferred", .array(a.scenario.assumedItems.map { .string($0) })),
                    ("start", .string(a.start.iso8601)), ("end", .string(a.end.iso8601)),
                    (
                        "energyAcrossDevices",
                        a.energySpread.flatMap { sa in b.energySpread.map { .object([("a", sa.json), ("b", $0.json)]) } } ?? .null
                    ),
                    ("identical", .bool(!rows.contains(where: \.changed))),
                    ("rows", .array(rows.indices.map(row))),
                    ("biggest", .array(marked.map(row))),
                ] + perState)
        }
    }
}
