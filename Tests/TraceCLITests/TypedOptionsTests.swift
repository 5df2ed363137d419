import Testing
import TraceBatch
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing
import TraceSmoothing

@testable import TraceCLI

/// The typed options values: each conversion, a bad value's message, and the defaults.
@Suite("Typed options")
struct TypedOptionsTests {
    /// The options value of `spec` for `arguments`, or the usage error's message.
    func parse<O>(_ spec: CommandSpec<O>, _ arguments: [String]) -> Result<O, CLIError> {
        do { return .success(try spec.options(from: spec.parse(arguments))) } catch { return .failure(error) }
    }

    func message<O>(_ spec: CommandSpec<O>, _ arguments: [String]) -> String? {
        guard case .failure(let e) = parse(spec, arguments), e.code == .usage else { return nil }
        return e.message
    }

    @Test("defaults: the options type's initial values, the same as help shows")
    func defaults() throws {
        let d = try parse(DistanceCommand.spec, []).get()
        #expect(d.method == .exact && d.precision.value == 3 && d.input == nil)
        let r = try parse(ReplayCommand.spec, ["t.gpx"]).get()
        #expect(r.format == .table && r.inputs.seed == 20_240_501 && r.inputs.tau.rawValue == 60 && r.inputs.receiverRadio == .on)
        #expect(
            r.inputs.emulateAccuracy == .off && r.inputs.smooth == .off && r.inputs.reading.onProblem == .filter && r.arguments == ["t.gpx"]
        )
        let s = try parse(SmoothCommand.spec, ["a.gpx", "b.gpx"]).get()
        #expect(s.mode == .walk && s.tier == .best && s.convention == .ios && s.gate.rawValue == 13.8 && !s.rts)
        let b = try parse(BatchCommand.spec, ["Traces/"]).get()
        #expect(b.jobs == nil && b.shard == nil && b.gate.tolerances.isEmpty && !b.gate.strict && !b.jsonl)
        for (option, shown) in [("method", "exact"), ("precision", "3")] {
            #expect(DistanceCommand.spec.options.first { $0.spec.name == option }?.spec.defaultValue == shown)
        }
        #expect(SmoothCommand.spec.options.first { $0.spec.name == "gate" }?.spec.defaultValue == "13.8")
        #expect(ReplayCommand.spec.options.first { $0.spec.name == "seed" }?.spec.defaultValue == "20240501")
        #expect(ReplayCommand.spec.options.first { $0.spec.name == "tau" }?.spec.defaultValue == "60")
    }

    @Test("choices come from the enum's cases, in order")
    func choices() {
        #expect(ReplayCommand.Format.choices == ["table", "json", "csv", "markdown"])
        #expect(AccuracyNoise.choices == ["off", "white", "gauss-markov"])
        #expect(OnlineSmoothing.choices == ["off", "walk", "bike", "drive"])
        #expect(InputFormat.choices == ["gpx", "csv", "plt", "rec", "nmea", "kml", "geojson", "ndjson", "json"])
        #expect(ConvertCommand.OutputFormat.choices == ["gpx", "csv", "geojson", "ndjson"])
        #expect(AccuracyTier.choices.first == "bestForNavigation" && !AccuracyTier.choices.contains("off"))
        #expect(throws: InvalidArgument.notAChoice(["on", "off"])) { try Switch(argument: "yes") }
    }

    @Test("each conversion gives the typed value")
    func conversions() throws {
        let r = try parse(
            ReplayCommand.spec,
            [
                "--format", "csv", "--seed", "7", "--tau", "12.5", "--emulate-accuracy", "gauss-markov", "--smooth", "bike",
                "--delivery", "androidFused:10", "--pickup", "-33.9,151.2", "--category", "ride", "--utc-offset", "-5",
                "--column", "latitude=1,longitude=2", "--input-format", "csv", "--receiver-radio", "off", "--svg", "out.svg",
                "--timeline", "enRoute@2024-05-01T10:00:00Z", "--handed-off", "t.csv",
            ]
        ).get()
        #expect(r.format == .csv && r.inputs.seed == 7 && r.inputs.tau.rawValue == 12.5 && r.inputs.emulateAccuracy == .gaussMarkov)
        #expect(r.inputs.smooth.travelMode == .bike && r.inputs.delivery == .androidFused(interval: 10, minUpdateInterval: nil))
        #expect(
            r.inputs.pickup == (try Coordinate(latitude: -33.9, longitude: 151.2)) && r.inputs.category == RequestCategory(named: "ride"))
        #expect(
            r.inputs.reading.utcOffset?.seconds == -18_000 && r.inputs.reading.readOptions.columns == ["latitude": "1", "longitude": "2"])
        #expect(r.inputs.reading.format == .csv && r.inputs.receiverRadio == .off && r.svg?.path == "out.svg" && r.inputs.handedOff)
        #expect(r.inputs.timeline?.entries.map(\.state) == [.accepted, .enRoute])  // validated: accepted inferred before
        #expect(r.inputs.phone.accuracyEmulation == .gaussMarkov(tau: 12.5) && r.inputs.phone.seed == 7)
        let b = try parse(
            BatchCommand.spec, ["--jobs", "4", "--shard", "1/3", "--tolerance", "sent=10%,5", "--tolerance", "energyTotal=,1", "Traces/"]
        ).get()
        #expect(b.jobs?.value == 4 && b.shard == Shard(index: 1, count: 3))
        #expect(b.gate.tolerances.map(\.metric) == [.sent, .energyTotal])
        #expect(b.gate.tolerances.map(\.relative) == [0.1, nil] && b.gate.tolerances.map(\.absolute) == [5, 1])
        let s = try parse(SmoothCommand.spec, ["--gate", "inf", "--tier", "hundredMeters", "--mode", "drive", "--to", "ndjson", "a", "b"])
            .get()
        #expect(s.gate.rawValue == .infinity && s.tier == .hundredMeters && s.mode == .drive && s.transcoding.to == .ndjson)
        let c = try parse(CompareCommand.spec, ["--policy", "seed", "--policy", "q.json", "-f", "markdown"]).get()
        #expect(c.policies == ["seed", "q.json"] && c.format == .markdown)
        #expect(try parse(PolicyCommands.show, ["-f", "json"]).get().format == .json)
        #expect(try parse(InfoCommand.spec, ["--on-problem", "skip", "x.gpx"]).get().reading.readOptions.policy == .skip)
    }

    @Test(
        "a bad value is a usage error naming the option",
        arguments: [
            (["--precision", "11"], "'--precision' takes a whole number from 0 to 10, not '11'"),
            (["--method", "vincenty"], "'vincenty' is not a valid value for '--method'; choose one of exact, fast, haversine"),
        ])
    func distanceErrors(arguments: [String], expected: String) {
        #expect(message(DistanceCommand.spec, arguments) == expected)
    }

    @Test(
        "bad values of replay, batch and smooth",
        arguments: [
            (["--seed", "-1"], "'--seed' takes an integer from 0 to 18446744073709551615, not '-1'"),
            (["--tau", "0"], "'--tau' takes a positive number of seconds, not '0'"),
            (["--category", ""], "'--category' needs a name"),
            (["--category", "taxi\u{1B}]0;x\u{07}"], "'--category': a category must not contain control characters (line breaks, tabs)"),
            (["--category", "a\u{9B}b"], "'--category': a category must not contain control characters (line breaks, tabs)"),
            (["--pickup", "91,0"], "'--pickup' takes LAT,LON in decimal degrees (latitude within ±90), not '91,0'"),
            (["--delivery", "androidFused"], "'--delivery': androidFused needs an interval above 0 s, e.g. androidFused:10"),
            (["--utc-offset", "15"], "'--utc-offset' takes hours east of UTC between -14 and 14, not '15'"),
            (["--column", "latitude"], "'--column' takes FIELD=COLUMN pairs, not 'latitude'"),
            (["--svg", "-"], "'--svg' needs a file to write ('-' would mix it into the report on standard output)"),
        ])
    func replayErrors(arguments: [String], expected: String) {
        #expect(message(ReplayCommand.spec, arguments + ["t.gpx"]) == expected)
    }

    @Test(
        "--send: a send rule by its policy-file name, on replay, compare and batch, into ReplayOptions.send",
        arguments: [
            ("everyDelivered", SendRule.everyDelivered),
            ("deadReckoning", .deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30)),
            ("deadReckoning:30", .deadReckoning(thresholdMetres: 30, heartbeatSeconds: 30)),
            ("deadReckoning:12.5,90", .deadReckoning(thresholdMetres: 12.5, heartbeatSeconds: 90)),
            ("deadReckoning:100000,86400", .deadReckoning(thresholdMetres: 100_000, heartbeatSeconds: 86_400)),
        ])
    func send(text: String, rule: SendRule) throws {
        let r = try parse(ReplayCommand.spec, ["--send", text, "t.gpx"]).get()
        #expect(r.inputs.send == rule)
        #expect(try r.inputs.replayOptions().send == rule)
        let c = try parse(CompareCommand.spec, ["--send", text, "--policy", "seed", "--policy", "seed", "t.gpx"]).get()
        #expect(try c.inputs.replayOptions().send == rule)
        let b = try parse(BatchCommand.spec, ["--send", text, "Traces/"]).get()
        #expect(try b.inputs.replayOptions().send == rule)
        // Without the option every state's own rule applies.
        #expect(try parse(ReplayCommand.spec, ["t.gpx"]).get().inputs.replayOptions().send == nil)
        #expect(try parse(BatchCommand.spec, ["Traces/"]).get().inputs.replayOptions().send == nil)
    }

    @Test(
        "bad values of --send name the option and what is wrong",
        arguments: [
            ("deadReckoning:abc", "'--send': 'abc' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30"),
            ("deadReckoning:0", "'--send': '0' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30"),
            ("deadReckoning:-1", "'--send': '-1' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30"),
            ("deadReckoning:100001", "'--send': '100001' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30"),
            ("deadReckoning:inf", "'--send': 'inf' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30"),
            (
                "deadReckoning:30,",
                "'--send': 'deadReckoning:30,' has no HEARTBEAT after the comma; give seconds from 0.001 to 86400, e.g. deadReckoning:30,60"
            ),
            (
                "deadReckoning:30,0",
                "'--send': '0' is not a heartbeat in seconds from 0.001 to 86400, e.g. deadReckoning:30,60"
            ),
            (
                "deadReckoning:30,x",
                "'--send': 'x' is not a heartbeat in seconds from 0.001 to 86400, e.g. deadReckoning:30,60"
            ),
            (
                "deadReckoning:",
                "'--send': 'deadReckoning:' has no METRES after the colon; write deadReckoning alone for each state's distance filter"
            ),
            (
                "deadReckoning:30,60,5",
                "'--send': 'deadReckoning:30,60,5' has more than METRES and HEARTBEAT; write deadReckoning:METRES,HEARTBEAT"
            ),
            ("pigeon", "'--send' takes everyDelivered or deadReckoning[:METRES[,HEARTBEAT]], not 'pigeon'"),
            ("everyDelivered:5", "'--send' takes everyDelivered or deadReckoning[:METRES[,HEARTBEAT]], not 'everyDelivered:5'"),
            ("", "'--send' takes everyDelivered or deadReckoning[:METRES[,HEARTBEAT]], not ''"),
        ])
    func sendErrors(text: String, expected: String) {
        #expect(message(ReplayCommand.spec, ["--send", text, "t.gpx"]) == expected)
        #expect(message(BatchCommand.spec, ["--send", text, "Traces/"]) == expected)
    }

    @Test("bad values of batch and smooth")
    func otherErrors() {
        #expect(message(BatchCommand.spec, ["--jobs", "0", "x"]) == "'--jobs' takes a whole number from 1 to 1024, not '0'")
        #expect(message(BatchCommand.spec, ["--shard", "2/2", "x"]) == "'--shard' takes I/N with 0 ≤ I < N, e.g. 0/4, not '2/2'")
        #expect(
            message(BatchCommand.spec, ["--tolerance", "sent=x,1", "x"])
                == "'--tolerance sent=x,1': 'x' is not a relative tolerance ≥ 0 (a fraction such as 0.05, or 5%)")
        #expect(message(SmoothCommand.spec, ["--gate", "nan", "a", "b"]) == "'--gate' takes a positive χ² threshold or 'inf', not 'nan'")
        #expect(message(SmoothCommand.spec, ["--tier", "off", "a", "b"]) != nil)
    }
}
