#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ellipsoid of revolution, the reference surface for geodetic coordinates.
///
/// TraceKit's geodesy is WGS84 throughout; the type exists so that the constants and the radii of
/// curvature are written down once, with their definitions.
public struct Ellipsoid: Hashable, Sendable {
    /// Equatorial radius, metres.
    public let equatorialRadius: Double
    /// Flattening f = (a - b) / a.
    public let flattening: Double

    /// Creates an ellipsoid from its equatorial radius in metres and its flattening.
    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
    }

    /// WGS84: a = 6,378,137 m, f = 1 / 298.257223563 (NIMA TR8350.2).
    public static let wgs84 = Ellipsoid(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Polar radius b = a (1 - f), metres.
    @inlinable public var polarRadius: Double { equatorialRadius * (1 - flattening) }
    /// First eccentricity squared, e² = f (2 - f).
    @inlinable public var eccentricitySquared: Double { flattening * (2 - flattening) }

    /// Meridional radius of curvature M(φ) = a (1 - e²) / (1 - e² sin²φ)^{3/2}, metres; φ in degrees.
    public func meridionalRadius(atLatitude latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let w2 = 1 - eccentricitySquared * s * s
        return equatorialRadius * (1 - eccentricitySquared) / (w2 * w2.squareRoot())
    }

    /// Prime-vertical radius of curvature N(φ) = a / (1 - e² sin²φ)^{1/2}, metres; φ in degrees.
    public func primeVerticalRadius(atLatitude latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        return equatorialRadius / (1 - eccentricitySquared * s * s).squareRoot()
    }
}

/// The sphere used by the spherical formulas (haversine, spherical bearing and destination).
public enum MeanEarth {
    /// IUGG mean Earth radius R₁ = (2a + b) / 3 for WGS84, 6,371,008.8 m (Moritz, Geodetic Reference
    /// System 1980, Bulletin Géodésique 54, 1980; rounded to 0.1 m).
    public static let radius: Double = 6_371_008.8
}
