import Testing
import TraceGeodesy

@testable import TraceGeometry

@Suite("Geographic helpers (metres via a local frame)")
struct GeographicTests {
    static let zurich = try! Coordinate(latitude: 47.3769, longitude: 8.5417)

    /// A track 1 km east then 1 km north, a fix every 50 m, zigzagging ±2 m across the direction
    /// of travel; the start, the corner (fix 20) and the end (fix 40) lie exactly on the path.
    static func zigzag() -> [Coordinate] {
        let frame = LocalFrame(origin: zurich)
        var offsets: [EastNorth] = []
        for i in 0...20 {
            let wiggle = i == 0 || i == 20 ? 0.0 : (i.isMultiple(of: 2) ? 2.0 : -2.0)
            offsets.append(EastNorth(east: Double(i) * 50, north: wiggle))
        }
        for i in 1...20 {
            let wiggle = i == 20 ? 0.0 : (i.isMultiple(of: 2) ? 2.0 : -2.0)
            offsets.append(EastNorth(east: 1000 + wiggle, north: Double(i) * 50))
        }
        return offsets.map { frame.coordinate(at: $0)! }
    }

    @Test("the zigzag disappears above its 2 m amplitude and stays below it", arguments: [false, true])
    func zigzagTrack(preservingTopology: Bool) throws {
        let context = try GeometryContext()
        let track = Self.zigzag()
        #expect(track.count == 41)

        let coarse = try context.simplifyTrack(track, toleranceMetres: 2.1, preservingTopology: preservingTopology)
        #expect(coarse == [track[0], track[20], track[40]])

        let fine = try context.simplifyTrack(track, toleranceMetres: 1.9, preservingTopology: preservingTopology)
        #expect(fine.count > 3)
        #expect(fine.first == track.first && fine.last == track.last)
        #expect(fine.contains(track[20]))
        #expect(isSubsequence(fine, of: track), "the result is made of the original fixes, in order")

        let exact = try context.simplifyTrack(track, toleranceMetres: 0.5, preservingTopology: preservingTopology)
        #expect(exact == track, "every wiggle deviates ~4 m from its neighbours' chord")
    }

    @Test func shortTracksAreReturnedUnchanged() throws {
        let context = try GeometryContext()
        let two = [Self.zurich, try Coordinate(latitude: 47.38, longitude: 8.55)]
        #expect(try context.simplifyTrack(two, toleranceMetres: 1000) == two)
        #expect(try context.simplifyTrack([], toleranceMetres: 1) == [])
    }

    @Test("a track across the antimeridian is simplified in one frame")
    func antimeridian() throws {
        let context = try GeometryContext()
        let track = try [179.998, 179.999, -180.0 + 0.0005, -179.999, -179.998].map {
            try Coordinate(latitude: -16.5, longitude: $0)  // Fiji: one degree of longitude ≈ 107 km
        }
        let simplified = try context.simplifyTrack(track, toleranceMetres: 5)
        // The points lie on a parallel, which curves away from the straight chord by a few
        // millimetres over 430 m: well inside 5 m, so only the ends remain.
        #expect(simplified == [track[0], track[4]])
    }

    @Test("a pickup zone is a closed ring of 4q + 1 vertices at the radius", arguments: [25.0, 150.0, 5000.0])
    func pickupZone(radius: Double) throws {
        let context = try GeometryContext()
        let zone = try context.pickupZone(around: Self.zurich, radiusMetres: radius)
        #expect(zone.count == 33)
        #expect(zone.first == zone.last)
        let frame = LocalFrame(origin: Self.zurich)
        for c in zone {
            let en = frame.eastNorth(of: c)
            let planar = (en.east * en.east + en.north * en.north).squareRoot()
            #expect(abs(planar - radius) < 1e-6)
            // Independent check on the sphere (haversine's model error is below 0.6 %).
            #expect(abs(Haversine.distance(from: Self.zurich, to: c) - radius) < 0.006 * radius)
        }
        // The ring goes once around the centre: the bearings of consecutive vertices advance by
        // 360° / 32 = 11.25° each.
        for i in 0..<32 {
            let b0 = Spherical.initialBearing(from: Self.zurich, to: zone[i])
            let b1 = Spherical.initialBearing(from: Self.zurich, to: zone[i + 1])
            let step = abs(Coordinate.normalizedLongitude(b1 - b0))
            #expect(abs(step - 11.25) < 0.05)
        }
    }
}
