#if canImport(Glibc)
import Glibc
import TraceDomain
#elseif canImport(Darwin)
import Darwin
#endif
import TraceDevice
import TraceEnergy
import TraceIO
import TraceJSON
import TraceReplay
import TraceSharing
import TraceSmoothing

/// `tracekit replay TRACE…`: per-state update counts, what the other party sees, and the battery
/// estimate.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay a trip: per-state updates delivered, sent and forwarded, the other party's view, battery cost.",
        discussion: """
            Replays the traces through the fulfilment state machine and the policy on one clock: \
            each phone's emulated location manager, what it sends, what the relay forwards to \
            whom, how far off and how stale each viewer's map is, and each phone's battery \
            estimate (docs/battery-model.md). Tracks named helper, hirer or delegate (or the CSV role column) \
            give roles; other tracks belong to the file's role (TRACE: the helper). The scenario \
            comes from flags, then the sidecar (TRACE's name with .scenario.json, or --scenario), \
            then the trace (waypoints named pickup and dropoff, the CSV state column); whatever is \
            still missing is inferred by documented rules and labelled inferred in the report \
            (README, "Replay"). '-' reads standard input (give --input-format; held in memory).
            """,
        positionals: [PositionalSpec(name: "TRACE…", help: "The helper's trace (or a trace whose tracks name their roles): GPX, CSV, PLT, REC.")],
        positionalsOptional: true,
        variadic: true,
        options: inputOptions + [
            OptionSpec(name: "policy", valueName: "FILE", help: "A policy file whose overrides apply to the seed (what-if); 'seed' for the default table."),
            OptionSpec(name: "format", short: "f", valueName: "FORMAT", choices: ["table", "json", "csv", "markdown"], defaultValue: "table",
                       help: "Report format: an aligned table; JSON (schema tracekit-replay/1); CSV, one row per state and role with every metric, units in the column names; Markdown for a pull-request comment."),
            OptionSpec(name: "svg", valueName: "FILE", help: "Also write a picture of the trip: tracks coloured by state, delivered updates, pickup and dropoff, map frames, cumulative updates and energy over time."),
            OptionSpec(name: "geojson", valueName: "FILE", help: "Also write the delivered updates (role, state, time, sent, forwarded to, accuracy) and the pickup and dropoff as a GeoJSON FeatureCollection."),
        ],
        examples: [
            "tracekit replay Traces/georust-garmin-activity.gpx",
            "tracekit replay helper.gpx --hirer hirer.gpx --category ride --format json",
            "tracekit replay trip.gpx --policy quiet.json --energy-profile lte-modern",
            "tracekit replay --scenario Traces/trips/ride/ride.scenario.json --format markdown --svg ride.svg --geojson ride.geojson",
            "tracekit replay --scenario Traces/trips/ride/ride.scenario.json --emulate-accuracy gauss-markov --seed 7",
        ])

    /// The accuracy emulation's seed when `--seed` is not given (documented in the help and the
    /// README; any fixed value would do, this one is the date of the first demo trip).
    static let defaultSeed: UInt64 = 20_240_501

    /// The options that say what to replay and how to read and price it (shared with `compare`).
    static let inputOptions = [
        OptionSpec(name: "scenario", valueName: "FILE", help: "A scenario sidecar (schema tracekit-scenario/1); default: TRACE's .scenario.json when it exists."),
        OptionSpec(name: "category", valueName: "NAME", help: "The request category: ride, babysitting, dog walking, delivery, or another (non-ride) name."),
        OptionSpec(name: "handed-off", help: "Pickup is handed off to a third party: the delegate's phone sources the hirer's locations."),
        OptionSpec(name: "pickup", valueName: "LAT,LON", help: "The pickup point, decimal degrees."),
        OptionSpec(name: "dropoff", valueName: "LAT,LON", help: "The dropoff point, decimal degrees."),
        OptionSpec(name: "timeline", valueName: "STATE@TIME,…", help: "The state timeline, e.g. enRoute@2024-05-01T10:00:00Z,atPickup@2024-05-01T10:12:00Z."),
        OptionSpec(name: "hirer", valueName: "FILE", help: "The hirer's trace."),
        OptionSpec(name: "delegate", valueName: "FILE", help: "The delegate's trace (the third-party pickup)."),
        OptionSpec(name: "energy-profile", valueName: "FILE", help: "An energy profile file, or a built-in profile: lte, lte-modern, 3g, wifi."),
        OptionSpec(name: "receiver-radio", valueName: "ON|OFF", choices: ["on", "off"], defaultValue: "on",
                   help: "Charge each viewer's radio for the updates it receives."),
        OptionSpec(name: "emulate-accuracy", valueName: "NOISE", choices: ["off", "white", "gauss-markov"], defaultValue: "off",
                   help: "Degrade each fix to its state's tier when the tier is coarser than the recording, with seeded white or Gauss–Markov noise (the seed is printed)."),
        OptionSpec(name: "tau", valueName: "SECONDS", defaultValue: "60", help: "The Gauss–Markov noise's correlation time."),
        OptionSpec(name: "seed", valueName: "N", defaultValue: String(defaultSeed),
                   help: "The accuracy emulation's seed (0 to 2^64-1): the same seed gives the same numbers."),
        OptionSpec(name: "smooth", valueName: "MODE", choices: ["off", "walk", "bike", "drive"], defaultValue: "off",
                   help: "Smooth each phone's fixes (online Kalman filter for the state's tier and this travel mode) before its distance filter."),
        OptionSpec(name: "delivery", valueName: "MODEL[:N]",
                   help: "Replace every state's delivery model: coreLocation, androidFused:INTERVAL, speedElastic[:MULTIPLIER], distanceOrTime:INTERVAL, distanceAndTime:INTERVAL."),
        OptionSpec(name: "input-format", valueName: "FORMAT", choices: ["gpx", "csv", "plt", "rec"],
                   help: "Read the traces as this format instead of guessing from the extension."),
        OptionSpec(name: "on-problem", valueName: "POLICY", choices: ["report", "skip", "fail"], defaultValue: "report",
                   help: "Per-point problems: report (drop only unusable points), skip (drop every point with a problem), fail (stop at the first)."),
        OptionSpec(name: "utc-offset", valueName: "HOURS", help: "CSV times written without a zone are local times this many hours east of UTC."),
        OptionSpec(name: "column", valueName: "FIELD=COLUMN", help: "CSV: take FIELD from COLUMN (as for info); comma-separated for several."),
    ]

    static func run(_ args: ParsedArguments, _ output: Output) throws(CLIError) {
        var job = try Job(args)
        if let p = args.value("policy") { job.options.policy = try PolicyCommands.load(p) }
        let svg = try outputPath(args, "svg"), geojson = try outputPath(args, "geojson")
        job.options.recordTrack = svg != nil
        let result: ReplayResult
        if let geojson {
            let file: AtomicFile
            do { file = try AtomicFile(path: geojson) } catch { throw CLIError(writing: error) }
            var updates = GeoJSONUpdates(writer: GeoJSONPointWriter(sink: ByteSink(fd: file.fd, name: geojson)))
            do {
                result = try job.replay(observer: &updates)
                try updates.finish(result)
            } catch {
                file.abandon()
                throw error
            }
            do { try file.commit() } catch { throw CLIError(writing: error) }
        } else {
            var none = NoReplayObserver()
            result = try job.replay(observer: &none)
        }
        if let svg { try writeAtomically(svg, ReplaySVG.render(result, policy: job.options.policy)) }
        switch args.value("format") ?? "table" {
        case "json": output.write(JSONWriter.string(result.json) + "\n")
        case "csv": output.write(ReplayReport.csv(result))
        case "markdown": output.write(ReplayReport.markdown(result))
        default: output.write(ReplayReport.table(result))
        }
    }

    /// A file to write, from option `name`: not standard output, which the report writes.
    static func outputPath(_ args: ParsedArguments, _ name: String) throws(CLIError) -> String? {
        guard let path = args.value(name) else { return nil }
        guard !path.isEmpty, path != "-" else { throw .usage("'--\(name)' needs a file to write ('-' would mix it into the report on standard output)") }
        return path
    }

    /// What to replay and how, from the shared input options (every replay option but the
    /// policy): `replay` runs one, `compare` runs it twice with two policies.
    struct Job {
        var inputs: [TraceInput]
        var spec: ScenarioSpec
        var options: ReplayOptions

        init(_ args: ParsedArguments) throws(CLIError) {
            options = try Job.options(args)

            // The sidecar: --scenario, or beside the first trace.
            var spec = ScenarioSpec()
            var sidecar = args.value("scenario")
            if sidecar == nil, let trace = args.positionals.first, trace != "-" {
                let candidate = Replay.sidecarPath(besides: trace)
                if access(candidate, R_OK) == 0 { sidecar = candidate }
            }
            if let sidecar {
                let bytes = try readSmallFile(sidecar)
                do {
                    spec = try ScenarioSpec(sidecarBytes: bytes, file: sidecar)
                } catch {
                    throw .data(error.description)
                }
            }
            self.spec = spec.overriding(with: try ReplayCommand.flags(args))
            guard !args.positionals.isEmpty || !self.spec.traces.isEmpty else {
                throw .usage("'\(args.command)' needs a TRACE, or a --scenario naming the traces")
            }
            inputs = args.positionals.map { TraceInput(path: $0, defaultRole: .helper, provenance: .flag) }
        }

        /// The replay options the reading, energy and radio options give (not the policy): shared
        /// by `replay`, `compare` and `batch`.
        static func options(_ args: ParsedArguments) throws(CLIError) -> ReplayOptions {
            var options = ReplayOptions()
            options.read = try InfoCommand.readOptions(args)
            options.inputFormat = args.value("input-format").flatMap(TraceFormat.init(rawValue:))
            options.receiverRadio = args.value("receiver-radio") != "off"
            options.tracekitVersion = TraceKitCommand.version
            options.phone = try ReplayCommand.phone(args)
            if let p = args.value("energy-profile") {
                if let builtIn = EnergyProfile.builtIn(named: p) {
                    options.energyProfile = builtIn
                } else {
                    let bytes = try readSmallFile(p)
                    do {
                        options.energyProfile = try EnergyProfile(fileBytes: bytes, file: p)
                    } catch {
                        throw .data(error.description)
                    }
                }
            }
            return options
        }

        /// Replays, mapping failures to exit statuses.
        func replay<Observer: ReplayObserver>(observer: inout Observer) throws(CLIError) -> ReplayResult {
            do {
                return try Replay.run(inputs, scenario: spec, options: options, observer: &observer)
            } catch {
                switch error {
                case .read(let e): throw CLIError(reading: e)
                case .invalid(let m): throw .data(m)
                }
            }
        }
    }

    /// The phone pipeline from `--emulate-accuracy`, `--tau`, `--seed`, `--smooth` and `--delivery`.
    static func phone(_ args: ParsedArguments) throws(CLIError) -> PhoneConfiguration {
        var c = PhoneConfiguration(seed: defaultSeed)
        if let text = args.value("seed") {
            guard let seed = UInt64(text) else { throw .usage("'--seed' takes an integer from 0 to 18446744073709551615, not '\(text)'") }
            c.seed = seed
        }
        let tauText = args.value("tau") ?? "60"
        guard let tau = Double(tauText), tau.isFinite, tau > 0 else { throw .usage("'--tau' takes a positive number of seconds, not '\(tauText)'") }
        switch args.value("emulate-accuracy") ?? "off" {
        case "white": c.accuracyEmulation = .white
        case "gauss-markov": c.accuracyEmulation = .gaussMarkov(tau: tau)
        default: c.accuracyEmulation = .off
        }
        if let mode = args.value("smooth").flatMap(TravelMode.init(rawValue:)) { c.smoothing = .on(mode: mode) }
        if let text = args.value("delivery") { c.deliveryOverride = try delivery(parsing: text) }
        return c
    }

    /// `MODEL[:NUMBER]`: a delivery model by its policy-file name, with its interval (seconds) or,
    /// for speedElastic, its multiplier (default 1).
    static func delivery(parsing text: String) throws(CLIError) -> DeliveryModel {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let number = parts.count == 2 ? Double(parts[1]) : nil
        if parts.count == 2, number.map({ !$0.isFinite || $0 < 0 || $0 > 86_400 }) ?? true {
            throw .usage("'--delivery': '\(parts[1])' is not a number of seconds (or a multiplier) from 0 to 86400")
        }
        func interval() throws(CLIError) -> Double {
            guard let number, number > 0 else { throw .usage("'--delivery': \(parts[0]) needs an interval above 0 s, e.g. \(parts[0]):10") }
            return number
        }
        switch parts[0] {
        case "coreLocation" where parts.count == 1: return .coreLocation
        case "androidFused": return .androidFused(interval: try interval(), minUpdateInterval: nil)
        case "speedElastic":
            guard (number ?? 1) <= 100 else { throw .usage("'--delivery': the speedElastic multiplier is at most 100, not '\(parts[1])'") }
            return .speedElastic(elasticityMultiplier: number ?? 1)
        case "distanceOrTime": return .distanceOrTime(interval: try interval())
        case "distanceAndTime": return .distanceAndTime(interval: try interval())
        default:
            throw .usage("'--delivery' takes coreLocation, androidFused:INTERVAL, speedElastic[:MULTIPLIER], distanceOrTime:INTERVAL or distanceAndTime:INTERVAL, not '\(text)'")
        }
    }

    /// The scenario items given as flags.
    static func flags(_ args: ParsedArguments) throws(CLIError) -> ScenarioSpec {
        var spec = ScenarioSpec()
        if let c = args.value("category") {
            guard !c.isEmpty else { throw .usage("'--category' needs a name") }
            spec.category = Sourced(RequestCategory(named: c), .flag, "--category")
        }
        if args.flags.contains("handed-off") { spec.pickupHandedOff = Sourced(true, .flag, "--handed-off") }
        for name in ["pickup", "dropoff"] {
            guard let text = args.value(name) else { continue }
            guard let c = ScenarioSpec.coordinate(parsing: text) else {
                throw .usage("'--\(name)' takes LAT,LON in decimal degrees (latitude within ±90), not '\(text)'")
            }
            if name == "pickup" { spec.pickup = Sourced(c, .flag, "--pickup") } else { spec.dropoff = Sourced(c, .flag, "--dropoff") }
        }
        if let text = args.value("timeline") {
            switch ScenarioSpec.timeline(parsing: text, provenance: .flag) {
            case .failure(let e): throw .usage("'--timeline': '\(e.item)': \(e.message)")
            case .success(let entries):
                do {
                    spec.timeline = Sourced(try TimelineEntry.validated(entries), .flag, "--timeline")
                } catch {
                    throw .usage("'--timeline': entry \(error.index + 1): \(error.message)")
                }
            }
        }
        if let h = args.value("hirer") { spec.traces[.hirer] = Sourced(h, .flag, "--hirer") }
        if let d = args.value("delegate") { spec.traces[.delegate] = Sourced(d, .flag, "--delegate") }
        return spec
    }
}
