import TraceGeodesy
import TraceJSON

/// GeoJSON features as ``JSONTraceReader`` reads them (RFC 7946 positions `[lon, lat, ele?]`):
///
/// - TraceKit's own output (``makeTraceWriter(_:to:)`` with `geojson`): a LineString with
///   `properties.track`/`segment` is a segment of track `track` (a new track when the number
///   changes, named by `properties.name`), one with `properties.route` a route; `properties.times`
///   are the points' times (null: none). A Point with `track` (or `route`) and `times` is a segment
///   (route) of one point. A Point whose properties have `lat` and `lon` is a TraceKit waypoint: its
///   properties are read back as the NDJSON members (``OwnMembers``).
/// - Other LineString / MultiLineString features: a track per feature (named by
///   `properties.name`), a segment per line; per-point times from `properties.coordTimes` (an
///   array, or an array of arrays for a MultiLineString; togeojson's convention) or `times`. A
///   times array whose length differs from its line's is stated as an assumption and that line's
///   points are untimed (each then counted as "no time"). MultiPoint features are read as lines.
/// - Other Point features: with a time property (`time`, `timestamp`, `when`) and no `name`,
///   `desc`, `cmt` or `sym`, consecutive ones are the points of one track; the others (untimed,
///   or named like GPX waypoints) are waypoints, with their `name` and time if any.
/// - Features without a Point, MultiPoint, LineString or MultiLineString geometry are skipped and
///   counted.
struct GeoJSONState {
    /// TraceKit's track and route numbers of the last line feature (0: none).
    var track = 0, route = 0
    /// Whether the open track is a run of timed Point features.
    var pointRun = false
    var mismatchedTimes = 0
    var firstMismatch = ""

    static func isGeoJSONType(_ t: String) -> Bool {
        [
            "Feature", "FeatureCollection", "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
            "GeometryCollection",
        ]
        .contains(t)
    }

    func finish(_ points: inout JSONPoints) {
        if mismatchedTimes > 0 {
            points.checker.diagnostics.assume(
                "\(mismatchedTimes) GeoJSON line\(mismatchedTimes == 1 ? "" : "s") whose times do not match the positions were read untimed (first: \(firstMismatch))"
            )
        }
    }
}

extension JSONTraceReader {
    /// One GeoJSON feature (an element of `features`, or the whole document).
    mutating func feature(_ f: JSONValue, base: Int) throws(TraceReadError) {
        let geometry = f["geometry"]
        let properties = f["properties"] ?? JSONValue(.null)
        let type = geometry?["type"]?.text
        guard f["type"]?.text == "Feature", let geometry, let type, let coordinates = geometry["coordinates"] else {
            points.skip("GeoJSON features without a point or line geometry")
            return
        }
        let line = JSONTraceReader.line(geometry, base: base)
        switch type {
        case "Point":
            try pointFeature(coordinates, properties, line: line, base: base)
        case "LineString", "MultiPoint":
            try lineFeature([coordinates], properties, times: timeLists(properties, lines: 1, nested: false), base: base)
        case "MultiLineString":
            let lines = coordinates.items ?? []
            try lineFeature(lines, properties, times: timeLists(properties, lines: lines.count, nested: true), base: base)
        default:
            points.skip("GeoJSON features without a point or line geometry")
        }
    }

    /// The per-line times of a line feature: `coordTimes` or `times`, one array per line.
    private func timeLists(_ properties: JSONValue, lines: Int, nested: Bool) -> [[JSONValue]]? {
        guard let all = (properties["coordTimes"] ?? properties["times"])?.items else { return nil }
        if !nested { return [all] }
        var lists: [[JSONValue]] = []
        for l in all {
            guard let items = l.items else { return nil }
            lists.append(items)
        }
        return lists
    }

    private mutating func structureNumber(_ properties: JSONValue, _ key: String) -> Int? {
        if case .value(let x) = JSONPoints.number(properties[key]), x == x.rounded(), abs(x) < 1e15 { return Int(x) }
        return nil
    }

