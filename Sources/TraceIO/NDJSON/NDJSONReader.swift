import TraceGeodesy
import TraceJSON

/// Reads newline-delimited JSON location logs (`.ndjson`, `.jsonl`), streamed in bounded memory
/// (the 1 MiB window plus one line of at most 1 MiB and its parsed value).
///
/// Each non-blank line is one JSON object:
/// - TraceKit's own lines, as `tracekit convert --to ndjson` writes them (an object whose `type`
///   is `trackpoint`, `routepoint` or `waypoint`): `track`/`segment` numbers start a new track or
///   segment when they change (`route` numbers a new route); `time`, `lat`, `lon`, `ele`, `hAcc`,
///   `vAcc`, `hdop`, `vdop`, `pdop`, `sat`, `fix`, `speed` (m/s), `course`, `name`, `role`,
///   `state` are read back exactly as written. Track names are not in the format (the writer
///   drops them), so tracks have none.
/// - Any other object is a generic location (``LocationObject``: `lat`/`latitude`/`latitudeE7`,
///   `lon`/`lng`/…, `time`/`timestamp`/`tst`/`ts`, accuracy, elevation, speed, course, a nested
///   `coords` or `location` object); all of them are points of one track and one segment.
///
/// Failures: a first line that is not a JSON object, or whose object is neither TraceKit's nor a
/// location, is a ``TraceReadError`` (the file is not a location log). A later unreadable line (bad
/// JSON, `NaN` or `1e400` for a number, not an object, a truncated last line) is a dropped point
/// counted as a ``ProblemKind/unreadableRecord`` problem at its line, or is a ``TraceReadError``
/// under ``ProblemPolicy/fail``. Per-point problems go through the shared checks.
public struct NDJSONReader: TraceReader {
    /// Always ``TraceFormat/ndjson``.
    public let format = TraceFormat.ndjson
    private var scanner: RowScanner
    private var points: JSONPoints
    private var finished = false
    private var objectsRead = 0
    /// TraceKit's structure numbers of the last point (0: none yet).
    private var track = 0, segment = 0, route = 0

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { points.checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = RowScanner(source: source, delimiter: nil, quotes: false)
        points = JSONPoints(file: source.name, options: options)
    }

    /// Reads NDJSON from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Opens an NDJSON file ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options)
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type (file, line, column, message).
    public mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if let item = points.queue.pop() { return item }
            if finished { return nil }
            guard try scanner.nextRow() else {
                try finish()
                continue
            }
            try readLine()
        }
    }

    private mutating func finish() throws(TraceReadError) {
        finished = true
        try points.finish()
    }

    private mutating func unreadableLine(_ reason: String, column: Int = 0) throws(TraceReadError) {
        if objectsRead == 0 {
            throw scanner.error("not a JSON location log: \(reason) (expected one JSON object per line)", column: column)
        }
        if points.checker.policy == .fail { throw scanner.error(reason, column: column) }
        points.checker.diagnostics.unreadableRecord(line: scanner.line, reason)
    }

    private mutating func readLine() throws(TraceReadError) {
        var start = scanner.rowStart
        while start < scanner.rowEnd && TextValue.isSpace(scanner.source.bytes[start]) { start += 1 }
        let json = Array(UnsafeBufferPointer(rebasing: scanner.source.bytes[start..<max(start, scanner.rowEnd)]))
        let column = start - scanner.rowStart + 1
        guard json.first == UInt8(ascii: "{") else {
            // Before the first object the file may be anything: its line is not quoted.
            guard objectsRead > 0 else { return try unreadableLine("the line is not a JSON object", column: column) }
            let shown = TextValue.shown(UnsafeBufferPointer(rebasing: scanner.source.bytes[start..<max(start, scanner.rowEnd)]))
            return try unreadableLine("'\(shown)' is not a JSON object", column: column)
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            return try unreadableLine("JSON: \(error.message)", column: column + error.column - 1)
        }
        let line = scanner.line
        if let type = value["type"]?.text, ["trackpoint", "routepoint", "waypoint"].contains(type) {
            objectsRead += 1
            try readOwn(value, type: type, line: line)
            return
        }
        if objectsRead == 0 && !LocationObject.looksLikeLocation(value) {
            let keys = value.members.prefix(8).map(\.key).joined(separator: ", ")
            throw scanner.error(
                "not a JSON location log: the first object (keys \(keys.isEmpty ? "none" : keys)) has no latitude and longitude",
                column: column)
        }
        objectsRead += 1
        try points.trackPoint(try LocationObject.fix(value, line: line, into: &points), line: line)
    }

    /// A line TraceKit's NDJSON writer wrote.
    private mutating func readOwn(_ value: JSONValue, type: String, line: Int) throws(TraceReadError) {
        func count(_ key: String) -> Int? {
            if case .value(let x) = JSONPoints.number(value[key]), x == x.rounded(), abs(x) < 1e15 { return Int(x) }
            return nil
        }
        let fix = try OwnMembers.fix(value, line: line, into: &points)
        switch type {
        case "trackpoint":
            let t = count("track") ?? max(track, 1), s = count("segment") ?? max(segment, 1)
            if t != track || !points.trackOpen {
                try points.startTrack(name: nil)
            } else if s != segment {
                try points.startSegment()
            }
            (track, segment) = (t, s)
            try points.trackPoint(fix, line: line)
        case "routepoint":
            let r = count("route") ?? max(route, 1)
            if r != route {
                try points.startRoute(name: nil)
                route = r
            }
            track = 0
            try points.routePoint(fix, line: line)
        default:
            try points.waypoint(fix, line: line)
        }
    }
}

