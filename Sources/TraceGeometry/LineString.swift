/// A non-empty polyline: two or more vertices joined by straight segments.
///
/// Invariants, checked by the initialiser: at least 2 points, all finite. Consecutive duplicate
/// points are allowed (GEOS accepts them). An empty line is ``Geometry/empty(_:)`` with
/// ``GeometryKind/lineString``.
public struct LineString: Hashable, Sendable {
    /// The vertices in order; at least 2, all finite.
    public let points: [Point2D]

    /// Validates and wraps the vertices of a polyline.
    ///
    /// O(n). - Throws: ``GeometryError/invalidInput(_:)`` when there are fewer than 2 points or a
    ///   coordinate is NaN or infinite.
    public init(_ points: [Point2D]) throws(GeometryError) {
        guard points.count >= 2 else {
            throw .invalidInput("a line string needs at least 2 points, got \(points.count)")
        }
        for (i, p) in points.enumerated() {
            try p.validateFinite("line string point \(i)")
        }
        self.points = points
    }

    /// Whether the first and last vertices coincide.
    public var isClosed: Bool { points.first == points.last }
}
