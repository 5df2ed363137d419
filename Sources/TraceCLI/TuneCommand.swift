import TraceBatch
import TraceDomain
import TraceJSON
import TracePlatform
import TraceReplay
import TraceSharing
import TraceTune

/// `tracekit tune INPUT… --require EXPR…`: the cheapest policy that keeps every requirement on a
/// corpus (``TraceBatch/Tuner``).
enum TuneCommand {
    struct Options: CommandOptions {
        var requirements: [RequirementArgument] = []
        var requirementFile: String?
        var minimize = Objective(.energy)
        var judge = Judge.every
        var policy: String?
        var space: String?
        var out: OutputFile?
        var format = Format.table
        var svg: OutputFile?
        var html: OutputFile?
        var jobs: BatchCommand.WorkerCount?
        var rounds = Rounds(checked: 4)
        var checkStart: Percent?
        var keepTolerance = Tolerance(.standard)
        var releases: [Release] = []
        var skipInfeasible = false
        var inputs = ReplayInputs()
        var split = SplitOptions()
        var arguments: [String] = []

        func validate() throws(CLIError) {
            if requirements.isEmpty && requirementFile == nil {
                throw .usage("give at least one requirement (--require or --require-file)")
            }
        }
    }

    enum Format: String, ArgumentChoice { case table, json, markdown }

    /// What `--minimize` names: `energy`, `energy-worst`, `energy.ROLE`, `sent` or `forwarded`.
    struct Objective: ArgumentRepresentable {
        var value: TuneObjective
        init(_ value: TuneObjective) { self.value = value }
        init(argument: String) throws(InvalidArgument) {
            guard let v = TuneObjective(parsing: argument) else {
                throw .expected("energy, energy-worst, energy.ROLE (hirer, helper, delegate), sent or forwarded", got: argument)
            }
            value = v
        }
        var argument: String { value.description }
    }

    /// One `--require` expression, e.g. `enRoute.hirer.displayErrorP95<=25m`.
    struct RequirementArgument: ExpressibleByArgument {
        var value: Requirement
        init(argument: String) throws(InvalidArgument) {
            do { value = try Requirement(parsing: argument) } catch { throw .reasonAboutValue(error.description) }
        }
    }
    enum Judge: String, ArgumentChoice {
        case every, pooled
        var judgement: CorpusJudgement { self == .every ? .everyTrip : .pooled }
    }

    /// A percentage, written `2%` or `2` (0 to 100).
    struct Percent: ExpressibleByArgument {
        var value: Double
        init(argument: String) throws(InvalidArgument) {
            let text = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
            guard let v = Double(text), v.isFinite, (0...100).contains(v) else {
                throw .expected("a percentage from 0 to 100 (e.g. 2%)", got: argument)
            }
            value = v
        }
    }

    /// How much worse than the start a kept figure may get: `10%,2m,2s`.
    struct Tolerance: ArgumentRepresentable {
        var value: KeepTolerance
        init(_ value: KeepTolerance) { self.value = value }
        init(argument: String) throws(InvalidArgument) {
            do { value = try KeepTolerance(parsing: argument) } catch { throw .reasonAboutValue(error.message) }
        }
        var argument: String { value.description }
    }

    /// Figures released from keeping: `all`, `STATE[.VIEWER[.FIGURE]]`, `arrival[.POINT[.VIEWER]]`.
    struct Release: ExpressibleByArgument {
        var value: KeepRelease
        init(argument: String) throws(InvalidArgument) {
            do { value = try KeepRelease(parsing: argument) } catch { throw .reasonAboutValue(error.message) }
        }
    }

    /// The most rounds of the search.
    struct Rounds: WholeNumberArgument {
        static let range = 1...100
        var value: Int
        init(checked value: Int) { self.value = value }
    }

    /// The replay options `tune` takes: what says how to replay and price the corpus. Not
    /// `--delivery` or `--send`: they would replace the rows' delivery models and send rules that
    /// the tuned policy file carries (put a send rule in the start policy instead).
    static let replayOptionNames = [
        "energy-profile", "receiver-radio", "emulate-accuracy", "tau", "seed", "smooth", "network", "viewer", "on-problem", "max-speed",
        "utc-offset", "date", "allow-outside-paths",
    ]

