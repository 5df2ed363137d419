import TraceIO
import TracePlatform

/// `tracekit convert IN OUT`: read any supported format, write GPX, CSV, GeoJSON or NDJSON.
enum ConvertCommand {
    /// The reading and writing options of `convert`, shared by `smooth`.
    struct Transcoding: OptionGroup {
        var to: OutputFormat?
        var reading = ReadingOptions()
    }

    /// A format TraceKit writes.
    enum OutputFormat: String, ArgumentChoice {
        case gpx, csv, geojson, ndjson

        var traceFormat: TraceFormat {
            switch self {
            case .gpx: .gpx
            case .csv: .csv
            case .geojson: .geojson
            case .ndjson: .ndjson
            }
        }
    }

    static let transcodeOptions: [Option<Transcoding>] = [
        .value("to", short: "t", \.to, valueName: "FORMAT", help: "Output format (default: from OUT's extension)."),
        .value("input-format", \.reading.inputFormat, valueName: "FORMAT", help: "Input format (default: from IN's extension)."),
        .value(
            "on-problem", \.reading.onProblem, valueName: "POLICY", help: "Per-point problems: filter (the default), report, skip or fail (see 'tracekit info')."),
        .value(
            "max-speed", \.reading.maxSpeed, valueName: "SPEED",
            help: "Implied motion beyond this speed (m/s, or 360km/h; 'off') is a speed spike or a teleport (see 'tracekit info')."),
        .value(
            "utc-offset", \.reading.utcOffset, valueName: "HOURS", help: "CSV zone-less times: hours east of UTC (see 'tracekit info')."),
        .value("date", \.reading.date, valueName: "YYYY-MM-DD", help: "NMEA: the date of fixes logged before any date in the file (see 'tracekit info')."),
        .list("column", \.reading.columns, valueName: "FIELD=COLUMN", help: "CSV column mapping (see 'tracekit info')."),
    ]

    /// The options of `convert`.
    struct Options: CommandOptions {
        var transcoding = Transcoding()
        /// IN and OUT.
        var arguments: [String] = []
    }

    static let spec = CommandSpec<Options>(
        name: "convert",
        abstract: "Convert a trace between formats (GPX, CSV, GeoJSON, NDJSON).",
        discussion: """
            Streams IN to OUT in bounded memory. Formats come from the extensions, or --input-format \
            and --to. '-' is standard input or output. OUT is written atomically: to a temporary \
            file beside it, renamed into place only when complete, so a failure never leaves a \
            half-written OUT, and never IN: OUT that names IN (by any path, a link or a hard link) \
            is refused (64) before anything is written. Problems found while reading are reported \
            on stderr; items the output format cannot hold (waypoints in CSV) are counted there too.
            """,
        positionals: [
            PositionalSpec(name: "IN", help: "The trace to read ('-' for standard input)."),
            PositionalSpec(name: "OUT", help: "The file to write ('-' for standard output)."),
        ],
        options: transcodeOptions.map { $0.on(\.transcoding) },
        examples: ["tracekit convert ride.gpx ride.csv", "tracekit convert --to geojson ride.gpx - > ride.geojson"])

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        var stage = PassThrough()
        try transcode(options.transcoding, options.arguments, output, through: &stage)
    }

    /// Reads IN, passes every item through `stage`, writes OUT atomically, then reports the
    /// stage's notes, the reader's diagnostics and what the format could not hold on stderr.
    /// Shared by `convert` and `smooth`, whose options these are; `files` are IN and OUT.
    static func transcode(_ options: Transcoding, _ files: [String], _ output: Output, through stage: inout some TraceStage)
        throws(CLIError)
    {
        let input = files[0], out = files[1]
        // A `.json` output is GeoJSON, as it always was.
        guard let named = options.to?.traceFormat ?? TraceFormat(pathExtension: out),
            [.gpx, .csv, .geojson, .ndjson, .json].contains(named)
        else { throw .usage("cannot tell the output format of '\(out)': give --to gpx|csv|geojson|ndjson") }
        let format = named == .json ? TraceFormat.geojson : named
        try OutputCheck.check(outputs: CommandFile.named("OUT", out)) { CommandFile.named("IN", input) }
        var reader: any TraceReader
        do {
            reader = try openTrace(input, format: options.reading.format, options: options.reading.readOptions)
        } catch {
            throw CLIError(reading: error)
        }
        try output.flush()
        let target: AtomicFile
        do { target = try AtomicFile(path: out) } catch { throw CLIError(writing: error) }
        do {
            let sink = ByteSink(fd: target.fd, name: out)
            var writer = try makeTraceWriter(format, to: sink)
            while true {
                let item: TraceItem?
                do { item = try reader.next() } catch { throw CLIError(reading: error) }
                guard let item else { break }
                try stage.take(item, &writer)
            }
            try stage.finish(&writer)
            try writer.finish()
            try target.commit()
            let notes =
                stage.notes + reader.diagnostics.summaryLines
                + writer.notWritten.sorted { $0.key < $1.key }.map {
                    "not written, \(format.rawValue) cannot hold it: \($0.value) × \($0.key)"
                }
            for line in notes { printToStandardError("tracekit: \(input): \(line)") }
        } catch let error as CLIError {
            target.abandon()
            throw error
        } catch let error as TraceWriteError {
            target.abandon()
            throw CLIError(writing: error)
        } catch {
            target.abandon()
            throw .io("\(out): \(error)")
        }
    }

    /// Every item unchanged.
    struct PassThrough: TraceStage {
        mutating func take(_ item: TraceItem, _ writer: inout any TraceWriter) throws(TraceWriteError) { try writer.write(item) }
        mutating func finish(_ writer: inout any TraceWriter) throws(TraceWriteError) {}
        var notes: [String] { [] }
    }
}

/// A step between reading and writing a trace (`convert` passes items through, `smooth` moves
/// track points): takes the items in file order and writes what it makes of them.
protocol TraceStage {
    /// Takes the next item; writes it, or keeps it for later.
    mutating func take(_ item: TraceItem, _ writer: inout any TraceWriter) throws(TraceWriteError)
    /// Writes whatever is still kept, at the end of the input.
    mutating func finish(_ writer: inout any TraceWriter) throws(TraceWriteError)
    /// Lines reported on stderr after a successful run.
    var notes: [String] { get }
}

/// Writes standard error directly (diagnostics that must not mix into a converted stdout).
/// `line` is shown as ``Shown/terminal(_:)`` shows text: one line, no control character.
func printToStandardError(_ line: String) {
    writeToStandardError(Shown.terminal(line) + "\n")
}
