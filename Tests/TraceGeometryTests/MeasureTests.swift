import Testing

@testable import TraceGeometry

@Suite("Envelope, distance, area")
struct MeasureTests {
    @Test func envelopes() throws {
        let context = try GeometryContext()
        let polygon = Geometry.polygon(try Polygon(shell: [pt(1, -2), pt(7, 0), pt(3, 5), pt(-1, 1), pt(1, -2)]))
        #expect(try context.envelope(of: polygon) == Envelope(minX: -1, minY: -2, maxX: 7, maxY: 5))
        let line = Geometry.lineString(try LineString([pt(10, 10), pt(-3, 4.5)]))
        let e = try context.envelope(of: line)
        #expect(e == Envelope(minX: -3, minY: 4.5, maxX: 10, maxY: 10))
        #expect(e.width == 13 && e.height == 5.5)
        #expect(e.contains(pt(0, 5)) && !e.contains(pt(0, 4)))
        #expect(try context.envelope(of: .point(pt(2, 3))) == Envelope(minX: 2, minY: 3, maxX: 2, maxY: 3))
        #expect(
            try context.envelope(of: .collection([.point(pt(0, 0)), .multiPoint([pt(-5, 8)])]))
                == Envelope(minX: -5, minY: 0, maxX: 0, maxY: 8))
    }

    @Test(
        "envelope and distance of empty geometries throw emptyGeometry",
        arguments: [Geometry.empty(.point), .empty(.polygon), .multiPoint([]), .collection([.empty(.lineString)])])
    func emptyGeometry(_ empty: Geometry) throws {
        let context = try GeometryContext()
        #expect(throws: GeometryError.emptyGeometry) { try context.envelope(of: empty) }
        #expect(throws: GeometryError.emptyGeometry) { try context.distance(between: empty, and: .point(pt(0, 0))) }
    }

    @Test(
        "point-to-line distance matches hand-computed values",
        arguments: [
            // (point, line vertices, expected distance)
            (pt(3, 4), [pt(0, 0), pt(10, 0)], 4.0),  // perpendicular foot inside the segment
            (pt(-3, 4), [pt(0, 0), pt(10, 0)], 5.0),  // beyond the start: 3-4-5 to the endpoint
            (pt(13, -4), [pt(0, 0), pt(10, 0)], 5.0),  // beyond the end
            (pt(0, 2), [pt(0, 0), pt(2, 2)], 2.0.squareRoot()),  // to the diagonal y = x: 2/√2
            (pt(12, 5), [pt(0, 0), pt(10, 0), pt(10, 10)], 2.0),  // nearest to the second segment
            (pt(5, 0), [pt(0, 0), pt(10, 0)], 0.0),  // on the line
        ])
    func pointToLine(_ p: Point2D, _ vertices: [Point2D], _ expected: Double) throws {
        let context = try GeometryContext()
        let d = try context.distance(from: p, to: LineString(vertices))
        #expect(abs(d - expected) <= 1e-15 * max(1, expected))
    }

    @Test func distanceBetweenGeometries() throws {
        let context = try GeometryContext()
        let a = Geometry.polygon(try Polygon(shell: square(0, 0, 1)))
        let b = Geometry.polygon(try Polygon(shell: square(4, 5, 1)))  // nearest corners (1,1), (4,5)
        #expect(try context.distance(between: a, and: b) == 5)
        #expect(try context.distance(between: a, and: .point(pt(0.5, 0.5))) == 0)
    }

    @Test func areaSubtractsHoles() throws {
        let context = try GeometryContext()
        let withHole = Geometry.polygon(try Polygon(shell: square(0, 0, 10), holes: [square(2, 2, 3)]))
        #expect(try context.area(of: withHole) == 91)
        #expect(try context.area(of: .lineString(LineString([pt(0, 0), pt(1, 1)]))) == 0)
    }
}
