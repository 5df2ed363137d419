import Foundation
import TestSupport
import Testing
import TraceGeodesy

/// The textbook haversine evaluated with libm, the reference for the polynomial kernel, and the
/// tolerance the comparison deserves: 1e-14 relative (a few ulps of each evaluation), plus, only near antipodes (a > 0.9), the
/// formula's own ill-conditioning there — dθ/da = 1/√(a(1 − a)) grows without bound, so a few
/// ulps of `a` move the result by up to R·√(16ε) ≈ 0.38 m, in libm's evaluation as in ours.
func libmHaversine(_ p: Coordinate, _ q: Coordinate) -> (distance: Double, tolerance: Double) {
    let k = Double.pi / 180
    let dLat = (q.latitude - p.latitude) * k
    var dLon = (q.longitude - p.longitude)
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
    let a = pow(sin(dLat / 2), 2) + cos(p.latitude * k) * cos(q.latitude * k) * pow(sin(dLon * k / 2), 2)
    let d = 2 * MeanEarth.radius * asin(min(sqrt(a), 1))
    let eps = Double.ulpOfOne
    let conditioning = a > 0.9 ? MeanEarth.radius * 8 * eps / max(sqrt(max(1 - a, 0)), sqrt(16 * eps)) : 0
    return (d, 1e-14 * d + conditioning)
}

@Suite("Haversine")
struct HaversineTests {
    @Test("kernel agrees with libm to 1e-14 relative (plus the antipodal conditioning) on 200,000 seeded pairs")
    func againstLibm() throws {
        var rng = SplitMix64(seed: 2026)
        var worst = 0.0
        for i in 0..<200_000 {
            let p = try Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            // Alternate global pairs and nearby pairs (metres to kilometres apart).
            let spread = i % 2 == 0 ? 1.0 : pow(10, rng.uniform(-6, -1))
            let q = try Coordinate(
                latitude: min(max(i % 2 == 0 ? rng.uniform(-90, 90) : p.latitude + spread * rng.uniform(-1, 1), -90), 90),
                longitude: i % 2 == 0 ? rng.uniform(-180, 180) : p.longitude + spread * rng.uniform(-1, 1))
            let fast = Haversine.distance(from: p, to: q), (ref, tolerance) = libmHaversine(p, q)
            if ref > 0 && ref < 19_000_000 { worst = max(worst, abs(fast - ref) / ref) }
            #expect(abs(fast - ref) <= tolerance, "\(p) → \(q): \(fast) vs \(ref)")
        }
        print("haversine kernel vs libm: worst relative difference \(worst) (pairs under 19,000 km)")
    }

    @Test("the sphere's radius is the IUGG mean radius (2a + b) / 3 of WGS84, 6,371,008.8 m (to 0.1 m)")
    func meanRadius() {
        // WGS84's defining constants (NIMA TR8350.2), written out rather than read from Ellipsoid.
        let a = 6_378_137.0, f = 1 / 298.257223563
        let b = a * (1 - f)  // 6,356,752.314 m
        let r1 = (2 * a + b) / 3  // 6,371,008.771 m
        #expect(abs(MeanEarth.radius - r1) <= 0.05, "\(MeanEarth.radius) vs (2a + b) / 3 = \(r1)")
        #expect(MeanEarth.radius == (r1 * 10).rounded() / 10)
        #expect(MeanEarth.radius == 6_371_008.8)
        #expect(Ellipsoid.wgs84.equatorialRadius == a && Ellipsoid.wgs84.flattening == f)
    }

    @Test("batch results are bit-identical to the scalar function")
    func batchMatchesScalar() throws {
        var rng = SplitMix64(seed: 5)
        var a = CoordinateColumns(), b = CoordinateColumns()
        for _ in 0..<1001 {
            a.append(try Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)))
            b.append(try Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)))
        }
        let d = Haversine.distances(from: a, to: b)
        let steps = Haversine.stepDistances(along: a)
        for i in 0..<a.count {
            #expect(d[i] == Haversine.distance(from: a[i], to: b[i]))
        }
        for i in 0..<steps.count {
            #expect(steps[i] == Haversine.distance(from: a[i], to: a[i + 1]))
        }
        #expect(Haversine.stepDistances(along: CoordinateColumns()).isEmpty)
        #expect(Haversine.stepDistances(along: CoordinateColumns([a[0]])).isEmpty)
    }

    @Test("identical points are 0 m apart, with Karney's azimuth convention")
    func identical() throws {
        let p = try Coordinate(latitude: 47.3, longitude: 8.5), s = try Coordinate(latitude: -30, longitude: 10)
        #expect(Haversine.distance(from: p, to: p) == 0)
        #expect(Spherical.initialBearing(from: p, to: p) == 180 && Spherical.finalBearing(from: p, to: p) == 180)
        #expect(Spherical.initialBearing(from: s, to: s) == 0 && Spherical.finalBearing(from: s, to: s) == 0)
    }

    @Test(
        "antipodes are π·R apart, to haversine's conditioning there (R·√(16ε) ≈ 0.38 m)",
        arguments: [
            (30.0, 20.0), (0.0, 0.0), (-45.0, 179.0), (89.0, -90.0),
        ])
    func antipodes(lat: Double, lon: Double) throws {
        let p = try Coordinate(latitude: lat, longitude: lon), q = try Coordinate(latitude: -lat, longitude: lon + 180)
        let bound = MeanEarth.radius * (16 * Double.ulpOfOne).squareRoot()
        #expect(abs(Haversine.distance(from: p, to: q) - .pi * MeanEarth.radius) <= bound)
    }

    @Test("pole to pole is π·R; any two longitudes at a pole are 0 apart")
    func poles() throws {
        let n = try Coordinate(latitude: 90, longitude: 0), s = try Coordinate(latitude: -90, longitude: 45)
        #expect(abs(Haversine.distance(from: n, to: s) - .pi * MeanEarth.radius) < 1e-6)
        #expect(Haversine.distance(from: n, to: try Coordinate(latitude: 90, longitude: 123)) < 1e-9)
    }

    @Test("crossing the antimeridian takes the short way")
    func antimeridian() throws {
        let w = try Coordinate(latitude: 0, longitude: 179.9995), e = try Coordinate(latitude: 0, longitude: -179.9995)
        let expected = MeanEarth.radius * 0.001 * .pi / 180  // 0.001° of great circle
        // 179.9995 is stored to 2.8e-14°, so the 0.001° difference is known to 5.6e-11 relative.
        #expect(abs(Haversine.distance(from: w, to: e) - expected) < 1e-8)
    }
}

@Suite("NaN input")
struct NaNInputTests {
    @Test("NaN never reaches a distance function: coordinates and columns reject it with a typed error")
    func nanRejected() {
        #expect(throws: CoordinateError.self) { _ = try Coordinate(latitude: .nan, longitude: 0) }
        #expect(throws: CoordinateError.self) { _ = try Coordinate(latitude: 0, longitude: .nan) }
        #expect(throws: CoordinateColumnsError.self) { _ = try CoordinateColumns(latitudes: [0, .nan], longitudes: [0, 0]) }
        #expect(throws: CoordinateColumnsError.self) { _ = try CoordinateColumns(latitudes: [0, 0], longitudes: [.nan, 0]) }
    }
}
