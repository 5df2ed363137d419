import Foundation
import TestSupport
import Testing

/// `tracekit batch - --trip NAME --index I --of N --jsonl`: one trip of a batch streamed on
/// standard input (Spark's job 2: a request's pings grouped and piped), its line merged with the
/// others' as the lines of one batch over the same files.
@Suite("tracekit batch --trip: a trip streamed on standard input, merged", .serialized)
struct StreamedTripTests {
    static let scratch = BatchCommandTests.scratch
    static let read = BatchCommandTests.read

    /// The bundled multi-phone trips as one CSV each in `dir/requests/` (every role's fixes, a
    /// `role` column saying whose): the folder a batch reads and the streams the trips are.
    /// Returns the trips' names in the folder batch's order (by their bytes).
    static func requests(_ dir: String) throws -> [String] {
        let folder = "\(dir)/requests"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let trips = packageRoot.appendingPathComponent("Traces/trips").path
        var names: [String] = []
        for trip in try FileManager.default.contentsOfDirectory(atPath: trips).sorted() {
            var header = "", rows: [String] = []
            for trace in try FileManager.default.contentsOfDirectory(atPath: "\(trips)/\(trip)").sorted() where trace.hasSuffix(".gpx") {
                let role = String(trace.dropLast(4))
                let csv = try Run(["convert", "\(trips)/\(trip)/\(trace)", "-", "--to", "csv"])
                let lines = csv.stdout.split(separator: "\n").map(String.init)
                header = lines[0]
                let column = try #require(header.split(separator: ",").firstIndex(of: "role"))
                for line in lines.dropFirst() {
                    var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    cells[column] = role
                    rows.append(cells.joined(separator: ","))
                }
            }
            try ([header] + rows).joined(separator: "\n").appending("\n").write(
                toFile: "\(folder)/\(trip).csv", atomically: true, encoding: .utf8)
            names.append("\(trip).csv")
        }
        #expect(names.count == 3)
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// `batch - --trip NAME --index I --of N --corpus CORPUS --jsonl --jobs 1` on `stdin`.
    static func stream(_ name: String, _ index: Int, of count: Int, corpus: String, stdin: String, _ more: [String] = []) throws -> Run {
        try Run(
            ["batch", "-", "--trip", name, "--index", "\(index)", "--of", "\(count)", "--corpus", corpus, "--jsonl", "--jobs", "1"]
                + more, stdin: stdin)
    }

    @Test("each trip streamed with its name, index and the batch's size, merged in any order: one batch over the same files, byte for byte")
    func sameAsBatch() throws {
        try Self.scratch { dir in
            let names = try Self.requests(dir)
            let corpus = "\(dir)/requests/"
            let reports = MergeCommandTests.reports
            let batch = try Run(["batch", corpus, "--jobs", "1", "--write-baseline", "\(dir)/a.json"] + reports(dir, "a"))
            #expect(batch.status == 0, "\(batch.stderr)")
            #expect(batch.stdout.contains("Batch: 3 trips from \(corpus) "))
            var files: [String] = []
            for (i, name) in names.enumerated() {
                let s = try Self.stream(
                    name, i, of: names.count, corpus: corpus, stdin: Self.read(corpus + name), ["--html", "\(dir)/s.html"])
                #expect(s.status == 0, "\(s.stderr)")
                #expect(s.stdout.split(separator: "\n").count == 1)
                #expect(s.stdout.contains(#""index":\#(i),"trip":"\#(name)","path":"-","kind":"trace""#), "\(s.stdout.prefix(300))")
                files.append("\(dir)/stream-\(i).jsonl")
                try s.stdout.write(toFile: files[i], atomically: true, encoding: .utf8)
            }
            let merge = try Run(["merge"] + files.reversed() + ["--write-baseline", "\(dir)/b.json"] + reports(dir, "b"))
            try MergeCommandTests.expectSame(
                batch, merge, dir,
                files: [("a.json", "b.json"), ("a.xml", "b.xml"), ("a.md", "b.md"), ("a.html", "b.html")].map {
                    ("\(dir)/\($0)", "\(dir)/\($1)")
                })
            // Order independence: the same lines in another order, on standard input.
            let lines = try files.map { try Self.read($0) }
            let piped = try Run(["merge", "-"], stdin: lines[1] + lines[2] + lines[0])
            #expect(piped.status == 0 && piped.stdout == merge.stdout, "\(piped.stderr)")
            // The gate: against the batch's baseline, the merge and the batch agree.
            let gb = try Run(["batch", corpus, "--jobs", "1", "--baseline", "\(dir)/a.json"])
            let gm = try Run(["merge", files[2], files[0], files[1], "--baseline", "\(dir)/a.json"])
            #expect(gb.status == 0 && gm.status == gb.status && gm.stdout == gb.stdout && gm.stderr == gb.stderr, "\(gm.stderr)")
            // Without --corpus the lines name '-': one batch still, but not the folder's.
            let plain = try Run(
                ["batch", "-", "--trip", names[0], "--index", "0", "--of", "3", "--jsonl", "--jobs", "1"],
                stdin: Self.read(corpus + names[0]))
            #expect(plain.stdout.contains(#""batch":{"inputs":["-"],"trips":3,"#), "\(plain.stdout.prefix(400))")
        }
    }

    @Test("--corpus names the batch: shards so named merge as one batch of that name; a shard named otherwise is another batch")
    func corpusName() throws {
        try Self.scratch { dir in
            let batch = try Run(["batch", "Traces/trips", "--corpus", "fleet/week-49", "--jobs", "1"])
            #expect(batch.status == 0 && batch.stdout.hasPrefix("Batch: 3 trips from fleet/week-49 · "), "\(batch.stdout.prefix(200))")
            var files: [String] = []
            for i in 0..<2 {
                let s = try Run(["batch", "Traces/trips", "--shard", "\(i)/2", "--corpus", "fleet/week-49", "--jsonl", "--jobs", "1"])
                files.append("\(dir)/\(i).jsonl")
                try s.stdout.write(toFile: files[i], atomically: true, encoding: .utf8)
            }
            let merge = try Run(["merge"] + files)
            #expect(merge.status == 0 && merge.stdout == batch.stdout, "\(merge.stderr)")
            let unnamed = try Run(["batch", "Traces/trips", "--shard", "1/2", "--jsonl", "--jobs", "1"])
            try unnamed.stdout.write(toFile: "\(dir)/unnamed.jsonl", atomically: true, encoding: .utf8)
            let mixed = try Run(["merge", files[0], "\(dir)/unnamed.jsonl"])
            #expect(
                mixed.status == 65 && mixed.stderr.contains("unnamed.jsonl:1: from another batch (3 trips from Traces/trips, "),
                "\(mixed.stderr)")
        }
    }

