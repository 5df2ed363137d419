import Foundation
import TestSupport
import Testing
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceSharing

/// Each delivery model on crafted traces built from its documented behaviour (sources on
/// ``DeliveryModel``). Fixes lie on the meridian through (45, 7); boundary cases take the filter
/// from the same distance function the gate uses, so "exactly at the filter" is exact.
@Suite("Delivery models (platform rules)")
struct DeliveryModelTests {
    /// One offered fix: metres north, seconds, reported accuracy and speed.
    struct F {
        var north: Double, time: Double, accuracy: Double? = nil, speed: Double? = nil
    }

    static func run(_ gate: inout UpdateGate, _ fixes: [F]) -> [Bool] {
        fixes.map { gate.offer(UpdateGateTests.north($0.north), at: $0.time, accuracy: $0.accuracy, speed: $0.speed) }
    }

    static func gate(_ model: DeliveryModel, filter: Double, accuracyGate: AccuracyGate? = nil) -> UpdateGate {
        UpdateGate(tier: .best, distanceFilter: filter, delivery: model, accuracyGate: accuracyGate, exact: Geodesic())
    }

    /// The gate's distance between two points of the meridian (the tangent-plane kernel, < 2 km).
    static func distance(_ a: Double, _ b: Double) -> Double {
        TangentPlane.distanceIfNear(from: UpdateGateTests.north(a), to: UpdateGateTests.north(b))!
    }

    @Test("exactly at the filter: delivered by Core Location (>=), dropped by Android (<=)")
    func boundary() {
        let d = Self.distance(0, 30)
        let trace = [F(north: 0, time: 0), F(north: 30, time: 10), F(north: 30.01, time: 20)]
        var apple = Self.gate(.coreLocation, filter: d)
        #expect(Self.run(&apple, trace) == [true, true, false])  // the third is 0.01 m from the second
        var android = Self.gate(.androidFused(interval: 1, minUpdateInterval: 0), filter: d)
        #expect(Self.run(&android, trace) == [true, false, true])  // 30.01 m from the first: beyond
        // A filter of 0 skips Android's distance check: a phone that has not moved is delivered.
        var zero = Self.gate(.androidFused(interval: 1, minUpdateInterval: 0), filter: 0)
        #expect(Self.run(&zero, [F(north: 0, time: 0), F(north: 0, time: 1)]) == [true, true])
    }

    @Test("Android minimum update interval with AOSP's jitter allowance, min(10 % of the interval, 30 s)")
    func minimumIntervalJitter() {
        // interval 10 s, explicit minimum 10 s: allowance 1 s, so a fix 9 s after the last is delivered.
        var g = Self.gate(.androidFused(interval: 10, minUpdateInterval: 10), filter: 0)
        let trace = [
            F(north: 0, time: 0), F(north: 100, time: 8.99), F(north: 200, time: 9),
            F(north: 300, time: 17.9), F(north: 400, time: 18),
        ]
        #expect(Self.run(&g, trace) == [true, false, true, false, true])
        // interval 10 min: 10 % would be 60 s, the cap is 30 s, so the threshold is 570 s.
        var long = Self.gate(.androidFused(interval: 600, minUpdateInterval: nil), filter: 0)
        #expect(Self.run(&long, [F(north: 0, time: 0), F(north: 100, time: 569.9), F(north: 200, time: 570)]) == [true, false, true])
        #expect(DeliveryModel.androidFused(interval: 600, minUpdateInterval: nil).jitterAllowance == 30)
        #expect(DeliveryModel.androidFused(interval: 10, minUpdateInterval: 3).jitterAllowance == 1)
    }

    @Test("Android implicit minimum update interval is the interval; an explicit one above it is lowered to it")
    func implicitMinimum() {
        // A 1 Hz trace moving 50 m a second, filter 10 m.
        let trace = (0..<13).map { F(north: Double($0) * 50, time: Double($0)) }
        let delivered = { (model: DeliveryModel) -> [Int] in
            var g = Self.gate(model, filter: 10)
            return Self.run(&g, trace).enumerated().filter(\.element).map(\.offset)
        }
        // Implicit: 5 s, minus the 0.5 s allowance: every 5th fix.
        #expect(delivered(.androidFused(interval: 5, minUpdateInterval: nil)) == [0, 5, 10])
        #expect(DeliveryModel.androidFused(interval: 5, minUpdateInterval: nil).effectiveMinUpdateInterval == 5)
        // Explicit 7 s with a 5 s interval: Builder.build() keeps the smaller, 5 s.
        #expect(delivered(.androidFused(interval: 5, minUpdateInterval: 7)) == [0, 5, 10])
        // Explicit 2 s: threshold 1.5 s, every 2nd fix.
        #expect(delivered(.androidFused(interval: 5, minUpdateInterval: 2)) == [0, 2, 4, 6, 8, 10, 12])
        // Core Location has no time rule: every fix.
        #expect(delivered(.coreLocation) == Array(0..<13))
    }

