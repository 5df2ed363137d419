import TraceIO
import TraceJSON
import TraceProj

/// `tracekit info FILE…`: what a trace contains, and what could not be read.
enum InfoCommand {
    /// The options of `info`, with their defaults.
    struct Options: CommandOptions {
        var format = Format.table
        var reading = ReadingOptions()
        /// The files.
        var arguments: [String] = []
    }

    enum Format: String, ArgumentChoice { case table, json }

    static let spec = CommandSpec<Options>(
        name: "info",
        abstract: "Summarise trace files: structure, points, time span, sampling, length, accuracy, problems.",
        discussion: """
            Reads each file as a stream (any size, bounded memory) and prints: format, tracks, \
            segments, track points, routes and route points, waypoints, the time span, the median \
            sampling interval, the length (geodesic, within segments), elevation and accuracy ranges, \
            and the diagnostics: every per-point problem counted (dropped points, missing or \
            backwards times, duplicates, unreadable values, a file cut off mid-write) and every \
            assumption made. A file's first bytes decide its format when they tell (GPX, KML, NMEA, \
            JSON: a GPX named .txt is read as GPX, and said so), else its extension. '-' reads \
            standard input (give --input-format unless its content tells).
            """,
        positionals: [
            PositionalSpec(
                name: "FILE…",
                help:
                    "Trace files: GPX, CSV, NMEA, KML, GeoJSON, NDJSON, JSON location histories, OziExplorer PLT, OwnTracks REC ('-' for standard input)."
            )
        ],
        variadic: true,
        options: [
            .value("format", short: "f", \.format, valueName: "FORMAT", help: "Output format."),
            .value(
                "input-format", \.reading.inputFormat, valueName: "FORMAT",
                help: "Read the files as this format instead of by their content and extension."),
            .value(
                "on-problem", \.reading.onProblem, valueName: "POLICY",
                help:
                    "Per-point problems: filter (the default: drop speed spikes, a new segment at each teleport, as a phone's location stack would; the rest as report), report (drop only unusable points; the raw trace), skip (drop every point with a problem), fail (stop at the first)."
            ),
            .value(
                "max-speed", \.reading.maxSpeed, valueName: "SPEED",
                help:
                    "Implied motion: a track point that would take the device faster than this (m/s, or with a unit: 360km/h, 224mph; 'off') is a speed spike (away and back: dropped under filter and skip) or a teleport (the track goes on from it: a new segment under filter and skip); a jump within the fixes' accuracies, or within 1 s × the limit, is not motion."
            ),
            .value(
                "utc-offset", \.reading.utcOffset, valueName: "HOURS",
                help:
                    "CSV times written without a zone are local times this many hours east of UTC (e.g. -5); default: read as UTC and say so."
            ),
            .value("date", \.reading.date, valueName: "YYYY-MM-DD", help: "NMEA: the date of fixes logged before any date in the file (a log of GGA or GLL sentences without RMC or ZDA dates); dates in the file take over where they appear."),
            .list(
                "column", \.reading.columns, valueName: "FIELD=COLUMN",
                help:
                    "CSV: take FIELD (latitude, longitude, time, date, utcOffset, elevation, accuracy, speed, course, role, state, track, segment; or lat, lon, ele, …) from COLUMN (a header name or a 1-based number), optionally read through a transform after a colon: e7, semicircles, ddmm (coordinates); fit, gps (epochs); yymmdd, ddmmyy (dates); ft, m, km/h, mph, knots (units). Comma-separated for several, e.g. lat=position_lat:semicircles,time=timestamp:fit."
            ),
        ],
        examples: [
            "tracekit info Traces/*.gpx", "tracekit info --format json trip.gpx", "cat trip.gpx | tracekit info --input-format gpx -",
        ])

