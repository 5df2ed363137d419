import Foundation
import TestSupport
import Testing
import TracePlatform

/// Issue 41, parts 3 and 4, end to end with the built binary: an output never overwrites an input
/// (nor another output), and the traces a scenario sidecar or a manifest names stay in its folder.
@Suite("outputs never overwrite inputs; sidecars stay in their folder", .serialized)
struct PathSafetyTests {
    /// A scratch folder with the files most cases need, removed at the end: `mine.gpx` (a short
    /// trace) with `mine.scenario.json` beside it, `ride/` (a sidecar naming `helper.gpx` and
    /// `hirer.gpx`), `corpus/` (`solo.gpx` with its sidecar, and `ride/`), `quiet.json` (a
    /// policy), `profile.xml` (an energy profile), `req.txt` (requirements), `space.json` (a tune
    /// space), `link.gpx` (a symbolic link to `mine.gpx`), `hard.gpx` (a hard link to it) and an
    /// empty folder `sub/`.
    static func scratch(_ body: (String) throws -> Void) throws {
        let dir = scratchFolder.appendingPathComponent("paths-\(UUID().uuidString)").path
        let fm = FileManager.default
        for folder in ["sub", "ride", "corpus/ride"] { try fm.createDirectory(atPath: "\(dir)/\(folder)", withIntermediateDirectories: true) }
        defer { try? fm.removeItem(atPath: dir) }
        for path in ["mine.gpx", "ride/helper.gpx", "ride/hirer.gpx", "corpus/solo.gpx", "corpus/ride/helper.gpx", "corpus/ride/hirer.gpx"] {
            try write("\(dir)/\(path)", gpx(north: !path.contains("hirer")))
        }
        let ride = #"{"schema": "tracekit-scenario/1", "category": "ride", "traces": {"helper": "helper.gpx", "hirer": "hirer.gpx"}}"#
        try write("\(dir)/ride/ride.scenario.json", ride)
        try write("\(dir)/corpus/ride/ride.scenario.json", ride)
        try write("\(dir)/mine.scenario.json", #"{"schema": "tracekit-scenario/1", "category": "dog walking"}"#)
        try write("\(dir)/corpus/solo.scenario.json", #"{"schema": "tracekit-scenario/1", "category": "ride"}"#)
        try write("\(dir)/quiet.json", #"{"format": "tracekit-policy", "version": 2, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 50}}}"#)
        try fm.copyItem(atPath: packageRoot.appendingPathComponent("Energy/power-profiles/google-coral.xml").path, toPath: "\(dir)/profile.xml")
        try write("\(dir)/req.txt", "enRoute.hirer.displayErrorP95<=500m\n")
        try write("\(dir)/space.json", #"{"format": "tracekit-tune-space", "version": 1, "distanceFilterMetres": [0, 25]}"#)
        try fm.createSymbolicLink(atPath: "\(dir)/link.gpx", withDestinationPath: "mine.gpx")
        try fm.linkItem(atPath: "\(dir)/mine.gpx", toPath: "\(dir)/hard.gpx")
        try body(dir)
    }

    static func write(_ path: String, _ text: String) throws { try text.write(toFile: path, atomically: false, encoding: .utf8) }

    /// A trace of 40 timed fixes 5 s and about 11 m apart, going north (or east).
    static func gpx(north: Bool) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for i in 0..<40 {
            let lat = 47.3700 + (north ? Double(i) * 0.0001 : 0), lon = 8.5400 + (north ? 0 : Double(i) * 0.00015)
            let t = String(format: "2024-05-01T10:%02d:%02dZ", i * 5 / 60, i * 5 % 60)
            s += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>\(t)</time></trkpt>\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// Every file under `dir` with its bytes (links as links: their targets).
    static func snapshot(_ dir: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: dir)! {
            let path = "\(dir)/\(relative)"
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                files[relative] = Data(target.utf8)
            } else if !isFolder(path) {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    static func isFolder(_ path: String) -> Bool { (try? Platform.status(ofLink: path))?.kind == .folder }

    /// Runs `arguments` in `dir`: exit 64, the one line `message` (and the usage hint), and
    /// nothing under `dir` changed: every input byte for byte, no file added (no temporary file).
    static func expectClash(_ arguments: [String], in dir: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let before = try snapshot(dir)
        let r = try Run(arguments, in: dir)
        #expect(r.status == 64, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr == "tracekit: \(message)\nSee 'tracekit --help'.\n", "\(arguments)", sourceLocation: sourceLocation)
        let after = try snapshot(dir)
        #expect(after.keys.sorted() == before.keys.sorted(), "\(arguments): files added or removed", sourceLocation: sourceLocation)
        for (name, bytes) in before { #expect(after[name] == bytes, "\(arguments): \(name) changed", sourceLocation: sourceLocation) }
    }

    // MARK: Outputs never overwrite inputs

    @Test("replay: an output that is the trace (same path, ./, a/../, a link, a hard link), the sidecar, a trace it names, the policy, the energy profile, or another output exits 64")
    func replay() throws {
        try Self.scratch { dir in
            let cases: [([String], String)] = [
                (["replay", "mine.gpx", "--html", "mine.gpx"], "--html mine.gpx would overwrite the input mine.gpx"),
                (["replay", "mine.gpx", "--svg", "./mine.gpx"], "--svg ./mine.gpx would overwrite the input mine.gpx"),
                (["replay", "./mine.gpx", "--geojson", "sub/../mine.gpx"], "--geojson sub/../mine.gpx would overwrite the input ./mine.gpx"),
                (["replay", "mine.gpx", "--html", "link.gpx"], "--html link.gpx would overwrite the input mine.gpx"),
                (["replay", "link.gpx", "--svg", "hard.gpx"], "--svg hard.gpx would overwrite the input link.gpx"),
                (["replay", "mine.gpx", "--svg", "out.svg", "--html", "./out.svg"], "--html ./out.svg would overwrite the output --svg out.svg"),
                (["replay", "mine.gpx", "--svg", "new.svg", "--geojson", "sub/../new.svg"], "--geojson sub/../new.svg would overwrite the output --svg new.svg"),
                (
                    ["replay", "mine.gpx", "--html", "mine.scenario.json"],
                    "--html mine.scenario.json would overwrite the scenario sidecar mine.scenario.json"
                ),
                (
                    ["replay", "--scenario", "ride/ride.scenario.json", "--svg", "ride/ride.scenario.json"],
                    "--svg ride/ride.scenario.json would overwrite the scenario sidecar ride/ride.scenario.json"
                ),
                (["replay", "--scenario", "ride/ride.scenario.json", "--geojson", "./ride/hirer.gpx"], "--geojson ./ride/hirer.gpx would overwrite the input ride/hirer.gpx"),
                (["replay", "mine.gpx", "--hirer", "ride/hirer.gpx", "--html", "ride/hirer.gpx"], "--html ride/hirer.gpx would overwrite the input ride/hirer.gpx"),
                (["replay", "mine.gpx", "--policy", "quiet.json", "--html", "quiet.json"], "--html quiet.json would overwrite the policy file quiet.json"),
                (
                    ["replay", "mine.gpx", "--energy-profile", "profile.xml", "--svg", "./profile.xml"],
                    "--svg ./profile.xml would overwrite the energy profile profile.xml"
                ),
            ]
            for (arguments, message) in cases { try Self.expectClash(arguments, in: dir, message) }
            // Devices are written through, never replaced: they clash with nothing.
            let r = try Run(["replay", "mine.gpx", "--svg", "/dev/null", "--html", "/dev/null"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    @Test("batch: an output that is a trip's trace or sidecar, a trace a sidecar names, a manifest, the policy, the baseline or another output exits 64; a report inside the corpus folder is fine")
    func batch() throws {
        try Self.scratch { dir in
            try Self.write("\(dir)/list.txt", "corpus/solo.gpx\n")
            #expect(try Run(["batch", "corpus", "--write-baseline", "base.json"], in: dir).status == 0)
            try FileManager.default.linkItem(atPath: "\(dir)/corpus/solo.gpx", toPath: "\(dir)/solo-link.gpx")
            let cases: [([String], String)] = [
                (["batch", "corpus", "--html", "corpus/solo.gpx"], "--html corpus/solo.gpx would overwrite the input corpus/solo.gpx"),
                (["batch", "corpus", "--junit", "solo-link.gpx"], "--junit solo-link.gpx would overwrite the input corpus/solo.gpx"),
                (
                    ["batch", "corpus", "--junit", "./corpus/solo.scenario.json"],
                    "--junit ./corpus/solo.scenario.json would overwrite the input corpus/solo.scenario.json"
                ),
                (
                    ["batch", "corpus/", "--markdown", "corpus/ride/ride.scenario.json"],
                    "--markdown corpus/ride/ride.scenario.json would overwrite the input corpus/ride/ride.scenario.json"
                ),
                (["batch", "corpus", "--html", "corpus/ride/../ride/hirer.gpx"], "--html corpus/ride/../ride/hirer.gpx would overwrite the input corpus/ride/hirer.gpx"),
                (["batch", "list.txt", "--junit", "list.txt"], "--junit list.txt would overwrite the input list.txt"),
                (["batch", "corpus", "--policy", "quiet.json", "--write-baseline", "quiet.json"], "--write-baseline quiet.json would overwrite the policy file quiet.json"),
                (["batch", "corpus", "--compare", "quiet.json", "--html", "quiet.json"], "--html quiet.json would overwrite the compared policy file quiet.json"),
                (["batch", "corpus", "--baseline", "base.json", "--junit", "./base.json"], "--junit ./base.json would overwrite the baseline base.json"),
                (["batch", "corpus", "--markdown", "r.md", "--html", "r.md"], "--html r.md would overwrite the output --markdown r.md"),
                (["batch", "corpus", "--energy-profile", "profile.xml", "--junit", "profile.xml"], "--junit profile.xml would overwrite the energy profile profile.xml"),
            ]
            for (arguments, message) in cases { try Self.expectClash(arguments, in: dir, message) }
            // A report inside the corpus folder that is none of its files is fine.
            let r = try Run(["batch", "corpus", "--html", "corpus/report.html", "--junit", "corpus/ride/junit.xml"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(dir)/corpus/report.html"))
            // --baseline and --write-baseline together are refused whatever they name.
            let both = try Run(["batch", "corpus", "--baseline", "base.json", "--write-baseline", "base.json"], in: dir)
            #expect(both.status == 64 && both.stderr.hasPrefix("tracekit: give either --baseline (compare) or --write-baseline (record), not both"))
        }
    }

    @Test("merge: an output that is a shard file, the baseline, the tolerance file or another output exits 64")
    func merge() throws {
        try Self.scratch { dir in
            let lines = try Run(["batch", "corpus", "--jsonl"], in: dir)
            #expect(lines.status == 0, "\(lines.stderr)")
            try Self.write("\(dir)/shard.jsonl", lines.stdout)
            #expect(try Run(["merge", "shard.jsonl", "--write-baseline", "base.json"], in: dir).status == 0)
            try Self.write("\(dir)/tol.json", #"{"schema": "tracekit-tolerances/1", "tolerances": {"sent": {"absolute": 3}}}"#)
            let cases: [([String], String)] = [
                (["merge", "shard.jsonl", "--junit", "shard.jsonl"], "--junit shard.jsonl would overwrite the input shard.jsonl"),
                (["merge", "shard.jsonl", "--baseline", "base.json", "--markdown", "sub/../base.json"], "--markdown sub/../base.json would overwrite the baseline base.json"),
                (
                    ["merge", "shard.jsonl", "--baseline", "base.json", "--tolerance-file", "tol.json", "--html", "tol.json"],
                    "--html tol.json would overwrite the tolerance file tol.json"
                ),
                (["merge", "shard.jsonl", "--write-baseline", "w.json", "--html", "./w.json"], "--html ./w.json would overwrite the output --write-baseline w.json"),
            ]
            for (arguments, message) in cases { try Self.expectClash(arguments, in: dir, message) }
        }
    }

    @Test("tune: --out, --svg or --html over the policy, the space, the requirement file, a corpus file or another output exits 64")
    func tune() throws {
        try Self.scratch { dir in
            let require = ["--require", "enRoute.hirer.displayErrorP95<=500m"]
            let cases: [([String], String)] = [
                (["tune", "corpus", "--policy", "quiet.json", "--out", "quiet.json"] + require, "--out quiet.json would overwrite the policy file quiet.json"),
                (["tune", "corpus", "--require-file", "req.txt", "--svg", "./req.txt"], "--svg ./req.txt would overwrite the requirement file req.txt"),
                (["tune", "corpus", "--space", "space.json", "--html", "space.json"] + require, "--html space.json would overwrite the search space space.json"),
                (["tune", "corpus", "--out", "corpus/ride/helper.gpx"] + require, "--out corpus/ride/helper.gpx would overwrite the input corpus/ride/helper.gpx"),
                (["tune", "corpus", "--out", "t.json", "--html", "t.json"] + require, "--html t.json would overwrite the output --out t.json"),
            ]
            for (arguments, message) in cases { try Self.expectClash(arguments, in: dir, message) }
        }
    }

    @Test("convert, smooth and split: OUT (or a trip's file) that is IN, by path, link or hard link, exits 64; '-' never clashes")
    func transcoding() throws {
        try Self.scratch { dir in
            try FileManager.default.createDirectory(atPath: "\(dir)/trips", withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: "\(dir)/mine.gpx", toPath: "\(dir)/trips/mine.trip-01.gpx")
            let cases: [([String], String)] = [
                (["convert", "mine.gpx", "mine.gpx"], "OUT mine.gpx would overwrite IN mine.gpx"),
                (["convert", "mine.gpx", "./link.gpx"], "OUT ./link.gpx would overwrite IN mine.gpx"),
                (["convert", "--to", "gpx", "hard.gpx", "sub/../mine.gpx"], "OUT sub/../mine.gpx would overwrite IN hard.gpx"),
                (["smooth", "mine.gpx", "hard.gpx"], "OUT hard.gpx would overwrite IN mine.gpx"),
                (["split", "mine.gpx", "trips"], "the trip file trips/mine.trip-01.gpx would overwrite IN mine.gpx"),
            ]
            for (arguments, message) in cases { try Self.expectClash(arguments, in: dir, message) }
            let piped = try Run(["convert", "--input-format", "gpx", "--to", "csv", "-", "-"], stdin: Self.gpx(north: true), in: dir)
            #expect(piped.status == 0 && piped.stdout.split(separator: "\n").count == 41, "\(piped.stderr)")
        }
    }

    @Test("a file read as a format it is not: the first line's error quotes none of it (a CSV header: 24 characters a name at most)")
    func unquoted() throws {
        try Self.scratch { dir in
            // A line of /etc/shadow's form, with tabs, so that every reader gets past its first check.
            try Self.write("\(dir)/secret", "root:$6$salt$SECRETHASHSECRETHASH:19000:0:99999:7:::\tx\t{}\n")
            for format in ["plt", "ndjson", "nmea", "rec", "geojson", "json", "gpx", "kml"] {
                let r = try Run(["info", "--input-format", format, "secret"], in: dir)
                #expect(r.status == 65, "\(format): \(r.stderr)")
                #expect(!r.stderr.contains("SECRET") && !r.stderr.contains("salt"), "\(format): \(r.stderr)")
            }
            for extra in [[], ["--column", "lat=x"]] {
                let csv = try Run(["info", "--input-format", "csv", "secret"] + extra, in: dir)
                #expect(csv.stderr.contains("root:$6$salt$SECRETHASHS…") && !csv.stderr.contains("SECRETHASHSECRETHASH"), "\(csv.stderr)")
            }
        }
    }

    // MARK: Sidecars stay in their folder

    /// Runs `tracekit arguments` with standard output and error to files, killing it when it is
    /// still running after `seconds`: its status (nil: killed) and standard error.
    static func runWithDeadline(_ arguments: [String], seconds: Double, in dir: String) throws -> (status: Int32?, stderr: String) {
        let input = try Platform.openToRead("/dev/null")
        let out = try Platform.createOrTruncate("\(dir)/child.out", permissions: 0o600)
        let err = try Platform.createOrTruncate("\(dir)/child.err", permissions: 0o600)
        let child = try Child(Run.binary.path, arguments, stdin: input, stdout: out, stderr: err)
        for fd in [input, out, err] { try? Platform.close(fd) }
        var status: Int32 = 0
        var ended = false
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                ended = true
                break
            }
            usleep(20_000)
        }
        if !ended {
            kill(child.pid, SIGKILL)
            _ = child.wait()
        }
        let stderr = try String(contentsOfFile: "\(dir)/child.err", encoding: .utf8)
        for name in ["child.out", "child.err"] { try? FileManager.default.removeItem(atPath: "\(dir)/\(name)") }
        return (ended ? (status >> 8) & 0xFF : nil, stderr)
    }

    /// A sidecar `s/x.scenario.json` under `dir` whose helper is `trace`; returns its path.
    static func sidecar(_ dir: String, helper trace: String) throws -> String {
        let path = "\(dir)/s/x.scenario.json"
        try Self.write(path, #"{"schema": "tracekit-scenario/1", "traces": {"helper": "\#(trace)"}}"#)
        return path
    }

    static let advice = "; a sidecar's traces are relative paths inside its folder (--allow-outside-paths allows others)"

    @Test("replay: a sidecar's absolute path, ../, sub/../../ or link out of its folder exits 65 naming the sidecar and the member, without opening the target (a FIFO: no block); a path inside works; --allow-outside-paths allows others")
    func sidecarConfined() throws {
        try Self.scratch { dir in
            let fm = FileManager.default
            try fm.createDirectory(atPath: "\(dir)/s/sub", withIntermediateDirectories: true)
            // The targets outside s/: a FIFO (opening it to read would block, no writer ever comes)
            // and a folder holding one, reached by a link inside s/.
            #expect(mkfifo("\(dir)/trap.fifo", 0o600) == 0)
            try fm.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
            #expect(mkfifo("\(dir)/out/trap.fifo", 0o600) == 0)
            try fm.createSymbolicLink(atPath: "\(dir)/s/out", withDestinationPath: "../out")
            try fm.createSymbolicLink(atPath: "\(dir)/s/trap.gpx", withDestinationPath: "../trap.fifo")
            let cases: [(String, String)] = [
                ("\(dir)/trap.fifo", "'\(dir)/trap.fifo' is an absolute path"),
                ("../trap.fifo", "'../trap.fifo' climbs out of the sidecar's folder with '..'"),
                ("sub/../../trap.fifo", "'sub/../../trap.fifo' climbs out of the sidecar's folder with '..'"),
                ("out/trap.fifo", "'out/trap.fifo' leads out of the sidecar's folder through a symbolic link (to \(dir)/out/trap.fifo)"),
                ("trap.gpx", "'trap.gpx' leads out of the sidecar's folder through a symbolic link (to \(dir)/trap.fifo)"),
            ]
            for (trace, why) in cases {
                let file = try Self.sidecar(dir, helper: trace)
                for command in [["replay"], ["compare", "--policy", "seed", "--policy", "seed"]] {
                    let r = try Self.runWithDeadline(command + ["--scenario", file], seconds: 60, in: dir)
                    #expect(r.status == 65, "\(command) \(trace): \(r.stderr)")
                    #expect(r.stderr == "tracekit: \(file):1:56: traces.helper: \(why)\(Self.advice)\n", "\(trace)")
                }
            }
            // The FIFO would block the replay that opened it: with the option it is opened.
            let open = try Self.runWithDeadline(
                ["replay", "--scenario", try Self.sidecar(dir, helper: "../trap.fifo"), "--allow-outside-paths"], seconds: 3, in: dir)
            #expect(open.status == nil, "the replay did not open the FIFO: \(open.stderr)")
            // /etc/passwd read as PLT: refused before it is read, so no line of it is quoted.
            let passwd = try Run(["replay", "--scenario", try Self.sidecar(dir, helper: "/etc/passwd"), "--input-format", "plt"])
            #expect(passwd.status == 65 && !passwd.stderr.contains("root:"), "\(passwd.stderr)")
            // A relative path that stays inside (after "..") works; one outside works with the option.
            try fm.copyItem(atPath: "\(dir)/mine.gpx", toPath: "\(dir)/s/sub/in.gpx")
            for trace in ["sub/in.gpx", "sub/../sub/./in.gpx"] {
                let r = try Run(["replay", "--scenario", try Self.sidecar(dir, helper: trace)])
                #expect(r.status == 0, "\(trace): \(r.stderr)")
            }
            let allowed = try Run(["replay", "--scenario", try Self.sidecar(dir, helper: "../mine.gpx"), "--allow-outside-paths"])
            #expect(allowed.status == 0, "\(allowed.stderr)")
        }
    }

    @Test("batch and tune: a sidecar whose trace leaves its folder or the corpus, or a manifest line that leaves the manifest's folder, exits 65 before any trip is replayed; standard input's lines and --allow-outside-paths may lead anywhere")
    func corpusConfined() throws {
        try Self.scratch { dir in
            let fm = FileManager.default
            try fm.createSymbolicLink(atPath: "\(dir)/corpus/ride/up", withDestinationPath: "..")
            let bad = "\(dir)/corpus/bad.scenario.json"
            let require = ["--require", "enRoute.hirer.displayErrorP95<=500m"]
            for (trace, why) in [
                ("../mine.gpx", "'../mine.gpx' climbs out of the sidecar's folder with '..'"),
                ("ride/up/../mine.gpx", "'ride/up/../mine.gpx' leads out of the sidecar's folder through a symbolic link (to \(dir)/mine.gpx)"),
            ] {
                try Self.write(bad, #"{"schema": "tracekit-scenario/1", "traces": {"helper": "\#(trace)"}}"#)
                for command in [["batch", "corpus"], ["tune", "corpus"] + require] {
                    let r = try Run(command, in: dir)
                    #expect(r.status == 65, "\(command): \(r.stderr)")
                    #expect(r.stderr == "tracekit: corpus/bad.scenario.json:1:56: traces.helper: \(why)\(Self.advice)\n", "\(command)")
                    #expect(r.stdout.isEmpty, "\(command): a trip was replayed")
                }
                let allowed = try Run(["batch", "corpus", "--allow-outside-paths"], in: dir)
                #expect(allowed.status == 0 && allowed.stdout.contains("\nbad.scenario.json "), "\(allowed.stdout)\(allowed.stderr)")
            }
            try fm.removeItem(atPath: bad)
            // A manifest file's lines stay in its folder; standard input's are the caller's.
            try fm.createDirectory(atPath: "\(dir)/lists", withIntermediateDirectories: true)
            let manifestAdvice = "; a manifest's lines are relative paths inside its folder (--allow-outside-paths allows others)"
            for (line, why) in [
                ("../corpus/solo.gpx", "'../corpus/solo.gpx' climbs out of the manifest's folder with '..'"),
                ("\(dir)/corpus/solo.gpx", "'\(dir)/corpus/solo.gpx' is an absolute path"),
            ] {
                try Self.write("\(dir)/lists/m.txt", "# a list\n\(line)\n")
                let r = try Run(["batch", "lists/m.txt"], in: dir)
                #expect(r.status == 65, "\(r.stderr)")
                #expect(r.stderr == "tracekit: lists/m.txt:2: \(why)\(manifestAdvice)\n")
                #expect(try Run(["batch", "lists/m.txt", "--allow-outside-paths"], in: dir).status == 0)
                #expect(try Run(["batch", "-"], stdin: "\(dir)/corpus/solo.gpx\n", in: dir).status == 0)
            }
        }
    }
}