    @Test(
        "speed-elastic filter: no elasticity up to 5 m/s, then round(v / 5) × filter × multiplier",
        arguments: [
            // (speed m/s, elasticityMultiplier, effective filter for a 10 m base)
            (0.0, 1.0, 10.0), (7, 1, 10), (12.5, 1, 30), (30, 1, 60),
            (0, 2, 10), (7, 2, 20), (12.5, 2, 60), (30, 2, 120),
            (5, 2, 10),  // "until speed > 5": exactly 5 is not elastic
            (27, 1, 50),  // nearest 5 m/s is 25 (the documentation's worked example says 30)
            (30, 0, 10),  // a multiplier of 0 is disableElasticity
        ])
    func elasticFilter(speed: Double, multiplier: Double, expected: Double) {
        #expect(DeliveryModel.speedElastic(elasticityMultiplier: multiplier).elasticFilter(10, speed: speed) == expected)
        #expect(DeliveryModel.coreLocation.elasticFilter(10, speed: speed) == 10)
    }

    @Test("speed-elastic on a trace: the filter comes from the speed of the last delivered fix")
    func elasticTrace() {
        // 25 m a second with a reported 30 m/s (filter 10 → 60 m): every third fix.
        let fast = (0..<10).map { F(north: Double($0) * 25, time: Double($0), speed: 30) }
        var g = Self.gate(.speedElastic(elasticityMultiplier: 1), filter: 10)
        #expect(Self.run(&g, fast).enumerated().filter(\.element).map(\.offset) == [0, 3, 6, 9])
        // Starting from rest: the first fix reports 0 m/s, so the second clears the 10 m base
        // filter; it reports 30 m/s, so the next must be 60 m beyond it.
        var start = Self.gate(.speedElastic(elasticityMultiplier: 1), filter: 10)
        let accelerating = [F(north: 0, time: 0, speed: 0)] + (1..<5).map { F(north: Double($0) * 25, time: Double($0), speed: 30) }
        #expect(Self.run(&start, accelerating) == [true, true, false, false, true])
        // The same trace under Core Location: every fix (25 m ≥ 10 m).
        var apple = Self.gate(.coreLocation, filter: 10)
        #expect(Self.run(&apple, accelerating) == [true, true, true, true, true])
    }

    @Test("speed-elastic without a reported speed derives it from the last delivered fix")
    func derivedSpeed() {
        // 20 m a second, no speed: 20 m/s derived, filter 12 × 4 = 48 m, so every third fix after
        // the second (the first has no previous fix: 0 m/s, base filter).
        let trace = (0..<9).map { F(north: Double($0) * 20, time: Double($0)) }
        var g = Self.gate(.speedElastic(elasticityMultiplier: 1), filter: 12)
        #expect(Self.run(&g, trace).enumerated().filter(\.element).map(\.offset) == [0, 1, 4, 7])
        // 60 m over the 3 s since the previous delivered fix (the metres of `north` are nominal:
        // the gate's distance differs by 1e-6 of them).
        #expect(abs(g.deliveredSpeed - 20) < 1e-3, "\(g.deliveredSpeed)")
        // An invalid reported speed (Core Location's -1) counts as none.
        var invalid = Self.gate(.speedElastic(elasticityMultiplier: 1), filter: 12)
        let negative = trace.map { F(north: $0.north, time: $0.time, speed: -1) }
        #expect(Self.run(&invalid, negative) == [true, true, false, false, true, false, false, true, false])
        // Over the interval since the last *delivered* fix, not the previous fix offered: the fix at
        // 13 m is delivered 2 s after the one at 0 m, so 6.5 m/s (rounded to 5: no elasticity) and
        // the next, 20 m on, clears the base 12 m. From the fix offered at 5 m it would be 8 m/s
        // (rounded to 10: 24 m) and the last fix would be held back.
        var delivered = Self.gate(.speedElastic(elasticityMultiplier: 1), filter: 12)
        let slow = [F(north: 0, time: 0), F(north: 5, time: 1), F(north: 13, time: 2), F(north: 33, time: 3)]
        #expect(Self.run(&delivered, slow) == [true, false, true, true])
    }

