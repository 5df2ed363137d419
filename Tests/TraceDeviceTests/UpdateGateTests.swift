import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceSharing

@testable import TraceDevice

@Suite("Update gate (Core Location semantics, the default model)")
struct UpdateGateTests {
    /// A point `metres` north of (45, 7).
    static func north(_ metres: Double) -> Coordinate {
        try! Coordinate(latitude: 45 + metres / 111_131.745, longitude: 7)
    }

    /// Offers (metres north, time) fixes in order and returns which were delivered.
    static func offer(_ gate: inout UpdateGate, _ fixes: [(Double, Double)]) -> [Bool] {
        fixes.map { gate.offer(north($0.0), at: $0.1) }
    }

    @Test("first fix delivered, then only after moving the filter distance from the last delivered fix")
    func distanceFilter() {
        var gate = UpdateGate(tier: .nearestTenMeters, distanceFilter: 30, exact: Geodesic())
        // 29 m is measured from the delivered fix at 0 m, not from the fix at 20 m.
        let delivered = Self.offer(&gate, [(0, 0), (20, 1), (29, 2), (30.01, 3), (45, 4), (61, 5)])
        #expect(delivered == [true, false, false, true, false, true])
    }

    @Test("a filter of 0 delivers every fix; off delivers none")
    func extremes() {
        var all = UpdateGate(tier: .best, distanceFilter: 0, exact: Geodesic())
        #expect(Self.offer(&all, [(0, 0), (0, 1), (0, 2)]) == [true, true, true])
        var off = UpdateGate(SharingPolicy.seed[.findingVillager], exact: Geodesic())
        #expect(Self.offer(&off, [(0, 0), (100, 1)]) == [false, false])
        #expect(off.lastDelivered == nil)
    }

    @Test("a stationary phone leaks jitter through a filter below ~2.5 × its accuracy, not through the jitter-safe one")
    func jitter() {
        // Deterministic jitter: fixes on a 10 m ring around the true point (a 10 m-accuracy phone).
        let fixes = (0..<100).map { i -> Coordinate in
            let a = Double(i) * 2.399963  // golden angle: spread round the ring
            return try! Coordinate(latitude: 45 + 10 * cos(a) / 111_131.745, longitude: 7 + 10 * sin(a) / 78_846.8)
        }
        var small = UpdateGate(tier: .nearestTenMeters, distanceFilter: 10, exact: Geodesic())
        var safe = UpdateGate(
            tier: .nearestTenMeters, distanceFilter: AccuracyTier.nearestTenMeters.jitterSafeDistanceFilter!, exact: Geodesic())
        var leaked = 0, safeCount = 0
        for (i, f) in fixes.enumerated() {
            if small.offer(f, at: Double(i)) { leaked += 1 }
            if safe.offer(f, at: Double(i)) { safeCount += 1 }
        }
        #expect(leaked > 50)
        #expect(safeCount == 1)
    }

    @Test("changing state keeps measuring from the last delivered fix; turning off forgets it")
    func apply() {
        var gate = UpdateGate(SharingPolicy.seed[.enRoute], exact: Geodesic())
        #expect(Self.offer(&gate, [(0, 0)]) == [true])
        gate.apply(SharingPolicy.seed[.atPickup])  // 13 m filter
        #expect(Self.offer(&gate, [(12, 1), (14, 2)]) == [false, true])
        gate.apply(SharingPolicy.seed[.awaitingPayment])
        #expect(gate.lastDelivered == nil)
        gate.apply(SharingPolicy.seed[.enRoute])
        #expect(Self.offer(&gate, [(14.5, 3)]) == [true])  // the first fix after location came back on
    }

