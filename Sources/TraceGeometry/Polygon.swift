/// A non-empty polygon: an outer ring (shell) and zero or more inner rings (holes).
///
/// Invariants, checked by the initialiser: every ring has at least 4 points, is closed (first
/// point equal to last) and has finite coordinates. Ring orientation is not constrained, and
/// topological validity (no self-intersection, holes inside the shell) is not checked here: use
/// ``GeometryContext/isValid(_:)``. An empty polygon is ``Geometry/empty(_:)`` with
/// ``GeometryKind/polygon``.
public struct Polygon: Hashable, Sendable {
    /// The outer ring, closed, at least 4 points.
    public let shell: [Point2D]
    /// The inner rings, each closed with at least 4 points.
    public let holes: [[Point2D]]

    /// Validates and wraps a shell and its holes.
    ///
    /// O(total points). - Throws: ``GeometryError/invalidInput(_:)`` naming the offending ring
    ///   when it has fewer than 4 points, is not closed, or has a non-finite coordinate.
    public init(shell: [Point2D], holes: [[Point2D]] = []) throws(GeometryError) {
        try Polygon.validateRing(shell, name: "shell")
        for (i, hole) in holes.enumerated() {
            try Polygon.validateRing(hole, name: "hole \(i)")
        }
        self.shell = shell
        self.holes = holes
    }

    /// The axis-aligned rectangle [minX, maxX] × [minY, maxY] as a polygon (counter-clockwise).
    ///
    /// - Throws: ``GeometryError/invalidInput(_:)`` when a bound is not finite or the rectangle
    ///   has zero or negative width or height.
    public init(rectangle e: Envelope) throws(GeometryError) {
        guard e.minX < e.maxX, e.minY < e.maxY else {
            throw .invalidInput("rectangle \(e) has zero or negative width or height")
        }
        try self.init(shell: [
            Point2D(x: e.minX, y: e.minY), Point2D(x: e.maxX, y: e.minY),
            Point2D(x: e.maxX, y: e.maxY), Point2D(x: e.minX, y: e.maxY),
            Point2D(x: e.minX, y: e.minY),
        ])
    }

    static func validateRing(_ ring: [Point2D], name: String) throws(GeometryError) {
        guard ring.count >= 4 else {
            throw .invalidInput("\(name) needs at least 4 points (closed), got \(ring.count)")
        }
        for (i, p) in ring.enumerated() {
            try p.validateFinite("\(name) point \(i)")
        }
        guard ring[0] == ring[ring.count - 1] else {
            throw .invalidInput("\(name) is not closed: first point \(ring[0]) ≠ last point \(ring[ring.count - 1])")
        }
    }
}
