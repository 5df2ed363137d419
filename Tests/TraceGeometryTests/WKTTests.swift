import Testing

@testable import TraceGeometry

@Suite("WKT reading and writing")
struct WKTTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let wkt: String
        let geometry: Geometry
        var testDescription: String { wkt }
    }

    static let cases: [Case] = {
        do {
            return [
                Case(wkt: "POINT (1 2)", geometry: .point(pt(1, 2))),
                Case(wkt: "POINT (-122.4194155 37.7749295)", geometry: .point(pt(-122.4194155, 37.7749295))),
                Case(
                    wkt: "LINESTRING (0 0, 1 1, 2 0.5)",
                    geometry: .lineString(try LineString([pt(0, 0), pt(1, 1), pt(2, 0.5)]))),
                Case(
                    wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 3, 3 3, 2 2))",
                    geometry: .polygon(try Polygon(shell: square(0, 0, 10), holes: [[pt(2, 2), pt(2, 3), pt(3, 3), pt(2, 2)]]))),
                Case(wkt: "MULTIPOINT (0 0, 1 1)", geometry: .multiPoint([pt(0, 0), pt(1, 1)])),
                Case(
                    wkt: "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))",
                    geometry: .multiLineString([try LineString([pt(0, 0), pt(1, 1)]), try LineString([pt(2, 2), pt(3, 3)])])),
                Case(
                    wkt: "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((5 5, 6 5, 6 6, 5 6, 5 5)))",
                    geometry: .multiPolygon([try Polygon(shell: square(0, 0, 1)), try Polygon(shell: square(5, 5, 1))])),
                Case(
                    wkt: "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))",
                    geometry: .collection([.point(pt(1, 2)), .lineString(try LineString([pt(0, 0), pt(1, 1)]))])),
                Case(wkt: "POINT EMPTY", geometry: .empty(.point)),
                Case(wkt: "LINESTRING EMPTY", geometry: .empty(.lineString)),
                Case(wkt: "POLYGON EMPTY", geometry: .empty(.polygon)),
                Case(wkt: "MULTIPOLYGON EMPTY", geometry: .empty(.multiPolygon)),
                Case(wkt: "GEOMETRYCOLLECTION EMPTY", geometry: .empty(.geometryCollection)),
            ]
        } catch {
            fatalError("bad fixture: \(error)")
        }
    }()

    @Test("read gives the expected value, write gives the same text", arguments: cases)
    func roundTrip(_ c: Case) throws {
        let context = try GeometryContext()
        let read = try context.geometry(fromWKT: c.wkt)
        #expect(read == c.geometry)
        #expect(try context.wkt(of: c.geometry) == c.wkt)
        #expect(try context.geometry(fromWKT: context.wkt(of: read)) == read)
        #expect(!context.hasPendingMessages)
    }

    @Test(
        "full-precision coordinates survive a text round trip exactly",
        arguments: [1.0 / 3, 123456.789012345, 8.123456789012345, 47.123456789123456, -122.41941550000001, 1e-7])
    func precision(_ value: Double) throws {
        let context = try GeometryContext()
        let g = Geometry.point(pt(value, -value))
        #expect(try context.geometry(fromWKT: context.wkt(of: g)) == g)
    }

    @Test func roundingToDecimals() throws {
        let context = try GeometryContext()
        #expect(try context.wkt(of: .point(pt(1.0 / 3, 2)), decimals: 3) == "POINT (0.333 2)")
        #expect(try context.wkt(of: .point(pt(2.71828, -1)), decimals: 0) == "POINT (3 -1)")
    }

    @Test("normalisation: Z dropped, linear ring read as line string, empty members dropped")
    func normalisation() throws {
        let context = try GeometryContext()
        #expect(try context.geometry(fromWKT: "POINT Z (1 2 3)") == .point(pt(1, 2)))
        #expect(
            try context.geometry(fromWKT: "LINEARRING (0 0, 1 0, 1 1, 0 0)")
                == .lineString(try LineString([pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 0)])))
        #expect(try context.geometry(fromWKT: "MULTIPOINT (EMPTY, (1 2))") == .multiPoint([pt(1, 2)]))
        // Writing accepts an empty multi-geometry spelled as an empty array.
        #expect(try context.wkt(of: .multiPoint([])) == "MULTIPOINT EMPTY")
    }

    @Test(
        "invalid WKT throws invalidWKT carrying GEOS's message",
        arguments: [
            ("POLYGON ((0 0, 1 0, 1 1))", "closed"),
            ("POINT (1", "end of stream"),
            ("FOO (1 2)", "FOO"),
            ("LINESTRING (0 0)", "0 or >1"),
            ("", "end of stream"),
        ])
    func invalid(_ wkt: String, _ fragment: String) throws {
        let context = try GeometryContext()
        let error = #expect(throws: GeometryError.self) { try context.geometry(fromWKT: wkt) }
        guard case .invalidWKT(let message) = error else {
            Issue.record("expected .invalidWKT, got \(String(describing: error))")
            return
        }
        #expect(!message.isEmpty)
        #expect(message.contains(fragment))
        #expect(message == message.trimmingTrailingWhitespace)
        #expect(!context.hasPendingMessages)
    }

    @Test func nulCharacterIsRejectedBeforeGEOS() throws {
        let context = try GeometryContext()
        #expect(throws: GeometryError.invalidWKT(message: "the text contains a NUL character")) {
            try context.geometry(fromWKT: "POINT (1 2)\u{0}garbage")
        }
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }
}
