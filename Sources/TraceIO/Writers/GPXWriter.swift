/// Writes GPX 1.1. Items are written in the order they come (streaming: a file whose waypoints
/// follow its tracks keeps that order, which strict schema validators flag). Speed and course go
/// in Garmin's TrackPointExtension v2; accuracy, role and state in TraceKit's namespace
/// (`https://tracekit.dev/xmlschemas/GPX/1`) as `tk:hAcc`, `tk:vAcc`, `tk:role`, `tk:state`, which
/// ``GPXReader`` reads back. Numbers are written in their shortest exact form and times as UTC
/// with the shortest exact fraction, so read → write → read gives the same fixes.
struct GPXWriter: TraceWriter {
    let sink: ByteSink
    private var started = false
    private var open: Open = .none
    private var segmentOpen = false
    private var droppedCharacters = 0

    var notWritten: [String: Int] {
        droppedCharacters > 0 ? ["character XML cannot hold": droppedCharacters] : [:]
    }

    private enum Open { case none, track, route }

    init(sink: ByteSink) { self.sink = sink }

    private mutating func start() {
        guard !started else { return }
        started = true
        sink.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TraceKit" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:tk="https://tracekit.dev/xmlschemas/GPX/1">

            """)
    }

    private mutating func close() {
        if segmentOpen { sink.write("    </trkseg>\n") }
        segmentOpen = false
        switch open {
        case .track: sink.write("  </trk>\n")
        case .route: sink.write("  </rte>\n")
        case .none: break
        }
        open = .none
    }

    mutating func write(_ item: TraceItem) throws(TraceWriteError) {
        start()
        switch item {
        case .trackStart(let name):
            close()
            open = .track
            sink.write("  <trk>\n" + (name.map { "    <name>\(xmlEscaped($0, dropped: &droppedCharacters))</name>\n" } ?? ""))
        case .segmentStart:
            if open != .track {
                close()
                open = .track
                sink.write("  <trk>\n")
            }
            if segmentOpen { sink.write("    </trkseg>\n") }
            segmentOpen = true
            sink.write("    <trkseg>\n")
        case .trackPoint(let f):
            if open != .track || !segmentOpen { try write(.segmentStart) }
            point("trkpt", f, indent: "      ")
        case .routeStart(let name):
            close()
            open = .route
            sink.write("  <rte>\n" + (name.map { "    <name>\(xmlEscaped($0, dropped: &droppedCharacters))</name>\n" } ?? ""))
        case .routePoint(let f):
            if open != .route {
                close()
                open = .route
                sink.write("  <rte>\n")
            }
            point("rtept", f, indent: "    ")
        case .waypoint(let f):
            close()
            point("wpt", f, indent: "  ")
        }
        try sink.flushIfFull()
    }

    private mutating func point(_ tag: String, _ fix: Fix, indent: String) {
        let f = fix.finiteValues
        var s = "\(indent)<\(tag) lat=\"\(decimal(f.coordinate.latitude))\" lon=\"\(decimal(f.coordinate.longitude))\">"
        let inner = indent + "  "
        if let e = f.elevation { s += "\n\(inner)<ele>\(decimal(e))</ele>" }
        if let t = f.time { s += "\n\(inner)<time>\(t.iso8601)</time>" }
        if let n = f.name { s += "\n\(inner)<name>\(xmlEscaped(n, dropped: &droppedCharacters))</name>" }
        if let x = f.fixType { s += "\n\(inner)<fix>\(x.rawValue)</fix>" }
        if let x = f.satellites { s += "\n\(inner)<sat>\(x)</sat>" }
        if let x = f.hdop { s += "\n\(inner)<hdop>\(decimal(x))</hdop>" }
        if let x = f.vdop { s += "\n\(inner)<vdop>\(decimal(x))</vdop>" }
        if let x = f.pdop { s += "\n\(inner)<pdop>\(decimal(x))</pdop>" }
        var ext = ""
        if f.speed != nil || f.course != nil {
            ext += "<gpxtpx:TrackPointExtension>"
            if let x = f.speed { ext += "<gpxtpx:speed>\(decimal(x))</gpxtpx:speed>" }
            if let x = f.course { ext += "<gpxtpx:course>\(decimal(x))</gpxtpx:course>" }
            ext += "</gpxtpx:TrackPointExtension>"
        }
        if let x = f.horizontalAccuracy { ext += "<tk:hAcc>\(decimal(x))</tk:hAcc>" }
        if let x = f.verticalAccuracy { ext += "<tk:vAcc>\(decimal(x))</tk:vAcc>" }
        if let x = f.role { ext += "<tk:role>\(xmlEscaped(x, dropped: &droppedCharacters))</tk:role>" }
        if let x = f.state { ext += "<tk:state>\(xmlEscaped(x, dropped: &droppedCharacters))</tk:state>" }
        if !ext.isEmpty { s += "\n\(inner)<extensions>\(ext)</extensions>" }
        let simple = !s.contains("\n")
        s += simple ? "</\(tag)>\n" : "\n\(indent)</\(tag)>\n"
        sink.write(s)
    }

    mutating func finish() throws(TraceWriteError) {
        start()
        close()
        sink.write("</gpx>\n")
        try sink.flush()
    }
}
