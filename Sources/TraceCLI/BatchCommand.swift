import TraceBatch
import TraceDomain
import TraceEnergy
import TraceJSON
import TracePlatform
import TraceReplay
import TraceSharing

/// `tracekit batch DIR|MANIFEST…`: every trip of a corpus replayed in parallel, aggregated, and
/// gated against a baseline.
enum BatchCommand {
    /// The options of `batch`, with their defaults.
    struct Options: CommandOptions {
        /// nil: the processors available.
        var jobs: WorkerCount?
        var shard: Shard?
        var policy: String?
        var compare: String?
        /// Only the energy profile, the receivers' radio, the send rule override, the problem
        /// policy, the speed limit and the UTC offset.
        var inputs = ReplayInputs()
        var split = SplitOptions()
        var jsonl = false
        /// `--corpus`: the corpus's name in the reports and the lines (nil: the inputs as given).
        var corpus: String?
        /// `--trip NAME --index I --of N`: one trip of a batch, its trace on standard input.
        var trip: String?
        var index: TripIndex?
        var of: BatchSize?
        /// The baseline, the gate and the report files (shared with `merge`).
        var gate = GateOptions()
        /// The inputs: folders, manifests, sidecars or traces.
        var arguments: [String] = []
    }

    /// Worker threads.
    struct WorkerCount: WholeNumberArgument {
        static let range = 1...1024
        var value: Int
        init(checked value: Int) { self.value = value }
    }

    /// `--index I`: a trip's place in its batch's order (0 first).
    struct TripIndex: WholeNumberArgument {
        static let range = 0...999_999_999_999_999
        var value: Int
        init(checked value: Int) { self.value = value }
    }

    /// `--of N`: the trips in the whole batch.
    struct BatchSize: WholeNumberArgument {
        static let range = 1...999_999_999_999_999
        var value: Int
        init(checked value: Int) { self.value = value }
    }

