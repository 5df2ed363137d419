import TestSupport
import Testing
import TraceGeodesy

@Suite("Local east/north frame")
struct LocalFrameTests {
    @Test(
        "round trips to within 1e-9 m at offsets up to 50 km, at any origin",
        arguments: [
            (0.0, 0.0), (46.5, 6.6), (-33.9, 151.2), (89.999, 10.0), (-90.0, 0.0), (0.0, 180.0), (60.0, -179.99),
        ])
    func roundTrip(lat: Double, lon: Double) throws {
        let frame = LocalFrame(origin: try Coordinate(latitude: lat, longitude: lon))
        var rng = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let offset = EastNorth(east: rng.uniform(-50_000, 50_000), north: rng.uniform(-50_000, 50_000))
            let c = try #require(frame.coordinate(at: offset))
            let back = frame.eastNorth(of: c)
            #expect(abs(back.east - offset.east) < 1e-8 && abs(back.north - offset.north) < 1e-8, "\(offset) → \(c) → \(back)")
        }
    }

    @Test("the origin maps to (0, 0)")
    func origin() throws {
        let o = try Coordinate(latitude: 12.3, longitude: -45.6)
        let en = LocalFrame(origin: o).eastNorth(of: o)
        #expect(abs(en.east) < 1e-9 && abs(en.north) < 1e-9)
    }

    @Test("small offsets have the length the ellipsoid gives them (tangent plane), and point the right way")
    func smallOffsetsMatchTangentPlane() throws {
        let o = try Coordinate(latitude: 52.0, longitude: 13.0)
        let frame = LocalFrame(origin: o)
        let north = try Coordinate(latitude: 52.001, longitude: 13.0)
        let east = try Coordinate(latitude: 52.0, longitude: 13.001)
        let n = frame.eastNorth(of: north), e = frame.eastNorth(of: east)
        #expect(abs(n.east) < 1e-9 && n.north > 0)
        #expect(e.east > 0 && abs(e.north) < 0.01)  // a parallel curves away from the tangent plane's east axis
        let dn = try #require(TangentPlane.distanceIfNear(from: o, to: north))
        let de = try #require(TangentPlane.distanceIfNear(from: o, to: east))
        #expect(abs(n.north - dn) < 1e-4)
        #expect(abs((e.east * e.east + e.north * e.north).squareRoot() - de) < 1e-4)
    }

    @Test("points beyond the Earth's outline have no coordinate")
    func beyondOutline() throws {
        let frame = LocalFrame(origin: try Coordinate(latitude: 0, longitude: 0))
        #expect(frame.coordinate(at: EastNorth(east: 7_000_000, north: 0)) == nil)
        #expect(frame.coordinate(at: EastNorth(east: .nan, north: 0)) == nil)
    }
}
