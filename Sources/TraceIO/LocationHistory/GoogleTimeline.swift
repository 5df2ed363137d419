import TraceDomain
import TraceGeodesy
import TraceJSON

/// Google location histories as ``JSONTraceReader`` reads them. Only positions with a time the
/// file states become fixes; nothing is interpolated.
///
/// Semantic Location History (`{"timelineObjects": [...]}`), one track, a segment per object:
/// - `placeVisit`: its `location` (`latitudeE7`/`longitudeE7`, else `centerLatE7`/`centerLngE7`)
///   at `duration.startTimestamp` and again at `duration.endTimestamp`, with its
///   `simplifiedRawPath` points between;
/// - `activitySegment`: `startLocation` at the start time, its `simplifiedRawPath.points`
///   (`latE7`, `lngE7`, `accuracyMeters`, `timestamp`), `endLocation` at the end time. The
///   `waypointPath.waypoints` have no times: they are skipped and counted, never given invented
///   times. A start or end location without a position is skipped and counted.
///
/// On-device Timeline export (`{"semanticSegments": [...], "rawSignals": [...]}`): each semantic
/// segment is a segment of the track "semanticSegments": a `visit.topCandidate.placeLocation.latLng`
/// (`"48.1°, 11.5°"`) at `startTime` and `endTime`; `activity.start.latLng` at `startTime` and
/// `activity.end.latLng` at `endTime`; each `timelinePath` entry (`point`, `time`). Each raw signal
/// with a `position` (`LatLng`, `accuracyMeters`, `altitudeMeters`, `timestamp`,
/// `speedMetersPerSecond`) is a point of the track "rawSignals"; the others (activity records,
/// Wi-Fi scans) are skipped and counted. The older iOS export (a top-level array of such segments
/// whose positions are `"geo:lat,lng"` texts) reads the same way; its `timelinePath` entries carry
/// `durationMinutesOffsetFromStartTime` instead of a time, which is added to `startTime` (stated).
extension JSONTraceReader {
    /// The assumption stated for Semantic Location History files.
    static let semanticAssumption =
        "Semantic Location History: fixes are place visits (at their start and end times), activity start and end locations (at the segment's start and end times) and timed raw-path points; untimed waypoints are skipped"

    private mutating func timedFix(_ location: JSONValue?, time: Timestamp?, line: Int) throws(TraceReadError) -> Fix?? {
        guard let location, LocationObject.looksLikeLocation(location) else { return nil }
        guard var f = try LocationObject.fix(location, line: line, into: &points) else { return .some(nil) }
        if f.time == nil { f.time = time }
        return f
    }

    /// One object of `timelineObjects`.
    mutating func timelineObject(_ v: JSONValue, base: Int) throws(TraceReadError) {
        points.checker.diagnostics.assume(JSONTraceReader.semanticAssumption)
        let visit = v["placeVisit"], activity = v["activitySegment"]
        guard let object = visit ?? activity else {
            points.skip("timeline objects that are neither placeVisit nor activitySegment")
            return
        }
        let line = JSONTraceReader.line(object, base: base)
        let duration = object["duration"]
        let start = try points.time(duration?["startTimestamp"] ?? duration?["startTimestampMs"], key: "startTimestamp", line: line)
        let end = try points.time(duration?["endTimestamp"] ?? duration?["endTimestampMs"], key: "endTimestamp", line: line)
        try points.startSegment()
        var first: JSONValue?, last: JSONValue?
        if let visit {
            var place = visit["location"]
            if place == nil || !LocationObject.looksLikeLocation(place!), let lat = visit["centerLatE7"], let lng = visit["centerLngE7"] {
                place = JSONValue(.object([("latitudeE7", lat), ("longitudeE7", lng)]), line: visit.line, column: visit.column)
            }
            (first, last) = (place, place)
        } else {
            (first, last) = (object["startLocation"], object["endLocation"])
            let waypoints = object["waypointPath"]?["waypoints"]?.items?.count ?? 0
            points.skip("untimed waypointPath waypoints", waypoints)
        }
        try placed(
            first, time: start, base: base,
            what: visit != nil ? "place visits without a position" : "activity start or end locations without a position")
        let raw = object["simplifiedRawPath"]?["points"]?.items ?? []
        for p in raw {
            let l = JSONTraceReader.line(p, base: base)
            try points.trackPoint(try LocationObject.fix(p, line: l, into: &points), line: l)
        }
        try placed(
            last, time: end, base: base,
            what: visit != nil ? "place visits without a position" : "activity start or end locations without a position")
    }

