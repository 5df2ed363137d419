import TraceDomain
import TraceGeodesy
import TraceJSON

/// Reads OwnTracks Recorder storage files (`.rec`), streamed in bounded memory (the 1 MiB
/// window plus one line and its JSON).
///
/// Each line is `ISO-8601 time <TAB> topic or * <TAB> JSON payload`. Objects with
/// `"_type":"location"` are points:
/// - `lat`, `lon` (degrees) — required;
/// - `tst`: the fix time, epoch seconds (a number or a numeric string); the line's own time (when
///   the recorder stored it) is not used;
/// - `acc` horizontal accuracy (m), `alt` elevation (m), `vac` vertical accuracy (m);
/// - `vel` speed in km/h (converted to m/s; -1 or absent = unknown), `cog` course in degrees
///   (-1 or absent = unknown);
/// - `tid` (the tracker id) becomes the fix's ``Fix/name``.
/// Other record types (`lwt`, `transition`, `waypoint`, `card`, …) are skipped and counted in one
/// assumption at the end ("skipped 2 non-location records (lwt 2)").
///
/// Items: one ``TraceItem/trackStart(name:)`` and one segment before the first point. Failures:
/// a first record that is not `time <TAB> topic <TAB> JSON object` is a ``TraceReadError`` (the
/// file is not a .rec file); a later unreadable line (a truncated last line, bad JSON, `NaN` or
/// `1e400` for a number) is a dropped point counted as a ``ProblemKind/unreadableRecord`` problem
/// at its line, or is a ``TraceReadError`` under ``ProblemPolicy/fail``. Per-point
/// problems go through the shared checks.
public struct RECReader: TraceReader {
    /// Always ``TraceFormat/rec``.
    public let format = TraceFormat.rec
    private var scanner: RowScanner
    package var checker: PointChecker
    private var finished = false
    private var recordsRead = 0
    private var skippedTypes: [(type: String, count: Int)] = []
    private var skipped = 0
    private var pendingStart = true
    private var queue = ItemQueue()

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = RowScanner(source: source, delimiter: UInt8(ascii: "\t"), quotes: false)
        checker = PointChecker(file: source.name, options: options)
    }

    /// Reads a .rec file from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Opens a .rec file ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options)
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type (file, line, column, message).
    public mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if let item = queue.pop() { return item }
            if finished { return nil }
            guard try scanner.nextRow() else {
                try finish()
                continue
            }
            try readLine()
        }
    }

    private mutating func finish() throws(TraceReadError) {
        try checker.finishInput()
        finished = true
        if skipped > 0 {
            let kinds = skippedTypes.map { "\($0.type) \($0.count)" }.joined(separator: ", ")
            checker.diagnostics.assume("skipped \(skipped) non-location record\(skipped == 1 ? "" : "s") (\(kinds))")
        }
    }

    /// A line that is not a record: fatal for the first record or under the fail policy.
    private mutating func unreadableLine(_ reason: String, column: Int = 0) throws(TraceReadError) {
        if recordsRead == 0 {
            throw scanner.error("not an OwnTracks .rec file: \(reason) (expected 'ISO-time <TAB> topic <TAB> JSON')", column: column)
        }
        if checker.policy == .fail { throw scanner.error(reason, column: column) }
        checker.diagnostics.unreadableRecord(line: scanner.line, reason)
    }

    private mutating func readLine() throws(TraceReadError) {
        let fields = scanner.fields
        guard fields.count >= 3 else { return try unreadableLine("fewer than 3 tab-separated fields") }
        let time = scanner.field(0)
        guard let first = time.first, TextValue.isDigit(first) else {
            // Before the first record the file may be anything: its line is not quoted.
            return try unreadableLine(recordsRead == 0 ? "the first field is not a time" : "the first field '\(TextValue.shown(time))' is not a time")
        }
        let jsonStart = fields[2].lowerBound
        let json = Array(UnsafeBufferPointer(rebasing: scanner.source.bytes[jsonStart..<max(jsonStart, scanner.rowEnd)]))
        guard json.first == UInt8(ascii: "{") else {
            return try unreadableLine("the payload is not a JSON object", column: jsonStart - scanner.rowStart + 1)
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            return try unreadableLine("JSON: \(error.message)", column: jsonStart - scanner.rowStart + error.column)
        }
        recordsRead += 1
        let type: String
        if case .string(let t)? = value["_type"]?.kind { type = t } else { type = "(no _type)" }
        guard type == "location" else {
            skipped += 1
            if let i = skippedTypes.firstIndex(where: { $0.type == type }) {
                skippedTypes[i].count += 1
            } else if skippedTypes.count < 16 {
                skippedTypes.append((type, 1))
            }
            return
        }
        try readLocation(value)
    }

    private mutating func readLocation(_ value: JSONValue) throws(TraceReadError) {
        let line = scanner.line
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))

        func number(_ key: String) -> (present: Bool, value: Double?) {
            guard let v = value[key] else { return (false, nil) }
            switch v.kind {
            case .number(let x): return (true, x)
            case .null: return (false, nil)
            default: return (true, nil)
            }
        }
        var coordinateProblem = false
        for key in ["lat", "lon"] {
            let n = number(key)
            if n.present && n.value == nil && !coordinateProblem {
                try checker.note(.invalidCoordinate, line: line, "\(key) is \(value[key]!.typeName), not a number")
                coordinateProblem = true
            }
        }
        if let tst = value["tst"] {
            var seconds: Double?
            switch tst.kind {
            case .number(let x): seconds = x
            case .string(let s): seconds = Array(s.utf8).withUnsafeBufferPointer { TextValue.double($0) }
            case .null: break
            default: seconds = nil
            }
            if let seconds, abs(seconds) < 9e9 {
                values.time = Timestamp(nanoseconds: Int64((seconds * 1e9).rounded()))
            } else if tst.kind != .null {
                try checker.note(
                    .invalidTime, line: line, "tst \(tst.typeName == "a string" ? "'\(TraceJSONText.string(tst))'" : tst.typeName)")
            }
        }
        func measure(_ key: String, _ what: String, unknown: Double? = nil, range: ClosedRange<Double> = 0...Double.infinity)
            throws(TraceReadError) -> Double?
        {
            let n = number(key)
            guard n.present else { return nil }
            guard let v = n.value else {
                try checker.note(.invalidValue, line: line, "\(what) (\(key)) is \(value[key]!.typeName), not a number")
                return nil
            }
            if let unknown, v == unknown { return nil }
            guard range.contains(v) else {
                try checker.note(.invalidValue, line: line, "\(what) (\(key)) \(v) outside [\(range.lowerBound), \(range.upperBound)]")
                return nil
            }
            return v
        }
        values.horizontalAccuracy = try measure("acc", "horizontal accuracy")
        values.elevation = try measure("alt", "elevation", range: -Double.infinity...Double.infinity)
        values.verticalAccuracy = try measure("vac", "vertical accuracy")
        values.speed = try measure("vel", "speed", unknown: -1).map { $0 / 3.6 }
        values.course = try measure("cog", "course", unknown: -1, range: 0...360)
        if case .string(let tid)? = value["tid"]?.kind, !tid.isEmpty { values.name = tid }

        var fix: Fix?
        if !coordinateProblem, let c = try checker.coordinate(latitude: number("lat").value, longitude: number("lon").value, line: line) {
            values.coordinate = c
            fix = values
        }
        guard let f = try checker.finish(fix, line: line, trackPoint: true) else { return }
        if pendingStart {
            queue.push(.trackStart(name: nil))
            queue.push(.segmentStart)
            pendingStart = false
        }
        queue.push(.trackPoint(f))
    }
}

/// Text of a JSON string value for messages.
enum TraceJSONText {
    static func string(_ v: JSONValue) -> String {
        if case .string(let s) = v.kind { return s.count > 40 ? String(s.prefix(40)) + "…" : s }
        return v.typeName
    }
}

extension RECReader: CheckedTraceReader {}