    @Test(
        "bad --trip, --index or --of: one line (and the usage hint), exit 64",
        arguments: [
            (
                ["--trip", "a.csv", "--index", "0"],
                "tracekit: a trip streamed on standard input needs its name, its index and the batch's size: give --of N\n"
            ),
            (
                ["--index", "0", "--of", "2"],
                "tracekit: a trip streamed on standard input needs its name, its index and the batch's size: give --trip NAME\n"
            ),
            (["--trip", "a.csv", "--index", "2", "--of", "2"], "tracekit: --index 2 is outside a batch of 2 trips (--of 2): 0 ≤ I < N\n"),
            (
                ["--trip", "request-7", "--index", "0", "--of", "2"],
                "tracekit: --trip 'request-7': the name of a trace file, whose extension says how standard input is read"
            ),
            (["--trip", "", "--index", "0", "--of", "2"], "tracekit: --trip '': the name of a trace file"),
            (
                ["--trip", "a.csv", "--index", "0", "--of", "0"],
                "tracekit: '--of' takes a whole number from 1 to 999999999999999, not '0'\n"
            ),
            (
                ["--trip", "a.csv", "--index", "-1", "--of", "2"],
                "tracekit: '--index' takes a whole number from 0 to 999999999999999, not '-1'\n"
            ),
            (
                ["--trip", "a.csv", "--index", "0", "--of", "2", "--shard", "0/2"],
                "tracekit: --trip is one trip of the batch already; --shard does not apply\n"
            ),
            (
                ["--trip", "a.csv", "--index", "0", "--of", "2", "--split"],
                "tracekit: --split does not apply to a trip streamed with --trip"
            ),
        ])
    func badArguments(arguments: [String], message: String) throws {
        let r = try Run(["batch", "-", "--jsonl"] + arguments, stdin: "time,latitude,longitude\n")
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").dropFirst() == ["See 'tracekit --help'."], "\(r.stderr)")
    }

