import Testing

@testable import TraceGeometry

@Suite("Simplification")
struct SimplifyTests {
    @Test("Douglas–Peucker removes collinear and near-collinear vertices, keeps corners")
    func douglasPeucker() throws {
        let context = try GeometryContext()
        let line = try LineString([
            pt(0, 0), pt(1, 0.001), pt(2, 0), pt(3, -0.001), pt(4, 0),  // within 0.01 of y = 0
            pt(4, 5), pt(4.001, 6), pt(4, 10),  // within 0.01 of x = 4
        ])
        let simplified = try context.simplify(.lineString(line), tolerance: 0.01)
        #expect(simplified == .lineString(try LineString([pt(0, 0), pt(4, 0), pt(4, 10)])))
        // Below the wiggles' size only (2, 0) goes: it lies exactly on the chord from (1, 0.001)
        // to (3, -0.001). (4, 5) stays: it is 0.001·5/6 ≈ 0.00083 from the chord (4, 0)–(4.001, 6).
        let fine = try context.simplify(.lineString(line), tolerance: 0.0005)
        #expect(fine == .lineString(try LineString(line.points.filter { $0 != pt(2, 0) })))
        // Tolerance 0 removes exactly collinear vertices only.
        let collinear = try LineString([pt(0, 0), pt(1, 1), pt(2, 2), pt(3, 3), pt(3, 4)])
        #expect(
            try context.simplify(.lineString(collinear), tolerance: 0)
                == .lineString(try LineString([pt(0, 0), pt(3, 3), pt(3, 4)])))
    }

    @Test("topology-preserving simplification keeps a small hole that Douglas–Peucker drops")
    func topologyPreservingKeepsRing() throws {
        let context = try GeometryContext()
        let hole = [pt(1, 1), pt(1.5, 1), pt(1.5, 1.5), pt(1, 1.5), pt(1, 1)]
        let polygon = Geometry.polygon(try Polygon(shell: square(0, 0, 10), holes: [hole]))
        #expect(try context.isValid(polygon))

        let dp = try context.simplify(polygon, tolerance: 2)
        guard case .polygon(let dpPolygon) = dp else { Issue.record("DP gave \(dp.kind)"); return }
        #expect(dpPolygon.holes.isEmpty, "the hole collapses under Douglas–Peucker")

        let tp = try context.simplifyPreservingTopology(polygon, tolerance: 2)
        guard case .polygon(let tpPolygon) = tp else { Issue.record("TPS gave \(tp.kind)"); return }
        #expect(tpPolygon.holes.count == 1)
        #expect(try context.isValid(tp))
        #expect(try context.area(of: tp) == 100 - 0.25)
    }

    @Test("topology-preserving simplification does not make lines cross")
    func topologyPreservingAvoidsCrossing() throws {
        let context = try GeometryContext()
        // A tent over a short vertical post: flattening the tent would cut through the post.
        let lines = Geometry.multiLineString([
            try LineString([pt(0, 0), pt(5, 3), pt(10, 0)]),
            try LineString([pt(5, -1), pt(5, 1)]),
        ])
        let post = Geometry.lineString(try LineString([pt(5, -1), pt(5, 1)]))
        let tent = Geometry.lineString(try LineString([pt(0, 0), pt(5, 3), pt(10, 0)]))
        // The post's top (5, 1) is 10/√34 ≈ 1.715 below the tent's left slope 3x − 5y = 0.
        #expect(abs(try context.distance(between: tent, and: post) - 10 / 34.0.squareRoot()) < 1e-15)

        let dp = try context.simplify(lines, tolerance: 4)
        guard case .multiLineString(let dpLines) = dp else { Issue.record("DP gave \(dp.kind)"); return }
        #expect(dpLines[0].points == [pt(0, 0), pt(10, 0)])
        #expect(try context.distance(between: .lineString(dpLines[0]), and: post) == 0, "DP makes them cross")

        let tp = try context.simplifyPreservingTopology(lines, tolerance: 4)
        #expect(tp == lines, "TPS must keep the apex, and there is nothing else to remove")
    }

    @Test("simplification of an empty result is represented as .empty")
    func collapseToEmpty() throws {
        let context = try GeometryContext()
        let tiny = Geometry.polygon(try Polygon(shell: square(0, 0, 1)))
        #expect(try context.simplify(tiny, tolerance: 10) == .empty(.polygon))
    }
}
