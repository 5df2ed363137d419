import TraceDevice
import TraceDomain
import TraceEnergy
import TraceIO
import TraceJSON
import TracePlatform
import TraceReplay
import TraceSharing
import TraceSmoothing

/// `tracekit replay TRACE…`: per-state update counts, what the other party sees, and the battery
/// estimate.
enum ReplayCommand {
    /// The options of `replay`, with their defaults.
    struct Options: CommandOptions {
        var inputs = ReplayInputs()
        var policy: String?
        var format = Format.table
        var svg: OutputFile?
        var html: OutputFile?
        var geojson: OutputFile?
        var split = SplitOptions()
        /// The traces.
        var arguments: [String] = []

        func validate() throws(CLIError) {
            if split.split && (svg != nil || html != nil || geojson != nil) {
                throw .usage("--svg, --html and --geojson draw one trip: cut the recording with 'tracekit split' and draw a trip's file")
            }
        }
    }

    enum Format: String, ArgumentChoice { case table, json, csv, markdown }

    static let spec = CommandSpec<Options>(
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
            (README, "Replay"). A recording gap (no fix for longer than --gap) is not request time; \
            a recording with one, or spanning more than 4 h, gets one warning line suggesting \
            --split, which cuts it into trips (as 'tracekit split' does) and replays each as its own \
            request. The table and Markdown reports open with a summary: the trip, the time in each \
            state, the updates each phone sent, each phone's battery in mAh (with the range across \
            the six shipped device profiles) and as a percentage of the energy profile's reference \
            battery (3,500 mAh unless the profile sets it), and the \
            worst view the other party had. '-' reads standard input (give --input-format unless \
            its content tells; held in memory).

            The sidecar's traces must be relative paths inside its folder (after '..' and \
            symbolic links): an absolute path, '../' or a link out is refused (65) without opening \
            it, unless --allow-outside-paths. --svg, --html and --geojson never overwrite an input \
            (a trace, the sidecar, a trace it names, the policy, the energy profile) or each other, \
            by any path, link or hard link: exit 64, nothing written.
            """,
        positionals: [
            PositionalSpec(
                name: "TRACE…",
                help:
                    "The helper's trace (or a trace whose tracks name their roles): any format info reads (GPX, CSV, NMEA, KML, GeoJSON, NDJSON, JSON histories, PLT, REC)."
            )
        ],
        positionalsOptional: true,
        variadic: true,
        options: ReplayInputs.options.map { $0.on(\.inputs) } + SplitOptions.options.map { $0.on(\.split) } + [
            .value(
                "policy", \.policy, valueName: "FILE",
                help: "A policy file whose overrides apply to the seed (what-if); 'seed' for the default table."),
            .value(
                "format", short: "f", \.format, valueName: "FORMAT",
                help:
                    "Report format: an aligned table; JSON (schema tracekit-replay/3); CSV, one row per state and role with every metric, units in the column names; Markdown for a pull-request comment."
            ),
            .value(
                "svg", \.svg, valueName: "FILE",
                help:
                    "Also write a picture of the trip: tracks coloured by state, delivered updates, pickup and dropoff, map frames, cumulative updates and energy over time."
            ),
            .value(
                "html", \.html, valueName: "FILE",
                help:
                    "Also write the report as one self-contained HTML page (no script, no external request): the summary, the picture of --svg, the display error over time, each phone's table by state, the battery and the arrivals."
            ),
            .value(
                "geojson", \.geojson, valueName: "FILE",
                help:
                    "Also write the delivered updates (role, state, time, sent, forwarded to, accuracy) and the pickup and dropoff as a GeoJSON FeatureCollection."
            ),
        ],
        examples: [
            "tracekit replay Traces/georust-garmin-activity.gpx",
            "tracekit replay helper.gpx --hirer hirer.gpx --category ride --format json",
            "tracekit replay trip.gpx --policy quiet.json --energy-profile lte-modern",
            "tracekit replay --scenario Traces/trips/ride/ride.scenario.json --format markdown --svg ride.svg --geojson ride.geojson",
            "tracekit replay --scenario Traces/trips/ride/ride.scenario.json --html ride.html",
            "tracekit replay --scenario Traces/trips/ride/ride.scenario.json --emulate-accuracy gauss-markov --seed 7",
        ])

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        var job = try Job(options.inputs, traces: options.arguments, command: "replay")
        if let p = options.policy { job.options.policy = try PolicyCommands.load(p) }
        job.options.rules.recordingGapSeconds = options.split.gap.seconds
        let svg = options.svg?.path, html = options.html?.path, geojson = options.geojson?.path
        try OutputCheck.check(
            outputs: CommandFile.named("--svg", svg) + CommandFile.named("--html", html) + CommandFile.named("--geojson", geojson),
            inputs: { job.files + CommandFile.input("policy file", options.policy.flatMap(PolicyCommands.file)) })
        if options.split.split { return try runTrips(options, job, output) }
        job.options.recordTrack = svg != nil || html != nil
        var result: ReplayResult
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
        result.asEachState = try job.asEachState(for: result, asked: options.inputs.asEachState)
        Job.warn(result)
        if let svg { try writeAtomically(svg, ReplaySVG.render(result, policy: job.options.policy)) }
        if let html { try writeAtomically(html, ReplayHTML.render(result, policy: job.options.policy)) }
        switch options.format {
        case .json: output.write(JSONWriter.string(result.json) + "\n")
        case .csv: output.write(ReplayReport.csv(result))
        case .markdown: output.write(ReplayReport.markdown(result))
        case .table: output.write(ReplayReport.table(result))
        }
    }

    /// `--split`: each trip of the recording replayed as its own request (``TripsReport``).
    static func runTrips(_ options: Options, _ job: Job, _ output: Output) throws(CLIError) {
        let trips: TripReplays
        do {
            trips = try Replay.runTrips(
                job.inputs, scenario: job.spec, options: job.options, rules: options.split.rules, asEachState: options.inputs.asEachState)
        } catch {
            throw Job.cliError(error)
        }
        for t in trips.trips {
            for w in t.result.warnings { printToStandardError("tracekit: warning: trip \(t.trip.index): \(w)") }
        }
        let names = job.inputs.map(\.path)
        switch options.format {
        case .json: output.write(JSONWriter.string(TripsReport.json(trips, inputs: names)) + "\n")
        case .csv: output.write(TripsReport.csv(trips))
        case .markdown: output.write(TripsReport.markdown(trips, inputs: names))
        case .table: output.write(TripsReport.table(trips, inputs: names))
        }
    }

    /// What to replay and how, from the shared input options (every replay option but the
    /// policy) and the traces: `replay` runs one, `compare` runs it twice with two policies.
    struct Job {
        var inputs: [TraceInput]
        var spec: ScenarioSpec
        var options: ReplayOptions
        /// The files read besides the traces: the sidecar and the energy profile.
        var others: [CommandFile] = []
        /// The trip held in memory (``TraceReplay/LoadedTrip``): standard input can be read only
        /// once, so a job that reads it loads the trip and replays from it; the answer as each
        /// state replays the trip it holds.
        var loaded: LoadedTrip?

        /// Whether a trace is read from standard input.
        var readsStandardInput: Bool {
            inputs.contains { $0.path == "-" } || spec.traces.values.contains { $0.value == "-" }
        }

        /// The trip, read once and held (nil when it is too large to hold).
        mutating func load() throws(ReplayError) -> LoadedTrip? {
            if loaded == nil { loaded = try Replay.load(inputs, scenario: spec, options: options) }
            return loaded
        }

        /// The recording of `result` replayed as each live state (``TraceReplay/Replay/asEachState(_:options:)``,
        /// from the trip held in memory; a trip too large to hold reads its files again) when `asked`
        /// (`--as-each-state`) or when it has no credible pickup; nil otherwise.
        mutating func asEachState(for result: ReplayResult, asked: Bool) throws(CLIError) -> [StateAnswer]? {
            guard asked || result.scenario.lacksCrediblePickup else { return nil }
            do {
                if let trip = try load() { return try Replay.asEachState(trip, options: options) }
                if readsStandardInput {
                    guard asked else { return nil }
                    throw CLIError.usage("--as-each-state holds the recording in memory, and standard input was too large to: give a file")
                }
                return try Replay.asEachState(inputs, scenario: spec, options: options, span: (result.start, result.end))
            } catch let error as ReplayError {
                throw Self.cliError(error)
            } catch let error as CLIError {
                throw error
            } catch {
                preconditionFailure("\(error)")
            }
        }

        /// - Parameter command: the command's name, for the message when there is nothing to replay.
        init(_ given: ReplayInputs, traces: [String], command: String) throws(CLIError) {
            // A folder holds trips, which batch replays one by one.
            if let folder = traces.first(where: isFolder) {
                throw .usage(
                    "\(folder) is a folder: '\(command)' reads trace files; replay every trip under it with 'tracekit batch \(folder)'")
            }
            options = try given.replayOptions()

            // The sidecar: --scenario, or beside the first trace.
            var spec = ScenarioSpec()
            var sidecar = given.scenario
            if sidecar == nil, let trace = traces.first, trace != "-" {
                let candidate = Replay.sidecarPath(besides: trace)
                if Platform.isReadable(candidate) { sidecar = candidate }
            }
            if let sidecar {
                let bytes = try readSmallFile(sidecar)
                do {
                    spec = try ScenarioSpec(sidecarBytes: bytes, file: sidecar, paths: given.sidecarPaths)
                } catch {
                    throw .data(error.description)
                }
            }
            others = CommandFile.input("scenario sidecar", sidecar) + CommandFile.input("energy profile", given.energyProfileFile)
            self.spec = spec.overriding(with: given.scenarioFlags)
            guard !traces.isEmpty || !self.spec.traces.isEmpty else {
                throw .usage("'\(command)' needs a TRACE, or a --scenario naming the traces")
            }
            inputs = traces.map { TraceInput(path: $0, defaultRole: .helper, provenance: .flag) }
        }

        /// Every file the job reads: the traces given, those the scenario names, the sidecar and
        /// the energy profile.
        var files: [CommandFile] {
            inputs.flatMap { CommandFile.input("input", $0.path) }
                + Role.allCases.flatMap { CommandFile.input("input", spec.traces[$0]?.value) }
                + others
        }

        /// Prints the result's warnings on standard error, one line each.
        static func warn(_ result: ReplayResult) {
            for w in result.warnings { printToStandardError("tracekit: warning: \(w)") }
        }

        /// Replays, mapping failures to exit statuses.
        mutating func replay<Observer: ReplayObserver>(observer: inout Observer) throws(CLIError) -> ReplayResult {
            do {
                if readsStandardInput, let trip = try load() { return try Replay.run(trip, options: options, observer: &observer) }
                return try Replay.run(inputs, scenario: spec, options: options, observer: &observer)
            } catch {
                throw Self.cliError(error)
            }
        }

        /// A replay's failure as the CLI reports it.
        static func cliError(_ error: ReplayError) -> CLIError {
            switch error {
            case .read(let e): CLIError(reading: e)
            case .invalid(let m): .data(m)
            }
        }
    }
}
