#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bearings and destinations on the sphere of radius ``MeanEarth/radius``.
///
/// Spherical formulas, consistent with ``Haversine``: on WGS84 an azimuth computed this way can be
/// off by up to about 0.2° (latitude-dependent), and a destination by up to about 0.5 % of the
/// distance travelled. Use `TraceProj.Geodesic` where the ellipsoid matters.
public enum Spherical {
    /// Initial bearing (forward azimuth) in degrees clockwise from north, in (-180, 180], of the
    /// great circle from `p` to `q`. For identical points it is Karney's convention
    /// (``GeodesicInverse/coincidentAzimuth(atLatitude:)``), as for every method; at a pole the
    /// bearing is the limit along the point's meridian (longitude still determines it).
    public static func initialBearing(from p: Coordinate, to q: Coordinate) -> Double {
        if p == q { return GeodesicInverse.coincidentAzimuth(atLatitude: p.latitude) }
        let k = Double.pi / 180
        let phi1 = p.latitude * k, phi2 = q.latitude * k
        let dl = _wrappedLongitudeDifference(p.longitude, q.longitude) * k
        let y = sin(dl) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dl)
        return Coordinate.normalizedLongitude(atan2(y, x) / k)
    }

    /// Final bearing in degrees, (-180, 180]: the direction of travel on arrival at `q` (for
    /// identical points, the same convention as ``initialBearing(from:to:)``).
    public static func finalBearing(from p: Coordinate, to q: Coordinate) -> Double {
        if p == q { return GeodesicInverse.coincidentAzimuth(atLatitude: p.latitude) }
        return Coordinate.normalizedLongitude(initialBearing(from: q, to: p) + 180)
    }

    /// The point reached by travelling `distance` metres (may be negative: backwards) from `p` along
    /// the great circle whose initial bearing is `bearing` degrees.
    ///
    /// - Precondition: `bearing` and `distance` are finite.
    public static func destination(from p: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        precondition(bearing.isFinite && distance.isFinite, "destination: bearing and distance must be finite")
        let k = Double.pi / 180
        let delta = distance / MeanEarth.radius
        let theta = bearing * k
        let phi1 = p.latitude * k, lambda1 = p.longitude * k
        let sinPhi2 = sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)
        let phi2 = asin(min(max(sinPhi2, -1), 1))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sinPhi2)
        return Coordinate(
            uncheckedLatitude: min(max(phi2 / k, -90), 90),
            longitude: Coordinate.normalizedLongitude(lambda2 / k))
    }
}
