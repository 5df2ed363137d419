/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the shortest path on the ellipsoid, metres.
    public var distance: Double
    /// Azimuth of the path at the first point, degrees clockwise from north, in [-180, 180].
    public var initialAzimuth: Double
    /// Azimuth of the path at the second point (forward direction), degrees, in [-180, 180].
    public var finalAzimuth: Double

    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}

/// Something that solves the inverse geodesic problem exactly on WGS84.
///
/// The pure-Swift core declares what it needs and `TraceProj.Geodesic` (Karney's algorithm, as
/// shipped in PROJ) provides it; the fast methods here fall back to a solver outside their domain.
public protocol GeodesicSolver {
    /// Shortest path from `p` to `q` on WGS84.
    func inverse(from p: Coordinate, to q: Coordinate) -> GeodesicInverse
}
