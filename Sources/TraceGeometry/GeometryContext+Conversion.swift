import CGeos

// Conversions between the Swift geometry values and GEOS geometries. Internal: no C type leaves
// the module. Swift → GEOS validates before calling GEOS; GEOS → Swift copies the coordinates out
// and leaves the GEOS geometry to its owner.

extension GeometryContext {
    // MARK: Swift → GEOS

    /// A new GEOS geometry equal to `geometry`, owned by the returned box.
    ///
    /// Validates every coordinate (finite) first; LineString and Polygon values are valid by
    /// construction. O(vertices).
    func makeGEOS(_ geometry: Geometry) throws(GeometryError) -> OwnedGeometry {
        switch geometry {
        case .point(let p):
            return try makePoint(p)
        case .lineString(let line):
            let seq = try makeCoordSeq(line.points)
            // GEOSGeom_createLineString_r takes ownership of the sequence, also when it fails
            // (the sequence is freed with the half-built geometry), so it is not freed here.
            return try own(nonNull("GEOSGeom_createLineString_r") { GEOSGeom_createLineString_r(handle, seq) })
        case .polygon(let polygon):
            return try makePolygon(polygon)
        case .multiPoint(let points):
            return try makeCollection(GEOS_MULTIPOINT, points.map { (p) throws(GeometryError) in try makePoint(p) })
        case .multiLineString(let lines):
            return try makeCollection(GEOS_MULTILINESTRING, lines.map { (l) throws(GeometryError) in try makeGEOS(.lineString(l)) })
        case .multiPolygon(let polygons):
            return try makeCollection(GEOS_MULTIPOLYGON, polygons.map { (p) throws(GeometryError) in try makePolygon(p) })
        case .collection(let members):
            return try makeCollection(GEOS_GEOMETRYCOLLECTION, members.map { (g) throws(GeometryError) in try makeGEOS(g) })
        case .empty(let kind):
            return try makeEmpty(kind)
        }
    }

    private func own(_ pointer: OpaquePointer) -> OwnedGeometry { OwnedGeometry(pointer, context: self) }

    /// A GEOS point at `p` (`GEOSGeom_createPointFromXY_r`, NULL on failure).
    func makePoint(_ p: Point2D) throws(GeometryError) -> OwnedGeometry {
        try p.validateFinite("point")
        return try own(nonNull("GEOSGeom_createPointFromXY_r") { GEOSGeom_createPointFromXY_r(handle, p.x, p.y) })
    }

    /// A new 2-D coordinate sequence holding `points`; the caller owns it (free with
    /// `GEOSCoordSeq_destroy_r`, or hand it to a geometry constructor).
    func makeCoordSeq(_ points: [Point2D]) throws(GeometryError) -> OpaquePointer {
        guard let count = UInt32(exactly: points.count) else {
            throw .invalidInput("\(points.count) points exceed GEOS's coordinate sequence size limit")
        }
        for (i, p) in points.enumerated() { try p.validateFinite("point \(i)") }
        // GEOSCoordSeq_create_r: NULL on failure.
        let seq = try nonNull("GEOSCoordSeq_create_r") { GEOSCoordSeq_create_r(handle, count, 2) }
        for (i, p) in points.enumerated() {
            do throws(GeometryError) {
                // GEOSCoordSeq_setXY_r: 0 on failure (index out of range cannot happen here).
                try status("GEOSCoordSeq_setXY_r") { GEOSCoordSeq_setXY_r(handle, seq, UInt32(i), p.x, p.y) }
            } catch {
                GEOSCoordSeq_destroy_r(handle, seq)
                throw error
            }
        }
        return seq
    }

    /// A GEOS linear ring from a validated closed ring.
    private func makeRing(_ ring: [Point2D]) throws(GeometryError) -> OwnedGeometry {
        let seq = try makeCoordSeq(ring)
        // Takes ownership of `seq`, also on failure (NULL).
        return try own(nonNull("GEOSGeom_createLinearRing_r") { GEOSGeom_createLinearRing_r(handle, seq) })
    }

