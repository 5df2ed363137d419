import TestSupport
import Testing
import TraceJSON
import TraceReplay
import TraceSharing

@testable import TraceBatch

@Suite("Baselines, tolerances and the gate")
struct BaselineGateTests {
    static let header = BaselineHeader(
        tracekitVersion: "0.1.0", energyModelName: "tracekit-energy", energyModelVersion: 1,
        energyLabel: "tracekit-energy 1, profile lte", receiverRadio: true, policyName: "seed", policyFileVersion: 2)

    static func metrics(sent: Double, p95: Double?, energy: Double) -> TripMetrics {
        var v: [GateMetric: Double] = [
            .delivered: sent + 10, .sent: sent, .forwarded: sent, .stalenessP95: 30,
            .energyTotal: energy, .energyLocation: energy / 2, .energyFixes: energy / 4, .energyRadio: energy / 4,
        ]
        v[.displayErrorP95] = p95
        return TripMetrics(rows: [
            GateRow(state: .state(.enRoute), role: .helper, values: v),
            GateRow(state: .total, role: .helper, values: v),
        ])
    }

    static func baseline(_ trips: [(String, TripMetrics)]) -> Baseline {
        Baseline(header: header, tolerances: .defaults, trips: trips.map { (id: $0.0, metrics: $0.1) }, views: PooledViews())
    }

