import Testing

@testable import TraceGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Prepared point-in-polygon")
struct PreparedPolygonTests {
    /// Square [0, 10]² with a hole [4, 6]².
    static func squareWithHole() throws -> Polygon {
        try Polygon(shell: square(0, 0, 10), holes: [square(4, 4, 2)])
    }

    @Test(
        "contains is interior only; covers includes the boundary",
        arguments: [
            // (point, contains, covers)
            (pt(1, 1), true, true),  // inside
            (pt(9.5, 5), true, true),  // inside, near the shell
            (pt(20, 20), false, false),  // outside
            (pt(-0.001, 5), false, false),  // just outside
            (pt(5, 5), false, false),  // in the hole
            (pt(0, 5), false, true),  // on the shell
            (pt(10, 10), false, true),  // on a shell corner
            (pt(4, 5), false, true),  // on the hole's boundary
        ])
    func pointInPolygon(_ p: Point2D, _ contains: Bool, _ covers: Bool) throws {
        let context = try GeometryContext()
        let prepared = try context.prepare(Self.squareWithHole())
        #expect(try prepared.contains(p) == contains)
        #expect(try prepared.covers(p) == covers)
        #expect(!context.hasPendingMessages)
    }

    @Test("agrees with an independent even–odd test on a non-convex polygon")
    func agreesWithRayCasting() throws {
        let context = try GeometryContext()
        // A 7-pointed star (non-convex), radii 10 and 4, centred at the origin.
        var ring: [Point2D] = []
        for k in 0..<14 {
            let angle = Double(k) * .pi / 7 + 0.1
            let r = k.isMultiple(of: 2) ? 10.0 : 4.0
            ring.append(pt(r * cos(angle), r * sin(angle)))
        }
        ring.append(ring[0])
        let prepared = try context.prepare(Polygon(shell: ring))
        var inside = 0, outside = 0
        for i in -24...24 {
            for j in -24...24 {
                // Offsets of 1/3 keep the grid off the star's edges.
                let p = pt(Double(i) * 0.5 + 1.0 / 3, Double(j) * 0.5 + 1.0 / 3)
                let expected = evenOdd(p, ring)
                #expect(try prepared.contains(p) == expected, "at \(p)")
                if expected { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 100 && outside > 100)  // the comparison covered both answers
    }

    @Test func multiPolygon() throws {
        let context = try GeometryContext()
        let prepared = try context.prepare(multiPolygon: [Polygon(shell: square(0, 0, 1)), Polygon(shell: square(5, 5, 1))])
        #expect(try prepared.contains(pt(0.5, 0.5)))
        #expect(try prepared.contains(pt(5.5, 5.5)))
        #expect(try !prepared.contains(pt(3, 3)))
        #expect(prepared.polygons.count == 2)
        #expect(throws: GeometryError.emptyGeometry) { try context.prepare(multiPolygon: []) }
    }

    @Test func nonFinitePointIsRejected() throws {
        let context = try GeometryContext()
        let prepared = try context.prepare(Self.squareWithHole())
        let error = #expect(throws: GeometryError.self) { try prepared.contains(pt(.nan, 1)) }
        #expect(invalidInputReason(error)?.contains("not finite") == true)
    }

    /// Crossing-number test, independent of GEOS.
    private func evenOdd(_ p: Point2D, _ ring: [Point2D]) -> Bool {
        var inside = false
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x { inside.toggle() }
            }
        }
        return inside
    }
}
