import TraceJSON

/// Writes CSV with a fixed header that ``CSVReader`` reads back: `track,segment,time,latitude,
/// longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state`.
/// Units: metres, m/s, degrees; times ISO 8601 UTC. CSV holds track points only: waypoints and
/// route points are counted in ``notWritten`` (and `tracekit convert` reports them).
/// Track and segment numbers (1-based) as items go by; a point before any marker is in track 1,
/// segment 1.
struct StructureNumbers {
    private(set) var track = 0
    private(set) var segment = 0

    mutating func apply(_ item: TraceItem) {
        switch item {
        case .trackStart:
            track += 1
            segment = 0
        case .segmentStart:
            if track == 0 { track = 1 }
            segment += 1
        case .trackPoint:
            if track == 0 { track = 1 }
            if segment == 0 { segment = 1 }
        case .routeStart, .routePoint, .waypoint:
            break
        }
    }
}

struct CSVWriter: TraceWriter {
    let sink: ByteSink
    private var started = false
    private var numbers = StructureNumbers()
    private(set) var notWritten: [String: Int] = [:]

    static let header = "track,segment,time,latitude,longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state\n"

    init(sink: ByteSink) { self.sink = sink }

    /// A field quoted when it holds a comma, a quote or a line break.
    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
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
        case .routePoint: notWritten["route point", default: 0] += 1
        case .waypoint: notWritten["waypoint", default: 0] += 1
        }
        try sink.flushIfFull()
    }

    mutating func finish() throws(TraceWriteError) {
        if !started { sink.write(CSVWriter.header) }
        started = true
        try sink.flush()
    }
}

/// Writes newline-delimited JSON: one object per point, each on its own line:
/// `{"type":"trackpoint","track":1,"segment":1,"time":"…","lat":…,"lon":…,"ele":…,…}`; absent
/// values are omitted. Types: trackpoint, routepoint, waypoint.
struct NDJSONWriter: TraceWriter {
    let sink: ByteSink
    private var numbers = StructureNumbers()
    private var route = 0
    let notWritten: [String: Int] = [:]

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

    mutating func finish() throws(TraceWriteError) { try sink.flush() }
}
