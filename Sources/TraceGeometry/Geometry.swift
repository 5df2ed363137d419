/// The kinds of geometry GEOS models (its `GEOSGeomTypes`, with linear rings read as line strings).
public enum GeometryKind: String, Hashable, Sendable, CaseIterable {
    /// A single position.
    case point
    /// A sequence of two or more positions.
    case lineString
    /// A shell ring with optional hole rings.
    case polygon
    /// Several points.
    case multiPoint
    /// Several line strings.
    case multiLineString
    /// Several polygons.
    case multiPolygon
    /// A mixed collection.
    case geometryCollection
}

/// A planar geometry as a Swift value: the input and output of every ``GeometryContext`` operation.
///
/// Representation of empties: geometries read from GEOS are normalised so that an empty geometry
/// of any kind is ``empty(_:)``, and empty members of multi-geometries are dropped (they add no
/// points; `MULTIPOINT (EMPTY, (1 2))` reads as `.multiPoint([(1, 2)])`). When writing to GEOS,
/// `.multiPoint([])` and friends are accepted and create the corresponding empty geometry.
/// Linear rings (`LINEARRING (...)` in WKT) read as ``lineString(_:)``. Only x and y are kept: a
/// Z or M ordinate in the input is dropped.
public indirect enum Geometry: Hashable, Sendable {
    /// A single finite point.
    case point(Point2D)
    /// A polyline of at least 2 points.
    case lineString(LineString)
    /// A polygon with closed rings.
    case polygon(Polygon)
    /// A set of points.
    case multiPoint([Point2D])
    /// A set of polylines.
    case multiLineString([LineString])
    /// A set of polygons.
    case multiPolygon([Polygon])
    /// A heterogeneous collection, possibly nested.
    case collection([Geometry])
    /// An empty geometry of the given kind (`POINT EMPTY`, `POLYGON EMPTY`, ...).
    case empty(GeometryKind)

    /// The geometry's kind.
    public var kind: GeometryKind {
        switch self {
        case .point: .point
        case .lineString: .lineString
        case .polygon: .polygon
        case .multiPoint: .multiPoint
        case .multiLineString: .multiLineString
        case .multiPolygon: .multiPolygon
        case .collection: .geometryCollection
        case .empty(let kind): kind
        }
    }

    /// Whether the geometry has no points. O(number of members).
    public var isEmpty: Bool {
        switch self {
        case .point, .lineString, .polygon: false
        case .multiPoint(let points): points.isEmpty
        case .multiLineString(let lines): lines.isEmpty
        case .multiPolygon(let polygons): polygons.isEmpty
        case .collection(let members): members.allSatisfy(\.isEmpty)
        case .empty: true
        }
    }

    /// Total number of vertices, counting ring closing points. O(number of members).
    public var vertexCount: Int {
        switch self {
        case .point: 1
        case .lineString(let l): l.points.count
        case .polygon(let p): p.vertexCount
        case .multiPoint(let points): points.count
        case .multiLineString(let lines): lines.reduce(0) { $0 + $1.points.count }
        case .multiPolygon(let polygons): polygons.reduce(0) { $0 + $1.vertexCount }
        case .collection(let members): members.reduce(0) { $0 + $1.vertexCount }
        case .empty: 0
        }
    }
}

extension Polygon {
    /// Total number of vertices in the shell and holes, counting closing points.
    public var vertexCount: Int { holes.reduce(shell.count) { $0 + $1.count } }
}