    static let spec = CommandSpec<Options>(
        name: "batch",
        abstract: "Replay every trip of a corpus in parallel; aggregate; write or gate against a baseline.",
        discussion: """
            Finds the trips under each DIR (a *.scenario.json sidecar naming its traces, or a \
            .gpx/.csv/.plt/.rec trace no sidecar in its folder claims; sorted by path), in each \
            MANIFEST (one trip or folder per line, relative to the manifest; '#' comments; '-' \
            reads it from standard input), or named directly, and replays them on --jobs worker \
            threads. Reports come in the trips' order whatever finishes first; --jsonl instead \
            streams one JSON object per trip to standard output as each finishes. A trip that \
            fails to replay is reported with its reason and the rest still run.

            --corpus NAME names the corpus in the reports and in every --jsonl line, where it is \
            part of the batch's identity (default: the inputs as given): shards that read one \
            corpus under different paths, or trips streamed one by one, name it alike so that \
            'tracekit merge' takes their lines as one batch's.

            --trip NAME --index I --of N makes the line of one trip of a larger batch whose trace \
            comes on standard input (input '-', with --jsonl; an engine's group of pings streamed \
            as CSV with role and state columns): NAME is the trip's name, as the file of that \
            name in the corpus would be named, and its extension says how standard input is \
            read; I its place in the batch's order (a folder batch sorts names by their bytes), \
            N the batch's size. The lines of every trip so streamed, merged, are the reports of \
            one 'tracekit batch' over those files (give --corpus the folder as that batch names \
            it). Not with --shard or --split.

            The report, in this order: the verdict on one line (with the counts); the trips \
            replayed (status against the baseline, time, updates sent and energy in mAh per phone, \
            the worst view); the trips that failed, with their reasons; with --baseline, one line \
            per trip, state and role with a figure beyond tolerance; per state and role, the \
            figures that changed, before → after (the baseline's, or --compare's A → B); the \
            corpus per role and state. --markdown and --html write the same parts.

            --write-baseline records, per trip, state and role, updates delivered, sent and \
            forwarded, display error p95, staleness p95 and energy (total and parts), with the \
            policy, the energy model and the TraceKit version (written atomically; a baseline is \
            read back up to 256 MiB, about 48,000 trips, and a larger one is not written: 65). --baseline \
            compares figure by figure (a figure: one metric of one trip, state and role): a \
            figure worse than the baseline by more than both its relative and its absolute \
            tolerance is a regression and fails the gate; better by more than both is an \
            improvement, which passes unless --strict. --strict fails a figure beyond tolerance \
            in either direction, and one measured in only one of the two ('make gate' runs it). \
            Tolerances: the baseline's, then --tolerance-file, then --tolerance flags; defaults: \
            counts 5 % and 2 updates, p95s 10 % and 1 m or 1 s, energy 5 % and 0.5 J.

            The gate counts figures, and every report gives the same count in the same words: \
            the verdict ('31 figures failing the gate (30 worse and 1 better beyond tolerance)'), \
            the gate's section of the table, --markdown and --html, and --junit's failures (one \
            test case per figure; a missing trip, or a new one under --strict, is a failing case \
            of its own). The gate's lines group the figures, one line per trip, state and role.

            Paths: a sidecar's traces must stay inside its folder and the corpus (the DIR it was \
            found under, or the manifest's folder), and a manifest file's lines inside its folder \
            (standard input's lines may name any path); every sidecar is checked before any trip \
            is replayed, and one that leads out stops the batch (65) without opening it, unless \
            --allow-outside-paths. No output (--write-baseline, --junit, --markdown, --html) may \
            be an input (a trip's trace or sidecar, a trace it names, a manifest, --policy, \
            --compare, --energy-profile, --baseline, --tolerance-file) or another output, by any \
            path, link or hard link (64, nothing written); a report inside the corpus folder is \
            fine otherwise.

            Exit status: 0 all trips replayed and the gate passed; 1 a regression (under --strict \
            also an improvement, a figure that appeared or disappeared, or a new trip), a baseline \
            trip that was not run, or a trip that failed to replay; 65 a bad or refused baseline \
            or tolerance file, a sidecar or manifest line that leads out of its folder; 64 usage \
            (also --trip, --index and --of not given together, an index outside the batch, a \
            name without a trace extension, an output that would overwrite an input); 66 an \
            input that cannot be read.
            """,
        positionals: [PositionalSpec(name: "INPUT…", help: "A folder of trips, a manifest ('-': standard input), or a sidecar or trace.")],
        variadic: true,
        options: [
            .value(
                "jobs", short: "j", \.jobs, valueName: "N",
                help: "Worker threads, each replaying one trip at a time (default: the processors available)."),
            .value(
                "shard", \.shard, valueName: "I/N",
                help: "Replay only the trips whose index in the batch's order is I modulo N (0 ≤ I < N)."),
            .value(
                "policy", \.policy, valueName: "FILE",
                help: "A policy file whose overrides apply to the seed; 'seed' for the default table."),
            .value(
                "compare", \.compare, valueName: "FILE",
                help: "Also replay every trip under this policy ('seed' too); show per state and role the figures that differ, A → B."),
        ]
            + ReplayInputs.options.filter {
                [
                    "energy-profile", "receiver-radio", "network", "viewer", "seed", "send", "as-each-state", "on-problem", "max-speed",
                    "utc-offset", "date", "allow-outside-paths",
                ]
                .contains($0.spec.name)
            }.map {
                $0.on(\.inputs)
            } + SplitOptions.options.map { $0.on(\.split) } + [
                .flag(
                    "jsonl", \.jsonl,
                    help:
                        "Write one JSON object per trip (schema tracekit-batch-trip/3: everything 'tracekit merge' needs; with --html also the trip's picture) to standard output as each finishes, instead of the report."
                ),
                .value(
                    "corpus", \.corpus, valueName: "NAME",
                    help:
                        "The corpus's name in the reports and the --jsonl lines, part of the batch's identity (default: the inputs as given)."
                ),
                .value(
                    "trip", \.trip, valueName: "NAME",
                    help:
                        "With input '-' and --jsonl: standard input is this one trip's trace (read as its name's extension says), not a manifest."
                ),
                .value("index", \.index, valueName: "I", help: "With --trip: the trip's index in the batch's order (0 ≤ I < N)."),
                .value("of", \.of, valueName: "N", help: "With --trip: the trips in the whole batch."),
            ] + GateOptions.options.map { $0.on(\.gate) } + [],
        examples: [
            "tracekit batch Traces/ --baseline Traces/baseline.json",
            "tracekit batch Traces/ --baseline Traces/baseline.json --strict   # make gate: a figure beyond tolerance either way fails",
            "tracekit batch Traces/ --write-baseline Traces/baseline.json",
            "tracekit batch corpus/ --policy quiet.json --baseline baseline.json --junit junit.xml --markdown summary.md --html report.html",
            "tracekit batch corpus/ --compare quiet.json",
            "find corpus -name '*.scenario.json' | tracekit batch - --jsonl --jobs 4",
            "tracekit batch manifest.txt --shard 3/16 --jsonl > shard-3.jsonl   # then: tracekit merge shard-*.jsonl",
            "tracekit batch - --trip r42.csv --index 7 --of 900 --corpus requests/ --jsonl --jobs 1 < r42.csv > r42.jsonl",
        ])