    @Test("the delivered fix's speed is kept under every model, so switching to speed-elastic starts from it")
    func speedKeptAcrossModels() {
        // Delivered under Core Location at 30 m/s (reported), then the override switches to
        // speed-elastic: the filter is 10 × 6 = 60 m at once, and a fix 25 m on is held back.
        let fast = [F(north: 0, time: 0, speed: 30), F(north: 25, time: 1, speed: 30)]
        var g = Self.gate(.coreLocation, filter: 10)
        #expect(Self.run(&g, fast) == [true, true])
        #expect(g.deliveredSpeed == 30)
        g.deliveryOverride = .speedElastic(elasticityMultiplier: 1)
        #expect(Self.run(&g, [F(north: 50, time: 2, speed: 30), F(north: 85, time: 3, speed: 30)]) == [false, true])
        // The same through a state's row; derived speeds too (no speed reported: 25 m/s).
        var row = UpdateGate(tier: .best, distanceFilter: 10, exact: Geodesic())
        #expect(Self.run(&row, [F(north: 0, time: 0), F(north: 25, time: 1)]) == [true, true])
        row.apply(
            StatePolicy(
                tier: .best, frame: 250, distanceFilter: 10, delivery: .speedElastic(elasticityMultiplier: 1), accuracyGate: nil,
                shows: ShownContent(route: false, routeLines: false, destination: false), hirerAnnotations: [], helperAnnotations: []))
        #expect(Self.run(&row, [F(north: 50, time: 2), F(north: 75, time: 3), F(north: 76, time: 4)]) == [false, true, false])
    }

    @Test("distance OR time (heartbeat) against distance AND time (minimum interval)")
    func orAnd() {
        let trace = [
            F(north: 0, time: 0), F(north: 0, time: 5), F(north: 0, time: 10), F(north: 60, time: 12),
            F(north: 60, time: 15), F(north: 120, time: 17), F(north: 120, time: 30),
        ]
        var or = Self.gate(.distanceOrTime(interval: 10), filter: 50)
        #expect(Self.run(&or, trace) == [true, false, true, true, false, true, true])
        var and = Self.gate(.distanceAndTime(interval: 10), filter: 50)
        #expect(Self.run(&and, trace) == [true, false, false, true, false, false, true])
    }

    @Test("accuracy gate: worse fixes are not delivered and change nothing; fixes without accuracy as configured")
    func accuracyGate() {
        let trace = [
            F(north: 0, time: 0, accuracy: 5), F(north: 100, time: 1, accuracy: 50),
            F(north: 20, time: 2, accuracy: 20), F(north: 60, time: 3), F(north: 100, time: 4, accuracy: -1),
            F(north: 140, time: 5, accuracy: 0),
        ]
        // The 50 m fix is stopped, so the 20 m fix is measured from 0 (20 < 30: not delivered);
        // the fix without accuracy is delivered by default; -1 (Core Location's invalid) and 0
        // (Android's and CSV exports' none) count as no accuracy.
        var admits = Self.gate(.coreLocation, filter: 30, accuracyGate: AccuracyGate(maximumAccuracy: 20))
        #expect(Self.run(&admits, trace) == [true, false, false, true, true, true])
        var strict = Self.gate(.coreLocation, filter: 30, accuracyGate: AccuracyGate(maximumAccuracy: 20, deliversWithoutAccuracy: false))
        #expect(Self.run(&strict, trace) == [true, false, false, false, false, false])
        #expect(!AccuracyGate(maximumAccuracy: 20, deliversWithoutAccuracy: false).admits(accuracy: 0))
        // Exactly at the threshold passes (the 20 m-accuracy fix, 40 m away, with a 30 m filter).
        var edge = Self.gate(.coreLocation, filter: 30, accuracyGate: AccuracyGate(maximumAccuracy: 20))
        #expect(Self.run(&edge, [F(north: 0, time: 0, accuracy: 20), F(north: 40, time: 1, accuracy: 20)]) == [true, true])
        // Without a gate accuracy is not consulted: the 50 m fix is delivered and every later fix
        // is measured from it.
        var none = Self.gate(.coreLocation, filter: 30)
        #expect(Self.run(&none, trace) == [true, true, true, true, true, true])
        #expect(none.lastDelivered?.time == 5)
    }