    /// Reads each file in turn. One that cannot be read does not stop the others: with several
    /// files, its error is a line on stderr as it happens (and an entry with its error in the
    /// JSON), and the command ends with one line counting the failures and the highest status
    /// among them. A single file's error is the command's, as before.
    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        var reports: [JSONValue] = []
        var failures: [CLIError] = []
        let several = options.arguments.count > 1
        for path in options.arguments {
            do throws(CLIError) {
                let (format, summary, diagnostics) = try read(path, options)
                switch options.format {
                case .json: reports.append(json(path: path, format: format, summary: summary, diagnostics: diagnostics))
                case .table: output.write(table(path: path, format: format, summary: summary, diagnostics: diagnostics))
                }
            } catch {
                guard several else { throw error }
                failures.append(error)
                printToStandardError("tracekit: \(TraceKitCommand.oneLine(error.message))")
                reports.append(
                    .object([("file", .string(path)), ("error", .string(error.message)), ("status", .number(Double(error.code.rawValue)))]))
            }
        }
        if options.format == .json {
            output.write(JSONWriter.string(.object([("schema", .string("tracekit-info/1")), ("files", .array(reports))])) + "\n")
        }
        if let worst = failures.max(by: { $0.code.rawValue < $1.code.rawValue }) {
            throw CLIError(
                code: worst.code,
                message:
                    "\(failures.count) of \(options.arguments.count) files could not be read (each is named above); the other \(options.arguments.count - failures.count) were"
            )
        }
    }

    /// One file's format, summary and diagnostics.
    private static func read(_ path: String, _ options: Options) throws(CLIError) -> (TraceFormat, TraceSummary, Diagnostics) {
        var reader: any TraceReader
        do {
            reader = try openTrace(path, format: options.reading.format, options: options.reading.readOptions)
        } catch {
            throw CLIError(reading: error)
        }
        do {
            let summary = try summarise(&reader)  // opens the existential: the loop is specialised per reader
            return (reader.format, summary, reader.diagnostics)
        } catch {
            throw CLIError(reading: error)
        }
    }

    /// Reads every item of `reader` into a summary, a batch of columns at a time
    /// (``TraceReader/read(into:limit:)``: the same items as ``TraceReader/next()``).
    static func summarise(_ reader: inout some TraceReader) throws(TraceReadError) -> TraceSummary {
        var summary = TraceSummary(exact: Geodesic())
        var batch = FixBatch(capacity: 1024)
        while try reader.read(into: &batch, limit: 1024) > 0 { summary.add(batch) }
        return summary
    }

    /// The terminal block of one file. Its path, the problems' details and where it was read from
    /// are shown as ``Shown/terminal(_:)`` shows text: one line each, no control character.
    static func table(path: String, format: TraceFormat, summary s: TraceSummary, diagnostics d: Diagnostics) -> String {
        var rows: [(String, String)] = [
            ("format", format.rawValue),
            ("tracks / segments / points", "\(s.tracks) / \(s.segments) / \(s.trackPoints)"),
        ]
        if let from = d.sources { rows.insert(("read from", Shown.terminal(from)), at: 1) }
        if s.routes > 0 || s.routePoints > 0 { rows.append(("routes / route points", "\(s.routes) / \(s.routePoints)")) }
        rows.append(("waypoints", "\(s.waypoints)"))
        if let a = s.firstTime, let b = s.lastTime {
            rows.append(("time", "\(a.iso8601) … \(b.iso8601) (\(duration(b.seconds(since: a))))"))
            rows.append(("timed points", "\(s.timedPoints) of \(s.trackPoints)"))
        }
        if let m = s.medianInterval { rows.append(("median interval", "\(JSONWriter.number((m * 100).rounded() / 100)) s")) }
        rows.append(("length", "\(JSONWriter.number((s.length).rounded() / 1000)) km"))
        if let lo = s.minimumElevation, let hi = s.maximumElevation {
            rows.append(("elevation", "\(JSONWriter.number(lo.rounded())) … \(JSONWriter.number(hi.rounded())) m"))
        }
        if let r = s.accuracyRange, let m = s.medianAccuracy {
            rows.append(
                (
                    "horizontal accuracy",
                    "\(s.pointsWithAccuracy) points, \(JSONWriter.number(r.lowerBound)) … \(JSONWriter.number(r.upperBound)) m, median \(JSONWriter.number((m * 10).rounded() / 10)) m"
                ))
        }
        rows.append(
            (
                "problems",
                d.summaryLines.isEmpty
                    ? "none" : d.summaryLines.map(Shown.terminal).joined(separator: "\n" + String(repeating: " ", count: 30))
            ))
        var out = "\(Shown.terminal(path))\n"
        for (k, v) in rows { out += "  " + k + String(repeating: " ", count: max(28 - k.count, 1)) + v + "\n" }
        return out
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 120 { return "\(JSONWriter.number(seconds.rounded())) s" }
        if seconds < 7200 { return "\(JSONWriter.number((seconds / 6).rounded() / 10)) min" }
        if seconds < 172_800 { return "\(JSONWriter.number((seconds / 360).rounded() / 10)) h" }
        return "\(JSONWriter.number((seconds / 8640).rounded() / 10)) d"
    }

    static func json(path: String, format: TraceFormat, summary s: TraceSummary, diagnostics d: Diagnostics) -> JSONValue {
        func opt(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        var problems: [(String, JSONValue)] = []
        for (kind, n) in d.counts.sorted(by: { $0.key < $1.key }) { problems.append((kind.rawValue, .number(Double(n)))) }
        return .object([
            ("file", .string(path)), ("format", .string(format.rawValue)),
            ("tracks", .number(Double(s.tracks))), ("segments", .number(Double(s.segments))),
            ("trackPoints", .number(Double(s.trackPoints))), ("routes", .number(Double(s.routes))),
            ("routePoints", .number(Double(s.routePoints))), ("waypoints", .number(Double(s.waypoints))),
            ("timedPoints", .number(Double(s.timedPoints))),
            ("firstTime", s.firstTime.map { .string($0.iso8601) } ?? .null), ("lastTime", s.lastTime.map { .string($0.iso8601) } ?? .null),
            ("medianIntervalSeconds", opt(s.medianInterval)), ("lengthMetres", .number(s.length)),
            ("minimumElevationMetres", opt(s.minimumElevation)), ("maximumElevationMetres", opt(s.maximumElevation)),
            ("pointsWithAccuracy", .number(Double(s.pointsWithAccuracy))), ("medianAccuracyMetres", opt(s.medianAccuracy)),
            ("pointsRead", .number(Double(d.pointsRead))), ("pointsDropped", .number(Double(d.pointsDropped))),
            ("problems", .object(problems)),
            (
                "problemExamples",
                .array(
                    d.examples.map {
                        .object([("kind", .string($0.kind.rawValue)), ("line", .number(Double($0.line))), ("detail", .string($0.detail))])
                    })
            ),
            ("assumptions", .array(d.assumptions.map { .string($0) })),
            ("sources", d.sources.map { .string($0) } ?? .null),
        ])
    }
}
