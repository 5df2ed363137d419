import TraceBatch
import TraceJSON

/// `tracekit merge FILE|-…`: the per-trip lines of a sharded `batch --jsonl` reduced to what one
/// `tracekit batch` over the whole corpus writes.
///
/// A command of its own, not `batch --merge`: it replays nothing, so none of batch's replay
/// options (policy, energy, view, split, shard, jobs) apply, and the lines say what they were
/// measured with; it takes only the options that gate, record and report (``GateOptions``).
enum MergeCommand {
    struct Options: CommandOptions {
        var gate = GateOptions()
        /// `--summary`: fold each line as it is read and keep no trip (``Summary``).
        var summary = false
        /// Shard files; "-" is standard input.
        var arguments: [String] = []
    }

    /// The longest line read: a trip's whole replay and, with `--html`, its picture.
    static let lineLimit = 256 << 20

    static let spec = CommandSpec<Options>(
        name: "merge",
        abstract: "Merge the per-trip lines of sharded 'batch --jsonl' runs into the reports of one batch over the whole corpus.",
        discussion: """
            Reads the tracekit-batch-trip/3 lines of any number of shard files (or '-', standard \
            input), in any order, and writes what one 'tracekit batch' over the whole corpus \
            writes, byte for byte: the table, --write-baseline, the gate against --baseline with \
            the same tolerances and exit status, --junit, --markdown, --html, and the --compare \
            tables when the shards compared a policy. Trips are put in the batch's order by each \
            line's index; every line names the batch's size, so a trip in no shard's lines is \
            reported as not run and fails the merge. --html draws each trip's picture when its \
            line carries one (the shards ran with --html).

            Every line must come from the same batch (the corpus: its inputs as given or \
            --corpus; size, policy, energy model and profile, view, compared policy, reading \
            options; --jobs may differ: the table shows the largest): the shards of one \
            'batch --shard I/N', or trips streamed one by one with 'batch - --trip NAME --index I \
            --of N --corpus NAME'. The \
            same trip twice (a retried task) counts once when its lines are identical and is \
            refused, naming it, when they differ. Blank lines are skipped.

            --summary keeps no trip: each line is checked as above, its samples pooled, its \
            figures folded into the corpus's and gated against its baseline entry (the same \
            tolerances) as it is read, then dropped. It writes the same verdict and exit status, \
            the gate's counts, the tables per state and role (before → after, and --compare's A → \
            B), the corpus per role and state and the energy; instead of a row per trip, the trips \
            that did not pass (failed, failing the gate, new under --strict, not run, baseline \
            trips not run), each with its reason: the first \(BatchReport.summaryListed) in the \
            batch's order, then how many more. --markdown the same; --junit a suite per trip \
            listed and one, 'corpus', with the counts. Not with --html or --write-baseline (64): \
            they need every trip. The sums are exact, so every merge writes the same digits \
            whatever the order of its lines.

            Memory: the trip index (each trip's name and a 64-bit hash of its line: about 280 \
            bytes a trip), and, without --summary, what the reports keep of each trip (about 8 KB \
            of figures, and its picture only when the lines carry one): 100,000 lines of the \
            bundled trips took 794 MB, 50 MB with --summary. The view samples are pooled as lines \
            are read; a --baseline is held whole in either mode.

            No output may be a shard file, --baseline, --tolerance-file or another output, by any \
            path, link or hard link (64, nothing written).

            Exit status: as batch's (0 passed; 1 a regression, a trip that failed or was not run, \
            a baseline trip missing); 64 usage (also --summary with --html or --write-baseline); \
            65 a truncated, foreign or differing line (one line naming the file and the line \
            number), lines of two batches, no line at all, or a bad or refused baseline or \
            tolerance file; 66 a file that cannot be read.
            """,
        positionals: [PositionalSpec(name: "FILE…", help: "Shard files of 'batch --jsonl' lines; '-' reads standard input.")],
        variadic: true,
        options: GateOptions.options.map { $0.on(\.gate) } + [
            .flag(
                "summary", \.summary,
                help:
                    "Keep no trip: fold each line into the corpus's figures and the gate as it is read, and list the trips that did not pass (the first \(BatchReport.summaryListed)) instead of every trip; not with --html or --write-baseline."
            )
        ],
        examples: [
            "tracekit merge shard-*.jsonl",
            "tracekit merge shard-*.jsonl --baseline Traces/baseline.json --junit junit.xml --markdown summary.md",
            "cat part-* | tracekit merge - --write-baseline baseline.json",
            "tracekit merge --summary shard-*.jsonl --baseline baseline.json --junit junit.xml   # memory: the trip index only",
        ])