    /// A position at `time`; skipped and counted as `what` when it has none.
    private mutating func placed(_ location: JSONValue?, time: Timestamp?, base: Int, what: String) throws(TraceReadError) {
        let line = JSONTraceReader.line(location, base: base)
        guard let f = try timedFix(location, time: time, line: line) else {
            points.skip(what)
            return
        }
        try points.trackPoint(f, line: line)
    }

    /// A position text (`latLng`, `placeLocation`, `point`) as a fix at `time`.
    private mutating func textFix(_ v: JSONValue?, key: String, time: Timestamp?, line: Int) throws(TraceReadError) -> Fix?? {
        var v = v
        if let o = v, o.isObject { v = o["latLng"] ?? o["LatLng"] }
        guard let v else { return nil }
        guard let s = v.text, let (lat, lon) = JSONPoints.latLngText(s) else {
            try points.checker.note(.invalidCoordinate, line: line, "\(key) \(JSONPoints.shown(v)) is not a position")
            return .some(nil)
        }
        guard var f = try points.fix(latitude: lat, longitude: lon, line: line) else { return .some(nil) }
        f.time = time
        return f
    }

    /// One of `semanticSegments` (or an element of the iOS export's top-level array).
    mutating func semanticSegment(_ v: JSONValue, base: Int) throws(TraceReadError) {
        let line = JSONTraceReader.line(v, base: base)
        let start = try points.time(v["startTime"], key: "startTime", line: line)
        let end = try points.time(v["endTime"], key: "endTime", line: line)
        if !points.trackOpen { try points.startTrack(name: "semanticSegments") } else { try points.startSegment() }
        var ends: [(JSONValue?, String, Timestamp?)] = []
        if let visit = v["visit"] {
            let place = visit["topCandidate"]?["placeLocation"]
            ends = [(place, "placeLocation", start), (place, "placeLocation", end)]
        } else if let activity = v["activity"] {
            ends = [(activity["start"], "activity.start", start), (activity["end"], "activity.end", end)]
        }
        if let (p, key, t) = ends.first {
            let l = JSONTraceReader.line(p, base: base)
            if let f = try textFix(p, key: key, time: t, line: l) {
                try points.trackPoint(f, line: l)
            } else {
                points.skip("Timeline visits or activities without a position")
            }
        }
        for entry in v["timelinePath"]?.items ?? [] {
            let l = JSONTraceReader.line(entry, base: base)
            var time: Timestamp?
            if let t = entry["time"] {
                time = try points.time(t, key: "time", line: l)
            } else if case .value(let minutes) = JSONPoints.number(entry["durationMinutesOffsetFromStartTime"]), let start,
                minutes.isFinite, abs(minutes) < 1e8
            {
                points.checker.diagnostics.assume("Timeline path times are startTime plus durationMinutesOffsetFromStartTime")
                time = start.adding(seconds: Int((minutes * 60).rounded()))
            }
            guard let f = try textFix(entry["point"], key: "point", time: time, line: l) else {
                points.skip("Timeline path entries without a point")
                continue
            }
            try points.trackPoint(f, line: l)
        }
        if ends.count == 2 {
            let (p, key, t) = ends[1]
            let l = JSONTraceReader.line(p, base: base)
            if let f = try textFix(p, key: key, time: t, line: l) {
                try points.trackPoint(f, line: l)
            } else {
                points.skip("Timeline visits or activities without a position")
            }
        }
    }

    /// One of `rawSignals`.
    mutating func rawSignal(_ v: JSONValue, base: Int) throws(TraceReadError) {
        guard let position = v["position"], position.isObject else {
            points.skip("rawSignals without a position")
            return
        }
        if !points.trackOpen { try points.startTrack(name: "rawSignals") }
        let line = JSONTraceReader.line(position, base: base)
        try points.trackPoint(try LocationObject.fix(position, line: line, into: &points), line: line)
    }
}
