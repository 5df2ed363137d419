import Foundation
import TestSupport
import Testing

@testable import TraceCLI

/// `tracekit merge`, end to end: the bundled corpus in shards, merged, against one batch.
@Suite("tracekit merge, end to end", .serialized)
struct MergeCommandTests {
    static let scratch = BatchCommandTests.scratch
    static let read = BatchCommandTests.read

    /// The report files of a run into `dir`, named with `tag`.
    static func reports(_ dir: String, _ tag: String) -> [String] {
        ["--junit", "\(dir)/\(tag).xml", "--markdown", "\(dir)/\(tag).md", "--html", "\(dir)/\(tag).html"]
    }

    /// Runs `batch ARGS` in `count` shards with `--jsonl` (and `--html`, so the lines carry the
    /// pictures); returns the shard files, the last shard first.
    static func shards(_ dir: String, _ count: Int, _ args: [String]) throws -> [String] {
        var files: [String] = []
        for i in 0..<count {
            let r = try Run(["batch"] + args + ["--shard", "\(i)/\(count)", "--jsonl", "--html", "\(dir)/shard-\(i).html"])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            let file = "\(dir)/shard-\(i)-of-\(count).jsonl"
            try r.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        return files.reversed()  // any order
    }

    /// `merge`'s outputs equal `batch`'s byte for byte: standard output, standard error (the verdict), the status and
    /// every file.
    static func expectSame(_ batch: Run, _ merge: Run, _ dir: String, files: [(String, String)]) throws {
        #expect(merge.status == batch.status, "\(merge.stderr)")
        #expect(merge.stdout == batch.stdout)
        #expect(merge.stderr == batch.stderr)
        for (a, b) in files {
            let x = try Self.read(a), y = try Self.read(b)
            #expect(x == y, "\(a) and \(b) differ")
            #expect(!x.isEmpty)
        }
    }

    @Test("1, 2 and 3 shards merged: the table, the baseline, JUnit, Markdown and HTML of one batch, byte for byte", arguments: [1, 2, 3])
    func sameAsBatch(count: Int) throws {
        try Self.scratch { dir in
            let batch = try Run(["batch", "Traces/", "--write-baseline", "\(dir)/a.json"] + Self.reports(dir, "a"))
            #expect(batch.status == 0, "\(batch.stderr)")
            let files = try Self.shards(dir, count, ["Traces/"])
            let merge = try Run(["merge"] + files + ["--write-baseline", "\(dir)/b.json"] + Self.reports(dir, "b"))
            try Self.expectSame(
                batch, merge, dir,
                files: [("a.json", "b.json"), ("a.xml", "b.xml"), ("a.md", "b.md"), ("a.html", "b.html")].map {
                    ("\(dir)/\($0)", "\(dir)/\($1)")
                })
            #expect(merge.stdout.contains("Batch: 12 trips from Traces/"))
            // The bundled baseline is what the merge writes: the committed one, refreshed by `make baseline`.
            #expect(try Self.read("\(dir)/b.json") == Self.read(packageRoot.appendingPathComponent("Traces/baseline.json").path))
        }
    }

    @Test("a failing gate with --compare, in 2 and 3 shards: the same verdict, exit status, tables and files", arguments: [2, 3])
    func failingGateWithCompare(count: Int) throws {
        try Self.scratch { dir in
            let policy = try BatchCommandTests.chattyPolicy(dir)
            let args = ["Traces/", "--policy", policy, "--compare", "seed"]
            let batch = try Run(["batch"] + args + ["--baseline", "Traces/baseline.json"] + Self.reports(dir, "a"))
            #expect(batch.status == 1)
            #expect(batch.stderr.contains(" figures failing the gate (worse beyond tolerance)"))
            #expect(batch.stdout.contains("Per state and role, policy chatty (A) → seed (B)"))
            let files = try Self.shards(dir, count, args)
            let merge = try Run(["merge"] + files + ["--baseline", "Traces/baseline.json"] + Self.reports(dir, "b"))
            try Self.expectSame(
                batch, merge, dir,
                files: [("a.xml", "b.xml"), ("a.md", "b.md"), ("a.html", "b.html")].map { ("\(dir)/\($0)", "\(dir)/\($1)") })
            // The same tolerances: a flag that lets every regression pass changes both alike.
            let loose = ["--tolerance", "sent=10,1000", "--tolerance", "delivered=10,1000", "--tolerance", "forwarded=10,1000"]
            let b2 = try Run(["batch"] + args + ["--baseline", "Traces/baseline.json"] + loose)
            let m2 = try Run(["merge"] + files + ["--baseline", "Traces/baseline.json"] + loose)
            #expect(b2.status == m2.status && b2.stdout == m2.stdout && b2.stderr == m2.stderr)
        }
    }

    @Test("a repeated trip: identical lines count once; differing lines are refused, naming the trip, the file and the line")
    func duplicates() throws {
        try Self.scratch { dir in
            let batch = try Run(["batch", "Traces/"])
            let files = try Self.shards(dir, 2, ["Traces/"])
            // A retried task: one shard's file twice, and its first line once more at the end of the other.
            let lines = try Self.read(files[1]).split(separator: "\n")
            try (Self.read(files[0]) + lines[0] + "\n").write(toFile: "\(dir)/retried.jsonl", atomically: true, encoding: .utf8)
            let merge = try Run(["merge", "\(dir)/retried.jsonl", files[1], files[1]])
            #expect(merge.status == 0 && merge.stdout == batch.stdout, "\(merge.stderr)")

            // The same trip with another figure: refused.
            let changed = lines[0].replacingOccurrences(of: #""fixes":"#, with: #""fixes":1"#)
            #expect(changed != lines[0])
            try (changed + "\n").write(toFile: "\(dir)/other.jsonl", atomically: true, encoding: .utf8)
            let r = try Run(["merge", files[0], files[1], "\(dir)/other.jsonl"])
            #expect(r.status == 65 && r.stdout.isEmpty)
            let trip = try #require(lines[0].firstMatch(of: /"trip":"([^"]*)"/)?.1)
            let index = try #require(lines[0].firstMatch(of: /"index":([0-9]+)/)?.1)
            #expect(
                r.stderr
                    == "tracekit: \(dir)/other.jsonl:1: trip \(trip) (index \(index)) is in the shards twice with different lines: shards of different runs?\n"
            )
        }
    }

    @Test("a line past JSON's 16 MiB default (up to the 256 MiB a merge reads) merges as the same line unpadded")
    func longLine() throws {
        try Self.scratch { dir in
            let files = try Self.shards(dir, 2, ["Traces/"])
            let plain = try Run(["merge"] + files)
            let lines = try Self.read(files[0]).split(separator: "\n")
            // White space after the opening brace: the same JSON value, 17 MiB longer.
            let padded = "{" + String(repeating: " ", count: 17 << 20) + lines[0].dropFirst()
            try ([padded] + lines.dropFirst().map(String.init)).joined(separator: "\n").appending("\n").write(
                toFile: "\(dir)/padded.jsonl", atomically: true, encoding: .utf8)
            let merge = try Run(["merge", "\(dir)/padded.jsonl", files[1]])
            #expect(merge.status == 0 && merge.stdout == plain.stdout, "\(merge.stderr)")
        }
    }

    @Test("a retried task with another --jobs gives the same trip: counted once; a damaged trip count is refused at once")
    func retriedAndDamaged() throws {
        try Self.scratch { dir in
            let batch = try Run(["batch", "Traces/", "--jobs", "1"])
            let one = try Run(["batch", "Traces/", "--shard", "0/2", "--jsonl", "--jobs", "1"])
            let two = try Run(["batch", "Traces/", "--shard", "0/2", "--jsonl", "--jobs", "2"])
            let other = try Run(["batch", "Traces/", "--shard", "1/2", "--jsonl", "--jobs", "1"])
            #expect(one.stdout != two.stdout)  // the lines name their --jobs
            try one.stdout.write(toFile: "\(dir)/a.jsonl", atomically: true, encoding: .utf8)
            try two.stdout.write(toFile: "\(dir)/a2.jsonl", atomically: true, encoding: .utf8)
            try other.stdout.write(toFile: "\(dir)/b.jsonl", atomically: true, encoding: .utf8)
            let merge = try Run(["merge", "\(dir)/a.jsonl", "\(dir)/b.jsonl", "\(dir)/a2.jsonl"])
            // The table names the largest --jobs of the shards: 2 here, as a batch with --jobs 2 would.
            #expect(merge.status == 0, "\(merge.stderr)")
            #expect(merge.stdout == batch.stdout.replacingOccurrences(of: " · 1 job · ", with: " · 2 jobs · "))
            // A shard read with another recording gap is another batch: refused, naming both.
            let gap = try Run(["batch", "Traces/", "--shard", "1/2", "--jsonl", "--jobs", "1", "--gap", "1m"])
            try gap.stdout.write(toFile: "\(dir)/gap.jsonl", atomically: true, encoding: .utf8)
            let mixed = try Run(["merge", "\(dir)/a.jsonl", "\(dir)/gap.jsonl"])
            #expect(mixed.status == 65 && mixed.stderr.contains("gap.jsonl:1: from another batch"), "\(mixed.stderr)")
            #expect(mixed.stderr.contains("gap 60 s") && mixed.stderr.contains("gap 600 s"), "\(mixed.stderr)")
            // A line whose trip count is damaged: one line, exit 65, without listing 10^11 trips.
            let damaged = one.stdout.replacingOccurrences(of: #""trips":12,"#, with: #""trips":100000000000,"#)
            #expect(damaged != one.stdout)
            try damaged.write(toFile: "\(dir)/damaged.jsonl", atomically: true, encoding: .utf8)
            let r = try Run(["merge", "\(dir)/damaged.jsonl"])
            #expect(r.status == 65 && r.stdout.isEmpty)
            #expect(r.stderr.contains("over 100000 trips missing is not a merge of its shards"), "\(r.stderr)")
            // A runner of a billion workers (a scale-out engine's parallelism) is a valid line:
            // merged, and the table names it.
            let many = (one.stdout + other.stdout).replacingOccurrences(of: #""jobs":1,"#, with: #""jobs":1000000000,"#)
            #expect(many != one.stdout + other.stdout)
            try many.write(toFile: "\(dir)/many.jsonl", atomically: true, encoding: .utf8)
            let big = try Run(["merge", "\(dir)/many.jsonl"])
            #expect(big.status == 0 && big.stdout.contains(" · 1000000000 jobs · "), "\(big.stderr)")
        }
    }

    @Test("a shard missing: its trips are not run and fail the merge; with a baseline they are its missing trips, by name")
    func missing() throws {
        try Self.scratch { dir in
            let files = try Self.shards(dir, 3, ["Traces/"])  // shard 2 first
            let r = try Run(["merge", files[1], files[2]])
            #expect(r.status == 1)
            #expect(r.stdout.contains("Batch: 12 trips from Traces/"))
            #expect(r.stdout.contains("\nTrips not run (4): in no shard's lines, so neither in the tables nor gated: index 2, 5, 8, 11\n"))
            #expect(r.stderr == "tracekit: 4 of 12 trips not run (in no shard's lines: index 2, 5, 8, 11)\n")
            #expect(try Run(["merge", files[1], files[2], "--junit", "\(dir)/j.xml"]).status == 1)
            let junit = try Self.read("\(dir)/j.xml")
            #expect(junit.contains(#"<testsuite name="index 5" tests="1" failures="0" errors="1" skipped="0">"#))
            #expect(junit.contains(#"<testsuites name="tracekit batch" tests="12" failures="0" errors="4">"#), "\(junit)")
            let g = try Run(["merge", files[1], files[2], "--baseline", "Traces/baseline.json"])
            #expect(g.status == 1)
            #expect(g.stdout.contains("  MISSING real/gpxanimator-bikeride_garmin_connect.scenario.json: in the baseline but not run"))
            #expect(g.stderr.contains("4 baseline trips not run"))
        }
    }

    @Test(
        "a truncated, foreign or older line, or lines of another batch: one line naming the file and the line, exit 65",
        arguments: [
            ("truncated", "invalid JSON at column"),
            ("foreign", #"(no "schema" member): a foreign line"#),
            ("other schema", #"(schema "tracekit-replay/3"): a foreign line"#),
            ("version 1", "a tracekit-batch-trip/1 line carries neither the report's figures nor the view samples"),
            ("bad member", "report.fixes: expected a whole number, found a string"),
            ("another batch", "from another batch (3 trips from Traces/trips, policy seed"),
        ])
    func badLines(kind: String, message: String) throws {
        try Self.scratch { dir in
            let files = try Self.shards(dir, 1, ["Traces/"])
            let good = try Self.read(files[0])
            let first = String(good.split(separator: "\n")[0])
            let bad: String =
                switch kind {
                case "truncated": String(first.prefix(first.count / 2))
                case "foreign": #"{"type": "Feature", "geometry": null}"#
                case "other schema": #"{"schema": "tracekit-replay/3"}"#
                case "version 1": first.replacingOccurrences(of: "tracekit-batch-trip/3", with: "tracekit-batch-trip/1")
                case "bad member": first.replacing(/"fixes":[0-9]+/, with: #""fixes":"many""#, maxReplacements: 1)
                default: String(try Run(["batch", "Traces/trips", "--jsonl"]).stdout.split(separator: "\n")[0])
                }
            // The bad line is the third of its file, after two good ones.
            let lines = good.split(separator: "\n")
            try (lines[1] + "\n" + lines[2] + "\n" + bad + "\n").write(toFile: "\(dir)/bad.jsonl", atomically: true, encoding: .utf8)
            let r = try Run(["merge", "\(dir)/bad.jsonl"])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("tracekit: \(dir)/bad.jsonl:3"), "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("standard input: the lines of a pipe; no line at all is an error; '-' twice is a usage error")
    func standardInput() throws {
        let lines = try Run(["batch", "Traces/trips", "--jsonl"]).stdout
        let batch = try Run(["batch", "Traces/trips"])
        let r = try Run(["merge", "-"], stdin: lines)
        #expect(r.status == 0 && r.stdout == batch.stdout, "\(r.stderr)")
        let none = try Run(["merge", "-"], stdin: "\n")
        #expect(none.status == 65 && none.stderr == "tracekit: no tracekit-batch-trip/3 line in -\n")
        #expect(try Run(["merge", "-", "-"]).status == 64)
        #expect(try Run(["merge", "no-such-file.jsonl"]).status == 66)
    }

    // MARK: --summary

    /// A corpus of the bundled trips and one that fails to replay (`broken.gpx`, index 0), in
    /// `dir/corpus`.
    static func corpusWithAFailure(_ dir: String) throws -> String {
        let fm = FileManager.default
        let corpus = "\(dir)/corpus"
        try fm.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        for item in ["real", "trips", "georust-garmin-activity.gpx", "georust-garmin-activity.scenario.json"] {
            try fm.copyItem(atPath: packageRoot.appendingPathComponent("Traces/\(item)").path, toPath: "\(corpus)/\(item)")
        }
        try "not a trace".write(toFile: "\(corpus)/broken.gpx", atomically: true, encoding: .utf8)
        return corpus
    }

    /// That corpus in 4 shards under a chattier policy (regressions against the bundled baseline)
    /// compared with the seed's, without shard 2 (trips not run, and baseline trips missing), and
    /// with shard 0's first line retried at the end of shard 1.
    static func failingShards(_ dir: String) throws -> [String] {
        let corpus = try corpusWithAFailure(dir)
        let policy = try BatchCommandTests.chattyPolicy(dir)
        var files: [String] = []
        for i in [3, 1, 0] {
            let r = try Run(["batch", corpus, "--policy", policy, "--compare", "seed", "--shard", "\(i)/4", "--jsonl"])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            files.append("\(dir)/shard-\(i).jsonl")
            try r.stdout.write(toFile: files.last!, atomically: true, encoding: .utf8)
        }
        let retried = try Self.read(files[2]).split(separator: "\n")[0]
        try (Self.read(files[1]) + retried + "\n").write(toFile: files[1], atomically: true, encoding: .utf8)
        return files
    }

    /// The table's corpus parts: from the first per-state table to the energy line.
    static func aggregates(_ table: String) -> String {
        guard let start = table.range(of: "\nPer state and role") ?? table.range(of: "\nCorpus, policy"),
            let energy = table.range(of: "\nEnergy of every phone", range: start.lowerBound..<table.endIndex),
            let end = table.range(of: "\n", range: energy.upperBound..<table.endIndex)
        else { return "" }
        return String(table[start.lowerBound..<end.upperBound])
    }

    /// The Markdown's corpus folds: from the first per-state or corpus fold to the energy line.
    static func markdownAggregates(_ md: String) -> String {
        let folds = ["\n<details><summary>Per state and role", "\n<details><summary>Corpus, policy"].compactMap { md.range(of: $0) }
        guard let start = folds.map(\.lowerBound).min(),
            let energy = md.range(of: "\nEnergy of every phone", range: start..<md.endIndex),
            let end = md.range(of: "\n", range: energy.upperBound..<md.endIndex)
        else { return "" }
        return String(md[start..<end.upperBound])
    }

    /// The names of a JUnit document's suites with a failure or an error, but the summary's corpus.
    static func failingSuites(_ xml: String) -> [String] {
        xml.matches(of: /<testsuite name="([^"]*)" tests="[0-9]+" failures="([0-9]+)" errors="([0-9]+)"/).compactMap { m in
            m.1 != "corpus" && (m.2 != "0" || m.3 != "0") ? String(m.1) : nil
        }
    }

    /// The names a summary's table lists as not passing, in its order.
    static func listed(_ table: String) -> [String] {
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        guard let title = lines.firstIndex(where: { $0.hasPrefix("Trips that did not pass") }) else { return [] }
        return lines[(title + 1)...].prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  and ") }.map {
            String($0.dropFirst(2).prefix { $0 != ":" })
        }
    }

    @Test(
        "--summary over shards with a regression, a failed trip, a missing shard and a retried line: the full merge's status, verdict, tables and trips that did not pass",
        arguments: [[], ["--baseline", "Traces/baseline.json"], ["--baseline", "Traces/baseline.json", "--strict"]])
    func summaryAsFull(args: [String]) throws {
        try Self.scratch { dir in
            let files = try Self.failingShards(dir)
            let full = try Run(["merge"] + files + args + ["--junit", "\(dir)/full.xml", "--markdown", "\(dir)/full.md"])
            let summary = try Run(["merge", "--summary"] + files + args + ["--junit", "\(dir)/sum.xml", "--markdown", "\(dir)/sum.md"])
            #expect(full.status == 1, "\(full.stderr)")
            #expect(summary.status == full.status)
            #expect(summary.stderr == full.stderr && full.stderr.contains("1 of 13 trips failed to replay; 3 of 13 trips not run"))
            let head = { (t: String) in t.split(separator: "\n").prefix(3).joined(separator: "\n") }  // the batch, the view, the verdict
            #expect(head(summary.stdout) == head(full.stdout) && head(full.stdout).contains("\nVerdict: FAILED: "), "\(summary.stdout)")
            // The same tables, digit for digit (the sums are exact, so the order of the lines does not matter).
            let tables = Self.aggregates(full.stdout)
            #expect(Self.aggregates(summary.stdout) == tables)
            #expect(tables.contains("\nCorpus, policy chatty: 9 trips replayed") && tables.contains("policy chatty (A) → seed (B)"))
            #expect(tables.contains("Per state and role, Traces/baseline.json → this run") == !args.isEmpty)
            #expect(tables.contains("\nEnergy of every phone over the 9 trips: "))
            // Exactly the trips that did not pass: those of the full JUnit's failing suites, in the batch's order.
            let fullXML = try Self.read("\(dir)/full.xml"), sumXML = try Self.read("\(dir)/sum.xml")
            let failing = Self.failingSuites(fullXML), listed = Self.listed(summary.stdout)
            #expect(Set(listed) == Set(failing) && listed.count == failing.count, "\(listed) \(failing)")
            #expect(listed.prefix(2) == ["broken.gpx", "index 2"])
            #expect(listed.contains("trips/ride/ride.scenario.json") == !args.isEmpty)
            #expect(listed.contains("trips/dog-walk/dog-walk.scenario.json") == !args.isEmpty)  // in the missing shard
            #expect(summary.stdout.contains("\nTrips that did not pass (\(failing.count)), in the batch's order\n"))
            #expect(Self.failingSuites(sumXML) == listed)
            #expect(JUnitSchema.validates(sumXML))
            #expect(sumXML.contains(#"<testsuite name="corpus" tests="1" failures="1" errors="0" skipped="0">"#))
            // Markdown: the same verdict and corpus folds.
            let fullMD = try Self.read("\(dir)/full.md"), sumMD = try Self.read("\(dir)/sum.md")
            let verdict = { (md: String) in md.split(separator: "\n").first { $0.hasPrefix("**❌") } }
            #expect(verdict(sumMD) != nil && verdict(sumMD) == verdict(fullMD))
            #expect(Self.markdownAggregates(sumMD) == Self.markdownAggregates(fullMD) && !Self.markdownAggregates(fullMD).isEmpty)
            #expect(sumMD.contains("- `broken.gpx`: failed to replay: "))
        }
    }

    @Test("--summary lists the first 100 trips that did not pass in the batch's order, whatever the lines' order, then how many more")
    func summaryCap() throws {
        try Self.scratch { dir in
            // The corpus's 13 lines, last first, of a batch of 150: 137 not run, and the trip that failed.
            let corpus = try Self.corpusWithAFailure(dir)
            let lines = try Run(["batch", corpus, "--jsonl"]).stdout.split(separator: "\n").reversed()
            #expect(lines.count == 13)
            let grown = lines.map { $0.replacingOccurrences(of: #""trips":13,"#, with: #""trips":150,"#) }.joined(separator: "\n")
            try (grown + "\n").write(toFile: "\(dir)/lines.jsonl", atomically: true, encoding: .utf8)
            let full = try Run(["merge", "\(dir)/lines.jsonl"])
            let summary = try Run(["merge", "--summary", "\(dir)/lines.jsonl", "--junit", "\(dir)/sum.xml"])
            #expect(full.status == 1 && summary.status == 1 && summary.stderr == full.stderr, "\(summary.stderr)")
            #expect(Self.listed(summary.stdout) == ["broken.gpx"] + (13..<112).map { "index \($0)" })
            #expect(summary.stdout.contains("\nTrips that did not pass (138), the first 100 in the batch's order\n"))
            #expect(
                summary.stdout.contains(
                    "\n  index 111: not run: in no shard's lines\n  and 38 more (merge without --summary lists every trip)\n"))
            let xml = try Self.read("\(dir)/sum.xml")
            #expect(
                JUnitSchema.validates(xml) && xml.contains(#"<testsuites name="tracekit batch" tests="101" failures="1" errors="100">"#))
            #expect(
                xml.contains(
                    "<system-out>150 trips: 12 replayed, 1 failed, 137 not run; 138 did not pass, 100 listed as a suite each</system-out>"))
        }
    }

    @Test(
        "--summary with --html or --write-baseline: a usage error saying why, nothing written", arguments: ["--html", "--write-baseline"])
    func summaryRefuses(flag: String) throws {
        try Self.scratch { dir in
            try Run(["batch", "Traces/trips", "--jsonl"]).stdout.write(toFile: "\(dir)/lines.jsonl", atomically: true, encoding: .utf8)
            let r = try Run(["merge", "--summary", "\(dir)/lines.jsonl", flag, "\(dir)/out", "--junit", "\(dir)/j.xml"])
            #expect(r.status == 64 && r.stdout.isEmpty)
            #expect(
                r.stderr.split(separator: "\n").first
                    == "tracekit: \(flag) needs every trip, which --summary does not keep: run 'tracekit merge' without --summary to write it"
            )
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/out") && !FileManager.default.fileExists(atPath: "\(dir)/j.xml"))
        }
    }

    @Test("--summary refuses the lines the full merge refuses, with the same error", arguments: ["differing", "two trips", "two indices"])
    func summaryRefusesAlike(kind: String) throws {
        try Self.scratch { dir in
            let lines = try Run(["batch", "Traces/trips", "--jsonl"]).stdout.split(separator: "\n").map(String.init)
            let name = try #require(lines[0].firstMatch(of: /"trip":"([^"]*)"/)?.1)
            let bad: String =
                switch kind {
                case "differing": lines[0].replacingOccurrences(of: #""fixes":"#, with: #""fixes":1"#)
                case "two trips": lines[0].replacingOccurrences(of: #""trip":"\#(name)""#, with: #""trip":"another""#)
                default: lines[1].replacing(/"trip":"[^"]*"/, with: #""trip":"\#(name)""#, maxReplacements: 1)
                }
            #expect(!lines.contains(bad))
            try (lines.joined(separator: "\n") + "\n" + bad + "\n").write(toFile: "\(dir)/bad.jsonl", atomically: true, encoding: .utf8)
            let full = try Run(["merge", "\(dir)/bad.jsonl"]), summary = try Run(["merge", "--summary", "\(dir)/bad.jsonl"])
            #expect(full.status == 65 && summary.status == 65 && summary.stdout.isEmpty)
            #expect(summary.stderr == full.stderr && full.stderr.hasPrefix("tracekit: \(dir)/bad.jsonl:4: "), "\(full.stderr)")
        }
    }

    @Test("--summary keeps no trip's report: what grows with the lines is the index alone")
    func summaryKeepsNoTrip() throws {
        let lines = try Run(["batch", "Traces/", "--jsonl"]).stdout.split(separator: "\n").map(String.init)
        for summary in [false, true] {
            var merged = MergeCommand.Merged(inBaseline: [])
            if summary { merged.summary = MergeCommand.Summary(try BatchCommand.GateSetup(GateOptions()), strict: false) }
            for (i, text) in lines.enumerated() {
                try merged.add(BatchLine.parse(text, file: "-", number: i + 1), hash: MergeCommand.hash(text), place: "-:\(i + 1)")
            }
            #expect(merged.hashes.count == 12 && merged.names.count == 12)
            #expect(merged.runs.count == (summary ? 0 : 12))
            #expect(merged.summary?.folded.replayed == (summary ? 12 : nil))
            #expect(merged.summary?.notPassing.listed.isEmpty != false)
        }
    }
}

@Test("the merge fuzzer's seed is a batch line; cut or damaged copies are refused with one line, never a crash")
func mergeFuzzSeed() throws {
    let seed = try String(contentsOf: packageRoot.appendingPathComponent("Fuzz/Seeds/merge/one-trip.jsonl"), encoding: .utf8)
    let line = String(seed.split(separator: "\n")[0])
    #expect(BatchLine.check(line, file: "seed.jsonl", number: 1) == nil)
    // Every prefix at 97 cut points, and the line with each of a few bytes replaced.
    for cut in stride(from: 0, to: line.utf8.count, by: max(1, line.utf8.count / 97)) {
        let message = BatchLine.check(String(decoding: Array(line.utf8.prefix(cut)), as: UTF8.self), file: "cut.jsonl", number: 1)
        #expect(message?.hasPrefix("cut.jsonl:1:") == true && message?.contains("\n") == false)
    }
    for (from, to) in [(#""trips":"#, #""trips":-"#), (#""jobs":"#, #""jobs":1e400,"x":"#), ("\"state\"", "\"\u{1B}\"")] {
        let damaged = line.replacingOccurrences(of: from, with: to)
        #expect(damaged != line && BatchLine.check(damaged, file: "d.jsonl", number: 3)?.hasPrefix("d.jsonl:3:") == true)
    }
}
