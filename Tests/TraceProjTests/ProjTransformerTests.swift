import TestSupport
import Testing
import TraceGeodesy
import TraceProj

@Suite("PROJ transformer")
struct ProjTransformerTests {
    @Test("WGS84 to UTM 33N: the zone's central meridian on the equator maps to the false easting")
    func utmKnownPoint() throws {
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")
        let p = try t.transform(ProjPoint(try Coordinate(latitude: 0, longitude: 15)))
        #expect(abs(p.x - 500_000) < 1e-6)  // false easting, metres
        #expect(abs(p.y) < 1e-6)
    }

    @Test("axis order is normalised: EPSG:4326 takes x = longitude, y = latitude")
    func axisOrder() throws {
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:3857")
        let p = try t.transform(ProjPoint(x: 180, y: 0))
        #expect(abs(p.x - 20_037_508.342789244) < 1e-6)  // π·a, Web Mercator's half-width in metres
        #expect(abs(p.y) < 1e-6)
    }

    @Test("a batch round trip returns the inputs to within 1e-9°")
    func batchRoundTrip() throws {
        let forward = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")
        let inverse = try ProjTransformer(from: "EPSG:32633", to: "EPSG:4326")
        var rng = SplitMix64(seed: 7)
        let points = (0..<1000).map { _ in ProjPoint(x: rng.uniform(10, 20), y: rng.uniform(-60, 60)) }
        let there = forward.transform(points)
        #expect(there.allSucceeded)
        let back = inverse.transform(there.points.map { $0! })
        #expect(back.allSucceeded)
        for (a, b) in zip(points, back.points) {
            #expect(abs(a.x - b!.x) < 1e-9 && abs(a.y - b!.y) < 1e-9)
        }
    }

    @Test("an invalid CRS definition is a typed error carrying PROJ's message")
    func invalidCRS() throws {
        #expect {
            _ = try ProjTransformer(from: "EPSG:4326", to: "EPSG:999999")
        } throws: { error in
            guard case ProjError.invalidCRS(let s, let t, let message) = error else { return false }
            return s == "EPSG:4326" && t == "EPSG:999999" && !message.isEmpty
        }
        #expect(throws: ProjError.self) { _ = try ProjTransformer(from: "+proj=nonsense", to: "EPSG:4326") }
    }

    @Test("failed points are reported with a reason, never returned as infinities")
    func failedPoints() throws {
        // The orthographic projection only covers the hemisphere facing its centre.
        let t = try ProjTransformer(from: "EPSG:4326", to: "+proj=ortho +lat_0=0 +lon_0=0 +type=crs")
        let batch = t.transform([ProjPoint(x: 10, y: 10), ProjPoint(x: 170, y: 0), ProjPoint(x: .nan, y: 0), ProjPoint(x: -5, y: 5)])
        #expect(batch.points[0] != nil && batch.points[3] != nil)
        #expect(batch.points[1] == nil && batch.points[2] == nil)
        #expect(batch.failures.map(\.index) == [1, 2])
        #expect(batch.failures[1].message == "input coordinate is not finite")
        #expect(batch.failures[0].message != "PROJ reported no reason" && !batch.failures[0].message.isEmpty)
        #expect(batch.points.compactMap { $0 }.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        #expect(throws: ProjError.self) { _ = try t.transform(ProjPoint(x: 170, y: 0)) }
        #expect(throws: ProjError.notFinite) { _ = try t.transform(ProjPoint(x: .infinity, y: 0)) }
        // A later good call is unaffected by the earlier failure (errno and log are per call).
        #expect(try t.transform(ProjPoint(x: 1, y: 1)).x.isFinite)
    }

    @Test("each failed point carries its own reason, not the batch's")
    func perPointReasons() throws {
        let t = try ProjTransformer(from: "EPSG:4326", to: "+proj=ortho +lat_0=0 +lon_0=0 +type=crs")
        let farSide = try #require(t.transform([ProjPoint(x: 170, y: 0)]).failures.first?.message)
        let badLatitude = try #require(t.transform([ProjPoint(x: 10, y: 95)]).failures.first?.message)
        #expect(farSide != badLatitude)
        print("PROJ reasons: far side '\(farSide)', bad latitude '\(badLatitude)'")
        // In one batch, with many failures, each keeps its own short message.
        var points: [ProjPoint] = []
        for i in 0..<2000 { points.append(i % 2 == 0 ? ProjPoint(x: 170, y: 0) : ProjPoint(x: 10, y: 95)) }
        let batch = t.transform(points)
        #expect(batch.failures.count == 2000)
        for f in batch.failures {
            #expect(f.message == (f.index % 2 == 0 ? farSide : badLatitude))
        }
    }

    @Test("geodesic direct rejects non-finite input with a typed error")
    func directNotFinite() throws {
        let p = try Coordinate(latitude: 10, longitude: 10)
        #expect(throws: GeodesicError.self) { _ = try Geodesic().direct(from: p, azimuth: .nan, distance: 1) }
        #expect(throws: GeodesicError.self) { _ = try Geodesic().direct(from: p, azimuth: 0, distance: .infinity) }
    }

    @Test("geodesic edge cases: identical points, antipodes, poles, antimeridian")
    func geodesicEdges() throws {
        let g = Geodesic()
        let p = try Coordinate(latitude: 12.5, longitude: -45)
        #expect(g.inverse(from: p, to: p).distance == 0)
        // Equatorial antipodes: the shortest path runs over a pole, length 2b·E(e) = 20,003,931.4586 m
        // (Karney's test set's maximum s12).
        let a = try Coordinate(latitude: 0, longitude: 0), b = try Coordinate(latitude: 0, longitude: 180)
        #expect(abs(g.inverse(from: a, to: b).distance - 20_003_931.4586) < 1e-4)
        let n = try Coordinate(latitude: 90, longitude: 0), s = try Coordinate(latitude: -90, longitude: 0)
        #expect(abs(g.inverse(from: n, to: s).distance - 20_003_931.4586) < 1e-4)
        let w = try Coordinate(latitude: 0, longitude: 179.9999), e = try Coordinate(latitude: 0, longitude: -179.9999)
        // 0.0002° of equator: a·0.0002·π/180 = 22.26389816 m.
        #expect(abs(g.inverse(from: w, to: e).distance - 6_378_137 * 0.0002 * .pi / 180) < 1e-6)
    }
}
