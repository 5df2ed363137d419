import Foundation
import TestSupport
import Testing
import TraceBatch
import TraceDomain
import TraceJSON

/// The gate's one count, end to end with the built binary: a baseline of two trips whose figures
/// are moved by a known amount, so that what fails is known before the run; then every report
/// (the table, standard error, Markdown, JUnit, HTML, and the `--jsonl` lines merged) gives the
/// same count of figures failing the gate, in words.
@Suite("tracekit batch: one count of figures failing the gate, in every report", .serialized)
struct GateCountTests {
    /// One figure of the baseline: a trip, a state, a role and a metric.
    struct Figure: Hashable {
        var trip: String
        var state: FulfilmentStateKey
        var role: Role
        var metric: GateMetric

        /// Its JUnit test case: "TRIP STATE/ROLE/METRIC".
        var testCase: String { "classname=\"\(trip)\" name=\"\(state.displayName)/\(role.key)/\(metric.rawValue)\"" }
    }

    /// How a figure of the baseline is changed.
    enum Change {
        /// The baseline's value halved, less 10: this run is worse beyond any default tolerance
        /// (for a value of at least 20: +100 % and at least 20 units).
        case worse
        /// The baseline's value doubled, plus 10: this run is better beyond any default tolerance.
        case better
        /// The baseline has no value: measured now only.
        case appeared
    }

    /// Two trips of the demo corpus in `dir/corpus`, their baseline written as measured
    /// (`dir/measured.json`), then again with `changes` applied (`dir/b.json`). Returns the
    /// baseline's figures (as the gate compares them: every metric of every row).
    static func corpus(_ dir: String, _ changes: [(Figure, Change)]) throws -> [Figure] {
        let fm = FileManager.default
        try fm.createDirectory(atPath: "\(dir)/corpus", withIntermediateDirectories: true)
        for trip in ["ride", "dog-walk"] {
            try fm.copyItem(atPath: packageRoot.appendingPathComponent("Traces/trips/\(trip)").path, toPath: "\(dir)/corpus/\(trip)")
        }
        let w = try Run(["batch", "\(dir)/corpus", "--write-baseline", "\(dir)/measured.json"])
        #expect(w.status == 0, "\(w.stderr)")
        var b = try Baseline(fileBytes: Array(try BatchCommandTests.read("\(dir)/measured.json").utf8), file: "measured.json")
        var all: [Figure] = []
        for t in b.trips {
            for r in t.metrics.rows {
                for m in GateMetric.allCases { all.append(Figure(trip: t.id, state: r.state, role: r.role, metric: m)) }
            }
        }
        for (f, change) in changes {
            let t = try #require(b.trips.firstIndex { $0.id == f.trip }, "\(f.trip)")
            let r = try #require(b.trips[t].metrics.rows.firstIndex { $0.state == f.state && $0.role == f.role }, "\(f)")
            let v = try #require(b.trips[t].metrics.rows[r].values[f.metric], "\(f) has no value")
            switch change {
            case .worse:
                try #require(v >= 20, "\(f) is \(v): too small to move beyond tolerance by halving")
                b.trips[t].metrics.rows[r].values[f.metric] = v / 2 - 10
            case .better: b.trips[t].metrics.rows[r].values[f.metric] = v * 2 + 10
            case .appeared: b.trips[t].metrics.rows[r].values[f.metric] = nil
            }
        }
        try (JSONWriter.string(b.json) + "\n").write(toFile: "\(dir)/b.json", atomically: true, encoding: .utf8)
        return all
    }

    static let ride = "ride/ride.scenario.json", dogWalk = "dog-walk/dog-walk.scenario.json"

    /// The count in the words every report uses (README, "Tolerances and the verdict").
    static func expectedCount(worse: Int, better: Int, appeared: Int, strict: Bool) -> String {
        let n = worse + (strict ? better + appeared : 0)
        let head = "\(n) figure\(n == 1 ? "" : "s") failing the gate"
        guard n > 0 else { return head }
        guard strict else { return head + " (worse beyond tolerance)" }
        var kinds: [String] = []
        let beyond = [worse > 0 ? "\(worse) worse" : nil, better > 0 ? "\(better) better" : nil].compactMap { $0 }
        if !beyond.isEmpty { kinds.append(beyond.joined(separator: " and ") + " beyond tolerance") }
        if appeared > 0 { kinds.append("\(appeared) measured in only one of the two") }
        return head + " (" + kinds.joined(separator: ", ") + ")"
    }

