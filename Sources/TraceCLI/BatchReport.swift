import TraceBatch
import TraceDomain
import TraceJSON
import TraceReplay
import TraceSharing

/// A batch's results, in the trips' order, and the reports made of them: the terminal table
/// (here), JUnit, Markdown and HTML (`BatchReport+*.swift`), the `--jsonl` lines.
struct BatchReport {
    var inputs: [String]
    var header: BaselineHeader
    /// The `--compare` policy's name.
    var policyB: String?
    var jobs: Int
    var shard: Shard?
    var trips: [TripRun]
    var strict: Bool
    var gate: GateComparison?
    var baselinePath: String?

    /// The schema of a `--jsonl` line.
    static let lineSchema = "tracekit-batch-trip/1"

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

    /// The corpus under the policy (or, `b`, under the compared one).
    func aggregate(b: Bool = false) -> CorpusAggregate {
        var a = CorpusAggregate()
        for t in replayed {
            if let m = b ? t.report.metricsB : t.report.metrics { a.add(m) }
        }
        return a
    }

    /// Why the batch fails, on one line; nil when it passes.
    var failureSummary: String? {
        var parts: [String] = []
        if !failed.isEmpty { parts.append("\(failed.count) of \(trips.count) trip\(trips.count == 1 ? "" : "s") failed to replay") }
        if let gate, !gate.passes(strict: strict) {
            var what: [String] = []
            let regressions = gate.regressions
            if regressions > 0 { what.append("\(regressions) regression\(regressions == 1 ? "" : "s") beyond tolerance") }
            if strict {
                let other = gate.trips.reduce(0) { $0 + $1.failures(strict: true).count } - regressions
                if other > 0 { what.append("\(other) other change\(other == 1 ? "" : "s") (--strict: refresh the baseline)") }
                if !gate.new.isEmpty { what.append("\(gate.new.count) new trip\(gate.new.count == 1 ? "" : "s")") }
            }
            if !gate.missing.isEmpty { what.append("\(gate.missing.count) baseline trip\(gate.missing.count == 1 ? "" : "s") not run") }
            parts.append("gate failed against \(baselinePath ?? "the baseline"): " + what.joined(separator: ", "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The gate's lines and each failed trip's reason.
    var gateLines: [String] {
        var lines = failed.map { "FAILED \($0.trip.id): \($0.error.message)" }
        if let gate { lines += gate.lines(strict: strict).map(BatchCommand.namingTheFlag) }
        return lines
    }

    // MARK: Table

    var table: String {
        var out = "Batch: \(trips.count) trip\(trips.count == 1 ? "" : "s") from \(inputs.joined(separator: ", "))"
        if let shard { out += " (shard \(shard.index)/\(shard.count))" }
        out +=
            " · policy \(header.policyName)\(policyB.map { " vs \($0)" } ?? "") · energy \(header.energyLabel) (an estimate) · \(jobs) job\(jobs == 1 ? "" : "s") · tracekit \(header.tracekitVersion)\n"
        out += "view \(header.view)\n\n"
        var rows: [[String]] = []
        for t in trips {
            switch t.outcome {
            case .success(let r):
                rows.append([
                    t.trip.id, "replayed", r.category, "\(r.phones)", "\(r.fixes)", InfoCommand.duration(r.seconds), "\(r.sent)",
                    ReplayReport.fixed(r.joules, 1), r.inferred.isEmpty ? "—" : r.inferred.joined(separator: ", "),
                ])
            case .failure(let e):
                rows.append([t.trip.id, "FAILED", e.message, "", "", "", "", "", ""])
            }
        }
        out += TextTable.aligned(
            header: ["Trip", "Status", "Category", "Phones", "Fixes", "Time", "Sent", "Energy J", "Inferred"], rows: rows)
        let a = aggregate()
        out +=
            "\nCorpus, policy \(header.policyName): \(a.trips) trip\(a.trips == 1 ? "" : "s") replayed; per role and state (sums; p95: the trips' mean / largest)\n"
        out += TextTable.aligned(header: Self.aggregateHeader, rows: Self.aggregateRows(a))
        if let policyB {
            let b = aggregate(b: true)
            out += "\nCorpus, policy \(policyB)\n"
            out += TextTable.aligned(header: Self.aggregateHeader, rows: Self.aggregateRows(b))
            out += "\nPolicy \(policyB) against \(header.policyName) (B − A, % of A)\n"
            out += TextTable.aligned(
                header: ["Role", "State", "Sent A", "Sent B", "Sent %", "Forwarded %", "Energy J A", "Energy J B", "Energy %"],
                rows: Self.differenceRows(a, b))
        }
        let lines = gateLines
        if let gate, let path = baselinePath {
            let compared = gate.trips.count
            out +=
                "\nGate against \(path): \(compared) trip\(compared == 1 ? "" : "s") compared, \(gate.regressions) regression\(gate.regressions == 1 ? "" : "s"), \(gate.improvements) improvement\(gate.improvements == 1 ? "" : "s") beyond tolerance\(strict ? " (strict)" : "")"
            out += gate.passes(strict: strict) ? ": passed\n" : ": FAILED\n"
        } else if !lines.isEmpty {
            out += "\n"
        }
        for l in lines { out += "  \(l)\n" }
        return out
    }

    static let aggregateHeader = [
        "Role", "State", "Trips", "Delivered", "Sent", "Forwarded", "Display error p95 m", "Stale p95 s", "Energy J",
    ]

    static func aggregateRows(_ a: CorpusAggregate) -> [[String]] {
        a.rows.map { r in
            func p95(_ m: GateMetric) -> String {
                guard let mean = r.value(m), let mx = r.p95Max[m] else { return "—" }
                return "\(ReplayReport.fixed(mean, 1)) / \(ReplayReport.fixed(mx, 1))"
            }
            return [
                r.role.key, r.state.displayName, "\(r.trips)", count(r.value(.delivered)), count(r.value(.sent)),
                count(r.value(.forwarded)),
                p95(.displayErrorP95), p95(.stalenessP95), ReplayReport.fixed(r.value(.energyTotal) ?? 0, 1),
            ]
        }
    }

    static func count(_ x: Double?) -> String { x.map { ReplayReport.fixed($0, 0) } ?? "—" }

    static func percent(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b else { return "—" }
        if a == b { return "0 %" }
        guard a != 0 else { return "new" }
        let p = (b - a) / a * 100
        return (p > 0 ? "+" : "−") + ReplayReport.fixed(abs(p), 1) + " %"
    }

    static func differenceRows(_ a: CorpusAggregate, _ b: CorpusAggregate) -> [[String]] {
        var keys = a.rows.map { ($0.state, $0.role) }
        for r in b.rows where a.row(r.state, r.role) == nil { keys.append((r.state, r.role)) }
        return keys.map { state, role in
            let x = a.row(state, role), y = b.row(state, role)
            return [
                role.key, state.displayName, count(x?.value(.sent)), count(y?.value(.sent)), percent(x?.value(.sent), y?.value(.sent)),
                percent(x?.value(.forwarded), y?.value(.forwarded)), ReplayReport.fixed(x?.value(.energyTotal) ?? 0, 1),
                ReplayReport.fixed(y?.value(.energyTotal) ?? 0, 1), percent(x?.value(.energyTotal), y?.value(.energyTotal)),
            ]
        }
    }

    // MARK: JSON lines

    /// A gate row as JSON: state, role and every metric (null without a value), as in a baseline.
    static func json(_ m: TripMetrics) -> JSONValue {
        .array(
            m.rows.map { r in
                .object(
                    [("state", .string(r.state.key)), ("role", .string(r.role.key))]
                        + GateMetric.allCases.map { g in (g.rawValue, r.values[g].map { .number($0) } ?? .null) })
            })
    }

    /// The `--jsonl` object of a replayed trip: its index and name, the gate's figures (as in a
    /// baseline), the whole replay (`tracekit-replay/2`) and, with `--compare`, the other policy's.
    static func jsonLine(index: Int, trip: BatchTrip, result: ReplayResult, report: TripReport, resultB: ReplayResult?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .string(lineSchema)), ("index", .number(Double(index))), ("trip", .string(trip.id)), ("path", .string(trip.path)),
            ("status", .string("replayed")), ("policy", .string(result.policy.name)), ("gate", json(report.metrics)),
            ("replay", result.json),
        ]
        if let resultB, let mb = report.metricsB {
            members.append(("compare", .object([("policy", .string(resultB.policy.name)), ("gate", json(mb)), ("replay", resultB.json)])))
        }
        return .object(members)
    }

    /// The `--jsonl` object of a trip that failed.
    static func jsonLine(index: Int, trip: BatchTrip, error: BatchTripError) -> JSONValue {
        .object([
            ("schema", .string(lineSchema)), ("index", .number(Double(index))), ("trip", .string(trip.id)), ("path", .string(trip.path)),
            ("status", .string("failed")),
            ("error", .object([("category", .string(error.category.rawValue)), ("message", .string(error.message))])),
        ])
    }
}
