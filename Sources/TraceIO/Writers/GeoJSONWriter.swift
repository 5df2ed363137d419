import TracePlatform

/// Writes a GeoJSON FeatureCollection (RFC 7946): each track segment and each route as a
/// LineString feature whose `properties.times` lists the points' times (null where a point has
/// none) beside `properties.track`/`segment`/`name`; each waypoint as a Point feature. Positions
/// are [longitude, latitude, elevation?]. A segment or route of one point is written as a Point
/// feature with the same properties (a LineString needs two); an empty one is counted in
/// ``notWritten``.
///
/// Streaming in bounded memory: coordinates go straight to the output while the times of the
/// open line are spooled to an anonymous temporary file (`tmpfile`) and copied in after the
/// line's geometry closes. A segment of a single point is still a LineString of one position
/// (RFC 7946 asks for two; readers accept it) — written as written, not dropped.
final class GeoJSONWriter: TraceWriter {
    let sink: ByteSink
    private var spool: Platform.Stream?
    private var first = true
    private var lineOpen = false
    private var linePoints = 0
    private var track = 0, segment = 0, route = 0
    private var trackName: String?
    /// Whether the current track has had a segment (a track without one has no feature).
    private var trackHasSegment = true
    private var lineProperties = ""
    private var lineIsRoute = false
    /// The first position of the open line, held until a second one makes it a LineString.
    private var firstPosition = ""
    private var firstTime = ""
    private(set) var notWritten: [String: Int] = [:]

    init(sink: ByteSink) throws(TraceWriteError) {
        self.sink = sink
        do { spool = try Platform.temporaryStream() } catch {
            throw TraceWriteError(file: sink.name, message: "cannot create a temporary file: \(error)")
        }
        sink.write("{\"type\":\"FeatureCollection\",\"features\":[")
    }

    private func beginFeature() {
        sink.write(first ? "\n" : ",\n")
        first = false
    }

    private func openLine(properties: String, route: Bool) throws(TraceWriteError) {
        try closeLine()
        lineOpen = true
        lineIsRoute = route
        linePoints = 0
        lineProperties = properties
    }

    private func closeLine() throws(TraceWriteError) {
        guard lineOpen else { return }
        lineOpen = false
        if linePoints == 0 {
            notWritten[lineIsRoute ? "empty route" : "empty segment", default: 0] += 1
            return
        }
        if linePoints == 1 {
            beginFeature()
            sink.write(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(firstPosition)},\"properties\":{\(lineProperties)\"times\":[\(firstTime)]}}"
            )
            return
        }
        sink.write("]},\"properties\":{\(lineProperties)\"times\":[")
        Platform.rewindToRead(spool!)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Platform.read(spool!, into: $0) }
            if n == 0 { break }
            chunk.withUnsafeBufferPointer { sink.append(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            try sink.flushIfFull()
        }
        if Platform.failed(spool!) { throw TraceWriteError(file: sink.name, message: "temporary file read failed") }
        sink.write("]}}")
    }

    private func add(_ f: Fix) throws(TraceWriteError) {
        let pos = geoJSONPosition(f.coordinate, elevation: f.elevation)
        let time = f.time.map { "\"\($0.iso8601)\"" } ?? "null"
        linePoints += 1
        if linePoints == 1 {
            firstPosition = pos
            firstTime = time
            return
        }
        if linePoints == 2 {
            // A second point: the line is a LineString; write the held first point.
            beginFeature()
            sink.write("{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[" + firstPosition)
            Platform.empty(spool!)
            guard Platform.put(firstTime, to: spool!) else {
                throw TraceWriteError(file: sink.name, message: "temporary file write failed")
            }
        }
        sink.write("," + pos)
        guard Platform.put("," + time, to: spool!) else { throw TraceWriteError(file: sink.name, message: "temporary file write failed") }
        try sink.flushIfFull()
    }

    private func name(_ n: String?) -> String { n.map { "\"name\":\(NDJSONWriter.quoted($0))," } ?? "" }

    func write(_ item: TraceItem) throws(TraceWriteError) {
        switch item {
        case .trackStart(let n):
            try closeLine()
            if !trackHasSegment { notWritten["empty track", default: 0] += 1 }
            trackHasSegment = false
            track += 1
            segment = 0
            trackName = n
        case .segmentStart:
            trackHasSegment = true
            if track == 0 { track = 1 }
            segment += 1
            try openLine(properties: "\(name(trackName))\"track\":\(track),\"segment\":\(segment),", route: false)
        case .trackPoint(let f):
            if !lineOpen || lineIsRoute { try write(.segmentStart) }
            try add(f)
        case .routeStart(let n):
            route += 1
            try openLine(properties: "\(name(n))\"route\":\(route),", route: true)
        case .routePoint(let f):
            if !lineOpen || !lineIsRoute { try openLine(properties: "\"route\":\(max(route, 1)),", route: true) }
            try add(f)
        case .waypoint(let f):
            try closeLine()
            beginFeature()
            let pos = geoJSONPosition(f.coordinate, elevation: f.elevation)
            sink.write(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(pos)},\"properties\":{\(NDJSONWriter.members(f))}}"
            )
        }
        try sink.flushIfFull()
    }

    func finish() throws(TraceWriteError) {
        try closeLine()
        if !trackHasSegment { notWritten["empty track", default: 0] += 1 }
        sink.write("\n]}\n")
        Platform.close(spool!)
        spool = nil
        try sink.flush()
    }

    deinit {
        if let spool { Platform.close(spool) }
    }
}