    static let spec = CommandSpec<Options>(
        name: "tune",
        abstract: "Find the cheapest policy that meets every requirement on a corpus.",
        discussion: """
            Reads each trip of the corpus once (INPUT as for batch: folders, manifests, sidecars, \
            traces; --split makes each trip of a long recording its own), holds it in memory, and \
            searches the space of per-state rows (--space; default: for every state whose tier is \
            not off, distance filters 0 to 300 m, six delivery models, no accuracy gate or 50 m, \
            and the tier only with --emulate-accuracy) for the policy that minimises --minimize \
            while meeting every --require. What the user's document fixes (map frames, what each \
            role sees, the annotations, the ride-only rule, the hand-off) is never changed; the \
            send rule is the start policy's.

            A requirement is SCOPE.ROLE.FIGURE OP BOUND: STATE.VIEWER.displayErrorP95, \
            displayErrorMax (m or km): what the viewer's map shows of the positions it is shown in \
            the state, against where they really were; STATE.VIEWER.stalenessP95, stalenessMax (s \
            or min); STATE.PHONE.sentPerMinute; trip.ROLE.FIGURE over the whole trip; \
            arrival.pickup.VIEWER, arrival.dropoff.VIEWER (s): how late the viewer saw the helper \
            arrive (an arrival not shown by design is not judged; one never shown is a failure). \
            OP is <=, <, >= or >. --judge every (the default): every trip must meet each \
            requirement, and its value is the worst trip's; --judge pooled: the corpus's figure \
            must: percentiles over every sample of every trip, maxima over all, updates per \
            minute as all over all minutes (an arrival is still the worst trip's).

            What no requirement names is kept: every view figure (displayErrorP95, \
            displayErrorMax, stalenessP95, stalenessMax) of each state and viewer, and every \
            arrival's delay, the start has may get worse by at most --keep-tolerance (default \
            10%,2m,2s: max(start × 1.10, start + 2 m or 2 s)), judged like a requirement (with \
            --judge every, each trip against its own start's value). The report lists the kept \
            figures and which bind. --release STATE, STATE.VIEWER, STATE.VIEWER.FIGURE, arrival, \
            arrival.POINT, arrival.POINT.VIEWER or all gives them up. Trips on which no candidate \
            meets a requirement judged trip by trip (a recording with fixes minutes apart) are \
            named with the best reached there; --skip-infeasible leaves them out and searches \
            again without them.

            The search: coordinate descent over the states, each candidate judged on the figures \
            of a full replay of every trip (the update gate carries its last delivered fix from \
            state to state, so states are not independent): candidates whose phones make the \
            same decisions on a trip (the same fixes delivered and sent, the same tiers) share \
            one replay, found by running the phones alone over the trip's recorded inputs (only \
            over the swept state and until they decide as under the sweep's base again, without \
            --emulate-accuracy and --smooth), and sampling only the views the requirements \
            judge (the other figures are the full replay's); \
            keeping the best by the requirements' and kept figures' excess, then the \
            objective, then fewer updates sent, then the fewest fields changed from the start. \
            The figures printed for the start and the tuned policy are their own full replays: \
            'tracekit batch CORPUS --policy tuned.json' with the same replay options gives the \
            same per-trip figures (without --emulate-accuracy and --smooth, which batch does not \
            take: with them 'replay' and 'compare' reproduce each trip; the per-viewer figures of \
            the requirements are tune's own). Beside each display-error requirement of a state, the limit: \
            the fewest updates a phone knowing its true position could send to keep every recorded \
            fix within the bound, and the tuned policy's updates as a ratio to it.

            Memory: each trip's fixes (24 to 48 bytes a fix) up to 24 MiB a trip, and with its \
            phones' recorded inputs (64 bytes a fix) up to 1 GiB for the corpus; a trip beyond \
            either is read from its file at each replay instead (slower, the same figures), never \
            left out.

            Paths: the corpus is read as batch reads it (a sidecar's traces and a manifest's lines \
            stay inside their folders and the corpus, or 65 before the search, unless \
            --allow-outside-paths). --out, --svg and --html never overwrite an input (the corpus's \
            files, --policy, --space, --require-file, the energy profile) or each other: 64, \
            nothing written; tune into a new file, not over the start policy.

            In CI, --check-start PERCENT checks the policy a team ships (--policy): exit 1 when it \
            misses a requirement, or when the tuned policy costs more than PERCENT less (it is no \
            longer on the frontier of its corpus).

            Exit status: 0 every requirement met (--out written); 1 the search found no policy \
            that meets them all \
            (one line on stderr per requirement or kept figure the tuned policy misses, naming \
            the state, the viewer and the best value any candidate reached, or that none meets \
            it together with the others, then one per trip no candidate meets a requirement on; \
            --out is not written), or a \
            --check-start that fails (--out written); 64 usage (a \
            malformed requirement or objective); 65 a bad space, policy or input file, or a trip \
            that cannot be replayed; 66 an input that cannot be read.
            """,
        positionals: [PositionalSpec(name: "INPUT…", help: "A folder of trips, a manifest ('-': standard input), or a sidecar or trace.")],
        variadic: true,
        options: [
            .list(
                "require", \.requirements, valueName: "EXPR",
                help: "A requirement, e.g. 'enRoute.hirer.displayErrorP95<=25m' or 'arrival.pickup.hirer<=5s' (repeatable)."),
            .value(
                "require-file", \.requirementFile, valueName: "FILE",
                help: "Requirements, one per line ('#' starts a comment), added to --require's."),
            .value(
                "minimize", \.minimize, valueName: "OBJECTIVE",
                help:
                    "What to minimise over the corpus: energy (every phone, J, under --energy-profile), energy-worst (every "
                    + "phone, J, on the shipped device profile that needs the most energy on each trip), energy.ROLE, sent (updates), forwarded."
            ),
            .value(
                "judge", \.judge, valueName: "HOW",
                help: "How a requirement is judged across the corpus: every (each trip must meet it) or pooled (the corpus's figure)."),
            .value("policy", \.policy, valueName: "FILE", help: "The start policy (a policy file, or 'seed')."),
            .value("space", \.space, valueName: "FILE", help: "The search space (schema tracekit-tune-space/1); default: see above."),
            .value(
                "out", \.out, valueName: "FILE",
                help: "Write the tuned policy as a policy file (naming the corpus, the requirements and the TraceKit version)."),
            .value("format", short: "f", \.format, valueName: "FORMAT", help: "Output format (JSON schema tracekit-tune/1)."),
            .value(
                "svg", \.svg, valueName: "FILE", help: "Also draw each state's frontier (objective against its figure) as an SVG."),
            .value(
                "html", \.html, valueName: "FILE",
                help: "Also write the report as one self-contained HTML page, with the frontiers drawn."),
            .value(
                "jobs", short: "j", \.jobs, valueName: "N",
                help: "Worker threads, each replaying one trip under one candidate at a time (default: the processors available)."),
            .value("rounds", \.rounds, valueName: "N", help: "The most rounds of the search (each sweeps every tuned state once)."),
            .value(
                "keep-tolerance", \.keepTolerance, valueName: "REL,M,S",
                help:
                    "How much worse than the start each figure no requirement names may get: max(start × (1 + REL), start + M metres or S seconds), e.g. 10%,2m,2s; a part left out keeps its default."
            ),
            .list(
                "release", \.releases, valueName: "FIGURES",
                help:
                    "Let the search give up figures no requirement names (repeatable): all, STATE (e.g. atPickup), STATE.VIEWER, STATE.VIEWER.FIGURE (e.g. atPickup.hirer.displayErrorP95), arrival, arrival.POINT or arrival.POINT.VIEWER."
            ),
            .flag(
                "skip-infeasible", \.skipInfeasible,
                help:
                    "Leave out the trips on which no candidate meets a requirement judged trip by trip, and search again over the others (the report lists them)."
            ),
            .value(
                "check-start", \.checkStart, valueName: "PERCENT",
                help:
                    "For CI: exit 1 when the start policy (--policy, the one shipped) misses a requirement, or when the tuned policy costs more than PERCENT less than it (the start is off the frontier)."
            ),
        ]
            + ReplayInputs.options.filter { replayOptionNames.contains($0.spec.name) }.map { $0.on(\.inputs) }
            + SplitOptions.options.map { $0.on(\.split) },
        examples: [
            "tracekit tune Traces/ --require 'enRoute.hirer.displayErrorP95<=25m' --require 'arrival.pickup.hirer<=5s' --out tuned.json",
            "tracekit batch Traces/ --policy tuned.json",
            "tracekit tune corpus/ --require-file requirements.txt --minimize energy.helper --judge pooled --html tune.html",
            "tracekit tune Traces/ --require 'enRoute.hirer.displayErrorP95<=40m' --release atPickup.helper --skip-infeasible",
        ])

