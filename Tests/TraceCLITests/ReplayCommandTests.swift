import Foundation
import TestSupport
import Testing

@Suite("tracekit replay, end to end")
struct ReplayCommandTests {
    func tempDir() throws -> URL {
        let dir = scratchFolder.appendingPathComponent("replay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Ten fixes 50 m apart (north, ≈ 0.00045°), ten seconds apart, from 47° N 8° E.
    func tenFixes(in dir: URL, name: String = "trip.gpx") throws -> String {
        var s = "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for i in 0..<10 {
            s += "<trkpt lat=\"\(47 + Double(i) * 50 / 111_153.0)\" lon=\"8\"><time>2024-05-01T10:0\(i / 6):\(i % 6)0Z</time></trkpt>\n"
        }
        let path = dir.appendingPathComponent(name).path
        try (s + "</trkseg></trk></gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func json(_ r: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func helper(_ doc: [String: Any], _ state: String) -> [String: Any]? {
        let states = doc["states"] as? [[String: Any]]
        let s = states?.first { $0["state"] as? String == state }
        return (s?["roles"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" }
    }

    @Test("make run's job: the bundled ride replays two phones from its sidecar, nothing inferred")
    func makeRun() throws {
        let r = try Run(["replay", "--scenario", "Traces/trips/ride/ride.scenario.json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        for text in ["Helper's phone", "Hirer's phone", "inferred   nothing", "→ hirer", "→ helper", "What dominates the cost:"] {
            #expect(r.stdout.contains(text), "missing \(text)")
        }
    }

    @Test("the bundled recording: a per-state table, sidecar and inferred items labelled, the model named")
    func bundled() throws {
        let r = try Run(["replay", "Traces/georust-garmin-activity.gpx"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        for text in [
            "Helper's phone", "At Pickup", "In Task", "Total", "[sidecar Traces/georust-garmin-activity.scenario.json]",
            "(* inferred: ", "tracekit-energy 1, profile lte",
            "What dominates the cost:", "Raw fixes  Delivered  Sent  → hirer  Display error m mean/p95/max",
        ] {
            #expect(r.stdout.contains(text), "missing \(text)")
        }
        let doc = try json(try Run(["replay", "-f", "json", "Traces/georust-garmin-activity.gpx"]))
        #expect(doc["schema"] as? String == "tracekit-replay/3")
        let totals = (doc["totals"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" }
        #expect(totals?["rawFixes"] as? Int == 988)
        // The location part, from the states' seconds and docs/battery-model.md's powers: At Pickup at
        // BestForNavigation (425 mW), In Task at HundredMeters (30 mW), the rest off.
        let atPickup = (doc["states"] as? [[String: Any]])?.first { $0["state"] as? String == "atPickup" }?["seconds"] as? Double ?? -1
        let inTask = (doc["states"] as? [[String: Any]])?.first { $0["state"] as? String == "inTask" }?["seconds"] as? Double ?? -1
        let estimate = ((doc["energy"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" })?["estimate"] as? [String: Any]
        let location = try #require(estimate?["locationJoules"] as? Double)
        #expect(abs(location - (0.425 * atPickup + 0.030 * inTask)) < 1e-9)
        let delivered = try #require(totals?["deliveredFixes"] as? Int)
        #expect(abs((estimate?["fixesJoules"] as? Double ?? -1) - Double(delivered) * 0.05) < 1e-9)
    }

    @Test("counts and energy on a crafted trip, derived by hand; --policy changes the counts, --energy-profile the radio's joules")
    func crafted() throws {
        let dir = try tempDir()
        let path = try tenFixes(in: dir)
        let timeline = ["--timeline", "enRoute@2024-05-01T10:00:00Z", "--pickup", "48,8"]
        let doc = try json(try Run(["replay", "-f", "json", path] + timeline))
        let m = try #require(helper(doc, "enRoute"))
        // 50 m steps through En Route's 30 m filter: all ten delivered, sent and forwarded to the hirer.
        #expect(m["rawFixes"] as? Int == 10 && m["deliveredFixes"] as? Int == 10 && m["sentUpdates"] as? Int == 10)
        #expect((m["forwarded"] as? [String: Any])?["hirer"] as? Int == 10)
        let e = try #require(m["energyJoules"] as? [String: Any])
        #expect(abs((e["location"] as? Double ?? -1) - 0.145 * 90) < 1e-9 && abs((e["fixes"] as? Double ?? -1) - 0.5) < 1e-9)
        // A 60 m filter: fixes 0, 2, 4, 6, 8 (100 m apart) → five.
        let policy = dir.appendingPathComponent("p.json").path
        try #"{"format": "tracekit-policy", "version": 2, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 60}}}"#
            .write(toFile: policy, atomically: true, encoding: .utf8)
        let quiet = try json(try Run(["replay", "-f", "json", "--policy", policy, path] + timeline))
        #expect(helper(quiet, "enRoute")?["deliveredFixes"] as? Int == 5)
        #expect((quiet["policy"] as? [String: Any])?["name"] as? String == "quiet")
        let wifi = try Run(["replay", "--energy-profile", "wifi", path] + timeline)
        #expect(wifi.status == 0 && wifi.stdout.contains("tracekit-energy 1, profile wifi"))
        // --energy-profile changes the radio's joules, and only them. The helper sends at 0, 10, …,
        // 90 s (t_tx 0.1 s). Radio energy by hand from the battery model's constants (docs/battery-model.md) (W × s = J):
        // - lte: one promotion 1.21 W × 0.26 s; ten transmissions 1.2 W × 0.1 s; the tail at 1.06 W,
        //   cut at 9.64 s after the promoted send (its transmission ends at 0.36 s), at 9.9 s after
        //   the next eight, the last in full (10.12 s): 98.96 s of tail.
        // - lte-modern: the same with the tail at 0.5 W.
        // - 3g: one promotion 0.65 W × 2 s; ten transmissions 1.3 W × 0.1 s; tails of 4 s at 1.3 W
        //   (DCH) then FACH at 0.3 W for 3.9 s (first gap 7.9 s), 5.9 s (the next eight) and 10 s (last).
        // - wifi: no promotion; 0.403 W × 0.1 s each; every gap outlasts the 0.25 s tail at 0.403 W.
        let tail = 9.64 + 8 * 9.9 + 10.12
        let radio: [(profile: String, promotion: Double, transmit: Double, tail: Double)] = [
            ("lte", 1.21 * 0.26, 10 * 1.2 * 0.1, 1.06 * tail),
            ("lte-modern", 1.21 * 0.26, 10 * 1.2 * 0.1, 0.5 * tail),
            ("3g", 0.65 * 2, 10 * 1.3 * 0.1, 10 * 1.3 * 4 + 0.3 * (3.9 + 8 * 5.9 + 10)),
            ("wifi", 0, 10 * 0.403 * 0.1, 10 * 0.403 * 0.25),
        ]
        var radioTotals: [String: Double] = [:]
        for (profile, promotion, transmit, tail) in radio {
            let d = try json(try Run(["replay", "-f", "json", "--energy-profile", profile, path] + timeline))
            #expect((d["energyModel"] as? [String: Any])?["label"] as? String == "tracekit-energy 1, profile \(profile)")
            // The counts are the default profile's: an energy profile changes no update.
            let row = try #require(helper(d, "enRoute"))
            for key in ["rawFixes", "deliveredFixes", "sentUpdates"] { #expect(row[key] as? Int == m[key] as? Int, "\(profile): \(key)") }
            #expect((row["forwarded"] as? [String: Int]) == (m["forwarded"] as? [String: Int]), "\(profile)")
            let estimate = try #require(
                ((d["energy"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" })?["estimate"] as? [String: Any])
            #expect(estimate["sent"] as? Int == 10, "\(profile)")
            let joules = try #require(estimate["radioJoules"] as? [String: Double])
            #expect(abs(joules["promotion"]! - promotion) < 1e-9, "\(profile): promotion \(joules["promotion"]!) vs \(promotion)")
            #expect(abs(joules["transmit"]! - transmit) < 1e-9, "\(profile): transmit \(joules["transmit"]!) vs \(transmit)")
            #expect(abs(joules["tail"]! - tail) < 1e-9, "\(profile): tail \(joules["tail"]!) vs \(tail)")
            // The state's radio figure is the same energy; location and fixes do not move.
            let state = try #require(row["energyJoules"] as? [String: Double])
            #expect(abs(state["radio"]! - (promotion + transmit + tail)) < 1e-9, "\(profile)")
            #expect(abs(state["location"]! - 0.145 * 90) < 1e-9 && abs(state["fixes"]! - 0.5) < 1e-9, "\(profile)")
            radioTotals[profile] = state["radio"]!
        }
        // Direction: the modern modem's 500 mW tail costs less than LTE's 1060 mW; Wi-Fi least.
        #expect(
            radioTotals["lte-modern"]! < radioTotals["lte"]! && radioTotals["3g"]! < radioTotals["lte"]!
                && radioTotals["wifi"]! < radioTotals["lte-modern"]!)
        // Determinism: the same bytes twice.
        #expect(try Run(["replay", "-f", "json", path] + timeline).stdout == Run(["replay", "-f", "json", path] + timeline).stdout)
    }

    @Test("no hourly rate from a trip of seconds: the report says why; a given pickup far from the fixes is a warning on stderr")
    func shortTripAndWarnings() throws {
        let dir = try tempDir()
        let path = try tenFixes(in: dir)  // 90 s
        // A plain recording answers per state; with a timeline given, the per-phone report shows.
        let text = try Run(["replay", path, "--timeline", "enRoute@2024-05-01T10:00:00Z"])
        #expect(text.status == 0)
        #expect(text.stdout.contains(" mAh battery (assumed), no hourly rate (90 s covered; rates need at least 300 s); location "), "\(text.stdout)")
        #expect(!text.stdout.contains("mAh/h"))
        let estimate =
            ((try json(try Run(["replay", "-f", "json", path])))["energy"] as? [[String: Any]])?.first?["estimate"] as? [String: Any]
        #expect(estimate?["milliampHoursPerHour"] is NSNull && estimate?["averageMilliwatts"] is NSNull)
        #expect(estimate?["rateWithheld"] as? String == "90 s covered; rates need at least 300 s")
        // The fixes run north from 47° N 8° E; a pickup given as LON,LAT (8,47) is thousands of km off.
        let swapped = try Run(["replay", path, "--pickup", "8,47.001"])
        #expect(swapped.status == 0)
        let lines = swapped.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("tracekit: warning: pickup 8.000000, 47.001000 (--pickup) is "), "\(swapped.stderr)")
        #expect(lines.first?.hasSuffix("it looks swapped (LON,LAT): as 47.001000, 8.000000 it would lie among them") == true)
    }

    @Test("the sidecar beside the trace is found; flags override it; stdin needs --input-format")
    func sidecar() throws {
        let dir = try tempDir()
        let path = try tenFixes(in: dir)
        try #"{"schema": "tracekit-scenario/1", "category": "babysitting"}"#
            .write(toFile: dir.appendingPathComponent("trip.scenario.json").path, atomically: true, encoding: .utf8)
        let r = try Run(["replay", path])
        #expect(r.status == 0 && r.stdout.contains("category   babysitting (not a ride)   [sidecar "))
        let f = try Run(["replay", "--category", "ride", path])
        #expect(f.stdout.contains("category   ride   [--category]"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let s = try Run(["replay", "--input-format", "gpx", "-"], stdin: text)
        #expect(s.status == 0 && s.stdout.contains("Replay: <stdin> (helper 10 fixes)"))
    }

    @Test(
        "errors: one line on stderr, the documented exit status",
        arguments: [
            (
                ["replay", "--pickup", "95,8", "TRACE"], Int32(64),
                "tracekit: '--pickup' takes LAT,LON in decimal degrees (latitude within ±90), not '95,8'"
            ),
            (
                ["replay", "--timeline", "enRoute@noon", "TRACE"], Int32(64),
                "tracekit: '--timeline': 'enRoute@noon': expected an ISO 8601 time with a zone, e.g. 2024-05-01T10:00:00Z"
            ),
            (["replay", "/nonexistent.gpx"], Int32(66), "tracekit: /nonexistent.gpx: "),
            (
                ["replay", "--scenario", "SIDECAR", "TRACE"], Int32(65),
                "tracekit: SIDECAR:1:12: schema: unsupported schema \"x\"; this TraceKit reads \"tracekit-scenario/1\""
            ),
            (["replay"], Int32(64), "tracekit: 'replay' needs a TRACE, or a --scenario naming the traces"),
        ])
    func errors(arguments: [String], status: Int32, prefix: String) throws {
        let dir = try tempDir()
        let trace = try tenFixes(in: dir)
        let sidecar = dir.appendingPathComponent("bad.json").path
        try #"{"schema": "x"}"#.write(toFile: sidecar, atomically: true, encoding: .utf8)
        let args = arguments.map { $0 == "TRACE" ? trace : $0 == "SIDECAR" ? sidecar : $0 }
        let r = try Run(args)
        #expect(r.status == status)
        #expect(r.stderr.hasPrefix(prefix.replacingOccurrences(of: "SIDECAR", with: sidecar)), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").first.map { !$0.isEmpty } == true)
        #expect(r.stdout.isEmpty)
    }

    /// Outputs written by `tracekit replay` before the phone pipeline was plugged in
    /// (Tests/TraceCLITests/Golden): with emulation off (the default) nothing may change. Rewritten
    /// only when the JSON report gains a member (warnings, excludedSeconds, recordingGaps; the
    /// reference battery and the arrivals' absence) or the terminal report its reading aids (the
    /// summary, the column headers and legend, the battery's percentage, the arrivals' wording).
    static let golden: [(file: String, arguments: [String])] = [
        ("ride.json", ["--scenario", "Traces/trips/ride/ride.scenario.json", "--format", "json"]),
        ("dog-walk.json", ["--scenario", "Traces/trips/dog-walk/dog-walk.scenario.json", "--format", "json"]),
        (
            "third-party-pickup.json",
            ["--scenario", "Traces/trips/third-party-pickup/third-party-pickup.scenario.json", "--format", "json"]
        ),
        ("georust-garmin-activity.json", ["Traces/georust-garmin-activity.gpx", "--format", "json"]),
        ("ride.txt", ["--scenario", "Traces/trips/ride/ride.scenario.json"]),
    ]

    /// The ideal network and the last-position viewer are the view TraceKit measured before it
    /// modelled the network: with them, every golden file is reproduced byte for byte.
    static let idealView = ["--network", "ideal", "--viewer", "last"]

    @Test(
        "the ideal view (--network ideal --viewer last) with emulation off (any seed) writes the same bytes as before the network model and the pipeline existed",
        arguments: golden)
    func unchanged(file: String, arguments: [String]) throws {
        let expected = try String(contentsOf: packageRoot.appendingPathComponent("Tests/TraceCLITests/Golden/\(file)"), encoding: .utf8)
        for run in [
            try Run(["replay"] + Self.idealView + arguments),
            try Run(["replay", "--network", "ideal", "--emulate-accuracy", "off", "--seed", "9"] + arguments),
        ] {
            #expect(run.status == 0 && run.stderr.isEmpty, "\(file): exit \(run.status), \(run.stderr)")
            #expect(run.stdout == expected, "\(file): the bytes differ from the golden file")
        }
    }

    @Test("emulation on: the seed and the configuration are in the header and the JSON; same seed, same bytes; another seed, other numbers")
    func emulation() throws {
        let ride = ["replay", "--scenario", "Traces/trips/ride/ride.scenario.json", "--emulate-accuracy", "gauss-markov", "--tau", "30"]
        let table = try Run(ride + ["--seed", "7"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains(
                "  phones     accuracy emulation Gauss–Markov (τ 30 s), seed 7; smoothing off; accuracy convention ios; delivery per state\n"
            ))
        let a = try Run(ride + ["--seed", "7", "-f", "json"]).stdout
        #expect(a == (try Run(ride + ["--seed", "7", "-f", "json"]).stdout))
        let b = try Run(ride + ["--seed", "8", "-f", "json"]).stdout
        #expect(a != b)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any])
        let phone = try #require(doc["phone"] as? [String: Any])
        #expect((phone["accuracyEmulation"] as? [String: Any])?["seed"] as? String == "7")
        #expect((phone["accuracyEmulation"] as? [String: Any])?["tauSeconds"] as? Double == 30)
        // Without --seed the documented default is used and printed.
        #expect(try Run(ride).stdout.contains("seed 20240501;"))
        // Smoothing and a delivery override are named too.
        let smooth = try Run([
            "replay", "--scenario", "Traces/trips/ride/ride.scenario.json", "--smooth", "drive", "--delivery", "androidFused:5",
        ])
        #expect(
            smooth.status == 0
                && smooth.stdout.contains(
                    "  phones     accuracy emulation off; smoothing drive (gate 13.8); accuracy convention ios; delivery Android fused: interval 5 s, min update 5 s (implicit)\n"
                ))
    }

    @Test("--send deadReckoning:30 (and in a policy file) replays end to end; a bad rule is a usage error")
    func send() throws {
        let ride = ["replay", "--scenario", "Traces/trips/ride/ride.scenario.json", "--format", "json"]
        for flags in [["--send", "deadReckoning:30"], ["--send", "deadReckoning"], ["--send", "everyDelivered"]] {
            let r = try Run(ride + flags)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(flags): exit \(r.status), \(r.stderr)")
            #expect(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) is [String: Any])
        }
        let dir = try tempDir()
        let policy = dir.appendingPathComponent("dr.json").path
        try #"{"format": "tracekit-policy", "version": 3, "name": "dr", "states": {"enRoute": {"send": {"rule": "deadReckoning"}}}}"#
            .write(toFile: policy, atomically: true, encoding: .utf8)
        let p = try Run(ride + ["--policy", policy])
        #expect(p.status == 0 && p.stderr.isEmpty, "\(p.stderr)")
        // The pairing, named in the report; an explicit last-position viewer warns once.
        let table = ["replay", "--scenario", "Traces/trips/ride/ride.scenario.json"]
        let paired = try Run(table + ["--send", "deadReckoning:30"])
        #expect(paired.status == 0 && paired.stderr.isEmpty)
        #expect(paired.stdout.contains("viewer extrapolates up to 10 s (paired with the dead-reckoning send rule)"))
        let last = try Run(table + ["--send", "deadReckoning:30", "--viewer", "last"])
        #expect(last.status == 0 && !last.stdout.contains("paired with"))
        #expect(
            last.stderr.components(separatedBy: "\n").filter { $0.contains("sends what a distance filter of its threshold would") }.count
                == 1, "\(last.stderr)")
        let bad = try Run(["replay", "Traces/georust-garmin-activity.gpx", "--send", "deadReckoning:0"])
        #expect(bad.status == 64 && bad.stdout.isEmpty)
        #expect(
            bad.stderr
                == "tracekit: '--send': '0' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30\nSee 'tracekit --help'.\n"
        )
    }

    @Test(
        "phone flag errors",
        arguments: [
            (["--seed", "-1"], "tracekit: '--seed' takes an integer from 0 to 18446744073709551615, not '-1'"),
            (["--tau", "0"], "tracekit: '--tau' takes a positive number of seconds, not '0'"),
            (
                ["--delivery", "pigeon"],
                "tracekit: '--delivery' takes coreLocation, androidFused:INTERVAL, speedElastic[:MULTIPLIER], distanceOrTime:INTERVAL or distanceAndTime:INTERVAL, not 'pigeon'"
            ),
            (["--delivery", "androidFused"], "tracekit: '--delivery': androidFused needs an interval above 0 s, e.g. androidFused:10"),
            (["--delivery", "speedElastic:500"], "tracekit: '--delivery': the speedElastic multiplier is at most 100, not '500'"),
            (
                ["--emulate-accuracy", "pink"],
                "tracekit: 'pink' is not a valid value for '--emulate-accuracy'; choose one of off, white, gauss-markov"
            ),
        ])
    func phoneErrors(flags: [String], message: String) throws {
        let r = try Run(["replay", "Traces/georust-garmin-activity.gpx"] + flags)
        #expect(r.status == 64 && r.stdout.isEmpty)
        // The whole of standard error: the message, then where the usage is.
        #expect(r.stderr == message + "\nSee 'tracekit --help'.\n", "\(r.stderr)")
    }

    @Test("help names every option")
    func help() throws {
        let r = try Run(["replay", "--help"])
        for option in [
            "--scenario", "--category", "--pickup", "--dropoff", "--timeline", "--hirer", "--delegate", "--policy", "--energy-profile",
            "--format",
            "--emulate-accuracy", "--tau", "--seed", "--smooth", "--delivery", "--send",
        ] {
            #expect(r.stdout.contains(option))
        }
        #expect(try Run(["--help"]).stdout.contains("replay"))
    }

    /// Malformed corpus files that still hold timed points replay what is usable (the reader's
    /// diagnostics are printed); these fail with a one-line error naming the file.
    static let malformedFailing: Set<String> = [
        "georust-badcharacter.xml",  // not well-formed XML
        "gpxgo-iso8859-1encoded.gpx",  // no timed track point (waypoints only)
        "gpxpy-unicode_with_bom.gpx",  // no timed track point
    ]

    @Test(
        "every corpus trace replays with no other input; malformed ones fail with one line naming the file",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/gpx").path),
            "../shared/traces not found: corpus replay skipped"))
    func corpus() throws {
        for dir in ["gpx", "csv", "plt", "other", "malformed"] {
            let folder = sharedFolder.appendingPathComponent("traces/" + dir)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let path = folder.appendingPathComponent(name).path
                let r = try Run(["replay", path])
                if dir == "malformed" && Self.malformedFailing.contains(name) {
                    #expect(r.status == 65, "\(name)")
                    #expect(r.stderr.hasPrefix("tracekit: \(path):") && r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
                } else {
                    #expect(r.status == 0, "\(name): \(r.stderr)")
                    // A trip with a credible pickup gets the per-phone tables; a plain recording (no
                    // stop after setting off) the answer as each live state instead.
                    let tables = r.stdout.contains("'s phone\nState ") && r.stdout.contains("\nTotal ")
                    let perState =
                        ["  as En Route ", "  as At Pickup ", "  as In Task "].allSatisfy(r.stdout.contains)
                        && r.stdout.contains("  pickup     none credible: no stop after setting off")
                    #expect(tables != perState, "\(name)")
                }
            }
        }
    }
}
