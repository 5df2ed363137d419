import TraceGeodesy

extension GeometryContext {
    /// The largest distance, in metres, from a local frame's origin at which the geographic
    /// helpers accept a point: 1,000 km, where the frame's scale error (d/R)²/2 reaches 1.2 %.
    /// Beyond it (and certainly beyond the horizon, where the orthographic projection folds over)
    /// a planar tolerance or radius in metres no longer means metres on the ground.
    public static let maximumLocalRadius: Double = 1_000_000

    /// A local east/north frame about the centre of the coordinates' bounding box (falling back
    /// to `points[0]` when the box spans all longitudes), checked to contain every point within
    /// ``maximumLocalRadius``. Precondition: `points` is not empty.
    static func localFrame(around points: [Coordinate]) throws(GeometryError) -> LocalFrame {
        var origin = points[0]
        if let box = BoundingBox(covering: points), !box.coversAllLongitudes,
            let centre = try? Coordinate(
                latitude: (box.south + box.north) / 2, longitude: box.west + box.longitudeSpan / 2)
        {
            origin = centre
        }
        for (i, p) in points.enumerated() {
            let d = Haversine.distance(from: origin, to: p)
            guard d <= maximumLocalRadius else {
                throw .invalidInput(
                    "point \(i) \(p) is \(Int(d)) m from the local frame's origin \(origin); "
                        + "the limit is \(Int(maximumLocalRadius)) m")
            }
        }
        return LocalFrame(origin: origin)
    }
}

extension Point2D {
    /// The planar point (x = east, y = north) of a local-frame offset in metres.
    init(_ offset: EastNorth) { self.init(x: offset.east, y: offset.north) }
}

extension EastNorth {
    /// The local-frame offset of a planar point (x = east, y = north), metres.
    init(_ point: Point2D) { self.init(east: point.x, north: point.y) }
}
