import Foundation
import Testing
import TraceDomain
import TraceGeodesy
import TraceGeometry
import TraceSharing

@Suite("Map framing and route lines")
struct FramingTests {
    func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }
    let metresPerDegree = MeanEarth.radius * .pi / 180

    @Test("annotations close together get the state's frame as the minimum span, centred on them")
    func minimumFrame() throws {
        let ride = RequestContext(category: .ride)
        let positions: [MapAnnotation: Coordinate] = [
            .helperLocation: c(47.0, 8.0), .hirerLocation: c(47.0002, 8.0002), .pickupPoint: c(47.0001, 8.0001),
        ]
        let r = try #require(SharingPolicy.seed.region(for: .hirer, in: .atPickup, request: ride, positions: positions))
        #expect(abs(r.latitudeDelta * metresPerDegree - 150) < 1e-6)
        #expect(abs(r.longitudeDelta * metresPerDegree * cos(r.center.latitude * .pi / 180) - 150) < 1e-6)
        #expect(abs(r.center.latitude - 47.0001) < 1e-9 && abs(r.center.longitude - 8.0001) < 1e-9)
        #expect(abs(r.minimumSpan - 150) < 1e-6)
    }

    @Test("annotations far apart set the region; only visible annotations count")
    func spread() throws {
        let walk = RequestContext(category: .dogWalking)
        // The hirer's location is not visible for a non-ride: its far-away position must not widen the map.
        let positions: [MapAnnotation: Coordinate] = [
            .helperLocation: c(47.0, 8.0), .pickupPoint: c(47.01, 8.0), .hirerLocation: c(10, 10),
        ]
        let r = try #require(SharingPolicy.seed.region(for: .helper, in: .enRoute, request: walk, positions: positions))
        #expect(abs(r.latitudeDelta - 0.01) < 1e-12)
        #expect(abs(r.center.latitude - 47.005) < 1e-9)
        #expect(SharingPolicy.seed.region(for: .hirer, in: .completed, request: walk, positions: positions) == nil)
    }

    @Test("across the antimeridian the region is narrow and centred on it")
    func antimeridian() throws {
        let ride = RequestContext(category: .ride)
        let positions: [MapAnnotation: Coordinate] = [
            .helperLocation: c(-17, 179.999), .hirerLocation: c(-17, -179.999), .pickupPoint: c(-17, 180),
        ]
        let r = try #require(SharingPolicy.seed.region(for: .helper, in: .enRoute, request: ride, positions: positions))
        #expect(abs(abs(r.center.longitude) - 180) < 1e-9)
        #expect(r.longitudeDelta < 0.01)
    }

    @Test("near a pole the region stays inside the globe and covers every longitude when it must")
    func pole() throws {
        let ride = RequestContext(category: .ride)
        let positions: [MapAnnotation: Coordinate] = [
            .helperLocation: c(89.9999, 0), .hirerLocation: c(89.9999, 180), .pickupPoint: c(90, 0),
        ]
        let r = try #require(SharingPolicy.seed.region(for: .hirer, in: .atPickup, request: ride, positions: positions))
        #expect(r.center.latitude + r.latitudeDelta / 2 <= 90 + 1e-12)
        #expect(r.longitudeDelta == 360)
    }

    @Test("route lines: none where the seed says no route lines; detail tied to the frame")
    func routeLines() throws {
        let geometry = try GeometryContext()
        // What a map draws: the route simplified at the policy's tolerance, where it draws one.
        func routeLineOf(_ policy: SharingPolicy, _ route: [Coordinate], in state: FulfilmentState, for request: RequestContext) throws
            -> [Coordinate]?
        {
            try policy.routeLineTolerance(in: state, for: request).map { try geometry.simplifyTrack(route, toleranceMetres: $0) }
        }
        let ride = RequestContext(category: .ride), walk = RequestContext(category: .dogWalking)
        // A gently wiggling 2 km route: wiggles of 0.8 m amplitude every 20 m.
        let route = (0...100).map { i in c(47 + Double(i) * 20 / 111_200, 8 + (i % 2 == 0 ? 0 : 0.8) / 75_800) }
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .atPickup, for: ride) == nil)
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .inTask, for: ride) == nil)
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .enRoute, for: ride) == nil)
        // Completed (250 m frame: 0.625 m tolerance) keeps the 0.8 m wiggles; a 2,000 m frame (5 m) drops them.
        let detailed = try #require(try routeLineOf(SharingPolicy.seed, route, in: .completed, for: ride))
        var wide = SharingPolicy.seed
        wide[.completed].frame = 2000
        let light = try #require(try routeLineOf(wide, route, in: .completed, for: ride))
        #expect(detailed.count > 90)
        #expect(light.count == 2)
        #expect(SharingPolicy.seed.routeLineTolerance(in: .atPickup) == 0.375)
        // Finding Villager shows a route for a ride, the location for anything else.
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .findingVillager, for: ride) != nil)
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .findingVillager, for: walk) == nil)
        #expect(try routeLineOf(SharingPolicy.seed, route, in: .completed, for: walk) != nil)
    }
}
