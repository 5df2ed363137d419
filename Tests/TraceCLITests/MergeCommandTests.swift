import Foundation
import TestSupport
import Testing
import TraceCLI

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