    @Test("a time that is not finite is never delivered and changes nothing", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteTime(time: Double) {
        for model in [DeliveryModel.coreLocation, .distanceOrTime(interval: 10), .androidFused(interval: 5, minUpdateInterval: nil)] {
            var gate = UpdateGate(tier: .best, distanceFilter: 10, delivery: model, exact: Geodesic())
            #expect(Self.offer(&gate, [(0, time)]) == [false], "\(model): a first fix without a time")
            #expect(gate.lastDelivered == nil)
            #expect(Self.offer(&gate, [(0, 0), (100, time)]) == [true, false], "\(model)")
            #expect(gate.lastDelivered?.time == 0)
            // The clock still works: 100 m on, 6 s later.
            #expect(Self.offer(&gate, [(100, 6)]) == [true], "\(model)")
        }
    }

    @Test("a clock that steps back: no time elapsed for that fix, and the time rules measure from the new clock")
    func backwardsTime() {
        // distance AND 10 s: delivered at 0 and 100 s; the clock jumps back to 50 s. That fix has
        // no time elapsed (held back though it moved), and 11 s later on the new clock (61 s)
        // the next moved fix is delivered, not held back until 110 s.
        var and = UpdateGate(tier: .best, distanceFilter: 10, delivery: .distanceAndTime(interval: 10), exact: Geodesic())
        #expect(Self.offer(&and, [(0, 0), (100, 100), (200, 50), (300, 61), (400, 65)]) == [true, true, false, true, false])
        // Android: the same for its minimum interval (5 s, allowance 0.5 s).
        var android = UpdateGate(
            tier: .best, distanceFilter: 0, delivery: .androidFused(interval: 5, minUpdateInterval: nil), exact: Geodesic())
        #expect(Self.offer(&android, [(0, 0), (10, 100), (20, 40), (30, 45), (40, 46)]) == [true, true, false, true, false])
        // A heartbeat does not fire on a step back; distance rules still apply.
        var or = UpdateGate(tier: .best, distanceFilter: 50, delivery: .distanceOrTime(interval: 10), exact: Geodesic())
        #expect(Self.offer(&or, [(0, 100), (0, 20), (60, 10), (60, 25)]) == [true, false, true, true])
        #expect(or.lastDelivered?.time == 25)
    }

    @Test("an interval that is not a number (code only: a policy file refuses it): the rules as written")
    func nanInterval() {
        // `elapsed >= interval && d >= F`: never after the first fix; `elapsed >= interval || d >= F`: on distance alone.
        let fixes: [(Double, Double)] = [(0, 0), (50, 100), (120, 200), (121, 300), (400, 400)]
        var and = UpdateGate(tier: .best, distanceFilter: 30, delivery: .distanceAndTime(interval: .nan), exact: Geodesic())
        #expect(Self.offer(&and, fixes) == [true, false, false, false, false])
        var or = UpdateGate(tier: .best, distanceFilter: 30, delivery: .distanceOrTime(interval: .nan), exact: Geodesic())
        #expect(Self.offer(&or, fixes) == [true, true, true, false, true])
    }

    @Test("screening the fixes short of the filter changes no decision and no state, in every model", arguments: 0..<7)
    func screenedAlike(model: Int) throws {
        // Intervals that are not numbers too, which only code can build (a policy file refuses
        // them): the time rules decide as the distance rules did.
        let delivery: DeliveryModel = [
            .coreLocation, .androidFused(interval: 5, minUpdateInterval: 2), .speedElastic(elasticityMultiplier: 1),
            .distanceOrTime(interval: 20), .distanceAndTime(interval: 3), .distanceAndTime(interval: .nan),
            .distanceOrTime(interval: .nan),
        ][model]
        var rng = SplitMix64(seed: UInt64(model) + 7)
        var screened = 0
        for walk in 0..<60 {
            // Walks of several scales at latitudes up to and beyond the screen's domain, across
            // the antimeridian, with fixes that have a speed and fixes that do not, and a clock
            // that sometimes steps back.
            let scale = [0.5, 5, 50, 400][walk % 4]
            var lat = [0.0, 47.4, -62, 79.99, 85][walk % 5], lon = walk % 3 == 0 ? 179.999 : 8.5
            let filter = [0.0, 3, 10, 30, 100, 250, 1950][walk % 7]
            var plain = UpdateGate(tier: .best, distanceFilter: filter, delivery: delivery, exact: Geodesic())
            plain.screens = false
            var gate = plain
            gate.screens = true
            var time = 0.0
            for _ in 0..<500 {
                lat = min(max(lat + rng.uniform(-1, 1) * scale / 111_000, -89.9), 89.9)
                lon = Coordinate.normalizedLongitude(lon + rng.uniform(-1, 1) * scale / 80_000)
                time += rng.next() % 10 == 0 ? -rng.uniform(0, 2) : rng.uniform(0.2, 4)
                let fix = try Coordinate(latitude: lat, longitude: lon)
                let speed: Double? = rng.next() % 2 == 0 ? rng.uniform(0, 30) : nil
                let a = plain.offer(fix, at: time, accuracy: nil, speed: speed)
                let b = gate.offer(fix, at: time, accuracy: nil, speed: speed)
                // The state bit for bit (decidesAlike says no to any model with a NaN interval,
                // which is never equal to itself).
                let same =
                    gate.deliveredSpeed.bitPattern == plain.deliveredSpeed.bitPattern
                    && gate.lastDelivered?.coordinate == plain.lastDelivered?.coordinate
                    && gate.lastDelivered?.time.bitPattern == plain.lastDelivered?.time.bitPattern
                #expect(a == b && same && (model >= 5 || gate.decidesAlike(plain)), "\(delivery) walk \(walk)")
                if !a && filter > 0 { screened += 1 }
            }
        }
        #expect(screened > 1000, "\(delivery): too few fixes short of the filter to test the screen")
    }

    @Test("the pure-Swift exact solver (KarneyGeodesic, for services without PROJ) decides as PROJ's on long and polar steps")
    func pureSwiftSolver() throws {
        // A seeded wander from 78° N with steps up to 60 km: most steps over 2 km, many beyond 80°
        // (where the gate asks the exact solver), some across the antimeridian.
        var rng = SplitMix64(seed: 5)
        var p = try Coordinate(latitude: 78, longitude: 170)
        let fixes = (0..<2_000).map { _ in
            p = Spherical.destination(from: p, bearing: rng.uniform(-180, 180), distance: rng.uniform(0, 60_000))
            return p
        }
        #expect(fixes.filter { abs($0.latitude) > 80 }.count > 100)
        for filter in [0.0, 1_000, 2_500, 30_000, 100_000] {
            var proj = UpdateGate(tier: .best, distanceFilter: filter, exact: Geodesic())
            var pure = UpdateGate(tier: .best, distanceFilter: filter, exact: KarneyGeodesic())
            for (i, fix) in fixes.enumerated() {
                #expect(proj.offer(fix, at: Double(i)) == pure.offer(fix, at: Double(i)), "filter \(filter), fix \(i)")
            }
            // The same memory, but for the delivered speed's last bits (the distances differ by nanometres).
            #expect(
                proj.lastDelivered?.coordinate == pure.lastDelivered?.coordinate && proj.lastDelivered?.time == pure.lastDelivered?.time)
            #expect(abs(proj.deliveredSpeed - pure.deliveredSpeed) <= 1e-12 * proj.deliveredSpeed)
        }
    }
}