    /// The number in `name="VALUE"` of the first `<tag …>` of `xml`.
    static func attribute(_ name: String, of tag: String, in xml: String) throws -> Int {
        let start = try #require(xml.range(of: "<\(tag) "))
        let end = try #require(xml[start.upperBound...].firstIndex(of: ">"))
        let head = xml[start.upperBound..<end]
        let r = try #require(head.range(of: "\(name)=\""))
        return try #require(Int(head[r.upperBound...].prefix { $0 != "\"" }))
    }

    static func count(_ s: String, in text: String) -> Int { text.components(separatedBy: s).count - 1 }

    @Test(
        "terminal, standard error, Markdown, JUnit, HTML and the --jsonl lines merged give one count: figures failing the gate",
        arguments: [false, true])
    func oneCount(strict: Bool) throws {
        try BatchCommandTests.scratch { dir in
            // Several figures of one trip, state and role (one line of the listing, one test case
            // per metric group before), two trips, and every verdict that can fail.
            let changes: [(Figure, Change)] = [
                (Figure(trip: Self.ride, state: .state(.enRoute), role: .helper, metric: .delivered), .worse),
                (Figure(trip: Self.ride, state: .state(.enRoute), role: .helper, metric: .sent), .worse),
                (Figure(trip: Self.ride, state: .state(.enRoute), role: .helper, metric: .forwarded), .worse),
                (Figure(trip: Self.ride, state: .total, role: .helper, metric: .energyTotal), .worse),
                (Figure(trip: Self.ride, state: .total, role: .helper, metric: .energyRadio), .worse),
                (Figure(trip: Self.dogWalk, state: .state(.enRoute), role: .helper, metric: .displayErrorP95), .better),
                (Figure(trip: Self.dogWalk, state: .total, role: .helper, metric: .stalenessP95), .appeared),
            ]
            let figures = try Self.corpus(dir, changes)
            func changed(_ c: Change) -> [Figure] {
                changes.filter {
                    switch ($0.1, c) {
                    case (.worse, .worse), (.better, .better), (.appeared, .appeared): true
                    default: false
                    }
                }.map(\.0)
            }
            let worse = changed(.worse).count, better = changed(.better).count, appeared = changed(.appeared).count
            let failing = strict ? changes.map(\.0) : changed(.worse)
            let expected = Self.expectedCount(worse: worse, better: better, appeared: appeared, strict: strict)
            #expect(expected.hasPrefix("\(failing.count) figures failing the gate ("))

            let gate = ["--baseline", "\(dir)/b.json"] + (strict ? ["--strict"] : [])
            let r = try Run(
                ["batch", "\(dir)/corpus"] + gate + ["--junit", "\(dir)/j.xml", "--markdown", "\(dir)/m.md", "--html", "\(dir)/h.html"])
            #expect(r.status == 1, "\(r.stderr)")

            // The terminal: the verdict, the gate's title, and each trip's figures failing, which add up.
            let out = BatchReportTests.lines(r.stdout)
            let verdict = try #require(out.first { $0.hasPrefix("Verdict: ") })
            #expect(verdict.hasPrefix("Verdict: FAILED: gate failed against \(dir)/b.json: \(expected)"), "\(verdict)")
            #expect(out.contains { $0.hasPrefix("Gate against \(dir)/b.json: \(expected); the figures beyond tolerance") }, "\(r.stdout)")
            var perTrip = 0
            for line in out {
                guard let i = line.range(of: " figures failing") ?? line.range(of: " figure failing") else { continue }
                guard let n = Int(line[..<i.lowerBound].split(separator: " ").last ?? "") else { continue }
                if line.hasPrefix(Self.ride) || line.hasPrefix(Self.dogWalk) { perTrip += n }
            }
            #expect(perTrip == failing.count, "\(r.stdout)")
            // Standard error's last line: the verdict's reason.
            let last = try #require(r.stderr.split(separator: "\n").last.map(String.init))
            #expect(last.hasPrefix("tracekit: gate failed against \(dir)/b.json: \(expected)"), "\(r.stderr)")

            // Markdown: the verdict and the gate's fold.
            let md = try BatchCommandTests.read("\(dir)/m.md")
            #expect(md.contains("**❌ FAILED: gate failed against \(dir)/b.json: \(expected)"), "\(md)")
            #expect(md.contains("<details><summary>Gate against \(dir)/b.json: \(expected); the figures beyond tolerance"), "\(md)")

            // JUnit: one test case per figure; the failures are the figures failing, and no other.
            let xml = try BatchCommandTests.read("\(dir)/j.xml")
            #expect(JUnitSchema.validates(xml))
            #expect(xml.contains("<!-- \(expected): one test case per figure (trip, state, role and metric) -->"))
            #expect(try Self.attribute("failures", of: "testsuites", in: xml) == failing.count)
            #expect(Self.count("<failure ", in: xml) == failing.count)
            #expect(try Self.attribute("tests", of: "testsuites", in: xml) == figures.count)
            #expect(Self.count("<testcase ", in: xml) == figures.count)
            let failed = figures.filter { xml.contains("<testcase \($0.testCase)>\n      <failure ") }
            let passed = figures.filter { xml.contains("<testcase \($0.testCase)/>") }
            #expect(Set(failed) == Set(failing) && failed.count == failing.count, "\(failed.map(\.testCase))")
            #expect(passed.count == figures.count - failing.count && Set(passed).isDisjoint(with: failing))

            // HTML: the verdict and the gate's section.
            let html = try BatchCommandTests.read("\(dir)/h.html")
            #expect(html.contains("<p id=\"verdict\" class=\"verdict fail\">✗ FAILED: gate failed against \(dir)/b.json: \(expected)"))
            #expect(html.contains("<p id=\"gate-count\">\(expected); the figures beyond tolerance"), "\(html)")

            // JSON: the trips' lines (the verdict on standard error), merged and gated: the same count.
            let lines = try Run(["batch", "\(dir)/corpus", "--jsonl"] + gate)
            #expect(lines.status == 1)
            #expect(lines.stderr.hasSuffix("\n\(last)\n"), "\(lines.stderr)")
            try lines.stdout.write(toFile: "\(dir)/lines.jsonl", atomically: true, encoding: .utf8)
            let merged = try Run(["merge", "\(dir)/lines.jsonl"] + gate + ["--junit", "\(dir)/merged.xml"])
            #expect(merged.status == 1)
            #expect(merged.stdout.contains("\nVerdict: FAILED: gate failed against \(dir)/b.json: \(expected)"), "\(merged.stdout)")
            #expect(try Self.attribute("failures", of: "testsuites", in: try BatchCommandTests.read("\(dir)/merged.xml")) == failing.count)
        }
    }