    /// A GEOS polygon from a validated polygon.
    func makePolygon(_ polygon: Polygon) throws(GeometryError) -> OwnedGeometry {
        let shell = try makeRing(polygon.shell)
        var holes: [OwnedGeometry] = []
        holes.reserveCapacity(polygon.holes.count)
        for hole in polygon.holes { holes.append(try makeRing(hole)) }  // on throw, boxes free the rings
        // GEOSGeom_createPolygon_r takes ownership of the shell and of every hole (not of the
        // array), and frees them itself if it fails, so ownership is released before the call.
        var holePointers: [OpaquePointer?] = holes.map { $0.release() }
        let shellPointer = shell.release()
        let count = UInt32(holePointers.count)
        return try own(
            nonNull("GEOSGeom_createPolygon_r") {
                holePointers.withUnsafeMutableBufferPointer { buffer in
                    GEOSGeom_createPolygon_r(handle, shellPointer, buffer.baseAddress, count)
                }
            })
    }

    /// A GEOS collection of `type` from member geometries (ownership passes to GEOS).
    private func makeCollection(_ type: GEOSGeomTypes, _ members: [OwnedGeometry]) throws(GeometryError) -> OwnedGeometry {
        guard let count = UInt32(exactly: members.count) else {
            throw .invalidInput("\(members.count) members exceed GEOS's collection size limit")
        }
        // GEOSGeom_createCollection_r takes ownership of the members (not of the array), freeing
        // them itself on failure; NULL is the failure sentinel.
        var pointers: [OpaquePointer?] = members.map { $0.release() }
        return try own(
            nonNull("GEOSGeom_createCollection_r") {
                pointers.withUnsafeMutableBufferPointer { buffer in
                    GEOSGeom_createCollection_r(handle, Int32(type.rawValue), buffer.baseAddress, count)
                }
            })
    }

    /// An empty GEOS geometry of `kind` (the `GEOSGeom_createEmpty*_r` constructors, NULL on failure).
    private func makeEmpty(_ kind: GeometryKind) throws(GeometryError) -> OwnedGeometry {
        switch kind {
        case .point:
            return try own(nonNull("GEOSGeom_createEmptyPoint_r") { GEOSGeom_createEmptyPoint_r(handle) })
        case .lineString:
            return try own(nonNull("GEOSGeom_createEmptyLineString_r") { GEOSGeom_createEmptyLineString_r(handle) })
        case .polygon:
            return try own(nonNull("GEOSGeom_createEmptyPolygon_r") { GEOSGeom_createEmptyPolygon_r(handle) })
        case .multiPoint, .multiLineString, .multiPolygon, .geometryCollection:
            let type: GEOSGeomTypes =
                switch kind {
                case .multiPoint: GEOS_MULTIPOINT
                case .multiLineString: GEOS_MULTILINESTRING
                case .multiPolygon: GEOS_MULTIPOLYGON
                default: GEOS_GEOMETRYCOLLECTION
                }
            return try own(
                nonNull("GEOSGeom_createEmptyCollection_r") {
                    GEOSGeom_createEmptyCollection_r(handle, Int32(type.rawValue))
                })
        }
    }

    // MARK: GEOS → Swift

    /// Copies a GEOS geometry into a Swift value (the GEOS geometry is not consumed).
    ///
    /// Empty geometries become ``Geometry/empty(_:)`` and empty members of multi-geometries are
    /// dropped. O(vertices).
    /// - Throws: ``GeometryError/geos(function:message:)`` when an accessor fails or the type is
    ///   unknown; ``GeometryError/invalidInput(_:)`` when GEOS holds a non-finite coordinate.
    func makeGeometry(_ g: OpaquePointer) throws(GeometryError) -> Geometry {
        // GEOSGeomTypeId_r: -1 on failure.
        let typeId = try status("GEOSGeomTypeId_r", failsWith: -1) { GEOSGeomTypeId_r(handle, g) }
        // GEOSisEmpty_r: 2 on failure.
        let isEmpty = try predicate("GEOSisEmpty_r") { GEOSisEmpty_r(handle, g) }
        guard let type = UInt32(exactly: typeId) else {
            throw .geos(function: "GEOSGeomTypeId_r", message: "unknown geometry type id \(typeId)")
        }
        switch GEOSGeomTypes(rawValue: type) {
        case GEOS_POINT:
            if isEmpty { return .empty(.point) }
            let points = try readPoints(of: g)
            guard points.count == 1 else {
                throw .geos(function: "GEOSGeom_getCoordSeq_r", message: "a point has \(points.count) coordinates")
            }
            return .point(points[0])
        case GEOS_LINESTRING, GEOS_LINEARRING:
            if isEmpty { return .empty(.lineString) }
            return .lineString(try LineString(readPoints(of: g)))
        case GEOS_POLYGON:
            if isEmpty { return .empty(.polygon) }
            return .polygon(try readPolygon(g))
        case GEOS_MULTIPOINT:
            if isEmpty { return .empty(.multiPoint) }
            var points: [Point2D] = []
            for case .point(let p) in try readMembers(of: g) { points.append(p) }
            return .multiPoint(points)
        case GEOS_MULTILINESTRING:
            if isEmpty { return .empty(.multiLineString) }
            var lines: [LineString] = []
            for case .lineString(let l) in try readMembers(of: g) { lines.append(l) }
            return .multiLineString(lines)
        case GEOS_MULTIPOLYGON:
            if isEmpty { return .empty(.multiPolygon) }
            var polygons: [Polygon] = []
            for case .polygon(let p) in try readMembers(of: g) { polygons.append(p) }
            return .multiPolygon(polygons)
        case GEOS_GEOMETRYCOLLECTION:
            if isEmpty { return .empty(.geometryCollection) }
            return .collection(try readMembers(of: g))
        default:
            throw .geos(function: "GEOSGeomTypeId_r", message: "unsupported geometry type id \(typeId)")
        }
    }

