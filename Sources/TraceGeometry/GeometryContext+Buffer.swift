import CGeos

extension GeometryContext {
    /// The valid range of `quadrantSegments` for ``buffer(_:distance:quadrantSegments:)``.
    public static let quadrantSegmentsRange: ClosedRange<Int> = 1...1_000

    /// The region within `distance` of a geometry, as a polygon (or multipolygon).
    ///
    /// Wraps `GEOSBuffer_r` with round caps and joins. `distance` is in the geometry's units; a
    /// negative distance shrinks polygons (and gives an empty polygon for points and lines).
    /// Circular arcs are approximated by `quadrantSegments` chords per quarter circle, with
    /// vertices on the true arc: a point's buffer is a regular 4q-gon inscribed in the circle, of
    /// area 2q·r²·sin(π/2q) (2.6 ‰ below πr² for q = 8). O(n log n).
    /// - Throws: ``GeometryError/invalidInput(_:)`` when `distance` is not finite,
    ///   `quadrantSegments` is outside ``quadrantSegmentsRange``, or a coordinate is not finite;
    ///   ``GeometryError/geos(function:message:)`` naming `GEOSBuffer_r` if GEOS returns NULL.
    public func buffer(_ geometry: Geometry, distance: Double, quadrantSegments: Int = 8) throws(GeometryError) -> Geometry {
        try operation { () throws(GeometryError) -> Geometry in
            guard distance.isFinite else { throw .invalidInput("buffer distance \(distance) is not finite") }
            guard Self.quadrantSegmentsRange.contains(quadrantSegments) else {
                throw .invalidInput("quadrantSegments must be in \(Self.quadrantSegmentsRange), got \(quadrantSegments)")
            }
            let g = try makeGEOS(geometry)
            // GEOSBuffer_r: NULL on failure.
            let result = OwnedGeometry(
                try nonNull("GEOSBuffer_r") { GEOSBuffer_r(handle, g.pointer, distance, Int32(quadrantSegments)) },
                context: self)
            return try makeGeometry(result.pointer)
        }
    }
}
