import TestSupport
import Testing
import TraceGeodesy

@Suite("Spherical bearing and destination")
struct SphericalTests {
    @Test(
        "cardinal bearings from the origin",
        arguments: [
            (1.0, 0.0, 0.0), (0.0, 1.0, 90.0), (-1.0, 0.0, 180.0), (0.0, -1.0, -90.0),
        ])
    func cardinal(lat: Double, lon: Double, bearing: Double) throws {
        let o = try Coordinate(latitude: 0, longitude: 0)
        #expect(abs(Spherical.initialBearing(from: o, to: try Coordinate(latitude: lat, longitude: lon)) - bearing) < 1e-12)
    }

    @Test("bearing across the antimeridian points east")
    func antimeridian() throws {
        let w = try Coordinate(latitude: 0, longitude: 179.5), e = try Coordinate(latitude: 0, longitude: -179.5)
        #expect(abs(Spherical.initialBearing(from: w, to: e) - 90) < 1e-12)
    }

    @Test("final bearing on a great circle from the equator at 45° is 90° past the vertex")
    func finalBearing() throws {
        // From (0, 0) heading 45°, the great circle reaches (0, 180) heading 135°.
        let p = try Coordinate(latitude: 0, longitude: 0)
        let q = Spherical.destination(from: p, bearing: 45, distance: MeanEarth.radius * .pi * 0.999)
        #expect(abs(Spherical.finalBearing(from: p, to: q) - 135) < 0.01)
    }

    @Test("destination then haversine returns the distance, and the bearing", arguments: [0.0, 33.0, 90.0, 179.0, -120.0])
    func destinationRoundTrip(bearing: Double) throws {
        var rng = SplitMix64(seed: UInt64(bearing.magnitude * 10))
        for _ in 0..<200 {
            let p = try Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
            let d = rng.uniform(1, 5_000_000)
            let q = Spherical.destination(from: p, bearing: bearing, distance: d)
            #expect(abs(Haversine.distance(from: p, to: q) - d) < 1e-6 * max(1, d / 1000))
            if d < 1_000_000 {
                let b = Spherical.initialBearing(from: p, to: q)
                #expect(abs((b - bearing).remainder(dividingBy: 360)) < 1e-7)
            }
        }
    }
}