    /// The members of a GEOS collection, converted (empty members included, as `.empty`).
    private func readMembers(of g: OpaquePointer) throws(GeometryError) -> [Geometry] {
        // GEOSGetNumGeometries_r: -1 on failure.
        let n = try status("GEOSGetNumGeometries_r", failsWith: -1) { GEOSGetNumGeometries_r(handle, g) }
        var members: [Geometry] = []
        members.reserveCapacity(Int(n))
        for i in 0..<n {
            // GEOSGetGeometryN_r: NULL on failure; the member is owned by `g`.
            let member = try nonNull("GEOSGetGeometryN_r") { GEOSGetGeometryN_r(handle, g, i) }
            members.append(try makeGeometry(member))
        }
        return members
    }

    /// A non-empty GEOS polygon's rings; empty holes are skipped.
    private func readPolygon(_ g: OpaquePointer) throws(GeometryError) -> Polygon {
        // GEOSGetExteriorRing_r: NULL on failure; the ring is owned by `g`.
        let shellRing = try nonNull("GEOSGetExteriorRing_r") { GEOSGetExteriorRing_r(handle, g) }
        let shell = try readPoints(of: shellRing)
        // GEOSGetNumInteriorRings_r: -1 on failure.
        let n = try status("GEOSGetNumInteriorRings_r", failsWith: -1) { GEOSGetNumInteriorRings_r(handle, g) }
        var holes: [[Point2D]] = []
        for i in 0..<n {
            // GEOSGetInteriorRingN_r: NULL on failure; owned by `g`.
            let ring = try nonNull("GEOSGetInteriorRingN_r") { GEOSGetInteriorRingN_r(handle, g, i) }
            let hole = try readPoints(of: ring)
            if !hole.isEmpty { holes.append(hole) }
        }
        return try Polygon(shell: shell, holes: holes)
    }

    /// The x/y coordinates of a point, line string or linear ring.
    private func readPoints(of g: OpaquePointer) throws(GeometryError) -> [Point2D] {
        // GEOSGeom_getCoordSeq_r: NULL on failure; the sequence is owned by `g`.
        let seq = try nonNull("GEOSGeom_getCoordSeq_r") { GEOSGeom_getCoordSeq_r(handle, g) }
        return try readPoints(ofSequence: seq)
    }

    /// The x/y coordinates of a coordinate sequence.
    func readPoints(ofSequence seq: OpaquePointer) throws(GeometryError) -> [Point2D] {
        var size: UInt32 = 0
        // GEOSCoordSeq_getSize_r: 0 on failure.
        try status("GEOSCoordSeq_getSize_r") { GEOSCoordSeq_getSize_r(handle, seq, &size) }
        var points: [Point2D] = []
        points.reserveCapacity(Int(size))
        for i in 0..<size {
            var x = 0.0, y = 0.0
            // GEOSCoordSeq_getXY_r: 0 on failure.
            try status("GEOSCoordSeq_getXY_r") { GEOSCoordSeq_getXY_r(handle, seq, i, &x, &y) }
            let p = Point2D(x: x, y: y)
            try p.validateFinite("coordinate \(i) from GEOS")
            points.append(p)
        }
        return points
    }
}
