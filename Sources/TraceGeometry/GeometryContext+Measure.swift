import CGeos

extension GeometryContext {
    /// The smallest axis-aligned rectangle containing a geometry.
    ///
    /// Wraps `GEOSGeom_getXMin_r`, `GEOSGeom_getYMin_r`, `GEOSGeom_getXMax_r` and
    /// `GEOSGeom_getYMax_r` (each returns 0 on failure), after `GEOSisEmpty_r`. In the geometry's
    /// units; degenerate (zero width and height) for a point. O(vertices).
    /// - Throws: ``GeometryError/emptyGeometry`` for an empty geometry (GEOS would report no bounds);
    ///   ``GeometryError/invalidInput(_:)`` for a non-finite coordinate;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func envelope(of geometry: Geometry) throws(GeometryError) -> Envelope {
        try operation { () throws(GeometryError) -> Envelope in
            guard !geometry.isEmpty else { throw .emptyGeometry }
            let g = try makeGEOS(geometry)
            var e = Envelope(minX: 0, minY: 0, maxX: 0, maxY: 0)
            try status("GEOSGeom_getXMin_r") { GEOSGeom_getXMin_r(handle, g.pointer, &e.minX) }
            try status("GEOSGeom_getYMin_r") { GEOSGeom_getYMin_r(handle, g.pointer, &e.minY) }
            try status("GEOSGeom_getXMax_r") { GEOSGeom_getXMax_r(handle, g.pointer, &e.maxX) }
            try status("GEOSGeom_getYMax_r") { GEOSGeom_getYMax_r(handle, g.pointer, &e.maxY) }
            return e
        }
    }

    /// The minimum Euclidean distance between two geometries (0 when they intersect).
    ///
    /// Wraps `GEOSDistance_r` (1 on success, 0 on failure). In the geometries' units. O(n·m) for
    /// simple inputs; GEOS uses an index for large ones.
    /// - Throws: ``GeometryError/emptyGeometry`` when either geometry is empty (GEOS would answer
    ///   0, which is not a distance); ``GeometryError/invalidInput(_:)`` for a non-finite
    ///   coordinate; ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func distance(between a: Geometry, and b: Geometry) throws(GeometryError) -> Double {
        try operation { () throws(GeometryError) -> Double in
            guard !a.isEmpty, !b.isEmpty else { throw .emptyGeometry }
            let ga = try makeGEOS(a)
            let gb = try makeGEOS(b)
            var d = 0.0
            try status("GEOSDistance_r") { GEOSDistance_r(handle, ga.pointer, gb.pointer, &d) }
            return d
        }
    }

    /// The distance from a point to the nearest point of a polyline (its segments, not their
    /// extensions: beyond an endpoint the distance is to that endpoint).
    ///
    /// Wraps `GEOSDistance_r` (1 on success, 0 on failure). In the geometry's units. O(n).
    /// - Throws: ``GeometryError/invalidInput(_:)`` when the point is not finite;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func distance(from point: Point2D, to line: LineString) throws(GeometryError) -> Double {
        try distance(between: .point(point), and: .lineString(line))
    }

    /// The area of a geometry: the sum of its polygons' areas (holes subtracted); 0 for points and
    /// lines.
    ///
    /// Wraps `GEOSArea_r` (0 on failure). In squared units of the geometry. O(vertices).
    /// - Throws: ``GeometryError/invalidInput(_:)`` for a non-finite coordinate;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func area(of geometry: Geometry) throws(GeometryError) -> Double {
        try operation { () throws(GeometryError) -> Double in
            let g = try makeGEOS(geometry)
            var area = 0.0
            try status("GEOSArea_r") { GEOSArea_r(handle, g.pointer, &area) }
            return area
        }
    }

    /// Whether a geometry is valid in the OGC sense (rings simple, holes inside shells, polygons of
    /// a multipolygon not overlapping, ...).
    ///
    /// Wraps `GEOSisValid_r` (2 on failure). When the geometry is invalid GEOS explains why in a
    /// notice, available afterwards in ``notices``. O(n log n).
    /// - Throws: ``GeometryError/invalidInput(_:)`` for a non-finite coordinate;
    ///   ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func isValid(_ geometry: Geometry) throws(GeometryError) -> Bool {
        try operation { () throws(GeometryError) -> Bool in
            let g = try makeGEOS(geometry)
            return try predicate("GEOSisValid_r") { GEOSisValid_r(handle, g.pointer) }
        }
    }
}
