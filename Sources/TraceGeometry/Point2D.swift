/// A point in the plane.
///
/// Units are the caller's: metres in a projected or local frame, or degrees when a planar
/// approximation of longitude/latitude is acceptable (`x` is then the longitude). GEOS computes
/// in the plane either way, so distances, areas and tolerances are in the same unit as `x` and `y`.
/// A point is not validated on construction; every operation that passes one to GEOS rejects
/// non-finite coordinates with ``GeometryError/invalidInput(_:)``.
public struct Point2D: Hashable, Sendable {
    /// Abscissa (easting, or longitude in degrees).
    public var x: Double
    /// Ordinate (northing, or latitude in degrees).
    public var y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension Point2D: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}

extension Point2D {
    /// Throws ``GeometryError/invalidInput(_:)`` unless the point is finite; `what` names it.
    func validateFinite(_ what: @autoclosure () -> String) throws(GeometryError) {
        guard isFinite else { throw .invalidInput("\(what()) \(self) is not finite") }
    }
}
