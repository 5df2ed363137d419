import CGeos

extension GeometryContext {
    /// Douglas–Peucker simplification: removes vertices closer than `tolerance` to the simplified
    /// line through their neighbours.
    ///
    /// Wraps `GEOSSimplify_r`. `tolerance` is in the geometry's units. Endpoints of lines are
    /// kept; the result's vertices are a subset of the input's. Polygons may lose holes or
    /// collapse to empty and lines in a collection may come to cross: GEOS makes a simplified
    /// polygon valid again, but does not preserve the number or arrangement of components (use
    /// ``simplifyPreservingTopology(_:tolerance:)`` for that). O(n log n) typical, O(n²) worst.
    /// - Throws: ``GeometryError/invalidInput(_:)`` when `tolerance` is negative or not finite, or a
    ///   coordinate is not finite; ``GeometryError/geos(function:message:)`` naming `GEOSSimplify_r`
    ///   if GEOS returns NULL.
    public func simplify(_ geometry: Geometry, tolerance: Double) throws(GeometryError) -> Geometry {
        try operation { () throws(GeometryError) -> Geometry in
            try Self.validateTolerance(tolerance)
            let g = try makeGEOS(geometry)
            // GEOSSimplify_r: NULL on failure.
            let result = OwnedGeometry(
                try nonNull("GEOSSimplify_r") { GEOSSimplify_r(handle, g.pointer, tolerance) }, context: self)
            return try makeGeometry(result.pointer)
        }
    }

    /// Topology-preserving simplification: Douglas–Peucker with the guarantee that rings stay
    /// simple, holes stay inside their shells, and components neither vanish nor cross.
    ///
    /// Wraps `GEOSTopologyPreserveSimplify_r`. `tolerance` is in the geometry's units; the
    /// result's vertices are a subset of the input's. A valid input gives a valid output with the
    /// same number of rings. Slower than ``simplify(_:tolerance:)``: O(n log n) with a spatial index.
    /// - Throws: ``GeometryError/invalidInput(_:)`` when `tolerance` is negative or not finite, or a
    ///   coordinate is not finite; ``GeometryError/geos(function:message:)`` naming
    ///   `GEOSTopologyPreserveSimplify_r` if GEOS returns NULL.
    public func simplifyPreservingTopology(_ geometry: Geometry, tolerance: Double) throws(GeometryError) -> Geometry {
        try operation { () throws(GeometryError) -> Geometry in
            try Self.validateTolerance(tolerance)
            let g = try makeGEOS(geometry)
            // GEOSTopologyPreserveSimplify_r: NULL on failure.
            let result = OwnedGeometry(
                try nonNull("GEOSTopologyPreserveSimplify_r") {
                    GEOSTopologyPreserveSimplify_r(handle, g.pointer, tolerance)
                }, context: self)
            return try makeGeometry(result.pointer)
        }
    }

    static func validateTolerance(_ tolerance: Double) throws(GeometryError) {
        guard tolerance.isFinite, tolerance >= 0 else {
            throw .invalidInput("tolerance must be finite and non-negative, got \(tolerance)")
        }
    }
}
