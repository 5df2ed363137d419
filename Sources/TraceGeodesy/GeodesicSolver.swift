/// The solution of the inverse geodesic problem between two points.
///
/// Coincident points: every method in TraceKit follows Karney's (GeographicLib's and PROJ's)
/// convention, azimuths 180° when the point's latitude is ≥ 0 and 0° when it is negative; see
/// ``coincidentAzimuth(atLatitude:)``.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the shortest path on the ellipsoid, metres.
    public var distance: Double
    /// Azimuth of the path at the first point, degrees clockwise from north, in [-180, 180].
    public var initialAzimuth: Double
    /// Azimuth of the path at the second point (forward direction), degrees, in [-180, 180].
    public var finalAzimuth: Double

    /// A solution from its parts: metres and degrees.
    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}

extension GeodesicInverse {
    /// The azimuth, in degrees, that Karney's algorithm reports for a geodesic from a point to
    /// itself: 180 at latitudes ≥ 0, 0 south of the equator.
    public static func coincidentAzimuth(atLatitude latitude: Double) -> Double { latitude >= 0 ? 180 : 0 }
}

/// Something that solves the inverse geodesic problem exactly on WGS84.
///
/// The pure-Swift core declares what it needs and `TraceProj.Geodesic` (Karney's algorithm, as
/// shipped in PROJ) provides it, or ``KarneyGeodesic`` (the same method in pure Swift) where PROJ
/// must not be linked; the fast methods here fall back to a solver outside their domain.
public protocol GeodesicSolver {
    /// Shortest path from `p` to `q` on WGS84.
    func inverse(from p: Coordinate, to q: Coordinate) -> GeodesicInverse
}

/// Something that solves both geodesic problems exactly on WGS84: the inverse (``GeodesicSolver``)
/// and the direct one, where a path from a point along an azimuth ends. A replay needs both (a
/// viewer's map extrapolates a sender's position along its course). `TraceProj.Geodesic` (PROJ)
/// and ``KarneyGeodesic`` (pure Swift) provide them.
public protocol GeodesicDirectSolver: GeodesicSolver {
    /// Where the geodesic from `p` with initial azimuth `azimuth` (degrees clockwise from north)
    /// ends after `distance` metres (negative: backwards).
    /// - Throws: ``GeodesicError/notFinite(azimuth:distance:)`` when `azimuth` or `distance` is NaN
    ///   or infinite.
    func direct(from p: Coordinate, azimuth: Double, distance: Double) throws(GeodesicError) -> GeodesicDirect
}

/// The solution of the direct geodesic problem.
public struct GeodesicDirect: Hashable, Sendable {
    /// Where the geodesic ends.
    public var destination: Coordinate
    /// Azimuth of the geodesic at the destination, degrees clockwise from north, in [-180, 180].
    public var finalAzimuth: Double

    public init(destination: Coordinate, finalAzimuth: Double) {
        self.destination = destination
        self.finalAzimuth = finalAzimuth
    }
}

/// Why a geodesic problem was not solved.
public enum GeodesicError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The azimuth or distance given to the direct problem was NaN or infinite.
    case notFinite(azimuth: Double, distance: Double)

    public var description: String {
        switch self {
        case .notFinite(let a, let d): "azimuth \(a) and distance \(d) must both be finite"
        }
    }
}