    @Test(
        "a baseline larger than JSON's 16 MiB default reads back (up to Baseline.maximumFileSize); one past the limit is refused, naming it"
    )
    func largeBaseline() throws {
        // About 760 bytes a trip here: 24,000 trips pass 16 MiB.
        let trips = (0..<24_000).map { i in ("trips/t\(i)/t.scenario.json", Self.metrics(sent: Double(i % 500), p95: 20, energy: 100)) }
        let text = JSONWriter.string(Self.baseline(trips).json)
        #expect(text.utf8.count > JSONParser.maximumSize)
        let back = try Baseline(fileBytes: Array(text.utf8), file: "big.json")
        #expect(back.trips.count == 24_000)
        let over = [UInt8](repeating: UInt8(ascii: " "), count: Baseline.maximumFileSize + 1)
        #expect {
            try Baseline(fileBytes: over, file: "huge.json")
        } throws: { error in
            "\(error)".contains("larger than \(Baseline.maximumFileSize) bytes")
        }
    }

    @Test(
        "tolerance verdicts: both allowances must be exceeded",
        arguments: [
            (100.0, 104.0, GateVerdict.withinTolerance),  // +4 %
            (100, 106, .regression),  // +6 % and +6 updates
            (10, 12, .withinTolerance),  // +20 % but only 2 updates
            (10, 13, .regression),
            (100, 94, .improvement),
            (100, 100, .unchanged),
            (0, 2, .withinTolerance),
            (0, 3, .regression),
        ])
    func verdicts(old: Double, new: Double, expected: GateVerdict) {
        #expect(Tolerance(relative: 0.05, absolute: 2).verdict(old: old, new: new) == expected)
    }

    @Test("a baseline round trip: written JSON reads back equal, byte-identical when written again")
    func roundTrip() throws {
        var b = Self.baseline([
            ("trips/ride/ride.scenario.json", Self.metrics(sent: 412, p95: 24.3, energy: 555.25)),
            ("x.gpx", Self.metrics(sent: 3, p95: nil, energy: 0.1)),
        ])
        b.tolerances[.sent] = Tolerance(relative: 0.1, absolute: 5)
        let text = JSONWriter.string(b.json)
        let back = try Baseline(fileBytes: Array(text.utf8), file: "b.json")
        #expect(back == b)
        #expect(JSONWriter.string(back.json) == text)
        #expect(back.metrics(of: "x.gpx")?.row(.total, .helper)?.values[.displayErrorP95] == nil)
    }

    @Test(
        "bad baselines: one line naming the file, the place and the reason",
        arguments: [
            ("not json", "b.json:1:1: not a baseline (invalid JSON: "),
            ("[]", "b.json:1:1: not a baseline: expected an object"),
            (#"{"trips": []}"#, "b.json:1:1: schema: missing: not a TraceKit baseline"),
            (#"{"schema": "tracekit-baseline/9"}"#, "b.json:1:12: schema: unsupported baseline schema \"tracekit-baseline/9\""),
            (#"{"schema": "tracekit-replay/3"}"#, "b.json:1:12: schema: unsupported baseline schema \"tracekit-replay/3\""),
        ])
    func badFiles(text: String, prefix: String) {
        do {
            _ = try Baseline(fileBytes: Array(text.utf8), file: "b.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(prefix), "\(error.description)")
        }
    }

    @Test("a truncated baseline is refused, naming where it stops")
    func truncated() throws {
        let text = JSONWriter.string(Self.baseline([("a.gpx", Self.metrics(sent: 1, p95: 2, energy: 3))]).json)
        let cut = Array(text.utf8.prefix(text.utf8.count / 2))
        #expect(throws: GateFileError.self) { try Baseline(fileBytes: cut, file: "b.json") }
        var bad = text.replacingOccurrences(of: "\"sent\": 1", with: "\"sent\": \"many\"")
        #expect(throws: GateFileError.self) { try Baseline(fileBytes: Array(bad.utf8), file: "b.json") }
        bad = text.replacingOccurrences(of: "\"enRoute\"", with: "\"enroute-ish\"")
        do {
            _ = try Baseline(fileBytes: Array(bad.utf8), file: "b.json")
            Issue.record("accepted a bad state")
        } catch {
            #expect(error.field == "trips[0].rows[0].state")
        }
    }

    @Test("a version-1 baseline is refused with the reason: its per-state energy means something else")
    func versionOne() throws {
        let text = JSONWriter.string(Self.baseline([("a.gpx", Self.metrics(sent: 1, p95: 2, energy: 3))]).json)
            .replacingOccurrences(of: Baseline.schema, with: "tracekit-baseline/1")
        do {
            _ = try Baseline(fileBytes: Array(text.utf8), file: "b.json")
            Issue.record("accepted a version-1 baseline")
        } catch {
            #expect(error.field == "schema")
            #expect(error.message.contains("to the state of its send") && error.message.hasSuffix("refresh the baseline"))
        }
    }

    @Test("a version-2 baseline is refused on one line: it has no pooled samples for the corpus's p95s")
    func versionTwo() throws {
        let text = JSONWriter.string(Self.baseline([("a.gpx", Self.metrics(sent: 1, p95: 2, energy: 3))]).json)
            .replacingOccurrences(of: Baseline.schema, with: "tracekit-baseline/2")
        do {
            _ = try Baseline(fileBytes: Array(text.utf8), file: "b.json")
            Issue.record("accepted a version-2 baseline")
        } catch {
            #expect(error.field == "schema" && !error.description.contains("\n"))
            #expect(error.message.contains("no pooled view samples") && error.message.contains("over every sample"))
            #expect(error.message.hasSuffix("refresh the baseline"))
        }
    }

    @Test("the pooled samples round-trip through a baseline file; a bad histogram is refused, naming it")
    func corpusRoundTrip() throws {
        var c = PooledViews.Cell()
        for x in [1.0, 2.5, 300, 4000] { c.displayError.add(x) }
        var b = Self.baseline([("a.gpx", Self.metrics(sent: 1, p95: 2, energy: 3))])
        b.views = Self.views(c)
        let text = JSONWriter.string(b.json)
        let back = try Baseline(fileBytes: Array(text.utf8), file: "b.json")
        #expect(back == b && JSONWriter.string(back.json) == text)
        let bad = text.replacingOccurrences(of: "\"n\": 4", with: "\"n\": 5")
        #expect(bad != text)
        do {
            _ = try Baseline(fileBytes: Array(bad.utf8), file: "b.json")
            Issue.record("accepted a histogram whose bins do not add up")
        } catch {
            #expect(error.field == "corpus[0].displayError" && error.message.contains("add up to n"))
        }
    }

    @Test("another energy model is refused with the reason, not compared")
    func otherModel() throws {
        var b = Self.baseline([("a.gpx", Self.metrics(sent: 1, p95: 2, energy: 3))])
        b.header.energyModelVersion = 2
        do {
            _ = try GateComparison(
                baseline: b, file: "b.json", current: Self.header, tolerances: .defaults,
                attempted: ["a.gpx"], results: ["a.gpx": Self.metrics(sent: 1, p95: 2, energy: 3)], sharded: false)
            Issue.record("compared")
        } catch {
            #expect(
                error.description
                    == "b.json: the baseline was measured with energy model tracekit-energy 2 and this TraceKit computes tracekit-energy 1; the numbers are not comparable: refresh the baseline"
            )
        }
    }

    @Test("a regression fails with a readable line; an improvement passes unless strict")
    func gate() throws {
        let b = Self.baseline([
            ("ride", Self.metrics(sent: 412, p95: 20, energy: 500)), ("walk", Self.metrics(sent: 100, p95: 10, energy: 100)),
        ])
        let worse = try GateComparison(
            baseline: b, file: "b", current: Self.header, tolerances: .defaults, attempted: ["ride", "walk"],
            results: ["ride": Self.metrics(sent: 655, p95: 20, energy: 500), "walk": Self.metrics(sent: 100, p95: 10, energy: 100)],
            sharded: false)
        #expect(!worse.passes(strict: false))
        let lines = worse.lines(strict: false)
        // One line per trip, state and role, every figure beyond tolerance on it, marked.
        #expect(
            lines == [
                "REGRESSION ride: En Route, helper: ▲ updates delivered 422 → 665 (+58 %), ▲ updates sent 412 → 655 (+59 %), ▲ updates forwarded 412 → 655 (+59 %)",
                "REGRESSION ride: Total, helper: ▲ updates delivered 422 → 665 (+58 %), ▲ updates sent 412 → 655 (+59 %), ▲ updates forwarded 412 → 655 (+59 %)",
            ])
        #expect(worse.regressions == 6)  // delivered, sent and forwarded, in En Route and in the total
        #expect(worse.groups.count == 2 && worse.groups.allSatisfy { $0.regressions == 3 && $0.trip == "ride" })

        // A baseline trip not run: the advice says what to do and names no command-line flag.
        let partial = try GateComparison(
            baseline: b, file: "b", current: Self.header, tolerances: .defaults, attempted: ["ride"],
            results: ["ride": Self.metrics(sent: 412, p95: 20, energy: 500)], sharded: false)
        #expect(partial.lines(strict: false) == ["MISSING walk: in the baseline but not run (removed or renamed? refresh the baseline)"])

        let better = try GateComparison(
            baseline: b, file: "b", current: Self.header, tolerances: .defaults, attempted: ["ride", "walk"],
            results: ["ride": Self.metrics(sent: 412, p95: 12, energy: 400), "walk": Self.metrics(sent: 100, p95: 10, energy: 100)],
            sharded: false)
        #expect(better.passes(strict: false))
        #expect(!better.passes(strict: true))
        #expect(better.improvements > 0 && better.regressions == 0)
        #expect(
            better.lines(strict: true).contains {
                $0.hasPrefix("FAIL (strict) ride: En Route, helper: ▼ display error p95 20.0 → 12.0 m (−40 %)")
            })
        // Not strict: the improvements pass, and one line (not one per figure) says to refresh the baseline.
        let passing = better.lines(strict: false)
        #expect(
            passing.filter { $0.contains(GateComparison.refreshAdvice) } == [
                "\(better.improvements) improvements beyond tolerance (▼) pass: refresh the baseline to lock them in"
            ])
        #expect(passing.allSatisfy { !$0.hasPrefix("FAIL") && !$0.hasPrefix("REGRESSION") })
        // Improvements only: marked ▼, an improvement row that fails only under --strict.
        let groups = better.groups.filter { $0.improvements > 0 }
        #expect(!groups.isEmpty)
        #expect(
            groups.allSatisfy {
                $0.marker == "▼" && $0.rowClass(strict: false) == "improvement" && $0.rowClass(strict: true) == "regression"
            })
    }

    @Test("missing and new trips; a shard does not miss the others'; a p95 that appears")
    func missingAndNew() throws {
        let b = Self.baseline([("a", Self.metrics(sent: 5, p95: nil, energy: 1)), ("b", Self.metrics(sent: 5, p95: 3, energy: 1))])
        let results = ["a": Self.metrics(sent: 5, p95: 4, energy: 1), "c": Self.metrics(sent: 5, p95: 3, energy: 1)]
        let g = try GateComparison(
            baseline: b, file: "b", current: Self.header, tolerances: .defaults, attempted: ["a", "c"], results: results, sharded: false)
        #expect(g.missing == ["b"] && g.new == ["c"])
        #expect(!g.passes(strict: false))
        #expect(g.trips[0].figures.contains { $0.metric == .displayErrorP95 && $0.verdict == .appeared })
        let shard = try GateComparison(
            baseline: b, file: "b", current: Self.header, tolerances: .defaults, attempted: ["a", "c"], results: results, sharded: true)
        #expect(shard.missing.isEmpty && shard.passes(strict: false) && !shard.passes(strict: true))
    }

    @Test("a policy or version change is a note, not a refusal")
    func notes() throws {
        let b = Self.baseline([("a", Self.metrics(sent: 5, p95: 1, energy: 1))])
        var current = Self.header
        current.policyName = "quiet.json"
        current.tracekitVersion = "0.2.0"
        let g = try GateComparison(
            baseline: b, file: "b", current: current, tolerances: .defaults, attempted: ["a"],
            results: ["a": Self.metrics(sent: 5, p95: 1, energy: 1)], sharded: false)
        #expect(g.passes(strict: true))
        #expect(g.notes.count == 2)
    }

    @Test(
        "tolerance flags",
        arguments: [
            ("sent=10%,5", GateMetric.sent, 0.1, 5.0),
            ("sent=0.1,", .sent, 0.1, 2),
            ("energyTotal=,1.5", .energyTotal, 0.05, 1.5),
        ])
    func flags(text: String, metric: GateMetric, relative: Double, absolute: Double) throws {
        let t = try Tolerances.defaults.overriding(flag: text).get()
        #expect(t[metric] == Tolerance(relative: relative, absolute: absolute))
    }

    @Test("bad tolerance flags", arguments: ["sent", "speed=1,2", "sent=1", "sent=-1,2", "sent=5%,x", "sent=nan,1"])
    func badFlags(text: String) {
        guard case .failure = Tolerances.defaults.overriding(flag: text) else {
            Issue.record("accepted \(text)")
            return
        }
    }

    @Test("a tolerance file overrides the metrics it names")
    func toleranceFile() throws {
        let text = #"{"schema": "tracekit-tolerances/1", "tolerances": {"displayErrorP95": {"absolute": 3}}}"#
        let t = try Tolerances.defaults.overriding(fileBytes: Array(text.utf8), file: "t.json")
        #expect(t[.displayErrorP95] == Tolerance(relative: 0.1, absolute: 3))
        #expect(t[.sent] == Tolerances.defaults[.sent])
        #expect(throws: GateFileError.self) {
            try Tolerances.defaults.overriding(
                fileBytes: Array(#"{"schema": "tracekit-tolerances/1", "tolerances": {"speed": {}}}"#.utf8), file: "t.json")
        }
        #expect(throws: GateFileError.self) {
            try Tolerances.defaults.overriding(fileBytes: Array(#"{"tolerances": {}}"#.utf8), file: "t.json")
        }
    }

    @Test("the corpus aggregate sums counts and energy, keeps the largest trip p95, and takes its p95 from the pooled samples")
    func aggregate() {
        var a = CorpusAggregate()
        a.add(Self.metrics(sent: 10, p95: 4, energy: 100))
        a.add(Self.metrics(sent: 20, p95: nil, energy: 50))
        a.add(Self.metrics(sent: 30, p95: 8, energy: 25))
        var r = a.row(.state(.enRoute), .helper)!
        #expect(a.trips == 3 && r.trips == 3)
        #expect(r.value(.sent) == 60 && r.value(.energyTotal) == 175)
        // Without pooled samples the corpus has no p95 of its own, only the largest trip's.
        #expect(r.value(.displayErrorP95) == nil && r.p95Max[.displayErrorP95] == 8)
        var v = PooledViews.Cell()
        for x in 1...100 { v.displayError.add(Double(x)) }
        a.pool(Self.views(v))
        r = a.row(.state(.enRoute), .helper)!
        #expect(r.value(.displayErrorP95) == 95 && r.value(.stalenessP95) == nil)
        #expect(a.rows.map(\.state) == [.state(.enRoute), .total])
    }

    static func views(_ c: PooledViews.Cell) -> PooledViews {
        var root = JSONValue.array([
            .object([
                ("state", .string("enRoute")), ("role", .string("helper")), ("displayError", PooledViews.json(c.displayError)),
                ("staleness", PooledViews.json(c.staleness)),
            ])
        ])
        root = try! JSONParser.parse(Array(JSONWriter.compact(root).utf8))
        return try! PooledViews(json: root, "views", reader: Reader(file: "t"))
    }

    struct Reader: JSONFieldReading { var file: String }

    @Test("pooled p95s equal the nearest-rank p95 over every sample of every trip, in any order of merging")
    func pooledPercentiles() throws {
        var rng = SplitMix64(seed: 22)
        var all: [Double] = []
        var trips: [PooledViews] = []
        for t in 0..<12 {
            var c = PooledViews.Cell()
            // Trips of very different sizes and scales: a mean of their p95s is far from the pool's.
            for _ in 0..<(t * 97 % 400 + 3) {
                let x = t % 3 == 0 ? rng.uniform(0, 50) : rng.uniform(0, 3_000)
                all.append(x)
                c.displayError.add(x)
                c.staleness.add(x / 10)
            }
            trips.append(Self.views(c))  // through the JSON form, as a shard line carries it
        }
        var forward = PooledViews(), backward = PooledViews()
        for t in trips { forward.merge(t) }
        for t in trips.reversed() { backward.merge(t) }
        all.sort()
        let n = all.count
        for p in [0.5, 0.95, 0.99, 1.0] {
            let exact = all[Int((p * Double(n)).rounded(.up)) - 1]
            let pooled = forward[.state(.enRoute), .helper]!.displayError.quantile(p)!
            #expect(pooled == backward[.state(.enRoute), .helper]!.displayError.quantile(p))
            // The histogram's resolution (QuantileHistogram): 0.1 below 102.4, 1/512 above, rounded down.
            #expect(pooled <= exact && pooled >= min(exact - 0.1, exact * (1 - 1.0 / 512) - 0.1), "p\(p): \(pooled) vs \(exact)")
        }
        #expect(forward.p95(.displayErrorP95, .state(.enRoute), .helper) == forward[.state(.enRoute), .helper]!.displayError.quantile(0.95))
        #expect(forward[.state(.enRoute), .helper]!.displayError.count == n)
        #expect(forward[.state(.enRoute), .helper]!.displayError.max == all.last)
    }
}