/// The members TraceKit's NDJSON writer writes for a fix (also the properties of its GeoJSON
/// waypoints): `time`, `lat`, `lon`, `ele`, `hAcc`, `vAcc`, `hdop`, `vdop`, `pdop`, `sat`, `fix`,
/// `speed`, `course`, `name`, `role`, `state`; read back exactly.
enum OwnMembers {
    static func fix(_ value: JSONValue, line: Int, into points: inout JSONPoints) throws(TraceReadError) -> Fix? {
        func coordinate(_ key: String) throws(TraceReadError) -> Double?? {
            switch JSONPoints.number(value[key]) {
            case .absent: return .some(nil)
            case .invalid:
                try points.checker.note(.invalidCoordinate, line: line, "\(key) is \(JSONPoints.shown(value[key]!)), not a number")
                return nil
            case .value(let x): return x
            }
        }
        guard let lat = try coordinate("lat"), let lon = try coordinate("lon") else { return nil }
        guard var f = try points.fix(latitude: lat, longitude: lon, line: line) else { return nil }
        f.time = try points.time(value["time"], key: "time", line: line)
        func m(_ key: String, _ what: String, range: ClosedRange<Double> = 0...Double.infinity) throws(TraceReadError) -> Double? {
            try points.measure(value[key], key: key, what, line: line, range: range)
        }
        f.elevation = try m("ele", "elevation", range: -Double.infinity...Double.infinity)
        f.horizontalAccuracy = try m("hAcc", "horizontal accuracy")
        f.verticalAccuracy = try m("vAcc", "vertical accuracy")
        f.hdop = try m("hdop", "hdop")
        f.vdop = try m("vdop", "vdop")
        f.pdop = try m("pdop", "pdop")
        if let s = try m("sat", "satellites", range: 0...1000) {
            if s == s.rounded() {
                f.satellites = Int(s)
            } else {
                try points.checker.note(.invalidValue, line: line, "satellites (sat) \(s)")
            }
        }
        if let v = value["fix"], v.kind != .null {
            if let t = v.text.flatMap(FixType.init(rawValue:)) {
                f.fixType = t
            } else {
                try points.checker.note(.invalidValue, line: line, "fix (fix) \(JSONPoints.shown(v))")
            }
        }
        f.speed = try m("speed", "speed")
        f.course = try m("course", "course", range: 0...360)
        if let s = value["name"]?.text { f.name = s }
        if let s = value["role"]?.text { f.role = s }
        if let s = value["state"]?.text { f.state = s }
        return f
    }
}

extension NDJSONReader: CheckedTraceReader {
    package var checker: PointChecker {
        get { points.checker }
        _modify { yield &points.checker }
    }
}
