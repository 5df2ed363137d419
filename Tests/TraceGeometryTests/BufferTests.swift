import Testing

@testable import TraceGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Buffer")
struct BufferTests {
    @Test(
        "a point's buffer is the inscribed regular 4q-gon: area ≈ πr² within the chord error",
        arguments: [(1.0, 1), (10.0, 2), (10.0, 8), (250.0, 8), (3.5, 32)])
    func pointBufferArea(radius r: Double, quadrantSegments q: Int) throws {
        let context = try GeometryContext()
        let centre = pt(3, -4)
        let buffer = try context.buffer(.point(centre), distance: r, quadrantSegments: q)
        guard case .polygon(let polygon) = buffer else { Issue.record("got \(buffer.kind)"); return }
        #expect(polygon.holes.isEmpty)
        #expect(polygon.shell.count == 4 * q + 1)
        for v in polygon.shell {
            #expect(abs(hypot(v.x - centre.x, v.y - centre.y) - r) <= 1e-12 * r * 10)
        }
        let n = Double(4 * q)
        let inscribed = n / 2 * r * r * sin(2 * .pi / n)
        let area = try context.area(of: buffer)
        #expect(abs(area - inscribed) <= 1e-12 * inscribed * 10)
        #expect(abs(shoelaceArea(polygon.shell) - area) <= 1e-9 * area)
        // Against the circle: below πr² by the polygonal approximation error, no more.
        let circle = Double.pi * r * r
        let approximationError = 1 - sin(2 * .pi / n) / (2 * .pi / n)
        #expect(area < circle)
        #expect((circle - area) / circle <= approximationError * (1 + 1e-9))
    }

    @Test("default quadrant segments is 8")
    func defaultQuadrantSegments() throws {
        let context = try GeometryContext()
        let buffer = try context.buffer(.point(pt(0, 0)), distance: 1)
        #expect(buffer.vertexCount == 33)
    }

    @Test("buffer of a square grows by the distance, with rounded corners")
    func squareBuffer() throws {
        let context = try GeometryContext()
        let buffered = try context.buffer(.polygon(Polygon(shell: square(0, 0, 10))), distance: 1, quadrantSegments: 8)
        let expected = 100 + 4 * 10 + 16.0 / 2 * sin(2 * .pi / 32) * 2  // sides + inscribed 32-gon of r = 1
        #expect(abs(try context.area(of: buffered) - expected) < 1e-9)
        #expect(try context.envelope(of: buffered) == Envelope(minX: -1, minY: -1, maxX: 11, maxY: 11))
    }

    @Test("a negative buffer erodes a polygon and empties a line")
    func negativeBuffer() throws {
        let context = try GeometryContext()
        let eroded = try context.buffer(.polygon(Polygon(shell: square(0, 0, 10))), distance: -2)
        #expect(try context.area(of: eroded) == 36)
        let line = Geometry.lineString(try LineString([pt(0, 0), pt(10, 0)]))
        #expect(try context.buffer(line, distance: -1) == .empty(.polygon))
    }
}