    static func run(_ o: Options, _ output: Output) throws(CLIError) {
        var options = try o.inputs.replayOptions()
        options.policy = try o.policy.map { (p) throws(CLIError) in try PolicyCommands.load(p) } ?? .seed
        let policyB = try o.compare.map { (p) throws(CLIError) in try PolicyCommands.load(p) }
        let jobs = o.jobs?.value ?? BatchRunner.activeProcessors
        let shard = o.shard
        let baselinePath = o.gate.writeBaseline?.path
        let outputs = o.gate.outputs
        if baselinePath != nil && o.gate.baseline != nil {
            throw .usage("give either --baseline (compare) or --write-baseline (record), not both")
        }
        if o.gate.strict && o.gate.baseline == nil { throw .usage("'--strict' needs --baseline") }

        // The baseline and the tolerances, before any time is spent replaying.
        let gate = try GateSetup(o.gate)
        if let b = gate.baseline, let path = gate.path, let reason = GateComparison.refusal(b.header, current: BaselineHeader(options)) {
            throw .data(namingTheFlag("\(path): \(reason)"))
        }
        let baseline = gate.baseline

        let streamed = try StreamedTrip(o)
        var trips: [BatchTrip]
        if let streamed {
            trips = [streamed.trip]
        } else {
            do {
                trips = try TripDiscovery.trips(inputs: o.arguments, confined: !o.inputs.allowOutsidePaths)
            } catch {
                throw CLIError(error)
            }
        }
        // Every sidecar's trace paths checked, and no output over an input, before any replay.
        let corpusFiles = try OutputCheck.corpusFiles(trips)
        try OutputCheck.check(outputs: o.gate.files) {
            o.arguments.flatMap { CommandFile.input("input", $0) } + corpusFiles
                + CommandFile.input("policy file", o.policy.flatMap(PolicyCommands.file))
                + CommandFile.input("compared policy file", o.compare.flatMap(PolicyCommands.file))
                + CommandFile.input("energy profile", o.inputs.energyProfileFile) + o.gate.inputFiles
        }
        options.rules.recordingGapSeconds = o.split.gap.seconds
        // --split: each trip of each recording its own row, `FILE#NN` (before sharding, so a
        // shard's rows are the same whatever the shard count).
        if o.split.split { trips = trips.flatMap { $0.split(rules: o.split.rules, options: options) } }
        // Indices in the whole batch's order (a shard keeps them, so its lines name them).
        var indices = streamed.map { [$0.index] } ?? Array(trips.indices)
        let corpus = o.corpus.map { [$0] } ?? o.arguments
        let batch = BatchLineHeader(
            inputs: corpus, trips: streamed?.count ?? trips.count, jobs: jobs, header: BaselineHeader(options),
            policyB: policyB?.name, joulesPerMilliampHour: options.energyProfile.joulesPerMilliampHour,
            reading: BatchLineHeader.reading(options, split: o.split, asEachState: o.inputs.asEachState))
        if let shard {
            trips = shard.select(trips)
            indices = shard.select(indices)
        }

        options.recordTrack = outputs.html != nil
        let jsonl = o.jsonl
        let work = TripWork(
            trips: trips, indices: indices, options: options, policyB: policyB, jsonl: jsonl ? batch : nil,
            asEachState: o.inputs.asEachState)
        var runs = [TripRun?](repeating: nil, count: trips.count)
        var progress = ProgressBar(counting: "trips")
        var failed = 0, done = 0
        var pools = BatchReport.Pools()
        let inBaseline = Set(baseline?.trips.map(\.id) ?? [])
        BatchRunner(jobs: jobs).run(count: trips.count, work: work.run) { i, run in
            if let line = run.jsonLine {
                output.write(line + "\n")
                try? output.flush()
            }
            if case .failure = run.outcome { failed += 1 }
            done += 1
            progress.draw(done, of: trips.count, note: failed > 0 ? "\(failed) failed" : nil)
            var kept = run
            kept.jsonLine = nil
            runs[i] = pools.take(kept, inBaseline: inBaseline.contains(run.trip.id))
        }
        progress.finish()

        var report = BatchReport(
            inputs: corpus, header: BaselineHeader(options), policyB: policyB?.name, jobs: jobs,
            shard: shard, trips: runs.map { $0! }, strict: o.gate.strict,
            joulesPerMilliampHour: options.energyProfile.joulesPerMilliampHour)
        report.pools = pools
        try conclude(
            &report, gate: gate, sharded: shard != nil || streamed != nil, writeBaseline: baselinePath, outputs: outputs, table: !jsonl,
            output: output)
    }

