import CGeos

extension GeometryContext {
    /// Parses Well-Known Text into a ``Geometry``.
    ///
    /// Wraps `GEOSWKTReader_read_r` (with a reader from `GEOSWKTReader_create_r`, destroyed with
    /// `GEOSWKTReader_destroy_r` before returning). Accepts every OGC geometry type; Z/M ordinates
    /// are dropped, linear rings become line strings, and empties are normalised as described on
    /// ``Geometry``. GEOS 3.11 ignores text after a complete geometry (`POINT (1 2) x` parses).
    /// O(length of the text).
    /// - Throws: ``GeometryError/invalidWKT(message:)`` with GEOS's message when the text does
    ///   not parse or describes an impossible geometry (an unclosed ring, a one-point line), or
    ///   contains a NUL character; ``GeometryError/invalidInput(_:)`` for a non-finite coordinate;
    ///   ``GeometryError/geos(function:message:)`` if the reader cannot be created.
    public func geometry(fromWKT wkt: String) throws(GeometryError) -> Geometry {
        try operation { () throws(GeometryError) -> Geometry in
            guard !wkt.utf8.contains(0) else {
                throw .invalidWKT(message: "the text contains a NUL character")
            }
            // GEOSWKTReader_create_r: NULL on failure.
            let reader = try nonNull("GEOSWKTReader_create_r") { GEOSWKTReader_create_r(handle) }
            defer { GEOSWKTReader_destroy_r(handle, reader) }
            let parsed: OpaquePointer
            do throws(GeometryError) {
                // GEOSWKTReader_read_r: NULL when the text is rejected; GEOS's message says why.
                parsed = try nonNull("GEOSWKTReader_read_r") {
                    wkt.withCString { GEOSWKTReader_read_r(handle, reader, $0) }
                }
            } catch {
                guard case .geos(_, let message) = error else { throw error }
                throw .invalidWKT(message: message)
            }
            let owned = OwnedGeometry(parsed, context: self)
            return try makeGeometry(owned.pointer)
        }
    }

    /// Writes a geometry as Well-Known Text, 2-D, without trailing zeros (`POINT (1 2)`).
    ///
    /// Wraps `GEOSWKTWriter_write_r` (writer from `GEOSWKTWriter_create_r` with trim on, output
    /// dimension 2, destroyed with `GEOSWKTWriter_destroy_r`; the returned text is copied and
    /// freed with `GEOSFree_r`). GEOS 3.11 writes fixed-point notation (`0.0000001`, never
    /// `1e-07`). O(vertices).
    /// - Parameter decimals: digits after the decimal point (0...17), or nil for GEOS's default,
    ///   the shortest text that reads back to the same `Double` — exact for every magnitude
    ///   from about 1e-15 up; smaller magnitudes (1e-20) are written as 0.
    /// - Throws: ``GeometryError/invalidInput(_:)`` for a non-finite coordinate or `decimals`
    ///   outside 0...17; ``GeometryError/geos(function:message:)`` if GEOS fails.
    public func wkt(of geometry: Geometry, decimals: Int? = nil) throws(GeometryError) -> String {
        try operation { () throws(GeometryError) -> String in
            if let decimals, !(0...17).contains(decimals) {
                throw .invalidInput("decimals must be in 0...17, got \(decimals)")
            }
            let g = try makeGEOS(geometry)
            // GEOSWKTWriter_create_r: NULL on failure.
            let writer = try nonNull("GEOSWKTWriter_create_r") { GEOSWKTWriter_create_r(handle) }
            defer { GEOSWKTWriter_destroy_r(handle, writer) }
            // The setters return nothing (no failure sentinel).
            GEOSWKTWriter_setTrim_r(handle, writer, 1)
            GEOSWKTWriter_setOutputDimension_r(handle, writer, 2)
            GEOSWKTWriter_setRoundingPrecision_r(handle, writer, Int32(decimals ?? -1))
            // GEOSWKTWriter_write_r: NULL on failure; the text is freed with GEOSFree_r.
            return try ownedString("GEOSWKTWriter_write_r") { GEOSWKTWriter_write_r(handle, writer, g.pointer) }
        }
    }
}