    static func run(_ o: Options, _ output: Output) throws(CLIError) {
        var requirements = o.requirements.map(\.value)
        if let file = o.requirementFile { requirements += try readRequirements(file) }
        guard !requirements.isEmpty else {
            throw .usage("give at least one requirement (--require or --require-file): \(o.requirementFile ?? "") holds none")
        }
        var options = try o.inputs.replayOptions()
        options.policy = try o.policy.map { (p) throws(CLIError) in try PolicyCommands.load(p) } ?? .seed
        options.rules.recordingGapSeconds = o.split.gap.seconds
        let space = try searchSpace(o, options)
        let trips = try corpus(o, options)
        var request = TuneRequest(
            trips: trips, options: options, requirements: requirements, judgement: o.judge.judgement, objective: o.minimize.value,
            space: space, jobs: o.jobs?.value ?? BatchRunner.activeProcessors)
        request.maximumRounds = o.rounds.value
        request.keep = o.keepTolerance.value
        request.released = o.releases.map(\.value)
        request.skipsInfeasibleTrips = o.skipInfeasible
        try conclude(o, try search(request), start: options.policy.name, output: output)
    }

    /// The search space: `--space`'s file, or the defaults for the start policy.
    /// - Throws: 65 for a bad file or one that leaves nothing to tune; 64 when the start policy
    ///   has no state to tune.
    static func searchSpace(_ o: Options, _ options: ReplayOptions) throws(CLIError) -> TuneSpace {
        let emulation: Bool
        if case .off = options.phone.accuracyEmulation { emulation = false } else { emulation = true }
        let space: TuneSpace
        if let file = o.space {
            let bytes = try readSmallFile(file)
            do {
                space = try TuneSpace(fileBytes: bytes, file: file, policy: options.policy, emulation: emulation)
            } catch {
                throw .data(error.description)
            }
        } else {
            space = TuneSpace.defaults(for: options.policy, emulation: emulation)
        }
        guard !space.states.isEmpty else {
            throw o.space == nil
                ? .usage("nothing to tune: every state's tier is off in the start policy")
                : .data("\(o.space!): nothing to tune: the space leaves every state whose tier is on at the start's row")
        }
        return space
    }