    static func run(_ o: Options, _ output: Output) throws(CLIError) {
        if o.summary, let flag = o.gate.html != nil ? "--html" : o.gate.writeBaseline != nil ? "--write-baseline" : nil {
            throw .usage("\(flag) needs every trip, which --summary does not keep: run 'tracekit merge' without --summary to write it")
        }
        if o.gate.writeBaseline != nil && o.gate.baseline != nil {
            throw .usage("give either --baseline (compare) or --write-baseline (record), not both")
        }
        if o.gate.strict && o.gate.baseline == nil { throw .usage("'--strict' needs --baseline") }
        if o.arguments.filter({ $0 == "-" }).count > 1 { throw .usage("standard input ('-') can be read only once") }
        try OutputCheck.check(outputs: o.gate.files) { o.arguments.flatMap { CommandFile.input("input", $0) } + o.gate.inputFiles }
        let gate = try BatchCommand.GateSetup(o.gate)
        var merged = Merged(inBaseline: Set(gate.baseline?.trips.map(\.id) ?? []))
        if o.summary { merged.summary = Summary(gate, strict: o.gate.strict) }
        for file in o.arguments {
            var reader = try LineReader(path: file, limit: lineLimit)
            while let text = try reader.next() {
                guard !text.isEmpty else { continue }
                let place = "\(reader.name):\(reader.lineNumber)"
                let line = try BatchLine.parse(text, file: reader.name, number: reader.lineNumber)
                try merged.add(line, hash: Self.hash(text), place: place)
            }
        }
        guard let batch = merged.batch else {
            throw .data("no \(BatchLine.schema) line in \(o.arguments.joined(separator: ", "))")
        }

        // A partial merge lists the trips it did not find; a trip count far beyond the lines read is
        // a damaged line, not shards (and would make that list, and JUnit's, unbounded).
        let missing = batch.trips - merged.hashes.count
        guard missing <= Self.missingLimit else {
            throw .data(
                "the lines are of a batch of \(batch.trips) trips and hold \(merged.hashes.count) of them: over \(Self.missingLimit) trips missing is not a merge of its shards (a damaged 'batch.trips'?)"
            )
        }
        let order = merged.runs.keys.sorted()
        var report = BatchReport(
            inputs: batch.inputs, header: batch.header, policyB: batch.policyB, jobs: merged.jobs, shard: nil,
            trips: order.map { merged.runs[$0]! }, strict: o.gate.strict, joulesPerMilliampHour: batch.joulesPerMilliampHour)
        report.pools = merged.pools
        report.notRun = missing == 0 ? [] : (0..<batch.trips).filter { merged.hashes[$0] == nil }
        if let summary = merged.summary {
            try summary.conclude(&report, names: merged.names)
        }
        try BatchCommand.conclude(
            &report, gate: gate, sharded: false, writeBaseline: o.gate.writeBaseline?.path, outputs: o.gate.outputs, table: true,
            output: output)
    }

    /// The most trips a merge reports as not run (beyond: refused, 65).
    static let missingLimit = 100_000