    @Test("the strict gate fails on a figure better beyond tolerance alone; without --strict it passes")
    func strictFailsAnImprovement() throws {
        try BatchCommandTests.scratch { dir in
            let better = Figure(trip: Self.ride, state: .state(.enRoute), role: .helper, metric: .energyFixes)
            let figures = try Self.corpus(dir, [(better, .better)])
            for strict in [false, true] {
                let expected = Self.expectedCount(worse: 0, better: 1, appeared: 0, strict: strict)
                #expect(expected == (strict ? "1 figure failing the gate (1 better beyond tolerance)" : "0 figures failing the gate"))
                let r = try Run(
                    ["batch", "\(dir)/corpus", "--baseline", "\(dir)/b.json", "--junit", "\(dir)/j.xml"] + (strict ? ["--strict"] : []))
                #expect(r.status == (strict ? 1 : 0), "\(r.stderr)")
                let verdict = try #require(BatchReportTests.lines(r.stdout).first { $0.hasPrefix("Verdict: ") })
                #expect(
                    verdict.hasPrefix(
                        strict
                            ? "Verdict: FAILED: gate failed against \(dir)/b.json: \(expected), --strict: refresh the baseline · "
                            : "Verdict: passed: gate against \(dir)/b.json: \(expected) · 2 trips compared, 1 figure better beyond tolerance (pass), "
                    ), "\(verdict)")
                let xml = try BatchCommandTests.read("\(dir)/j.xml")
                #expect(try Self.attribute("failures", of: "testsuites", in: xml) == (strict ? 1 : 0))
                #expect(try Self.attribute("tests", of: "testsuites", in: xml) == figures.count)
                #expect(xml.contains("<testcase \(better.testCase)>\n      <failure ") == strict)
                #expect(xml.contains("type=\"improvement\"") == strict)
            }
            // The measured baseline, unchanged: the strict gate passes.
            let same = try Run(["batch", "\(dir)/corpus", "--baseline", "\(dir)/measured.json", "--strict"])
            #expect(same.status == 0, "\(same.stdout)")
            #expect(same.stdout.contains("\nVerdict: passed: gate against \(dir)/measured.json: 0 figures failing the gate · "))
        }
    }

    @Test("make gate runs the strict gate: the Makefile's gate target passes --strict")
    func makeGateIsStrict() throws {
        let makefile = try String(contentsOf: packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let recipe = try #require(makefile.components(separatedBy: "\ngate: ").dropFirst().first?.split(separator: "\n").dropFirst().first)
        #expect(recipe == "\t$(BIN) batch Traces/ --baseline Traces/baseline.json --strict", "\(recipe)")
    }
}
