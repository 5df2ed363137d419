import Foundation
import TestSupport
import Testing
import TracePlatform

/// Runs the built `tracekit` binary and checks stdout, stderr and the exit status.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The `tracekit` executable built beside the test bundle (`swift test` builds it: the test
    /// target depends on it).
    static let binary: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tracekit")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/tracekit")
    }()

    /// Runs `tracekit` with `arguments` in `directory` (the package root unless given).
    init(_ arguments: [String], stdin: String = "", in directory: String? = nil) throws {
        let p = Process()
        p.executableURL = Run.binary
        p.arguments = arguments
        p.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? packageRoot
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        // A child that exits before reading all its input must not kill the test with SIGPIPE.
        Platform.ignore(.brokenPipe)
        try p.run()
        try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        status = p.terminationStatus
        stdout = String(decoding: out, as: UTF8.self)
        stderr = String(decoding: err, as: UTF8.self)
    }
}

@Suite("tracekit distance, end to end")
struct EndToEndTests {
    @Test("a pair as arguments: PROJ geodesic.h's JFK–Singapore example")
    func pairArguments() throws {
        let r = try Run(["distance", "40.64", "-73.78", "1.36", "103.99"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout == "15347512.941 3.30577348 177.48784021\n")
    }

    @Test("every method streams one output line per input line, comments copied")
    func streaming() throws {
        let input = "# header\n47.376887 8.541694 47.376912 8.541731\n\n0,0,0,1\n"
        for method in ["exact", "fast", "haversine"] {
            let r = try Run(["distance", "--method", method], stdin: input)
            #expect(r.status == 0, "\(method): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 5 && lines[0] == "# header" && lines[2] == "" && lines[4] == "")
            let metres = Double(lines[1].split(separator: " ")[0])!
            #expect(abs(metres - 3.94) < 0.01, "\(method): \(lines[1])")
        }
        // One degree of equator: 111,319.491 m on WGS84; 111,195.080 m on the mean sphere.
        #expect(try Run(["distance", "-m", "exact"], stdin: "0 0 0 1\n").stdout.hasPrefix("111319.491 90.00000000 90.00000000"))
        #expect(try Run(["distance", "-m", "haversine"], stdin: "0 0 0 1\n").stdout.hasPrefix("111195.080 "))
    }

    @Test("identical points: every method prints Karney's azimuth convention")
    func identicalPoints() throws {
        for method in ["exact", "fast", "haversine"] {
            #expect(try Run(["distance", "-m", method, "12.5", "-45", "12.5", "-45"]).stdout == "0.000 180.00000000 180.00000000\n")
            #expect(try Run(["distance", "-m", method, "-30", "10", "-30", "10"]).stdout == "0.000 0.00000000 0.00000000\n")
        }
    }

    @Test("--precision and --input")
    func precisionAndInput() throws {
        let r = try Run(["distance", "-p", "1", "--input", "Traces/distance-pairs.txt"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\n15347512.9 3.305773 177.487840\n"))
        #expect(r.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 14)  // the file's 13 lines + the final newline
    }

    @Test(
        "bad input: one line on stderr naming the place, and the documented status",
        arguments: [
            (["distance"], "1 2 3\n", Int32(65), "tracekit: <stdin>:1: expected 4 numbers (lat1 lon1 lat2 lon2), found 3 fields"),
            (["distance"], "0 0 0 0\n0 0 x 0\n", 65, "tracekit: <stdin>:2: 'x' is not a number"),
            (["distance"], "91 0 0 0\n", 65, "tracekit: <stdin>:1: latitude 91.0 is outside [-90, 90] degrees"),
            (["distance"], "nan 0 0 0\n", 65, "tracekit: <stdin>:1: latitude nan is not a finite number"),
            (["distance", "0", "inf", "0", "0"], "", 64, "tracekit: arguments: longitude inf is not a finite number"),
            (["distance", "1", "2", "3", "x"], "", 64, "tracekit: arguments: 'x' is not a number"),
            (["distance"], "0,0,,0\n", 65, "tracekit: <stdin>:1: empty field"),
            (["distance", "--input", "/tmp"], "", 66, "tracekit: /tmp: is a directory"),
            (["distance", "--input", "/nonexistent/pairs.txt"], "", 66, "tracekit: /nonexistent/pairs.txt: No such file or directory"),
            (["distance", "--precision", "11"], "", 64, "tracekit: '--precision' takes a whole number from 0 to 10, not '11'"),
            (
                ["distance", "--method", "vincenty"], "", 64,
                "tracekit: 'vincenty' is not a valid value for '--method'; choose one of exact, fast, haversine"
            ),
            (["frobnicate"], "", 64, "tracekit: unknown subcommand 'frobnicate'"),
            (["distance", "1", "2", "3", "4", "--input", "x"], "", 64, "tracekit: give either a pair as arguments or --input, not both"),
        ])
    func errors(arguments: [String], stdin: String, status: Int32, firstLine: String) throws {
        let r = try Run(arguments, stdin: stdin)
        #expect(r.status == status)
        #expect(r.stderr.split(separator: "\n").first.map(String.init) == firstLine)
    }

    @Test("--input - reads standard input")
    func dashIsStdin() throws {
        let r = try Run(["distance", "--input", "-"], stdin: "0 0 0 1\n")
        #expect(r.status == 0 && r.stdout.hasPrefix("111319.491"))
    }

    @Test("each answer is written before the next line is read (interactive use through a pipe)")
    func interactive() throws {
        let p = Process()
        p.executableURL = Run.binary
        p.arguments = ["distance"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data("0 0 0 1\n".utf8))
        // The answer arrives while standard input is still open.
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("111319.491"))
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    @Test("results before a bad line are still written")
    func partialOutput() throws {
        let r = try Run(["distance"], stdin: "0 0 0 1\n0 0 0\n")
        #expect(r.status == 65 && r.stdout.hasPrefix("111319.491"))
    }

    @Test("a line over 1 MiB is refused, not buffered without bound")
    func longLine() throws {
        let r = try Run(["distance"], stdin: String(repeating: "1", count: 1 << 21) + "\n")
        #expect(r.status == 65 && r.stderr.hasPrefix("tracekit: <stdin>:1: line longer than 1048576 bytes"))
    }

    @Test("help and version")
    func help() throws {
        let top = try Run(["--help"])
        #expect(top.status == 0 && top.stdout.contains("SUBCOMMANDS:") && top.stdout.contains("EXIT STATUS:"))
        let sub = try Run(["help", "distance"])
        #expect(sub.status == 0 && sub.stdout.hasPrefix("OVERVIEW: Distance and azimuths"))
        #expect(try Run(["distance", "--help"]).stdout == sub.stdout)
        #expect(try Run(["--version"]).stdout.hasPrefix("tracekit "))
    }
}

@Suite("tracekit policy, end to end")
struct PolicyEndToEndTests {
    func temp(_ text: String) throws -> String {
        let path = scratchFolder.appendingPathComponent("policy-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("show prints the seed table; json output validates and equals the seed")
    func show() throws {
        let table = try Run(["policy", "show"])
        #expect(table.status == 0)
        #expect(
            table.stdout.contains("En Route          No route lines                 500 m      kCLLocationAccuracyNearestTenMeters   30 m"))
        let md = try Run(["policy", "show", "--format", "markdown"])
        #expect(md.stdout.hasPrefix("| State | Shows | Map frame | Accuracy |"))
        let json = try Run(["policy", "show", "-f", "json"])
        let path = try temp(json.stdout)
        let check = try Run(["policy", "validate", path])
        #expect(check.status == 0 && check.stdout == "\(path): valid policy 'seed' (version 3), 0 cells differ from the seed\n")
        #expect(try Run(["policy", "diff", "seed", path]).stdout == "no differences\n")
    }

    @Test("diff and --policy apply a file's overrides")
    func diff() throws {
        let path = try temp(
            #"{"format": "tracekit-policy", "version": 1, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 50}}}"#)
        let d = try Run(["policy", "diff", "seed", path])
        #expect(d.status == 0 && d.stdout == "En Route: distance filter 30 m → 50 m\n")
        let s = try Run(["policy", "show", "--policy", path])
        #expect(s.stdout.hasPrefix("Policy: quiet\n") && s.stdout.contains("50 m"))
        #expect(try Run(["policy", "validate", path]).stdout.contains("valid policy 'quiet' (version 1), 1 cell differ"))
    }

    @Test("a version-2 file's delivery model and accuracy gate are shown and diffed")
    func delivery() throws {
        let path = try temp(
            #"""
            {"format": "tracekit-policy", "version": 2, "states": {"inTask": {
              "delivery": {"model": "androidFused", "intervalSeconds": 10}, "accuracyGate": {"maximumMetres": 150}}}}
            """#)
        let d = try Run(["policy", "diff", "seed", path])
        #expect(
            d.stdout == """
                In Task: delivery Core Location → Android fused: interval 10 s, min update 10 s (implicit)
                In Task: accuracy gate none → ≤ 150 m; none: delivered

                """)
        let s = try Run(["policy", "show", "--policy", path, "--format", "markdown"])
        #expect(s.stdout.contains("| 160 m | Android fused: interval 10 s, min update 10 s (implicit) | ≤ 150 m; none: delivered |"))
    }

    @Test("a version-3 file's send rules are shown, diffed, written by show --format json and validated")
    func send() throws {
        let path = try temp(
            #"""
            {"format": "tracekit-policy", "version": 3, "name": "dr", "states": {
              "enRoute": {"send": {"rule": "deadReckoning"}},
              "inTask": {"send": {"rule": "deadReckoning", "thresholdMetres": 250, "heartbeatSeconds": 120}}}}
            """#)
        let d = try Run(["policy", "diff", "seed", path])
        #expect(
            d.stdout == """
                En Route: send every delivered fix → dead reckoning at the state's distance filter, heartbeat 30 s
                In Task: send every delivered fix → dead reckoning 250 m, heartbeat 120 s

                """)
        let s = try Run(["policy", "show", "--policy", path, "--format", "markdown"])
        #expect(s.stdout.contains("| Delivery | Accuracy gate | Send | Hirer sees |"))
        #expect(s.stdout.contains("| Core Location | none | dead reckoning 30 m (the state's distance filter), heartbeat 30 s |"))
        #expect(s.stdout.contains("| Core Location | none | dead reckoning 250 m, heartbeat 120 s |"))
        #expect(s.stdout.contains("| Core Location | none | every delivered fix |"))  // At Pickup
        let json = try temp(try Run(["policy", "show", "--policy", path, "-f", "json"]).stdout)
        #expect(try Run(["policy", "validate", json]).stdout == "\(json): valid policy 'dr' (version 3), 2 cells differ from the seed\n")
        #expect(try Run(["policy", "diff", path, json]).stdout == "no differences\n")
        let refused = try temp(#"{"format": "tracekit-policy", "version": 2, "states": {"enRoute": {"send": {"rule": "deadReckoning"}}}}"#)
        let r = try Run(["policy", "validate", refused])
        #expect(
            r.status == 65
                && r.stderr == "tracekit: \(refused):1:76: states.enRoute.send: a send rule needs version 3; this file declares version 2\n"
        )
    }

    @Test(
        "an invalid file: one line naming file, line, column, field; status 65",
        arguments: [
            (
                #"{"format": "tracekit-policy", "version": 1, "states": {"inTask": {"heartbeatSeconds": -1}}}"#,
                ":1:87: states.inTask.heartbeatSeconds: must be at least 0.001 and at most 86400 seconds, got -1"
            ),
            ("{\"format\": \"tracekit-policy\",\n  \"version\": 1,\n  \"states\": [", ":3:14: unexpected end of file: expected a value"),
        ])
    func invalid(text: String, suffix: String) throws {
        let path = try temp(text)
        let r = try Run(["policy", "validate", path])
        #expect(r.status == 65)
        #expect(r.stderr == "tracekit: \(path)\(suffix)\n")
    }

    @Test("usage: missing subcommand or file")
    func usage() throws {
        #expect(try Run(["policy"]).status == 64)
        #expect(try Run(["policy", "validate"]).status == 64)
        let missing = try Run(["policy", "validate", "/nonexistent.json"])
        #expect(missing.status == 66 && missing.stderr == "tracekit: /nonexistent.json: No such file or directory\n")
    }
}

@Suite("tracekit info and convert, end to end")
struct TraceCommandsTests {
    /// Track points per corpus file, from `../shared/traces/PROVENANCE.md`; nil: the file must be
    /// rejected with a one-line error naming it.
    static let expectedPoints: [String: Int?] = [
        "gpx/gpxgo-visnjan_mytracks_android.gpx": 413, "gpx/gpxpy-around-visnjan-with-car.gpx": 104,
        "gpx/georust-garmin-activity.gpx": 988, "gpx/georust-garmin_with_extensions_gpsmap64s.gpx": 3540,
        "gpx/togeojson-apple_watch_route.gpx": 44, "gpx/togeojson-blue_hills_expertgps.gpx": 1243,
        "gpx/gpsbabel-mtk_logger_m241.gpx": 1199, "gpx/gpsbabel-sbn-v13_gt31.gpx": 3453,
        "gpx/gpsbabel-bike_from_tcx.gpx": 1812, "gpx/gpsbabel-garmin-edge-800.gpx": 1286,
        "gpx/gpswizard-coros_walk_kimmeridge.gpx": 8294, "gpx/gpswizard-motion_windsurf_0470.gpx": 5054,
        "gpx/gpxanimator-bikeride_garmin_connect.gpx": 8234, "gpx/gpxpy-korita-zbevnica.gpx": 871,
        "malformed/gpxpy-Mojstrovka_time_1901.gpx": 184, "malformed/gpxgo-gpx-without-xml-declaration.gpx": 1,
        "malformed/gpxpy-unicode_with_bom.gpx": 0, "malformed/gpxgo-iso8859-1encoded.gpx": 0,
        "malformed/georust-badcharacter.xml": nil, "malformed/georust-with_accuracy_badfix.gpx": 3,
        "malformed/dougfales-with_empty_tracks_iOS.gpx": 14, "malformed/opentracks-trackpointextensions_incorrect.gpx": 5,
        "csv/gpsbabel-mtk_logger_m241_bt747.csv": 1199, "csv/gpsbabel-iblue747.csv": 747,
        "csv/gpsbabel-bike_unicsv.csv": 1812, "csv/trackintel-google_location_history.csv": 416,
        "malformed/opentracks-csv_export.csv": 4, "malformed/trackintel-posmo_epoch_bug.csv": 2404,
        "plt/gpsbabel-ozi_20070813_short.plt": 44, "other/owntracks-demo-iphone.rec": 23,
    ]

    static var corpusPresent: Bool { FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/gpx").path) }

    @Test(
        "every file of the corpus: the right point count, or a one-line error naming the file",
        .enabled(if: corpusPresent, "../shared/traces not found: corpus walk skipped"))
    func corpus() throws {
        // Walk the folders, so that a file added to the corpus cannot go unchecked.
        var found: [String] = []
        for dir in ["gpx", "csv", "plt", "other", "malformed"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: sharedFolder.appendingPathComponent("traces/" + dir).path)
            found += names.map { dir + "/" + $0 }
        }
        #expect(
            Set(found) == Set(Self.expectedPoints.keys),
            "files without an expected count: \(Set(found).subtracting(Self.expectedPoints.keys).sorted())")
        for (file, expected) in Self.expectedPoints.sorted(by: { $0.key < $1.key }) {
            let path = sharedFolder.appendingPathComponent("traces/" + file).path
            let r = try Run(["info", "--format", "json", "--on-problem", "report", path])  // every point in the file
            if let expected {
                #expect(r.status == 0, "\(file): \(r.stderr)")
                let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
                let files = doc?["files"] as? [[String: Any]]
                #expect(files?.first?["trackPoints"] as? Int == expected, "\(file)")
            } else {
                #expect(r.status == 65, "\(file)")
                #expect(r.stderr.hasPrefix("tracekit: \(path):") && r.stderr.split(separator: "\n").count == 1, "\(file): \(r.stderr)")
            }
        }
    }

    @Test("the bundled recording reads cleanly, with or without ../shared")
    func bundled() throws {
        let r = try Run(["info", "Traces/georust-garmin-activity.gpx"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.contains("tracks / segments / points  1 / 1 / 988"))
        #expect(r.stdout.contains("time                        2017-07-29T14:46:35Z … 2017-07-29T16:18:13Z (91.6 min)"))
        #expect(r.stdout.contains("problems                    none"))
    }

    @Test("info: a readable table with the diagnostics")
    func infoTable() throws {
        let path = scratchFolder.appendingPathComponent("info-\(UUID().uuidString).gpx").path
        try """
        <gpx><trk><trkseg>
        <trkpt lat="1" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="95" lon="1"><time>2020-01-01T00:00:01Z</time></trkpt>
        <trkpt lat="1.001" lon="1"><time>2020-01-01T00:00:02Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Run(["info", path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("tracks / segments / points  1 / 1 / 2"))
        #expect(r.stdout.contains("time                        2020-01-01T00:00:00Z … 2020-01-01T00:00:02Z (2 s)"))
        #expect(r.stdout.contains("1 × invalid coordinate (dropped), first at line 3 (latitude 95.0 is outside [-90, 90] degrees)"))
        let failed = try Run(["info", "--on-problem", "fail", path])
        #expect(
            failed.status == 65 && failed.stderr == "tracekit: \(path):3: invalid coordinate: latitude 95.0 is outside [-90, 90] degrees\n")
        #expect(try Run(["info", "/nonexistent.gpx"]).status == 66)
        #expect(
            try Run(["info", "--input-format", "gpx", "-"], stdin: "<gpx><wpt lat='1' lon='2'/></gpx>").stdout.contains(
                "waypoints                   1"))
    }

    /// The first and last times `tracekit info` reports for `args`.
    static func span(_ args: [String]) throws -> (String?, String?) {
        let r = try Run(["info", "--format", "json"] + args)
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let f = (doc?["files"] as? [[String: Any]])?.first
        return (f?["firstTime"] as? String, f?["lastTime"] as? String)
    }

    @Test("CSV options: --utc-offset for zone-less times, --column mappings (no shared files needed)")
    func csvOptions() throws {
        // Zone-less local times at UTC-5: with the offset they are read as 5 h later in UTC.
        let local = scratchFolder.appendingPathComponent("local-\(UUID().uuidString).csv").path
        try "lat,lon,time\n47.5,8.25,2024-05-01T10:00:00\n47.6,8.25,2024-05-01T10:20:00\n".write(
            toFile: local, atomically: true, encoding: .utf8)
        #expect(try Self.span(["--utc-offset", "-5", local]) == ("2024-05-01T15:00:00Z", "2024-05-01T15:20:00Z"))
        #expect(try Self.span([local]) == ("2024-05-01T10:00:00Z", "2024-05-01T10:20:00Z"))
        #expect(try Run(["info", "--utc-offset", "x", local]).status == 64)
        let path = scratchFolder.appendingPathComponent("cols-\(UUID().uuidString).csv").path
        try "a,b,c\n1,47.5,8.25\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Run(["info", path]).status == 65)
        let mapped = try Run(["info", "--column", "latitude=b,longitude=3", path])
        #expect(mapped.status == 0 && mapped.stdout.contains("1 / 1 / 1"))
    }

    @Test(
        "--utc-offset on the shared bike ride: its CSV's local times (UTC-5) equal its GPX's",
        .enabled(if: corpusPresent, "../shared/traces not found: the bike ride's CSV and GPX are not there to compare"))
    func csvUTCOffsetCorpus() throws {
        let csv = sharedFolder.appendingPathComponent("traces/csv/gpsbabel-bike_unicsv.csv").path
        let gpx = sharedFolder.appendingPathComponent("traces/gpx/gpsbabel-bike_from_tcx.gpx").path
        let reference = try Self.span([gpx])
        #expect(reference.0 != nil && reference.1 != nil)
        #expect(try Self.span(["--utc-offset", "-5", csv]) == reference)
        #expect(try Self.span([csv]) != reference)
    }

    @Test("convert: formats from extensions, atomic output, the target untouched on failure")
    func convert() throws {
        let dir = scratchFolder.appendingPathComponent("convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent("in.gpx").path
        try "<gpx><wpt lat='1' lon='2'/><trk><trkseg><trkpt lat='3' lon='4'><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
            .write(toFile: input, atomically: true, encoding: .utf8)
        let csv = dir.appendingPathComponent("out.csv").path
        let r = try Run(["convert", input, csv])
        #expect(r.status == 0)
        #expect(r.stderr == "tracekit: \(input): not written, csv cannot hold it: 1 × waypoint\n")
        #expect(try String(contentsOfFile: csv, encoding: .utf8).hasSuffix("1,1,2020-01-01T00:00:00Z,3,4,,,,,,,,,,,,,\n"))
        // A broken input: the existing output stays as it was, and no temporary file is left.
        let broken = dir.appendingPathComponent("broken.gpx").path
        try "<gpx><trk><trkseg><trkpt lat='3' lon='4'></trkseg>".write(toFile: broken, atomically: true, encoding: .utf8)
        let before = try String(contentsOfFile: csv, encoding: .utf8)
        let f = try Run(["convert", broken, csv])
        #expect(f.status == 65)
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["broken.gpx", "in.gpx", "out.csv"])
        let geo = try Run(["convert", "--to", "geojson", input, "-"])
        #expect(geo.status == 0 && geo.stdout.hasPrefix("{\"type\":\"FeatureCollection\""))
        #expect(try Run(["convert", input, dir.appendingPathComponent("x.unknown").path]).status == 64)
    }
}

@Suite("commands over several files and folders")
struct SeveralFilesTests {
    @Test("info reports every file, says which could not be read, and exits with the highest status among them")
    func infoContinues() throws {
        try OptionEffectTests.scratch { dir in
            try "x,y\n1,2\n".write(toFile: "\(dir)/bad.csv", atomically: true, encoding: .utf8)
            try "lat,lon\n1,2\n".write(toFile: "\(dir)/good.csv", atomically: true, encoding: .utf8)
            let r = try Run(["info", "\(dir)/bad.csv", "\(dir)/missing.csv", "\(dir)/good.csv"])
            #expect(r.status == 66)  // 66 (cannot open) is higher than 65 (bad data)
            #expect(r.stdout.contains("\(dir)/good.csv\n  format                      csv"))
            let lines = r.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(r.stderr)")
            #expect(lines[0].hasPrefix("tracekit: \(dir)/bad.csv:1: no latitude or longitude column"))
            #expect(lines[1].hasPrefix("tracekit: \(dir)/missing.csv: "))
            #expect(lines[2] == "tracekit: 2 of 3 files could not be read (each is named above); the other 1 were")
            let json = try Run(["info", "--format", "json", "\(dir)/bad.csv", "\(dir)/good.csv"])
            #expect(json.status == 65)
            #expect(json.stdout.contains("\"status\": 65") && json.stdout.contains("\"trackPoints\": 1"))
            // One file: its error alone, as before.
            let one = try Run(["info", "\(dir)/bad.csv"])
            #expect(one.status == 65 && one.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("--column may be given more than once; a later pair for the same field wins")
    func columnRepeated() throws {
        try OptionEffectTests.scratch { dir in
            try "a,b,c\n1,2,50\n".write(toFile: "\(dir)/t.csv", atomically: true, encoding: .utf8)
            let r = try Run(["info", "--format", "json", "--column", "lat=a,lon=c", "--column", "lon=b", "\(dir)/t.csv"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"trackPoints\": 1"))
            #expect(r.stdout.contains("\"lengthMetres\": 0"))
            // The reader's errors about the mapping name the flag.
            let bad = try Run(["info", "--column", "colour=1", "\(dir)/t.csv"])
            #expect(bad.status == 64 && bad.stderr.contains(": unknown field 'colour' in --column (known: "), "\(bad.stderr)")
        }
    }

    @Test("replay and compare of a folder point to batch")
    func folderToBatch() throws {
        let r = try Run(["replay", "Traces/trips"])
        #expect(r.status == 64)
        #expect(
            r.stderr.hasPrefix(
                "tracekit: Traces/trips is a folder: 'replay' reads trace files; replay every trip under it with 'tracekit batch Traces/trips'\n"
            ))
        let c = try Run(["compare", "--policy", "seed", "--policy", "seed", "Traces/trips"])
        #expect(c.status == 64 && c.stderr.contains("'compare' reads trace files"))
    }
}
