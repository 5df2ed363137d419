import Foundation
import TestSupport
import Testing

/// What a user sees on their own recording (README, "A plain recording: the answer as each
/// state"): a recording without a stop is answered per state in replay, compare and batch; data
/// problems are named in the first lines of every report.
@Suite("A plain recording and its data problems, end to end")
struct PlainRecordingTests {
    func tempDir() throws -> URL {
        let dir = scratchFolder.appendingPathComponent("plain-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A CSV walk north at 10 m/s from 47° N 8° E, a fix a second for `seconds` s; `stop` s
    /// standing still at its middle; a fix `spikeAt` 2 km off and back (a speed spike).
    func walk(_ dir: URL, _ name: String, seconds: Int = 400, stop: Int = 0, spikeAt: Int? = nil) throws -> String {
        var csv = "lat,lon,time\n"
        var north = 0.0
        for t in 0...(seconds + stop) {
            let moving = t < seconds / 2 || t >= seconds / 2 + stop
            let off = t == spikeAt ? 2_000.0 : 0
            let time = Date(timeIntervalSince1970: 1_714_557_600 + Double(t))  // 2024-05-01T10:00:00Z
            csv += "\(47 + (north + off) / 111_195),8,\(ISO8601DateFormatter().string(from: time))\n"
            if moving { north += 10 }
        }
        let path = dir.appendingPathComponent(name).path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("replay: no stop, so the answer as each state and no per-phone tables; a given timeline, or a stop, keeps them")
    func replay() throws {
        let dir = try tempDir()
        let plain = try walk(dir, "plain.csv")
        let r = try Run(["replay", plain])
        #expect(r.status == 0, "\(r.stderr)")
        for state in ["En Route", "At Pickup", "In Task"] { #expect(r.stdout.contains("\n  as \(state) "), "\(state): \(r.stdout)") }
        #expect(r.stdout.contains("no stop between setting off and the end, so no pickup to infer"))
        #expect(!r.stdout.contains("'s phone\nState ") && !r.stdout.contains("\n  sent "))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(try Run(["replay", plain, "-f", "json"]).stdout.utf8)) as? [String: Any])
        let answers = try #require(doc["asEachState"] as? [[String: Any]])
        #expect(answers.map { $0["state"] as? String } == ["enRoute", "atPickup", "inTask"])
        #expect((doc["scenario"] as? [String: Any])?["pickupInference"] as? [String: String] == ["how": "noStop", "confidence": "none"])
        // The page: the answer as each state, no map or tables of the invented timeline, nor its network figures.
        let page = dir.appendingPathComponent("plain.html").path
        #expect(try Run(["replay", plain, "--html", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("as En Route") && html.contains("id=\"as-each-state\""))
        #expect(!html.contains("id=\"map\"") && !html.contains("id=\"phones\"") && !html.contains("Network: "))
        let md = try Run(["replay", plain, "-f", "markdown"])
        #expect(md.stdout.contains("- **As En Route:** ") && !md.stdout.contains("'s phone"))
        // A given timeline: the per-phone report, no answer per state unless asked.
        let given = try Run(["replay", plain, "--timeline", "enRoute@2024-05-01T10:00:00Z"])
        #expect(given.stdout.contains("'s phone\nState ") && !given.stdout.contains("  as En Route "))
        let asked = try Run(["replay", plain, "--timeline", "enRoute@2024-05-01T10:00:00Z", "--as-each-state"])
        #expect(asked.stdout.contains("'s phone\nState ") && asked.stdout.contains("\n  as En Route "))
        // A three-minute stop mid-walk: the inferred timeline, said with its confidence.
        let stop = try Run(["replay", try walk(dir, "stop.csv", stop: 180)])
        #expect(stop.stdout.contains("'s phone\nState ") && !stop.stdout.contains("  as En Route "))
        #expect(stop.stdout.contains("  inferred    the pickup at the helper's first stop after setting off ("), "\(stop.stdout)")
        #expect(stop.stdout.contains("; confidence high; give the scenario instead: --scenario FILE"))
        // Standard input is read once and held: the same answer as from the file.
        let piped = try Run(["replay", "-", "--input-format", "csv"], stdin: try String(contentsOfFile: plain, encoding: .utf8))
        #expect(piped.status == 0 && piped.stdout.contains("\n  as En Route "), "\(piped.stderr)")
        func lines(_ out: String) -> [Substring] { out.split(separator: "\n").filter { $0.hasPrefix("  as ") } }
        #expect(lines(piped.stdout) == lines(r.stdout) && lines(r.stdout).count == 3)
    }

    @Test("replay --split: each trip without a stop of a two-trip recording answered as each state")
    func split() throws {
        let dir = try tempDir()
        // Two 400 s walks 30 minutes apart (a recording gap): two trips, neither with a stop.
        let one = try String(contentsOfFile: try walk(dir, "one.csv"), encoding: .utf8)
        let two = one.split(separator: "\n").dropFirst().map { line -> String in
            var f = line.split(separator: ",").map(String.init)
            f[2] = f[2].replacingOccurrences(of: "T10:", with: "T11:")
            return f.joined(separator: ",")
        }
        let path = dir.appendingPathComponent("two.csv").path
        try (one + two.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Run(["replay", path, "--split"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "=== Trip ").count - 1 == 2, "\(r.stdout.prefix(400))")
        #expect(r.stdout.components(separatedBy: "\n  as En Route ").count - 1 == 2, "\(r.stdout)")
        // Each phone's answer gives the range across the shipped device profiles too.
        let answers = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  as En Route ") }
        #expect(answers.allSatisfy { $0.contains(" mAh on 6 device profiles") }, "\(answers)")
    }

    @Test("batch and compare: the plain trip answered per state (table, lines, Markdown), the trip with a stop not unless asked")
    func batchAndCompare() throws {
        let dir = try tempDir()
        _ = try walk(dir, "plain.csv")
        _ = try walk(dir, "stop.csv", stop: 180)
        let b = try Run(["batch", dir.path, "--jobs", "1"])
        #expect(b.status == 0, "\(b.stderr)")
        let after = try #require(b.stdout.components(separatedBy: "\nAs each state: ").dropFirst().first)
        let section = after.components(separatedBy: "\n\n")[0]  // up to the next section
        #expect(section.contains("  plain.csv:\n    as En Route: ") && !section.contains("stop.csv"), "\(section)")
        let lines = try Run(["batch", dir.path, "--jobs", "1", "--jsonl"]).stdout.split(separator: "\n")
        let perTrip = try lines.map { line -> (String, Int) in
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (o["trip"] as! String, ((o["report"] as? [String: Any])?["asEachState"] as? [Any])?.count ?? -1)
        }
        #expect(Dictionary(uniqueKeysWithValues: perTrip) == ["plain.csv": 3, "stop.csv": 0])
        let all = try Run(["batch", dir.path, "--jobs", "1", "--as-each-state"])
        #expect(all.stdout.contains("  stop.csv:\n    as En Route: "))
        let md = try Run(["batch", dir.path, "--jobs", "1", "--markdown", dir.appendingPathComponent("out.md").path])
        #expect(md.status == 0)
        #expect(try String(contentsOfFile: dir.appendingPathComponent("out.md").path, encoding: .utf8).contains("- `plain.csv` as En Route: "))
        let c = try Run(["compare", "--policy", "seed", "--policy", "seed", dir.appendingPathComponent("plain.csv").path])
        #expect(c.status == 0 && c.stdout.contains("\n    as En Route, A: ") && c.stdout.contains("\n    as En Route, B: "), "\(c.stdout)")
    }

    @Test("merge of 2 shards writes batch's reports byte for byte (Data column, problems, answers as each state); a streamed trip's line is the file's")
    func merged() throws {
        let dir = try tempDir()
        let plain = try walk(dir, "plain.csv")
        _ = try walk(dir, "stop.csv", stop: 180)
        _ = try walk(dir, "spiked.csv", spikeAt: 100)
        let d = dir.path
        let reports = { (tag: String) in ["--junit", "\(d)/\(tag).xml", "--markdown", "\(d)/\(tag).md", "--html", "\(d)/\(tag).html"] }
        let batch = try Run(["batch", d, "--jobs", "1"] + reports("a"))
        #expect(batch.status == 0 && batch.stdout.contains("\nAs each state: ") && batch.stdout.contains("\nData problems"), "\(batch.stderr)")
        var files: [String] = []
        for i in 0..<2 {
            let r = try Run(["batch", d, "--jobs", "1", "--shard", "\(i)/2", "--jsonl", "--html", "\(d)/shard-\(i).html"])
            let file = "\(d)/shard-\(i).jsonl"
            try r.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let merge = try Run(["merge"] + files + reports("b"))
        #expect(merge.status == batch.status && merge.stdout == batch.stdout && merge.stderr == batch.stderr, "\(merge.stderr)")
        for ext in ["xml", "md", "html"] {
            #expect(try String(contentsOfFile: "\(d)/a.\(ext)", encoding: .utf8) == String(contentsOfFile: "\(d)/b.\(ext)", encoding: .utf8), "\(ext)")
        }
        // The plain trip streamed on standard input: answered as each state, as from its file.
        let all = try Run(["batch", d, "--jobs", "1", "--jsonl"]).stdout.split(separator: "\n")
        let fromFile = try #require(all.first { $0.contains("\"trip\":\"plain.csv\"") })
        let index = try #require(all.firstIndex(of: fromFile))
        let streamed = try Run(
            ["batch", "-", "--trip", "plain.csv", "--index", "\(index)", "--of", "\(all.count)", "--jsonl", "--corpus", d],
            stdin: try String(contentsOfFile: plain, encoding: .utf8))
        #expect(streamed.status == 0, "\(streamed.stderr)")
        func answers(_ line: Substring) throws -> [String] {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require((o["report"] as? [String: Any])?["asEachState"] as? [String])
        }
        let s = try answers(Substring(streamed.stdout.trimmingCharacters(in: .newlines)))
        let f = try answers(fromFile)
        #expect(s.count == 3 && s == f)
    }

    @Test("data problems in the first lines: replay's summary, batch's Data column and listing, tune's header; report keeps the raw trace")
    func dataProblems() throws {
        let dir = try tempDir()
        let spiked = try walk(dir, "spiked.csv", spikeAt: 100)
        let r = try Run(["replay", spiked])
        let data = r.stdout.split(separator: "\n").first { $0.hasPrefix("  data ") }
        #expect(data?.hasSuffix("1 speed spike dropped (read with --on-problem filter)") == true, "\(r.stdout)")
        #expect(r.stdout.split(separator: "\n").prefix(3).contains { $0.hasPrefix("  data ") })  // the second line of the summary
        let raw = try Run(["replay", spiked, "--on-problem", "report"])
        #expect(raw.stdout.contains("  data          1 speed spike kept, replayed as motion (read with --on-problem report)"), "\(raw.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Run(["replay", spiked, "-f", "json"]).stdout.utf8)) as? [String: Any])
        let d = try #require(json["data"] as? [String: Any])
        #expect(d["onProblem"] as? String == "filter" && d["summary"] as? String == "1 speed spike dropped")
        let c = try Run(["compare", "--policy", "seed", "--policy", "seed", spiked])
        #expect(c.stdout.contains("\n  data 1 speed spike dropped (read with --on-problem filter)\n"), "\(c.stdout)")
        _ = try walk(dir, "clean.csv")
        let b = try Run(["batch", dir.path, "--jobs", "1"])
        let rows = b.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("spiked.csv ") && $0.contains(" replayed  ⚠ 1 kind of problem ") }, "\(b.stdout)")
        #expect(rows.contains { $0.hasPrefix("clean.csv ") && $0.contains(" replayed  clean ") })
        #expect(b.stdout.contains("\nData problems, and what was done with them\n  spiked.csv: 1 speed spike dropped\n"))
        let t = try Run(["tune", dir.path, "--require", "enRoute.hirer.displayErrorP95<=1km", "--jobs", "1"])
        #expect(t.status == 0 || t.status == 1, "\(t.stderr)")
        #expect(t.stdout.contains("Data: ⚠ 1 of 2 trips had problems"), "\(t.stdout.prefix(1500))")
        #expect(t.stdout.contains("spiked.csv: 1 speed spike dropped"))
    }
}
