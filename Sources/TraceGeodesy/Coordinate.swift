/// A position on the WGS84 ellipsoid, in degrees, validated once at construction.
///
/// Latitude is in [-90, 90]; longitude is normalised to the half-open interval (-180, 180]
/// (so -180 becomes 180, and 190 becomes -170). Every function in TraceKit that takes a
/// `Coordinate` trusts these invariants and does not check them again.
public struct Coordinate: Hashable, Sendable {
    /// Geodetic latitude in degrees, in [-90, 90].
    public let latitude: Double
    /// Longitude in degrees, in (-180, 180].
    public let longitude: Double

    /// Validates and normalises a latitude/longitude pair given in degrees.
    ///
    /// - Throws: ``CoordinateError`` when either value is NaN or infinite, or the latitude lies
    ///   outside [-90, 90]. Longitudes of any finite magnitude are accepted and normalised.
    @inlinable
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite else { throw .latitudeNotFinite(latitude) }
        guard longitude.isFinite else { throw .longitudeNotFinite(longitude) }
        guard latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(latitude) }
        self.latitude = latitude
        self.longitude = Coordinate.normalizedLongitude(longitude)
    }

    /// Builds a coordinate from values the caller has already validated (for example a reader that
    /// checked them); invariants are checked only in debug builds.
    @inlinable
    package init(uncheckedLatitude latitude: Double, longitude: Double) {
        assert(latitude >= -90 && latitude <= 90 && longitude > -180 && longitude <= 180)
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Maps any finite longitude in degrees to (-180, 180]. Exact: IEEE remainder introduces no rounding.
    @inlinable
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        if longitude > -180 && longitude <= 180 { return longitude }  // the usual case, without a libm call
        let r = longitude.remainder(dividingBy: 360)  // in [-180, 180], exact
        return r == -180 ? 180 : r
    }
}

extension Coordinate: CustomStringConvertible {
    public var description: String { "(\(latitude), \(longitude))" }
}

/// Why a latitude/longitude pair was rejected.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The latitude was NaN or infinite.
    case latitudeNotFinite(Double)
    /// The longitude was NaN or infinite.
    case longitudeNotFinite(Double)
    /// The latitude was finite but outside [-90, 90] degrees.
    case latitudeOutOfRange(Double)

    public var description: String {
        switch self {
        case .latitudeNotFinite(let v): "latitude \(v) is not a finite number"
        case .longitudeNotFinite(let v): "longitude \(v) is not a finite number"
        case .latitudeOutOfRange(let v): "latitude \(v) is outside [-90, 90] degrees"
        }
    }
}