    /// The trips of the inputs (each split into trips with `--split`), every sidecar's traces
    /// checked and no output over an input, before the search.
    static func corpus(_ o: Options, _ options: ReplayOptions) throws(CLIError) -> [BatchTrip] {
        var trips: [BatchTrip]
        do {
            trips = try TripDiscovery.trips(inputs: o.arguments, confined: !o.inputs.allowOutsidePaths)
        } catch {
            throw CLIError(error)
        }
        // Every sidecar's trace paths checked, and no output over an input, before the search.
        let corpusFiles = try OutputCheck.corpusFiles(trips)
        try OutputCheck.check(
            outputs: CommandFile.named("--out", o.out?.path) + CommandFile.named("--svg", o.svg?.path)
                + CommandFile.named("--html", o.html?.path)
        ) {
            o.arguments.flatMap { CommandFile.input("input", $0) } + corpusFiles
                + CommandFile.input("policy file", o.policy.flatMap(PolicyCommands.file)) + CommandFile.input("search space", o.space)
                + CommandFile.input("requirement file", o.requirementFile) + CommandFile.input("energy profile", o.inputs.energyProfileFile)
        }
        if o.split.split { trips = trips.flatMap { $0.split(rules: o.split.rules, options: options) } }
        guard !trips.isEmpty else { throw .data("no trip found in \(o.arguments.joined(separator: ", "))") }
        return trips
    }

    /// The search, with its progress bar on a terminal.
    static func search(_ request: TuneRequest) throws(CLIError) -> TuneOutcome {
        var bar = ProgressBar(counting: "candidates")
        let outcome: TuneOutcome
        do {
            outcome = try Tuner.run(request) { done, total in bar.draw(done, of: total) }
        } catch {
            bar.finish()
            throw CLIError(error.error.category, "tune: \(error.description)")
        }
        bar.finish()
        return outcome
    }

