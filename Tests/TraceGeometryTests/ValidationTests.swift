import Testing
import TraceGeodesy

@testable import TraceGeometry

@Suite("Invalid input is rejected in Swift, before GEOS is called")
struct ValidationTests {
    @Test func rings() throws {
        let three = #expect(throws: GeometryError.self) {
            try Polygon(shell: [pt(0, 0), pt(1, 0), pt(0, 0)])
        }
        #expect(invalidInputReason(three)?.contains("at least 4 points") == true)

        let open = #expect(throws: GeometryError.self) {
            try Polygon(shell: [pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 1)])
        }
        #expect(invalidInputReason(open)?.contains("not closed") == true)

        let badHole = #expect(throws: GeometryError.self) {
            try Polygon(shell: square(0, 0, 10), holes: [[pt(1, 1), pt(2, 1), pt(2, .nan), pt(1, 1)]])
        }
        #expect(invalidInputReason(badHole)?.contains("hole 0") == true)

        let flat = #expect(throws: GeometryError.self) {
            try Polygon(rectangle: Envelope(minX: 0, minY: 0, maxX: 0, maxY: 1))
        }
        #expect(invalidInputReason(flat) != nil)
        #expect(try Polygon(rectangle: Envelope(minX: 0, minY: 0, maxX: 2, maxY: 1)).shell.count == 5)
    }

    @Test func lines() throws {
        let one = #expect(throws: GeometryError.self) { try LineString([pt(0, 0)]) }
        #expect(invalidInputReason(one)?.contains("at least 2 points") == true)
        let infinite = #expect(throws: GeometryError.self) { try LineString([pt(0, 0), pt(.infinity, 0)]) }
        #expect(invalidInputReason(infinite)?.contains("not finite") == true)
    }

    @Test(
        "non-finite coordinates in enum payloads are caught at the GEOS boundary",
        arguments: [
            Geometry.point(pt(.nan, 0)),
            .multiPoint([pt(0, 0), pt(1, -.infinity)]),
            .collection([.point(pt(0, 0)), .point(pt(.nan, .nan))]),
        ])
    func nonFinitePayload(_ g: Geometry) throws {
        let context = try GeometryContext()
        let error = #expect(throws: GeometryError.self) { try context.wkt(of: g) }
        #expect(invalidInputReason(error)?.contains("not finite") == true)
        #expect(!context.hasPendingMessages)
    }

    @Test func operationArguments() throws {
        let context = try GeometryContext()
        let line = Geometry.lineString(try LineString([pt(0, 0), pt(1, 1)]))
        let cases: [(String, () throws -> Void)] = [
            ("negative tolerance", { _ = try context.simplify(line, tolerance: -1) }),
            ("NaN tolerance", { _ = try context.simplifyPreservingTopology(line, tolerance: .nan) }),
            ("zero quadrant segments", { _ = try context.buffer(line, distance: 1, quadrantSegments: 0) }),
            ("infinite buffer distance", { _ = try context.buffer(line, distance: .infinity) }),
            ("18 decimals", { _ = try context.wkt(of: line, decimals: 18) }),
            ("NaN distance point", { _ = try context.distance(from: pt(.nan, 0), to: LineString([pt(0, 0), pt(1, 1)])) }),
        ]
        for (name, call) in cases {
            let error = #expect(throws: GeometryError.self, "\(name)") { try call() }
            #expect(invalidInputReason(error) != nil, "\(name): \(String(describing: error))")
        }
    }

    @Test func geographicArguments() throws {
        let context = try GeometryContext()
        let a = try Coordinate(latitude: 47, longitude: 8)
        let b = try Coordinate(latitude: 47.001, longitude: 8)
        // 23° of latitude: the box centre (58.5° N) is about 1,280 km from both ends.
        let far = try Coordinate(latitude: 70, longitude: 8)
        for radius in [0.0, -5, .nan, 2_000_000] {
            let error = #expect(throws: GeometryError.self) { try context.pickupZone(around: a, radiusMetres: radius) }
            #expect(invalidInputReason(error) != nil, "radius \(radius)")
        }
        let negative = #expect(throws: GeometryError.self) { try context.simplifyTrack([a, b, a], toleranceMetres: -1) }
        #expect(invalidInputReason(negative) != nil)
        let wide = #expect(throws: GeometryError.self) { try context.simplifyTrack([a, b, far], toleranceMetres: 1) }
        #expect(invalidInputReason(wide)?.contains("limit") == true)
    }
}
