import TraceIO
import TraceJSON
import TracePlatform
import TraceProj
import TraceReplay

/// `tracekit split IN OUTDIR`: one trace per trip of a long recording.
enum SplitCommand {
    struct Options: CommandOptions {
        var rules = SplitOptions()
        var to: ConvertCommand.OutputFormat?
        var reading = ReadingOptions()
        var format = Format.table
        /// IN and OUTDIR.
        var arguments: [String] = []

        func validate() throws(CLIError) {
            if arguments.first == "-" { throw .usage("'split' reads IN twice: give a file, not standard input") }
        }
    }

    enum Format: String, ArgumentChoice { case table, json }

    static let spec = CommandSpec<Options>(
        name: "split",
        abstract: "Cut a long recording into trips at recording gaps and long stays: one trace per trip.",
        discussion: """
            Finds the trips of IN (README, "Long recordings: trips"): a recording gap (no fix for \
            longer than --gap) or a long stay (within --stay-radius of one fix for at least --stay) \
            separates trips; a trip runs from the last fix of the stay before it to the first fix of \
            the stay after it, and must go farther than the radius from its first fix. Writes each \
            trip to OUTDIR as IN's name with .trip-NN and the format's extension (NN in time order), \
            with its tracks, segments and timed waypoints, and prints a line per trip. Nothing is \
            dropped silently: the fixes of long stays and of stretches that never moved are counted, \
            and so are untimed waypoints and route points, which belong to no trip. OUTDIR is \
            created when missing; each file is written atomically, and none may be IN (by a link \
            or a hard link: 64, nothing written).
            """,
        positionals: [
            PositionalSpec(name: "IN", help: "The recording: any format info reads."),
            PositionalSpec(name: "OUTDIR", help: "The folder to write the trips to."),
        ],
        options: SplitOptions.ruleOptions.map { $0.on(\.rules) } + [
            .value("to", short: "t", \.to, valueName: "FORMAT", help: "The trips' format (default: IN's when it is written, else GPX)."),
            .value("format", short: "f", \.format, valueName: "FORMAT", help: "The summary's format."),
            .value("input-format", \.reading.inputFormat, valueName: "FORMAT", help: "Read IN as this format."),
            .value(
                "on-problem", \.reading.onProblem, valueName: "POLICY",
                help: "Per-point problems: filter (the default), report, skip or fail (see 'tracekit info')."),
            .value("utc-offset", \.reading.utcOffset, valueName: "HOURS", help: "CSV zone-less times: hours east of UTC."),
            .value("date", \.reading.date, valueName: "YYYY-MM-DD", help: "NMEA: the date of fixes logged before any date in the file."),
            .list("column", \.reading.columns, valueName: "FIELD=COLUMN", help: "CSV column mapping (see 'tracekit info')."),
        ],
        examples: [
            "tracekit split day.gpx trips/", "tracekit split --gap 30m --stay 20m --to csv history.json trips/",
        ])

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        let input = options.arguments[0], folder = options.arguments[1]
        if isFolder(input) { throw .usage("\(input) is a folder: 'split' reads one recording") }
        // The format IN is read as (content, then extension); an error comes with the reading.
        let readFormat = options.reading.format ?? (try? TraceFormat(file: input))
        let format: TraceFormat =
            options.to?.traceFormat ?? (readFormat.flatMap { [.gpx, .csv, .geojson, .ndjson].contains($0) ? $0 : nil } ?? .gpx)
        var replayOptions = ReplayOptions()
        replayOptions.exact = Geodesic.wgs84
        replayOptions.read = options.reading.readOptions
        replayOptions.inputFormat = options.reading.format
        let split: TripSplit
        do {
            split = try TripSplit.find([TraceInput(path: input)], options: replayOptions, rules: options.rules.rules)
        } catch {
            throw ReplayCommand.Job.cliError(error)
        }
        let names = tripFileNames(input: input, folder: folder, count: split.trips.count, format: format)
        try OutputCheck.check(outputs: names.flatMap { CommandFile.named("the trip file", $0) }) { CommandFile.named("IN", input) }
        try makeFolder(folder)
        let written = try write(split, from: input, reading: options.reading, to: names, format: format)
        switch options.format {
        case .table: output.write(table(split, written: written, names: names, input: input))
        case .json: output.write(JSONWriter.string(json(split, written: written, names: names, input: input)) + "\n")
        }
        for line in written.diagnostics.summaryLines { printToStandardError("tracekit: \(input): \(line)") }
    }

    /// `OUTDIR/NAME.trip-01.gpx` …: IN's name without its extension, the trip's number padded to
    /// the count's digits (at least two) so the names sort in time order.
    static func tripFileNames(input: String, folder: String, count: Int, format: TraceFormat) -> [String] {
        var stem = Substring(input.split(separator: "/").last ?? Substring(input))
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        let width = max(2, String(count).count)
        let ext = format.rawValue  // gpx, csv, geojson, ndjson: each its own extension
        let dir = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return (1...max(count, 1)).prefix(count).map { i in
            let n = String(i)
            return "\(dir)/\(stem).trip-\(String(repeating: "0", count: width - n.count))\(n).\(ext)"
        }
    }

    /// Creates `path` and its missing parents, as `mkdir -p` does.
    static func makeFolder(_ path: String) throws(CLIError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if let st = try? Platform.status(ofPath: prefix) {
                guard st.kind == .folder else { throw .usage("\(prefix) exists and is not a folder") }
            } else {
                do throws(Errno) { try Platform.makeFolder(prefix, permissions: 0o755) } catch {
                    if error != .exists { throw .io("\(prefix): cannot create the folder: \(error)") }
                }
            }
            prefix += "/"
        }
    }

    /// What the second pass wrote: fixes per trip, what went to no trip, the reader's diagnostics.
    struct Written {
        var fixes: [Int]
        var inStays = 0
        var stationary = 0
        var untimed = 0
        var untimedWaypoints = 0
        var routePoints = 0
        var diagnostics = Diagnostics()
        var total: Int { fixes.reduce(0, +) + inStays + stationary + untimed }
    }

    /// The most trip files open at once when IN is not in time order.
    static let maximumOpenFiles = 200

    /// Reads IN again and writes each track point and timed waypoint to its trip's file (by its
    /// time), with the track and segment it is in. A recording in time order has one file open at
    /// a time; one that is not keeps each trip's file open until the end (at most
    /// ``maximumOpenFiles``).
    static func write(_ split: TripSplit, from input: String, reading: ReadingOptions, to names: [String], format: TraceFormat)
        throws(CLIError) -> Written
    {
        var reader: any TraceReader
        do { reader = try openTrace(input, format: reading.format, options: reading.readOptions) } catch { throw CLIError(reading: error) }
        var written = Written(fixes: Array(repeating: 0, count: split.trips.count))
        var files = TripFiles(names: names, format: format, sequential: split.outOfOrder == 0)
        var trackName: String?
        do throws(CLIError) {
            while true {
                let item: TraceItem?
                do { item = try reader.next() } catch { throw CLIError(reading: error) }
                guard let item else { break }
                switch item {
                case .trackStart(let name):
                    trackName = name
                    files.newTrack()
                case .segmentStart:
                    try files.newSegment()
                case .trackPoint(let fix):
                    guard let t = fix.time?.nanoseconds else {
                        written.untimed += 1
                        continue
                    }
                    switch split.piece(at: t)?.kind {
                    case .trip(let k):
                        try files.write(item, to: k, trackName: trackName)
                        written.fixes[k] += 1
                    case .stay: written.inStays += 1
                    case nil: written.stationary += 1
                    }
                case .waypoint(let fix):
                    if let t = fix.time?.nanoseconds, let k = split.trip(at: t) {
                        try files.write(item, to: k, trackName: nil)
                    } else {
                        written.untimedWaypoints += 1
                    }
                case .routeStart: continue
                case .routePoint: written.routePoints += 1
                }
            }
            try files.closeAll()
        } catch {
            files.abandonAll()
            throw error
        }
        written.diagnostics = reader.diagnostics
        return written
    }

    /// The trips' files being written: each opened at its first item, with the source's current
    /// track and a segment started before its first track point.
    struct TripFiles {
        let names: [String]
        let format: TraceFormat
        /// In time order: opening a trip's file closes the earlier ones.
        let sequential: Bool
        private var open: [Int: (file: AtomicFile, writer: any TraceWriter, inTrack: Bool)] = [:]
        private var closed = Set<Int>()

        init(names: [String], format: TraceFormat, sequential: Bool) {
            self.names = names
            self.format = format
            self.sequential = sequential
        }

        /// The source started a track: each file starts one at its next track point.
        mutating func newTrack() {
            for k in open.keys { open[k]!.inTrack = false }
        }

        /// The source started a segment: so do the files inside the current track.
        mutating func newSegment() throws(CLIError) {
            for k in open.keys.sorted() where open[k]!.inTrack { try emit(.segmentStart, to: k) }
        }

        mutating func write(_ item: TraceItem, to k: Int, trackName: String?) throws(CLIError) {
            if open[k] == nil { try openFile(k) }
            if case .trackPoint = item, !open[k]!.inTrack {
                try emit(.trackStart(name: trackName), to: k)
                try emit(.segmentStart, to: k)
                open[k]!.inTrack = true
            }
            try emit(item, to: k)
        }

        private mutating func openFile(_ k: Int) throws(CLIError) {
            guard !closed.contains(k) else {
                throw .data("\(names[k]): a point of this trip comes after a later trip's, in a recording read as in time order")
            }
            if sequential {
                for j in open.keys.sorted() where j < k { try close(j) }
            } else if open.count >= TripFiles.maximum {
                throw .data(
                    "\(names[k]): the recording is not in time order and has more than \(TripFiles.maximum) trips open at once: sort it by time first"
                )
            }
            let file: AtomicFile
            do { file = try AtomicFile(path: names[k]) } catch { throw CLIError(writing: error) }
            do {
                open[k] = (file, try makeTraceWriter(format, to: ByteSink(fd: file.fd, name: names[k])), false)
            } catch {
                file.abandon()
                throw CLIError(writing: error)
            }
        }

        static var maximum: Int { SplitCommand.maximumOpenFiles }

        private mutating func emit(_ item: TraceItem, to k: Int) throws(CLIError) {
            do { try open[k]!.writer.write(item) } catch { throw CLIError(writing: error) }
        }

        private mutating func close(_ k: Int) throws(CLIError) {
            guard var o = open.removeValue(forKey: k) else { return }
            closed.insert(k)
            do {
                try o.writer.finish()
                try o.file.commit()
            } catch {
                o.file.abandon()
                throw CLIError(writing: error)
            }
        }

        mutating func closeAll() throws(CLIError) {
            for k in open.keys.sorted() { try close(k) }
        }

        /// Removes every file still open (a failure: no half-written trip is left).
        mutating func abandonAll() {
            for (_, o) in open { o.file.abandon() }
            open = [:]
        }
    }

    static func table(_ s: TripSplit, written w: Written, names: [String], input: String) -> String {
        var out = ""
        for (i, t) in s.trips.enumerated() {
            out +=
                "trip \(i + 1)  \(t.start.iso8601) … \(t.end.iso8601)  \(InfoCommand.duration(t.durationSeconds))  "
                + "\(DecimalText.fixed(t.distanceMetres / 1000, 2)) km  \(w.fixes[i]) fixes  after \(t.startsAfter.rawValue), to \(t.endsAt.rawValue)  → \(Shown.terminal(names[i]))\n"
        }
        out += summary(s, written: w, input: input) + "\n"
        return out
    }

    /// The closing line: trips, and where every point went.
    static func summary(_ s: TripSplit, written w: Written, input: String) -> String {
        let r = s.rules
        var parts = ["\(w.fixes.reduce(0, +)) in trips"]
        if w.inStays > 0 { parts.append("\(w.inStays) in long stays") }
        if w.stationary > 0 {
            parts.append("\(w.stationary) where the device never went \(DecimalText.fixed(r.stayRadiusMetres, 0)) m from where it was")
        }
        if w.untimed > 0 { parts.append("\(w.untimed) without a time") }
        var line =
            "\(Shown.terminal(input)): \(s.trips.count) trip\(s.trips.count == 1 ? "" : "s") in \(w.total) track points (\(parts.joined(separator: ", "))); "
            + "\(s.gapCount) recording gap\(s.gapCount == 1 ? "" : "s") longer than \(InfoCommand.duration(r.gapSeconds))"
        line += "; long stays: \(DecimalText.fixed(r.stayRadiusMetres, 0)) m for \(InfoCommand.duration(r.staySeconds))"
        if w.untimedWaypoints > 0 { line += "; \(w.untimedWaypoints) waypoints without a time are in no trip" }
        if w.routePoints > 0 { line += "; \(w.routePoints) route points are in no trip" }
        return line
    }

    static func json(_ s: TripSplit, written w: Written, names: [String], input: String) -> JSONValue {
        .object([
            ("schema", .string("tracekit-split/1")), ("input", .string(input)),
            (
                "rules",
                .object([
                    ("gapSeconds", .number(s.rules.gapSeconds)), ("staySeconds", .number(s.rules.staySeconds)),
                    ("stayRadiusMetres", .number(s.rules.stayRadiusMetres)),
                ])
            ),
            (
                "trips",
                .array(
                    s.trips.enumerated().map { i, t in
                        .object([
                            ("index", .number(Double(t.index))), ("file", .string(names[i])), ("start", .string(t.start.iso8601)),
                            ("end", .string(t.end.iso8601)), ("durationSeconds", .number(t.durationSeconds)),
                            ("distanceMetres", .number(t.distanceMetres)), ("fixes", .number(Double(w.fixes[i]))),
                            ("startsAfter", .string(t.startsAfter.key)), ("endsAt", .string(t.endsAt.key)),
                        ])
                    })
            ),
            ("trackPoints", .number(Double(w.total))), ("inTrips", .number(Double(w.fixes.reduce(0, +)))),
            ("inLongStays", .number(Double(w.inStays))), ("stationary", .number(Double(w.stationary))),
            ("untimed", .number(Double(w.untimed))), ("untimedWaypoints", .number(Double(w.untimedWaypoints))),
            ("routePoints", .number(Double(w.routePoints))), ("recordingGaps", .number(Double(s.gapCount))),
            ("recordingGapSeconds", .number(s.gapSeconds)),
        ])
    }
}

extension TripBoundary {
    /// The JSON key: recording, gap or stay.
    var key: String {
        switch self {
        case .recording: "recording"
        case .gap: "gap"
        case .stay: "stay"
        }
    }
}