    /// The warnings, the report in its format and pictures, and the tuned policy (`--out`),
    /// unless no policy meets every requirement or `--check-start` fails (1).
    static func conclude(_ o: Options, _ outcome: TuneOutcome, start policyName: String, output: Output) throws(CLIError) {
        let requirements = outcome.request.requirements, objective = o.minimize.value
        for (i, r) in requirements.enumerated() where outcome.bestReached[i] == nil {
            printToStandardError(
                "tracekit: warning: tune: no trip has a figure for \(r.text) under any candidate (a state no trip enters, a viewer never shown that position, an arrival not judged): it was not judged"
            )
        }
        if !outcome.leftOut.isEmpty {
            printToStandardError(
                "tracekit: warning: tune: left out \(outcome.leftOut.count) trip\(outcome.leftOut.count == 1 ? "" : "s") on which no candidate meets a requirement (--skip-infeasible): \(outcome.leftOut.joined(separator: ", "))"
            )
        }
        let report = TuneReport(outcome: outcome, inputs: o.arguments)
        switch o.format {
        case .table: output.write(report.table)
        case .markdown: output.write(report.markdown)
        case .json: output.write(JSONWriter.string(report.json) + "\n")
        }
        if let svg = o.svg?.path { try writeAtomically(svg, TuneSVG.render(report)) }
        if let html = o.html?.path { try writeAtomically(html, report.html) }
        guard outcome.feasible else {
            try output.flush()
            for line in report.missedLines { printToStandardError("tracekit: \(line)") }
            throw CLIError(code: .regression, message: "no policy written: the search found no policy that meets every requirement")
        }
        if let slack = o.checkStart?.value {
            let start = outcome.startEvaluation, tuned = outcome.chosenEvaluation
            var problems = start.violated.map { "tune: the start policy '\(outcome.start.name)' misses \(outcome.requirements[$0].text)" }
            let saving = start.objective > 0 ? (start.objective - tuned.objective) / start.objective * 100 : 0
            if saving > slack {
                problems.append(
                    "tune: the start policy '\(outcome.start.name)' is off the frontier: the tuned policy costs \(DecimalText.fixed(saving, 1)) % less (\(report.objective(start.objective)) → \(report.objective(tuned.objective))), more than --check-start \(DecimalText.fixed(slack, 1)) %"
                )
            }
            if !problems.isEmpty {
                try writePolicy(
                    o, outcome, requirements: requirements, objective: objective, trips: outcome.request.trips.count,
                    start: policyName)
                try output.flush()
                for line in problems.dropLast() { printToStandardError("tracekit: \(line)") }
                throw CLIError(code: .regression, message: problems.last!)
            }
        }
        try writePolicy(
            o, outcome, requirements: requirements, objective: objective, trips: outcome.request.trips.count, start: policyName)
    }

    /// `--out`: the tuned policy as a policy file naming where it came from.
    static func writePolicy(
        _ o: Options, _ outcome: TuneOutcome, requirements: [Requirement], objective: TuneObjective, trips: Int, start: String
    ) throws(CLIError) {
        if let out = o.out?.path {
            var policy = outcome.chosen
            policy.tuning = PolicyTuning(
                tracekitVersion: TraceKitCommand.version, corpus: o.arguments, trips: trips, requirements: requirements.map(\.text),
                judged: o.judge.rawValue, objective: objective.description, start: start)
            try writeAtomically(out, JSONWriter.string(policy.fileJSON) + "\n")
        }
    }

    /// The requirements of a file: one per line, `#` to the end of a line a comment, blank lines
    /// skipped; a bad one names the file and line (65).
    static func readRequirements(_ file: String) throws(CLIError) -> [Requirement] {
        var bytes = try readSmallFile(file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a UTF-8 byte order mark
        var list: [Requirement] = []
        // Lines end at LF (a CR before it is trimmed): split the bytes, since Swift reads CR LF as
        // one Character.
        for (i, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = String(decoding: raw, as: UTF8.self).prefix { $0 != "#" }.trimmingCharacters(in: " \t\r")
            guard !line.isEmpty else { continue }
            do { list.append(try Requirement(parsing: String(line))) } catch { throw .data("\(file):\(i + 1): \(error.description)") }
        }
        return list
    }
}

extension StringProtocol {
    /// The text without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