    /// `--trip NAME --index I --of N`: one trip of a batch whose trace comes on standard input (a
    /// request's pings grouped and streamed by an engine), with what a lone stream cannot know:
    /// its name (as the file of that name in the corpus), its index in the batch's order and the
    /// batch's size. Its `--jsonl` line is the line `tracekit batch` over the corpus would write
    /// for that file but for where the trace was read: the line's `path` ("-"), the file names in
    /// its replay and a failure's reason (`<stdin>`).
    struct StreamedTrip {
        var trip: BatchTrip
        var index: Int
        var count: Int

        /// nil without `--trip`, `--index` and `--of`.
        /// - Throws: ``CLIError`` 64 when they are not given together, with other inputs than
        ///   "-", without `--jsonl`, with `--shard` or `--split`, for an index outside the batch or
        ///   a name that no trace file could have.
        init?(_ o: Options) throws(CLIError) {
            guard o.trip != nil || o.index != nil || o.of != nil else { return nil }
            guard let name = o.trip, let index = o.index?.value, let count = o.of?.value else {
                let missing = [("--trip NAME", o.trip == nil), ("--index I", o.index == nil), ("--of N", o.of == nil)]
                throw .usage(
                    "a trip streamed on standard input needs its name, its index and the batch's size: give \(missing.filter(\.1).map(\.0).joined(separator: " and "))"
                )
            }
            guard o.arguments == ["-"] else {
                throw .usage(
                    "with --trip the one input is '-', the trip's trace on standard input (given: \(o.arguments.joined(separator: " ")))")
            }
            guard o.jsonl else { throw .usage("--trip makes the trip's line of a batch, for 'tracekit merge': give --jsonl") }
            guard o.shard == nil else { throw .usage("--trip is one trip of the batch already; --shard does not apply") }
            guard !o.split.split else { throw .usage("--split does not apply to a trip streamed with --trip: split the recording before") }
            guard index < count else { throw .usage("--index \(index) is outside a batch of \(count) trips (--of \(count)): 0 ≤ I < N") }
            guard TripDiscovery.isTrace(name) else {
                throw .usage(
                    "--trip '\(name)': the name of a trace file, whose extension says how standard input is read (\(TripDiscovery.traceExtensions.sorted().map { "." + $0 }.joined(separator: ", ")))"
                )
            }
            trip = .standardInput(named: name)
            self.index = index
            self.count = count
        }
    }

    /// The baseline and the tolerances of a gate: the baseline's, then the tolerance file's, then
    /// the flags'.
    struct GateSetup {
        var baseline: Baseline?
        var path: String?
        var tolerances = Tolerances.defaults