    /// FNV-1a, 64 bits, of a line's bytes: tells a repeated line from a differing one. The
    /// batch's `"jobs":N` (the line's first `"jobs":` member: `batch` comes before the replay) is
    /// left out, since a retried task may run with other `--jobs` and give the same trip.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let bytes = Array(text.utf8)
        let key = Array("\"jobs\":".utf8)
        var skip = 0..<0
        if let at = bytes.firstRange(of: key) {
            var end = at.upperBound
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            skip = at.upperBound..<end
        }
        for (i, b) in bytes.enumerated() where !skip.contains(i) {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    /// The lines read so far: the batch they belong to, each trip's outcome by index (its view
    /// samples pooled and dropped) or with `--summary` the trips folded (``Summary``), and the
    /// index that finds a trip seen twice.
    struct Merged {
        var batch: BatchLineHeader?
        /// The largest `--jobs` of the shards.
        var jobs = 0
        /// Each trip's outcome by index; empty with `--summary`.
        var runs: [Int: TripRun] = [:]
        /// `--summary`: the trips folded as they are read.
        var summary: Summary?
        /// Each index's line hash (with ``names``, all that grows per trip with `--summary`).
        var hashes: [Int: UInt64] = [:]
        /// Each trip name's index.
        var names: [String: Int] = [:]
        var pools = BatchReport.Pools()
        /// The baseline's trips (their samples are pooled for the gate's table too).
        let inBaseline: Set<String>

        init(inBaseline: Set<String>) { self.inBaseline = inBaseline }

        /// Adds a line read at `place` ("FILE:LINE"): pools its samples and keeps what the
        /// reports need.
        /// - Throws: ``CLIError`` 65 for a line of another batch, or a trip seen before with another line.
        mutating func add(_ line: BatchLine.Parsed, hash: UInt64, place: String) throws(CLIError) {
            if let b = batch {
                guard line.batch.sameBatch(as: b) else {
                    throw .data(
                        "\(place): from another batch (\(Self.describe(line.batch))) than the lines before it (\(Self.describe(b)))")
                }
            } else {
                batch = line.batch
            }
            jobs = max(jobs, line.batch.jobs)
            let id = line.run.trip.id
            if let seen = hashes[line.index] {
                // The name seen at this index (looked for only when it differs: an error).
                let before = names[id] == line.index ? id : names.first { $0.value == line.index }?.key ?? ""
                guard before == id else {
                    throw .data(
                        "\(place): index \(line.index) is trip \(id) here and trip \(before) in an earlier line: shards of different runs?")
                }
                guard seen == hash else {
                    throw .data(
                        "\(place): trip \(id) (index \(line.index)) is in the shards twice with different lines: shards of different runs?")
                }
                return  // the same line again: a retried task
            }
            if let other = names[id] {
                throw .data("\(place): trip \(id) is at index \(line.index) and at index \(other): shards of different runs?")
            }
            hashes[line.index] = hash
            names[id] = line.index
            let run = pools.take(line.run, inBaseline: inBaseline.contains(id))
            if summary != nil {
                summary?.add(run, index: line.index, current: line.batch.header)
            } else {
                runs[line.index] = run
            }
        }

        /// "12 trips from Traces/, policy seed, energy …, view …".
        static func describe(_ b: BatchLineHeader) -> String {
            "\(b.trips) trips from \(b.inputs.joined(separator: ", ")), policy \(b.header.policyName)\(b.policyB.map { " vs \($0)" } ?? ""), \(b.header.energyLabel), \(b.header.view), \(b.reading), tracekit \(b.header.tracekitVersion)"
        }
    }
}

extension MergeCommand {
    /// `merge --summary`: each trip folded as its line is read (``BatchReport/Folded``: the same
    /// per-trip steps as the full merge's), gated then against its baseline entry with the same
    /// tolerances, listed when it did not pass (the first ``BatchReport/summaryListed``), and
    /// dropped. Memory does not grow with the trips but for ``Merged``'s index.
    struct Summary {
        var folded = BatchReport.Folded()
        var notPassing = BatchReport.NotPassing()
        /// Made at the first line (its header is the run's): a gate that keeps only its counts.
        var gate: GateComparison?
        /// The baseline refused (another energy model): the error, thrown once every line is read
        /// and checked, as the full merge throws it.
        var refusal: String?
        let setup: BatchCommand.GateSetup
        let strict: Bool
        /// The baseline's figures by trip.
        let before: [String: TripMetrics]

        init(_ setup: BatchCommand.GateSetup, strict: Bool) {
            self.setup = setup
            self.strict = strict
            var before: [String: TripMetrics] = [:]
            for t in setup.baseline?.trips ?? [] { before[t.id] = t.metrics }
            self.before = before
        }

        /// Folds one trip's outcome (its samples pooled already), at `index`, of a run measured by
        /// `current`.
        mutating func add(_ run: TripRun, index: Int, current: BaselineHeader) {
            if gate == nil && refusal == nil, let baseline = setup.baseline, let path = setup.path {
                if let reason = GateComparison.refusal(baseline.header, current: current) {
                    refusal = BatchCommand.namingTheFlag("\(path): \(reason)")
                } else {
                    do {
                        gate = try GateComparison(
                            baseline: baseline.header, file: path, current: current, tolerances: setup.tolerances, keepsTrips: false)
                    } catch {
                        refusal = BatchCommand.namingTheFlag(error.description)
                    }
                }
            }
            folded.add(run)
            let id = run.trip.id
            switch run.outcome {
            case .failure(let e):
                notPassing.add(.failed(index, id, e))
            case .success(let r):
                guard gate != nil else { return }
                if let c = gate?.add(trip: id, now: r.metrics, before: before[id]), let b = before[id] {
                    folded.add(c, before: b, now: r.metrics)
                    if !c.failures(strict: strict).isEmpty { notPassing.add(.gate(index, c, strict: strict)) }
                } else if strict {
                    notPassing.add(.new(index, id))
                }
            }
        }

        /// Puts the summary in `report` once every line is read: the trips not run and the
        /// baseline's trips in no line (`names`: every trip read), the gate and the folded corpus.
        /// - Throws: ``CLIError`` 65 when the baseline was refused.
        func conclude(_ report: inout BatchReport, names: [String: Int]) throws(CLIError) {
            if let refusal { throw .data(refusal) }
            var listed = notPassing
            for i in report.notRun { listed.add(.notRun(i)) }
            if var g = gate, let baseline = setup.baseline {
                g.missing = baseline.trips.map(\.id).filter { names[$0] == nil }
                for id in g.missing { listed.add(.missing(id)) }
                report.gate = g
                report.baselinePath = setup.path
                report.baseline = baseline
            }
            report.folded = folded
            report.notPassing = listed
        }
    }
}
