public import TraceGeodesy

/// A point in a coordinate reference system, in the axis order PROJ uses for visualisation:
/// `x` is easting or longitude, `y` is northing or latitude.
///
/// ``ProjTransformer`` normalises every CRS to this order (`proj_normalize_for_visualization`), so
/// "EPSG:4326" takes x = longitude, y = latitude in degrees whatever the EPSG axis order says.
/// Units are the CRS's: degrees for geographic CRSs, usually metres for projected ones.
public struct ProjPoint: Hashable, Sendable {
    /// Easting, or longitude in degrees.
    public var x: Double
    /// Northing, or latitude in degrees.
    public var y: Double

    /// A point from its two axes, in the CRS's units (see the type's axis order).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point (x: longitude, y: latitude) of a geographic coordinate.
    public init(_ c: Coordinate) {
        self.init(x: c.longitude, y: c.latitude)
    }
}

extension Coordinate {
    /// Reads a point of a geographic CRS (x: longitude, y: latitude, degrees) as a validated coordinate.
    /// - Throws: ``CoordinateError`` as ``Coordinate/init(latitude:longitude:)`` does.
    public init(_ p: ProjPoint) throws(CoordinateError) {
        try self.init(latitude: p.y, longitude: p.x)
    }
}