        /// Reads them (66 when a file cannot be read, 65 when it is bad).
        init(_ o: GateOptions) throws(CLIError) {
            if let path = o.baseline {
                let b = try parse(path) { (bytes) throws(GateFileError) in try Baseline(fileBytes: bytes, file: path) }
                baseline = b
                self.path = path
                tolerances = b.tolerances
            }
            if let file = o.toleranceFile {
                let base = tolerances
                tolerances = try parse(file) { (bytes) throws(GateFileError) in try base.overriding(fileBytes: bytes, file: file) }
            }
            for change in o.tolerances { tolerances = tolerances.overriding(change) }
        }
    }

    /// What `batch` and `merge` do once every trip's outcome is in `report`: gate it against the
    /// baseline (every trip attempted; `sharded`: baseline trips not attempted are not missing)
    /// and fold its trips (``BatchReport/Folded``), write the baseline and the reports
    /// (atomically), print the table (or, without `table`, the gate's lines on standard error),
    /// and fail with the verdict when the batch fails. A summary (`merge --summary`,
    /// ``BatchReport/notPassing``) comes gated and folded already, and writes its own reports.
    static func conclude(
        _ report: inout BatchReport, gate: GateSetup, sharded: Bool, writeBaseline: String?,
        outputs: (junit: String?, markdown: String?, html: String?), table: Bool, output: Output
    ) throws(CLIError) {
        let summary = report.notPassing != nil
        if !summary, let baseline = gate.baseline, let path = gate.path {
            if let reason = GateComparison.refusal(baseline.header, current: report.header) {
                throw .data(namingTheFlag("\(path): \(reason)"))
            }
            do {
                report.gate = try GateComparison(
                    baseline: baseline, file: path, current: report.header, tolerances: gate.tolerances,
                    attempted: report.trips.map(\.trip.id), results: report.replayedMetrics, sharded: sharded)
            } catch {
                throw .data(error.description)
            }
            report.baselinePath = path
            report.baseline = baseline
        }
        if !summary { report.folded = BatchReport.Folded(report.trips, gate: report.gate, baseline: report.baseline) }
        if let writeBaseline {
            let b = Baseline(
                header: report.header, tolerances: gate.tolerances,
                trips: report.replayed.map { (id: $0.trip.id, metrics: $0.report.metrics) }, views: report.pools.a)
            let text = JSONWriter.string(b.json) + "\n"
            guard text.utf8.count <= Baseline.maximumFileSize else {
                throw .data(
                    "--write-baseline: the baseline of \(b.trips.count) trips would be \(text.utf8.count) bytes, over the \(Baseline.maximumFileSize) a baseline is read at; gate a corpus this large in parts (one baseline per shard or folder)"
                )
            }
            try writeAtomically(writeBaseline, text)
        }
        if let path = outputs.junit { try writeAtomically(path, summary ? report.summaryJUnit : report.junit) }
        if let path = outputs.markdown { try writeAtomically(path, summary ? report.summaryMarkdown : report.markdown) }
        if let path = outputs.html { try writeAtomically(path, report.html) }

        if table {
            output.write(summary ? report.summaryTable : report.table)
        } else {
            for line in report.gateLines { printToStandardError("tracekit: \(line)") }
        }
        if let verdict = report.failureSummary { throw CLIError(code: .regression, message: verdict) }
    }

    /// Reads and parses a baseline or tolerance file: 66 when it cannot be read, 65 when it is bad.
    static func parse<T>(_ path: String, _ body: ([UInt8]) throws(GateFileError) -> T) throws(CLIError) -> T {
        let bytes = try readSmallFile(path, limit: 256 << 20)
        do {
            return try body(bytes)
        } catch {
            throw .data(namingTheFlag(error.description))
        }
    }

    /// `message` with the gate's advice (``GateComparison/refreshAdvice``) saying how it is done
    /// here: "refresh the baseline with --write-baseline".
    static func namingTheFlag(_ message: String) -> String {
        message.replacing(GateComparison.refreshAdvice, with: GateComparison.refreshAdvice + " with --write-baseline")
    }

    /// Replays one trip (and again under the compared policy), on a worker thread.
    struct TripWork: Sendable {
        var trips: [BatchTrip]
        /// Each trip's index in the whole batch (before `--shard`), for the `--jsonl` lines.
        var indices: [Int]
        var options: ReplayOptions
        var policyB: SharingPolicy?
        /// With `--jsonl`: the batch each line names.
        var jsonl: BatchLineHeader?
        /// `--as-each-state`: every trip answered as each live state, not only those without a
        /// credible pickup.
        var asEachState = false

