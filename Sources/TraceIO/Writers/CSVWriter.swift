import TraceJSON

/// Track and segment numbers (1-based) as items go by, for formats that keep the structure only
/// as numbers on points (CSV, NDJSON); a point before any marker is in track 1, segment 1. It also
/// counts what such formats lose: track names, and tracks or segments without points.
struct StructureNumbers {
    private(set) var track = 0
    private(set) var segment = 0
    private(set) var lost: [String: Int] = [:]
    private var segmentPoints: Int?
    private var trackPoints: Int?

    mutating func apply(_ item: TraceItem) {
        switch item {
        case .trackStart(let name):
            closeTrack()
            track += 1
            segment = 0
            trackPoints = 0
            if name != nil { lost["track name", default: 0] += 1 }
        case .segmentStart:
            closeSegment()
            if track == 0 { track = 1 }
            segment += 1
            segmentPoints = 0
            trackPoints = trackPoints ?? 0
        case .trackPoint:
            if track == 0 { track = 1 }
            if segment == 0 { segment = 1 }
            segmentPoints = (segmentPoints ?? 0) + 1
            trackPoints = (trackPoints ?? 0) + 1
        case .routeStart, .routePoint, .waypoint:
            break
        }
    }

    /// Call at the end: counts a last empty segment or track.
    mutating func finish() { closeTrack() }

    private mutating func closeSegment() {
        if segmentPoints == 0 { lost["empty segment", default: 0] += 1 }
        segmentPoints = nil
    }

    private mutating func closeTrack() {
        closeSegment()
        if trackPoints == 0 { lost["empty track", default: 0] += 1 }
        trackPoints = nil
    }
}

/// Writes CSV with a fixed header that ``CSVReader`` reads back: `track,segment,time,latitude,
/// longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state`.
/// Units: metres, m/s, degrees; times ISO 8601 UTC. CSV holds track points only, and tracks and
/// segments only through the numbers of their points: waypoints, route points, track names and
/// empty tracks or segments are counted in ``notWritten`` (and `tracekit convert` reports them).
/// Text fields are written with their control characters escaped (``CSVWriter/field(_:)``).
struct CSVWriter: TraceWriter {
    let sink: ByteSink
    private var started = false
    private var numbers = StructureNumbers()
    private var skipped: [String: Int] = [:]
    var notWritten: [String: Int] { skipped.merging(numbers.lost, uniquingKeysWith: +) }

    static let header =
        "track,segment,time,latitude,longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state\n"

    init(sink: ByteSink) { self.sink = sink }

    /// A text field (a point's name, role, state) under the rule for text from files: what
    /// ``TraceJSON/ShownText/escaped(_:)`` escapes (control characters, a line break and ESC
    /// included, and the bidirectional formatting characters) is written as its escape
    /// (`\u{1b}`), so that a file's text reaches no terminal raw and the cell is one line; then the
    /// field is quoted when it holds a comma or a quote. ``CSVReader`` reads such a field back as
    /// the escape's text. A text that starts with `=`, `+`, `-` or `@` is written as it is (data:
    /// the reports' CSV guards against spreadsheet formulas, this file does not).
    static func field(_ text: String) -> String {
        let s = ShownText.escaped(text)
        guard s.contains(where: { $0 == "," || $0 == "\"" }) else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    mutating func write(_ item: TraceItem) throws(TraceWriteError) {
        if !started {
            started = true
            sink.write(CSVWriter.header)
        }
        numbers.apply(item)
        switch item {
        case .trackStart, .segmentStart:
            break
        case .trackPoint(let fix):
            let f = fix.finiteValues
            func o(_ x: Double?) -> String { x.map(decimal) ?? "" }
            let cells = [
                String(numbers.track), String(numbers.segment), f.time?.iso8601 ?? "",
                decimal(f.coordinate.latitude), decimal(f.coordinate.longitude),
                o(f.elevation), o(f.horizontalAccuracy), o(f.verticalAccuracy), o(f.hdop), o(f.vdop), o(f.pdop),
                f.satellites.map(String.init) ?? "", f.fixType?.rawValue ?? "", o(f.speed), o(f.course),
                CSVWriter.field(f.name ?? ""), CSVWriter.field(f.role ?? ""), CSVWriter.field(f.state ?? ""),
            ]
            sink.write(cells.joined(separator: ",") + "\n")
        case .routeStart: break
        case .routePoint: skipped["route point", default: 0] += 1
        case .waypoint: skipped["waypoint", default: 0] += 1
        }
        try sink.flushIfFull()
    }

    mutating func finish() throws(TraceWriteError) {
        numbers.finish()
        if !started { sink.write(CSVWriter.header) }
        started = true
        try sink.flush()
    }
}

/// Writes newline-delimited JSON: one object per point, each on its own line:
/// `{"type":"trackpoint","track":1,"segment":1,"time":"…","lat":…,"lon":…,"ele":…,…}`; absent
/// values are omitted. Types: trackpoint, routepoint, waypoint. Track names and empty tracks or
/// segments have no line: they are counted in ``notWritten``.
struct NDJSONWriter: TraceWriter {
    let sink: ByteSink
    private var numbers = StructureNumbers()
    private var route = 0
    var notWritten: [String: Int] { numbers.lost }

    init(sink: ByteSink) { self.sink = sink }

    static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }

    /// The JSON members of a fix, without braces.
    static func members(_ fix: Fix) -> String {
        let f = fix.finiteValues
        var m: [String] = []
        if let t = f.time { m.append("\"time\":\"\(t.iso8601)\"") }
        m.append("\"lat\":\(decimal(f.coordinate.latitude))")
        m.append("\"lon\":\(decimal(f.coordinate.longitude))")
        if let x = f.elevation { m.append("\"ele\":\(decimal(x))") }
        if let x = f.horizontalAccuracy { m.append("\"hAcc\":\(decimal(x))") }
        if let x = f.verticalAccuracy { m.append("\"vAcc\":\(decimal(x))") }
        if let x = f.hdop { m.append("\"hdop\":\(decimal(x))") }
        if let x = f.vdop { m.append("\"vdop\":\(decimal(x))") }
        if let x = f.pdop { m.append("\"pdop\":\(decimal(x))") }
        if let x = f.satellites { m.append("\"sat\":\(x)") }
        if let x = f.fixType { m.append("\"fix\":\"\(x.rawValue)\"") }
        if let x = f.speed { m.append("\"speed\":\(decimal(x))") }
        if let x = f.course { m.append("\"course\":\(decimal(x))") }
        if let x = f.name { m.append("\"name\":\(quoted(x))") }
        if let x = f.role { m.append("\"role\":\(quoted(x))") }
        if let x = f.state { m.append("\"state\":\(quoted(x))") }
        return m.joined(separator: ",")
    }

    mutating func write(_ item: TraceItem) throws(TraceWriteError) {
        numbers.apply(item)
        switch item {
        case .trackStart, .segmentStart:
            break
        case .trackPoint(let f):
            sink.write("{\"type\":\"trackpoint\",\"track\":\(numbers.track),\"segment\":\(numbers.segment),\(NDJSONWriter.members(f))}\n")
        case .routeStart:
            route += 1
        case .routePoint(let f):
            sink.write("{\"type\":\"routepoint\",\"route\":\(max(route, 1)),\(NDJSONWriter.members(f))}\n")
        case .waypoint(let f):
            sink.write("{\"type\":\"waypoint\",\(NDJSONWriter.members(f))}\n")
        }
        try sink.flushIfFull()
    }

    mutating func finish() throws(TraceWriteError) {
        numbers.finish()
        try sink.flush()
    }
}
