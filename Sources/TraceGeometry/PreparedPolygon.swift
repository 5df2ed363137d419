import CGeos

/// A polygon (or multipolygon) indexed by GEOS for fast repeated point-in-polygon tests.
///
/// Owns a GEOS geometry and the `GEOSPreparedGeometry` built from it by `GEOSPrepare_r`; both
/// are freed in `deinit`, the prepared geometry first (`GEOSPreparedGeom_destroy_r`, then
/// `GEOSGeom_destroy_r`). Holds a strong reference to its ``GeometryContext`` so the context
/// outlives it, and is confined to that context's thread (not `Sendable`).
///
/// Cost: preparation is O(n); the index is built lazily by the first query and each later query
/// is O(log n) for a polygon with n vertices.
public final class PreparedPolygon {
    /// The context whose handle created and will free the GEOS objects.
    private let context: GeometryContext
    /// The base geometry (`GEOSGeometry*`), owned.
    private let geometry: OpaquePointer
    /// The prepared geometry (`const GEOSPreparedGeometry*`), owned; refers to `geometry`.
    private let prepared: OpaquePointer

    /// The polygons prepared (one for a polygon, several for a multipolygon).
    public let polygons: [Polygon]

    init(polygons: [Polygon], asMulti: Bool, context: GeometryContext) throws(GeometryError) {
        let owned = try context.makeGEOS(asMulti ? .multiPolygon(polygons) : .polygon(polygons[0]))
        // GEOSPrepare_r: NULL on failure; `owned` then frees the base geometry.
        let prepared = try context.nonNull("GEOSPrepare_r") { GEOSPrepare_r(context.handle, owned.pointer) }
        self.context = context
        self.geometry = owned.release()
        self.prepared = prepared
        self.polygons = polygons
    }

    deinit {
        // The prepared geometry refers to the base geometry: destroy it first.
        GEOSPreparedGeom_destroy_r(context.handle, prepared)
        GEOSGeom_destroy_r(context.handle, geometry)
    }

    /// Whether `point` lies in the interior of the polygon: false outside, in a hole, and on any
    /// boundary (shell or hole), per the OGC/GEOS definition of *contains*.
    ///
    /// Wraps `GEOSPreparedContains_r` (1 true, 0 false, 2 on failure) with a point built by
    /// `GEOSGeom_createPointFromXY_r` and destroyed after the test (GEOS 3.11 has no
    /// `GEOSPreparedContainsXY_r`). O(log n) after the first call.
    /// - Throws: ``GeometryError/invalidInput(_:)`` when the point is not finite;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func contains(_ point: Point2D) throws(GeometryError) -> Bool {
        try test(point, "GEOSPreparedContains_r") { h, pg, g in GEOSPreparedContains_r(h, pg, g) }
    }

    /// Whether `point` lies in the polygon or on its boundary (the closed region): like
    /// ``contains(_:)`` but true on the shell and on hole boundaries.
    ///
    /// Wraps `GEOSPreparedCovers_r` (1 true, 0 false, 2 on failure). O(log n) after the first call.
    /// - Throws: ``GeometryError/invalidInput(_:)`` when the point is not finite;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func covers(_ point: Point2D) throws(GeometryError) -> Bool {
        try test(point, "GEOSPreparedCovers_r") { h, pg, g in GEOSPreparedCovers_r(h, pg, g) }
    }

    private func test(
        _ point: Point2D, _ function: String,
        _ call: (OpaquePointer, OpaquePointer, OpaquePointer) -> CChar
    ) throws(GeometryError) -> Bool {
        try context.operation { () throws(GeometryError) -> Bool in
            let p = try context.makePoint(point)
            return try context.predicate(function) { call(context.handle, prepared, p.pointer) }
        }
    }
}

/// Confined to its context's thread, like ``GeometryContext``.
@available(*, unavailable, message: "PreparedPolygon uses its GeometryContext, which is confined to one thread")
extension PreparedPolygon: Sendable {}

extension GeometryContext {
    /// Prepares a polygon for fast repeated point-in-polygon tests.
    ///
    /// Wraps `GEOSPrepare_r` (NULL on failure). O(n). The result keeps this context alive.
    /// - Throws: ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func prepare(_ polygon: Polygon) throws(GeometryError) -> PreparedPolygon {
        try operation { () throws(GeometryError) -> PreparedPolygon in
            try PreparedPolygon(polygons: [polygon], asMulti: false, context: self)
        }
    }

    /// Prepares a multipolygon (the union of `polygons`, which should not overlap) for fast
    /// repeated point-in-polygon tests.
    ///
    /// Wraps `GEOSPrepare_r` (NULL on failure). O(n). The result keeps this context alive.
    /// - Throws: ``GeometryError/emptyGeometry`` when `polygons` is empty;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func prepare(multiPolygon polygons: [Polygon]) throws(GeometryError) -> PreparedPolygon {
        try operation { () throws(GeometryError) -> PreparedPolygon in
            guard !polygons.isEmpty else { throw .emptyGeometry }
            return try PreparedPolygon(polygons: polygons, asMulti: true, context: self)
        }
    }
}
