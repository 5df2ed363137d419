import TraceGeodesy

// The plain point path: a whole point element from the XML scanner in one call
// (``XMLScanner/plainElement(maximumChildren:where:)``), read as the token-by-token path reads it.
extension GPXReader {
    /// What ``plainPoint()`` did.
    enum PlainPoint {
        /// The next element is not a plain point, or one with a problem to report: read it token
        /// by token (so every report names the line the general path names).
        case notPlain
        /// A point read whole and dropped by the checks.
        case dropped
        case item(TraceItem)
    }

    /// The next point, when it is plain (``XMLScanner/plainElement(maximumChildren:where:)``):
    /// a `trkpt` in an explicit segment, an `rtept` in a route, or a `wpt`, with a readable
    /// `lat` and `lon`, and children that are point fields, all readable, or elements the reader
    /// skips anyway. It yields exactly what the token-by-token path yields for it.
    mutating func plainPoint() throws(TraceReadError) -> PlainPoint {
        var kind = PointKind.track
        let inSegment = trackDepth > 0 && segmentDepth > 0 && scanner.depth == segmentDepth
        let inRoute = routeDepth > 0 && scanner.depth == routeDepth
        guard
            scanner.plainElement(
                maximumChildren: 32,
                where: { local in
                    if GPXReader.equals(local, "trkpt") { kind = .track; return inSegment }
                    if GPXReader.equals(local, "rtept") { kind = .route; return inRoute }
                    if GPXReader.equals(local, "wpt") { kind = .waypoint; return true }
                    return false
                })
        else { return .notPlain }
        guard let latText = scanner.attribute("lat"), let lonText = scanner.attribute("lon"),
            let latitude = DecimalParser.parseDouble(GPXReader.trimmed(latText)), latitude.isFinite,
            let longitude = DecimalParser.parseDouble(GPXReader.trimmed(lonText)), longitude.isFinite
        else {
            scanner.undoPlainElement()
            return .notPlain
        }
        // Every child is read before anything is stored or stated, so that a point with a problem
        // can still go back to the token-by-token path.
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        var zoneless = false
        var given = 0
        for k in 0..<scanner.plainChildCount {
            let child = scanner.plainChild(k)
            guard let f = GPXReader.pointField(child.localName, direct: true) else {
                let local = child.localName
                if GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt") {
                    scanner.undoPlainElement()  // a point inside a point: the general path states it
                    return .notPlain
                }
                continue
            }
            guard given & f.bit == 0 else {  // a repeated field: the general path states it
                scanner.undoPlainElement()
                return .notPlain
            }
            given |= f.bit
            let value = GPXReader.read(f, child.text)
            switch value {
            case .problem:
                scanner.undoPlainElement()
                return .notPlain
            case .time(let t, let hadZone):
                guard let stored = storedTime(t, hadZone: hadZone) else {
                    scanner.undoPlainElement()
                    return .notPlain
                }
                values.time = stored
                zoneless = zoneless || !hadZone
            default:
                GPXReader.store(f, value, in: &values)
            }
        }
        if zoneless { assumeZoneless() }
        point = PartialPoint(kind: kind, latitude: latitude, longitude: longitude, values: values)
        guard let item = try finishPoint() else { return .dropped }
        return .item(item)
    }
}