    /// Opens the track, segment or route of a line feature; returns whether it is a route.
    private mutating func openLine(_ properties: JSONValue, index: Int) throws(TraceReadError) -> Bool {
        let name = properties["name"]?.text
        geo.pointRun = false
        if let r = structureNumber(properties, "route") {
            if index == 0 { try points.startRoute(name: name) }
            geo.route = r
            return true
        }
        if let t = structureNumber(properties, "track") {
            if t != geo.track || !points.trackOpen {
                try points.startTrack(name: name)
            } else {
                try points.startSegment()
            }
            geo.track = t
            return false
        }
        if index == 0 { try points.startTrack(name: name) } else { try points.startSegment() }
        return false
    }

    private mutating func lineFeature(_ lines: [JSONValue], _ properties: JSONValue, times: [[JSONValue]]?, base: Int)
        throws(TraceReadError)
    {
        for (i, l) in lines.enumerated() {
            let positions = l.items ?? []
            let isRoute = try openLine(properties, index: i)
            var lineTimes: [JSONValue]? = nil
            if let times {
                if i < times.count && times[i].count == positions.count {
                    lineTimes = times[i]
                } else {
                    geo.mismatchedTimes += 1
                    if geo.mismatchedTimes == 1 {
                        geo.firstMismatch =
                            "line \(JSONTraceReader.line(l, base: base)): \(i < times.count ? times[i].count : 0) times for \(positions.count) positions"
                    }
                }
            }
            for (k, p) in positions.enumerated() {
                let line = JSONTraceReader.line(p, base: base)
                var fix = try position(p, line: line)
                if let t = lineTimes?[k], fix != nil {
                    fix!.time = try points.time(t, key: "coordTimes", line: line)
                }
                if isRoute { try points.routePoint(fix, line: line) } else { try points.trackPoint(fix, line: line) }
            }
        }
    }

    /// A position `[lon, lat, ele?]` as a fix (nil and noted when unusable).
    private mutating func position(_ p: JSONValue, line: Int) throws(TraceReadError) -> Fix? {
        guard let items = p.items, items.count >= 2, case .value(let lon) = JSONPoints.number(items[0]),
            case .value(let lat) = JSONPoints.number(items[1]), items[0].text == nil, items[1].text == nil
        else {
            try points.checker.note(.invalidCoordinate, line: line, "position \(JSONPoints.shown(p)) is not [longitude, latitude]")
            return nil
        }
        guard var f = try points.fix(latitude: lat, longitude: lon, line: line) else { return nil }
        if items.count >= 3 {
            f.elevation = try points.measure(
                items[2], key: "coordinates", "elevation", line: line, range: -Double.infinity...Double.infinity)
        }
        return f
    }

    private mutating func pointFeature(_ coordinates: JSONValue, _ properties: JSONValue, line: Int, base: Int) throws(TraceReadError) {
        if properties["times"]?.items != nil && (structureNumber(properties, "track") != nil || structureNumber(properties, "route") != nil)
        {
            try lineFeature(
                [JSONValue(.array([coordinates]))], properties, times: timeLists(properties, lines: 1, nested: false), base: base)
            return
        }
        if properties["lat"] != nil && properties["lon"] != nil {
            try points.waypoint(try OwnMembers.fix(properties, line: line, into: &points), line: line)
            return
        }
        let timeKey = ["time", "timestamp", "when"].first { properties[$0] != nil && properties[$0]!.kind != .null }
        let named = ["name", "desc", "cmt", "sym"].contains { properties[$0] != nil }
        var fix = try position(coordinates, line: line)
        if let timeKey, fix != nil {
            fix!.time = try points.time(properties[timeKey], key: timeKey, line: line)
        }
        if timeKey != nil && !named {
            if !geo.pointRun {
                try points.startTrack(name: nil)
                geo.pointRun = true
            }
            try points.trackPoint(fix, line: line)
            return
        }
        if fix != nil, let name = properties["name"]?.text { fix!.name = name }
        try points.waypoint(fix, line: line)
    }
}