    @Test("--trip needs --jsonl and '-' as its one input: exit 64")
    func inputsAndLines() throws {
        let noLines = try Run(["batch", "-", "--trip", "a.csv", "--index", "0", "--of", "1"], stdin: "")
        #expect(
            noLines.status == 64
                && noLines.stderr.hasPrefix("tracekit: --trip makes the trip's line of a batch, for 'tracekit merge': give --jsonl\n"))
        let file = try Run(["batch", "Traces/trips", "--trip", "a.csv", "--index", "0", "--of", "1", "--jsonl"])
        #expect(file.status == 64 && file.stderr.contains("with --trip the one input is '-'"), "\(file.stderr)")
    }

    @Test("a trip streamed twice: the same line counts once; another index, another trip at an index, or another size is refused (65)")
    func duplicates() throws {
        try Self.scratch { dir in
            let names = try Self.requests(dir)
            let corpus = "\(dir)/requests/"
            var lines: [String] = []
            for (i, name) in names.enumerated() {
                lines.append(try Self.stream(name, i, of: names.count, corpus: corpus, stdin: Self.read(corpus + name)).stdout)
            }
            let once = try Run(["merge", "-"], stdin: lines.joined())
            let twice = try Run(["merge", "-"], stdin: lines.joined() + lines[1])
            #expect(once.status == 0 && twice.status == 0 && twice.stdout == once.stdout, "\(twice.stderr)")

            let csv = try Self.read(corpus + names[1])
            let elsewhere = try Self.stream(names[1], 2, of: 3, corpus: corpus, stdin: csv).stdout
            let r1 = try Run(["merge", "-"], stdin: lines[0] + lines[1] + elsewhere)
            #expect(r1.status == 65 && r1.stdout.isEmpty)
            #expect(
                r1.stderr == "tracekit: <stdin>:3: trip \(names[1]) is at index 2 and at index 1: shards of different runs?\n",
                "\(r1.stderr)")

            let otherAtOne = try Self.stream(names[2], 1, of: 3, corpus: corpus, stdin: Self.read(corpus + names[2])).stdout
            let r2 = try Run(["merge", "-"], stdin: lines[1] + otherAtOne)
            #expect(r2.status == 65)
            #expect(
                r2.stderr
                    == "tracekit: <stdin>:2: index 1 is trip \(names[2]) here and trip \(names[1]) in an earlier line: shards of different runs?\n"
            )

            let otherSize = try Self.stream(names[2], 2, of: 4, corpus: corpus, stdin: Self.read(corpus + names[2])).stdout
            let r3 = try Run(["merge", "-"], stdin: lines[0] + lines[1] + otherSize)
            #expect(
                r3.status == 65 && r3.stderr.hasPrefix("tracekit: <stdin>:3: from another batch (4 trips from \(corpus), "), "\(r3.stderr)")

            // The same name and index with another trace: refused, naming the trip.
            let changed = try Self.stream(
                names[1], 1, of: 3, corpus: corpus, stdin: csv.split(separator: "\n").dropLast(5).joined(separator: "\n") + "\n")
            let r4 = try Run(["merge", "-"], stdin: lines[1] + changed.stdout)
            #expect(
                r4.status == 65 && r4.stderr.contains("trip \(names[1]) (index 1) is in the shards twice with different lines"),
                "\(r4.stderr)")
        }
    }

    @Test("a stream that is no trace: its line says the trip failed (exit 1), and the merge reports it failed")
    func failedStream() throws {
        let r = try Self.stream("r.csv", 0, of: 1, corpus: "requests/", stdin: "not,a,trace\n1,2,3\n")
        #expect(r.status == 1)
        #expect(r.stdout.contains(#""status":"failed""#), "\(r.stdout)")
        let m = try Run(["merge", "-"], stdin: r.stdout)
        #expect(m.status == 1)
        #expect(m.stdout.contains("Batch: 1 trip from requests/"), "\(m.stdout)")
        #expect(
            m.stdout.contains("Failed trips (1): not replayed, so neither in the tables nor gated\n  r.csv: <stdin>:1: "), "\(m.stdout)")
    }
}