    @Test("a delivery override replaces every state's model and survives state changes")
    func override() {
        var policy = SharingPolicy.seed
        policy[.atPickup].delivery = .distanceOrTime(interval: 30)
        var g = UpdateGate(policy[.enRoute], exact: Geodesic())
        #expect(g.delivery == .coreLocation)
        g.deliveryOverride = .distanceAndTime(interval: 60)
        g.apply(policy[.atPickup])
        #expect(g.delivery == .distanceAndTime(interval: 60))
        g.deliveryOverride = nil
        #expect(g.delivery == .distanceOrTime(interval: 30))
        // A request's action carries the model and gate of the state.
        var machine = FulfilmentMachine(category: .ride, policy: policy)
        _ = try? machine.handle(.accept)
        let action = try? machine.handle(.arrive)
        #expect(action?.delivery == .distanceOrTime(interval: 30) && action?.accuracyGate == nil)
    }

    /// `count` fixes of a phone standing still at (45, 7), one a second, with seeded white Gaussian
    /// jitter of horizontal accuracy `accuracy` (σ = accuracy / √2 per axis: the radial RMS error
    /// is the accuracy, as docs/battery-model.md, "Kalman defaults", reads iOS's horizontalAccuracy).
    static func standingStill(accuracy: Double, count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        let sigma = accuracy / 2.0.squareRoot()
        func gaussian() -> Double {  // Box–Muller
            let u = 1 - rng.uniform(0, 1), v = rng.uniform(0, 1)
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        return (0..<count).map { _ in
            let east = sigma * gaussian(), north = sigma * gaussian()
            return try! Coordinate(latitude: 45 + north / 111_131.745, longitude: 7 + east / 78_846.8)
        }
    }

    /// Leak rates of a still phone (A = 10 m, 5 × 1,000 fixes a second apart, seeds 1…5) through
    /// filters of 1, 2.5 and 3 × A, with the speed each fix reports (nil: none).
    static func leakRates(_ model: DeliveryModel, speed: Double?) -> [Double: Double] {
        let accuracy = 10.0
        var leaked: [Double: Int] = [:]
        for seed in UInt64(1)...5 {
            let fixes = Self.standingStill(accuracy: accuracy, count: 1000, seed: seed)
            for factor in [1.0, 2.5, 3.0] {
                var g = Self.gate(model, filter: factor * accuracy)
                // The first fix is always delivered: only the leaks after it count.
                for (i, fix) in fixes.enumerated() where g.offer(fix, at: Double(i), accuracy: accuracy, speed: speed) && i > 0 {
                    leaked[factor, default: 0] += 1
                }
            }
        }
        return leaked.mapValues { Double($0) / 5000 }
    }

    @Test(
        "a phone standing still (reporting 0 m/s) leaks jitter below ~2.5 × its accuracy, under every distance rule",
        arguments: [
            DeliveryModel.coreLocation, .androidFused(interval: 1, minUpdateInterval: nil), .speedElastic(elasticityMultiplier: 1),
            .distanceAndTime(interval: 1), .distanceOrTime(interval: 300),
        ])
    func stationaryJitter(model: DeliveryModel) {
        // Two fixes' separation has σ = accuracy per axis, so one step leaks with probability
        // exp(-r² / 2A²): 0.61 at r = A, 0.044 at 2.5 A, 0.011 at 3 A. Measured over 5 × 1,000
        // fixes (seeds 1…5) with A = 10 m: 60.0 % at 1 ×, 5.0 % at 2.5 ×, 1.5 % at 3 ×, the same
        // under each model here (1 s fixes clear the time rules; the phone reports 0 m/s). The
        // 300 s heartbeat adds at most 3 updates per 1,000 fixes.
        let rate = Self.leakRates(model, speed: 0)
        #expect(rate[1]! > 0.45 && rate[1]! < 0.75, "1 × accuracy: \(rate[1]!)")
        #expect(rate[2.5]! < 0.08, "2.5 × accuracy: \(rate[2.5]!)")
        #expect(rate[3]! < 0.03, "3 × accuracy: \(rate[3]!)")
        #expect(rate[1]! > 8 * rate[2.5]!)
    }

    @Test("without a reported speed, speed-elastic reads leaked jitter as movement and all but stops it")
    func stationaryJitterDerivedSpeed() {
        // A leak through a filter of F, Δt seconds after the last delivered fix, derives F / Δt
        // or more: 1 s after it, ≥ 10 m/s for F = 10 m, which doubles the filter, so the next leak
        // must be farther and again reads as faster. The filter ratchets up until leaks stop.
        // Measured (seeds 1…5, per fix after the first): 0.38 %, 0.30 % and 0.50 % at 1, 2.5 and
        // 3 × A, against 59.9 %, 4.9 % and 1.4 % when the phone reports 0 m/s. So a replay of a
        // recording without speeds under this model understates a still phone's jitter; give
        // speeds (a still phone's 0) when the recording has them.
        let derived = Self.leakRates(.speedElastic(elasticityMultiplier: 1), speed: nil)
        let reported = Self.leakRates(.speedElastic(elasticityMultiplier: 1), speed: 0)
        #expect(derived[1]! < 0.02 && reported[1]! > 0.45, "1 × accuracy: \(derived[1]!) derived, \(reported[1]!) reported")
        #expect(derived[2.5]! < 0.5 * reported[2.5]!, "2.5 × accuracy: \(derived[2.5]!) against \(reported[2.5]!)")
        #expect(derived[3]! < 0.02, "3 × accuracy: \(derived[3]!) against \(reported[3]!)")
        // Under the other models a missing speed changes nothing.
        #expect(Self.leakRates(.coreLocation, speed: nil) == Self.leakRates(.coreLocation, speed: 0))
    }

    @Test("the seed's filters against a still phone at each live tier's nominal accuracy")
    func seedFilters() {
        var measured: [FulfilmentState: (seed: Int, loose: Int)] = [:]
        // The README's figures, written out: each state's tier, the seed's filter, and the tier's
        // nominal accuracy (the upper end of its range) that the still phone's jitter has.
        let expected: [(FulfilmentState, AccuracyTier, filter: Double, accuracy: Double)] = [
            (.enRoute, .nearestTenMeters, 30, 10), (.atPickup, .bestForNavigation, 13, 5), (.inTask, .hundredMeters, 160, 100),
        ]
        for (state, tier, filter, accuracy) in expected {
            let row = SharingPolicy.seed[state]
            #expect(
                row.tier == tier && row.distanceFilter == filter && row.delivery == .coreLocation && row.accuracyGate == nil, "\(state)")
            #expect(tier.nominalAccuracy?.upperBound == accuracy, "\(tier)")
            let fixes = Self.standingStill(accuracy: accuracy, count: 1000, seed: 7)
            var g = UpdateGate(row, exact: Geodesic())
            var loose = UpdateGate(tier: row.tier, distanceFilter: accuracy, exact: Geodesic())
            measured[state] = (
                fixes.enumerated().filter { g.offer($0.element, at: Double($0.offset)) }.count,
                fixes.enumerated().filter { loose.offer($0.element, at: Double($0.offset)) }.count
            )
            #expect(measured[state]!.loose > 450, "\(state) with a filter of 1 × accuracy: \(measured[state]!.loose) of 1000")
        }
        // En Route (30 m, 3 × NearestTenMeters' 10 m) and At Pickup (13 m, 2.6 × BestForNavigation's
        // 5 m) hold a still phone to a few updates (the README's figures: 1 and 26 of 1,000; 590
        // with 1 × A). In Task's 160 m is 1.6 × HundredMeters' nominal 100 m (docs/battery-model.md's
        // "jitter-safe" value assumes fixes better than nominal): at the nominal accuracy it leaks
        // (the README: 258). Asserted as claimed with a margin for other libm (about ±15 %, and 2
        // for En Route's 1): a last-bit change of the jitter can move one fix across a filter,
        // and the filter then measures the fixes after it from another point.
        #expect((0...3).contains(measured[.enRoute]!.seed), "\(measured[.enRoute]!.seed)")
        #expect((22...30).contains(measured[.atPickup]!.seed), "\(measured[.atPickup]!.seed)")
        #expect((220...296).contains(measured[.inTask]!.seed), "\(measured[.inTask]!.seed)")
    }
}
