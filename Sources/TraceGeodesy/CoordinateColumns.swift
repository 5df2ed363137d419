/// Validated coordinates stored as two contiguous columns (struct of arrays), the layout the
/// batch distance kernels read.
///
/// Every value in the columns satisfies ``Coordinate``'s invariants: it is only filled through
/// validating or already-validated entry points.
public struct CoordinateColumns: Sendable, Equatable {
    /// Latitudes in degrees, in [-90, 90].
    public private(set) var latitudes: [Double]
    /// Longitudes in degrees, in (-180, 180].
    public private(set) var longitudes: [Double]

    /// An empty store with room for `capacity` coordinates.
    public init(minimumCapacity capacity: Int = 0) {
        latitudes = []
        longitudes = []
        latitudes.reserveCapacity(capacity)
        longitudes.reserveCapacity(capacity)
    }

    /// The columns of a sequence of already validated coordinates.
    public init(_ coordinates: some Sequence<Coordinate>) {
        self.init(minimumCapacity: coordinates.underestimatedCount)
        for c in coordinates { append(c) }
    }

    /// Validates parallel arrays of degrees.
    ///
    /// - Throws: ``CoordinateColumnsError`` naming the first invalid index, or a length mismatch.
    public init(latitudes: [Double], longitudes: [Double]) throws(CoordinateColumnsError) {
        guard latitudes.count == longitudes.count else {
            throw .lengthMismatch(latitudes: latitudes.count, longitudes: longitudes.count)
        }
        var lons = longitudes
        for i in latitudes.indices {
            do {
                let c = try Coordinate(latitude: latitudes[i], longitude: lons[i])
                lons[i] = c.longitude
            } catch {
                throw .invalid(index: i, error)
            }
        }
        self.latitudes = latitudes
        self.longitudes = lons
    }

    /// Number of coordinates stored.
    @inlinable public var count: Int { latitudes.count }
    /// Whether no coordinate is stored.
    @inlinable public var isEmpty: Bool { latitudes.isEmpty }

    /// Appends a validated coordinate.
    public mutating func append(_ c: Coordinate) {
        latitudes.append(c.latitude)
        longitudes.append(c.longitude)
    }

    /// The coordinate at `index`.
    public subscript(index: Int) -> Coordinate {
        Coordinate(uncheckedLatitude: latitudes[index], longitude: longitudes[index])
    }
}

/// Why parallel latitude/longitude arrays were rejected.
public enum CoordinateColumnsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two arrays had different lengths.
    case lengthMismatch(latitudes: Int, longitudes: Int)
    /// The pair at `index` (0-based) failed validation.
    case invalid(index: Int, CoordinateError)

    public var description: String {
        switch self {
        case .lengthMismatch(let a, let b): "\(a) latitudes but \(b) longitudes"
        case .invalid(let i, let e): "coordinate \(i): \(e)"
        }
    }
}