        func run(_ i: Int) -> TripRun {
            let trip = trips[i], index = indices[i]
            do throws(BatchTripError) {
                // Standard input is read once: the trip is held in memory and replayed from it.
                let loaded = trip.isStandardInput ? try trip.load(options: options) : nil
                if trip.isStandardInput && loaded == nil {
                    throw BatchTripError(.data, "<stdin>: the trip's fixes take more memory than a streamed trip may hold; give a file")
                }
                var r: ReplayResult
                if let loaded { r = try trip.replay(loaded, options: options) } else { r = try trip.replay(options: options) }
                if asEachState || r.scenario.lacksCrediblePickup {
                    r.asEachState = try trip.asEachState(options: options, loaded: loaded, of: r)
                }
                var report = TripReport(r)
                report.views = PooledViews(r)
                if options.recordTrack {
                    report.svg = ReplaySVG.render(r, policy: options.policy, name: trip.isStandardInput ? trip.id : nil)
                }
                var resultB: ReplayResult?
                if let policyB {
                    var o = options
                    o.policy = policyB
                    o.recordTrack = false
                    let b: ReplayResult
                    if let loaded { b = try trip.replay(loaded, options: o) } else { b = try trip.replay(options: o) }
                    report.metricsB = TripMetrics(b)
                    report.viewsB = PooledViews(b)
                    report.maxima = ViewMaxima(r)
                    report.maximaB = ViewMaxima(b)
                    resultB = b
                }
                let line = jsonl.map {
                    JSONWriter.compact(BatchLine.json(index: index, batch: $0, trip: trip, report: report, result: r, resultB: resultB))
                }
                return TripRun(trip: trip, outcome: .success(report), jsonLine: line)
            } catch {
                let line = jsonl.map { JSONWriter.compact(BatchLine.json(index: index, batch: $0, trip: trip, error: error)) }
                return TripRun(trip: trip, outcome: .failure(error), jsonLine: line)
            }
        }
    }
}

/// The options of `batch` and `merge` that gate, record and report a batch's results.
struct GateOptions: OptionGroup {
    var writeBaseline: OutputFile?
    var baseline: String?
    var tolerances: [ToleranceOverride] = []
    var toleranceFile: String?
    var strict = false
    var junit: OutputFile?
    var markdown: OutputFile?
    var html: OutputFile?

    /// The report files to write.
    var outputs: (junit: String?, markdown: String?, html: String?) { (junit?.path, markdown?.path, html?.path) }

    /// Every file written, for ``OutputCheck``.
    var files: [CommandFile] {
        CommandFile.named("--write-baseline", writeBaseline?.path) + CommandFile.named("--junit", junit?.path)
            + CommandFile.named("--markdown", markdown?.path) + CommandFile.named("--html", html?.path)
    }

    /// The baseline and tolerance files read.
    var inputFiles: [CommandFile] { CommandFile.input("baseline", baseline) + CommandFile.input("tolerance file", toleranceFile) }

    static let options: [Option<GateOptions>] = [
        .value(
            "write-baseline", \.writeBaseline, valueName: "FILE",
            help: "Write the baseline of this run (schema tracekit-baseline/3), atomically."),
        .value(
            "baseline", \.baseline, valueName: "FILE",
            help: "Compare with this baseline, figure by figure; exit 1 when a figure fails the gate (worse beyond tolerance)."),
        .list(
            "tolerance", \.tolerances, valueName: "METRIC=REL,ABS",
            help:
                "Override a metric's tolerance, e.g. sent=10%,5 (REL a fraction or a percentage, ABS in the metric's unit; either may be empty). Metrics: \(GateMetric.allCases.map(\.rawValue).joined(separator: ", "))."
        ),
        .value("tolerance-file", \.toleranceFile, valueName: "FILE", help: "A tolerance file (schema tracekit-tolerances/1)."),
        .flag(
            "strict", \.strict,
            help:
                "With --baseline: a figure beyond tolerance in either direction fails (an improvement too, so the baseline gets refreshed), as do a figure measured in only one of the two and a new trip."
        ),
        .value(
            "junit", \.junit, valueName: "FILE",
            help:
                "Write JUnit XML: a test suite per trip, a test case per figure (state, role and metric); failures: the figures failing the gate."
        ),
        .value(
            "markdown", \.markdown, valueName: "FILE",
            help:
                "Write a pull-request comment in Markdown: the verdict, the top changes and the trips on one screen, the rest folded."
        ),
        .value(
            "html", \.html, valueName: "FILE",
            help: "Write a self-contained HTML report: the parts of the table output, and each trip's picture (as replay --svg)."),
    ]
}

