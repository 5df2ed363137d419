import TestSupport
import Testing
import TraceGeodesy

/// A stand-in exact solver that records how often it is asked (spherical, so its answers differ
/// recognisably from the tangent plane's).
final class CountingSolver: GeodesicSolver {
    var calls = 0
    func inverse(from p: Coordinate, to q: Coordinate) -> GeodesicInverse {
        calls += 1
        return GeodesicInverse(
            distance: Haversine.distance(from: p, to: q),
            initialAzimuth: Spherical.initialBearing(from: p, to: q),
            finalAzimuth: Spherical.finalBearing(from: p, to: q))
    }
}

@Suite("Tangent-plane distance")
struct TangentPlaneTests {
    @Test("identical points are 0 m apart without the fallback")
    func identical() throws {
        let p = try Coordinate(latitude: -33.9, longitude: 151.2)
        let solver = CountingSolver()
        #expect(TangentPlane.distance(from: p, to: p, fallback: solver) == 0)
        #expect(solver.calls == 0)
        // Karney's convention for coincident points: 0° south of the equator, 180° north of it.
        let south = try #require(TangentPlane.inverseIfNear(from: p, to: p))
        #expect(south.initialAzimuth == 0 && south.finalAzimuth == 0)
        let n = try Coordinate(latitude: 12.5, longitude: -45)
        let north = try #require(TangentPlane.inverseIfNear(from: n, to: n))
        #expect(north.initialAzimuth == 180 && north.finalAzimuth == 180)
    }

    @Test("a step across the antimeridian is short and fast")
    func antimeridian() throws {
        let w = try Coordinate(latitude: 0, longitude: 179.9995), e = try Coordinate(latitude: 0, longitude: -179.9995)
        let d = try #require(TangentPlane.distanceIfNear(from: w, to: e))
        // 0.001° of the equator on WGS84: a·0.001·π/180 = 111.3194908 m.
        #expect(abs(d - 6_378_137 * 0.001 * .pi / 180) < 1e-6)
    }

    @Test(
        "outside the domain the fallback is used",
        arguments: [
            (10.0, 10.0, 10.0, 10.1),  // ≈ 11 km: too far
            (80.5, 0.0, 80.5, 0.001),  // beyond 80°
            (-89.9, 0.0, -89.9, 90.0),  // near the south pole
            (0.0, 0.0, 0.0, 180.0),  // antipodal
        ])
    func fallback(lat1: Double, lon1: Double, lat2: Double, lon2: Double) throws {
        let p = try Coordinate(latitude: lat1, longitude: lon1), q = try Coordinate(latitude: lat2, longitude: lon2)
        let solver = CountingSolver()
        #expect(TangentPlane.distanceIfNear(from: p, to: q) == nil)
        #expect(TangentPlane.distance(from: p, to: q, fallback: solver) == Haversine.distance(from: p, to: q))
        #expect(solver.calls == 1)
    }

    @Test("the batch uses the fallback only for the steps outside the domain")
    func batchFallbackCount() throws {
        let track = CoordinateColumns([
            try Coordinate(latitude: 45, longitude: 7), try Coordinate(latitude: 45.001, longitude: 7.001),
            try Coordinate(latitude: 46, longitude: 7.001), try Coordinate(latitude: 46.0001, longitude: 7.001),
        ])
        let solver = CountingSolver()
        let d = TangentPlane.stepDistances(along: track, fallback: solver)
        #expect(d.count == 3 && solver.calls == 1)
        #expect(d[1] == Haversine.distance(from: track[1], to: track[2]))
        #expect(abs(d[2] - 11.1) < 0.1)  // 0.0001° of latitude ≈ 11.1 m
    }

    @Test(
        "the WGS84 polynomials match the closed-form radii of curvature to 1e-9 relative",
        arguments: stride(from: -79.5, through: 79.5, by: 0.5).map { $0 })
    func radii(latitude: Double) throws {
        // A 111 m step north and a step east measured by the tangent plane must equal the
        // closed-form M·Δφ and N·cos φ·Δλ (the polynomials' fit error is 8.4e-10; the step is long
        // enough that rounding the endpoints adds under 1e-11, short enough that curvature adds
        // under 1e-10).
        let e = Ellipsoid.wgs84
        let dLat = 1e-3, dLon = 1e-3
        let p = try Coordinate(latitude: latitude - dLat / 2, longitude: 0)
        let north = try #require(TangentPlane.distanceIfNear(from: p, to: try Coordinate(latitude: latitude + dLat / 2, longitude: 0)))
        let m = e.meridionalRadius(atLatitude: latitude) * dLat * .pi / 180
        #expect(abs(north - m) / m < 1e-9)
        let q = try Coordinate(latitude: latitude, longitude: 0)
        let east = try #require(TangentPlane.distanceIfNear(from: q, to: try Coordinate(latitude: latitude, longitude: dLon)))
        let n = e.primeVerticalRadius(atLatitude: latitude) * cosDegrees(latitude) * dLon * .pi / 180
        #expect(abs(east - n) / n < 1e-9)
    }

    @Test("the screen says a distance is below a threshold only when it is, and says so for every one well below")
    func screen() throws {
        var rng = SplitMix64(seed: 21)
        let solver = CountingSolver()
        var said = 0, tried = 0
        for _ in 0..<200_000 {
            // Points up to the domain's edge, partners up to 0.06° away (beyond the screen's span
            // too), thresholds up to 2.5 km (beyond its limit too), across the antimeridian.
            let lat = rng.uniform(-80, 80)
            let p = try Coordinate(latitude: lat, longitude: rng.uniform(-180, 180))
            let q = try Coordinate(
                latitude: min(max(lat + rng.uniform(-0.06, 0.06), -90), 90),
                longitude: Coordinate.normalizedLongitude(p.longitude + rng.uniform(-0.06, 0.06)))
            let d = TangentPlane.distance(from: p, to: q, fallback: solver)
            let threshold = rng.next() % 2 == 0 ? rng.uniform(0, 2500) : d * rng.uniform(0.95, 1.1)
            let screen = try #require(TangentPlane.Screen(p))
            let below = screen.isCertainlyBelow(threshold, to: q)
            if below {
                said += 1
                #expect(d < threshold, "\(p) \(q) \(threshold)")
            }
            // Well below (2 %), within the span and the limit: it must say so.
            if d < 0.98 * threshold && threshold <= 1900 && abs(q.latitude - lat) <= 0.05 && abs(q.latitude) <= 80 {
                tried += 1
                #expect(below, "\(p) \(q) \(threshold)")
            }
        }
        #expect(said > 5_000 && tried > 5_000, "\(said) said, \(tried) tried")
        // Nothing said beyond the domain, or of a threshold that is not positive.
        #expect(TangentPlane.Screen(try Coordinate(latitude: 80.5, longitude: 0)) == nil)
        let screen = try #require(TangentPlane.Screen(try Coordinate(latitude: 79.99, longitude: 0)))
        #expect(!screen.isCertainlyBelow(1000, to: try Coordinate(latitude: 80.01, longitude: 0)))
        #expect(!screen.isCertainlyBelow(0, to: screen.point) && !screen.isCertainlyBelow(-1, to: screen.point))
        #expect(!screen.isCertainlyBelow(.nan, to: screen.point))
        #expect(screen.isCertainlyBelow(1, to: screen.point))
    }
}