extension Shard: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let s = Shard(parsing: argument) else { throw .expected("I/N with 0 ≤ I < N, e.g. 0/4", got: argument) }
        self = s
    }
}

/// `METRIC=REL,ABS`.
extension ToleranceOverride: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        do { try self.init(parsing: argument) } catch { throw .reasonAboutValue(error.message) }
    }
}

/// One trip's outcome in a batch.
struct TripRun: Sendable {
    var trip: BatchTrip
    var outcome: Result<TripReport, BatchTripError>
    /// The `--jsonl` line, made on the worker; dropped once written.
    var jsonLine: String?
}

/// What a batch keeps of a replayed trip: a few hundred bytes of figures (and the picture, only
/// with `--html`); its view samples only until they are pooled.
struct TripReport: Sendable {
    var metrics: TripMetrics
    /// Under the `--compare` policy.
    var metricsB: TripMetrics?
    var fixes: Int
    var seconds: Double
    var category: String
    /// Phones with a trace.
    var phones: Int
    /// Every phone of the replay (helper, hirer, then the delegate when it takes part), with or
    /// without a trace: its updates sent and its energy.
    var perPhone: [TripPhone]
    /// The worst view any party had of another (``ReplayResult/worstView``).
    var worstView: WorstView
    /// The worst samples per state and role, kept for `--compare` (nil otherwise), under each policy.
    var maxima: ViewMaxima?
    var maximaB: ViewMaxima?
    var inferred: [String]
    /// The trip replayed as each live state (``ReplaySummary/perStateLines``: "as En Route", then
    /// each phone's figures); empty unless it was (no credible pickup, or `--as-each-state`).
    var asEachState: [String] = []
    /// The traces' data problems and what was done with them, one text per kind
    /// (``TraceReplay/DataProblem/text``); empty when clean.
    var dataProblems: [String] = []
    /// Every phone's energy under each shipped device profile (a few dozen bytes: the profiles'
    /// names are shared); nil when none was priced.
    var spread: EnergySpread?
    /// The picture, for `--html`.
    var svg: String?
    /// The view samples under each policy, until they are pooled (``BatchReport/Pools``).
    var views: PooledViews?
    var viewsB: PooledViews?

    /// Updates sent by every phone.
    var sent: Int { perPhone.reduce(0) { $0 + $1.sent } }
    /// Energy of every phone, J.
    var joules: Double { perPhone.reduce(0) { $0 + $1.joules } }
}

extension TripReport {
    /// The figures of a replay (without the compared policy's, the picture or the samples).
    init(_ r: ReplayResult) {
        metrics = TripMetrics(r)
        fixes = r.roleTotals.reduce(0) { $0 + $1.rawFixes }
        seconds = r.durationSeconds
        category = r.scenario.category.value.name
        phones = r.energy.filter(\.hasTrace).count
        perPhone = r.roles.map { role in
            let e = r.energy.first { $0.role == role }?.estimate
            return TripPhone(
                role: role, sent: r.roleTotals.first { $0.role == role }?.sentUpdates ?? 0, joules: e?.totalJoules ?? 0,
                milliampHours: e?.milliampHours ?? 0)
        }
        worstView = r.worstView
        inferred = r.scenario.assumedItems
        dataProblems = r.dataProblems.map(\.text)
        asEachState = ReplaySummary(r).perStateLines.map { "\($0.label): \($0.text)" }
        spread = r.energySpread
    }
}

/// One phone of a batch's trip: updates sent, and energy in J and as charge (mAh,
/// ``TraceEnergy/EnergyEstimate/milliampHours``).
struct TripPhone: Sendable {
    var role: Role
    var sent: Int
    var joules: Double
    var milliampHours: Double
}
