import TestSupport
import Testing
import TraceDevice
import TraceGeodesy
import TraceProj
import TraceSharing
import TraceSmoothing

/// The pipeline around the gate: the default is the plain gate, rows and actions are forwarded,
/// smoothing continues across a tier change and restarts after location off.
@Suite("Phone emulator (pipeline)")
struct PhoneEmulatorTests {
    /// A jittery walk north-east at about 1.5 m/s: 2,000 fixes, 1 s apart, with accuracies
    /// 3–40 m and speeds 0–2 m/s, some without either.
    static func walk(seed: UInt64) -> [(Coordinate, Double, Double?, Double?)] {
        var rng = SplitMix64(seed: seed)
        var lat = 47.0, lon = 8.0
        return (0..<2000).map { i in
            lat += (1 + 1.4 * rng.uniform(-1, 1)) / 111_195
            lon += (1 + 1.4 * rng.uniform(-1, 1)) / 75_800
            let c = Coordinate(uncheckedLatitude: lat + rng.uniform(-4, 4) / 111_195, longitude: lon + rng.uniform(-4, 4) / 75_800)
            return (c, Double(i) + rng.uniform(0, 0.5), i % 7 == 0 ? nil : rng.uniform(3, 40), i % 5 == 0 ? nil : rng.uniform(0, 2))
        }
    }

    @Test(
        "off by default: every outcome is the fix itself and the gate's answer, through every state and model",
        arguments: [
            nil, DeliveryModel.androidFused(interval: 5, minUpdateInterval: nil), .speedElastic(elasticityMultiplier: 1),
            .distanceOrTime(interval: 20),
        ])
    func offByDefault(override: DeliveryModel?) throws {
        var policy = SharingPolicy.seed
        policy[.enRoute].accuracyGate = AccuracyGate(maximumAccuracy: 25)
        var machine = FulfilmentMachine(category: .ride, policy: policy)
        var phone = PhoneEmulator(
            PhoneConfiguration(seed: 99, deliveryOverride: override), role: .helper, row: policy[machine.state], exact: Geodesic())
        var gate = UpdateGate(policy[machine.state], exact: Geodesic())
        gate.deliveryOverride = override
        let events: [FulfilmentEvent] = [.accept, .depart, .arrive, .startTask, .finishTask, .confirmPayment]
        var delivered = 0
        for (i, fix) in Self.walk(seed: 3).enumerated() {
            if i % 300 == 299, i / 300 < events.count {
                let action = try machine.handle(events[i / 300])
                phone.apply(action)
                gate.apply(action)
            }
            let o = phone.offer(fix.0, at: fix.1, accuracy: fix.2, speed: fix.3)
            let expected = gate.offer(fix.0, at: fix.1, accuracy: fix.2, speed: fix.3)
            #expect(o.delivered == expected && o.coordinate == fix.0 && o.accuracy == fix.2, "fix \(i)")
            delivered += o.delivered ? 1 : 0
        }
        #expect(phone.tier == .off)
        #expect(delivered > 30, "the walk is long enough to deliver (measured 44–47): \(delivered)")
        #expect(
            PhoneConfiguration()
                == PhoneConfiguration(accuracyEmulation: .off, seed: 0, smoothing: .off, convention: .ios, deliveryOverride: nil))
    }

    @Test("rows are forwarded to the gate: filter, model, override")
    func rowsForwarded() {
        var phone = PhoneEmulator(
            PhoneConfiguration(deliveryOverride: .distanceAndTime(interval: 10)), role: .hirer, row: Fixture.row(.best, filter: 30),
            exact: Geodesic())
        #expect(phone.gate.delivery == .distanceAndTime(interval: 10) && phone.gate.distanceFilter == 30)
        phone.apply(Fixture.row(.bestForNavigation, filter: 13, delivery: .androidFused(interval: 5, minUpdateInterval: nil)))
        #expect(
            phone.gate.delivery == .distanceAndTime(interval: 10) && phone.gate.distanceFilter == 13 && phone.tier == .bestForNavigation)
    }

    @Test("location off delivers nothing, with every option on, and forgets the last delivered fix")
    func tierOff() {
        let configuration = PhoneConfiguration(accuracyEmulation: .gaussMarkov(), seed: 5, smoothing: .on(mode: .walk))
        var phone = PhoneEmulator(configuration, role: .helper, row: Fixture.row(.off), exact: Geodesic())
        for t in 0..<100 {
            let o = phone.offer(Fixture.still, at: Double(t), accuracy: 3, speed: 0)
            #expect(!o.delivered && o.coordinate == Fixture.still && o.accuracy == 3)
        }
        phone.apply(Fixture.row(.best, filter: 1000))
        #expect(phone.offer(Fixture.still, at: 100, accuracy: 3, speed: 0).delivered, "the first fix with location on")
        #expect(phone.gate.lastDelivered != nil)
        phone.apply(Fixture.row(.off))
        #expect(phone.gate.lastDelivered == nil)
        #expect(!phone.offer(Fixture.still, at: 101, accuracy: 3, speed: 0).delivered)
    }

    @Test("smoothing: one filter per phone, re-configured at a tier change, restarted after location off")
    func smoothingAcrossTierChanges() {
        let configuration = PhoneConfiguration(smoothing: .on(mode: .walk))
        let north = { (m: Double) in try! Coordinate(latitude: 45 + m / 111_131.745, longitude: 7) }
        // "At the fix": through the frame and back, within nanometres.
        let at = { (o: PhoneOutcome, m: Double) in
            let d = Fixture.offset(of: o.coordinate, from: north(m))
            return (d.east * d.east + d.north * d.north).squareRoot()
        }
        var phone = PhoneEmulator(configuration, role: .helper, row: Fixture.row(.best), exact: Geodesic())
        let first = phone.offer(north(0), at: 0, accuracy: 8, speed: nil)
        #expect(at(first, 0) < 1e-9)
        // σ of the first estimate is the fix's: 8/√2 per axis, reported back as 8 m (iOS).
        #expect(abs(first.accuracy! - 8) < 1e-12)
        // A fix 10 m north is pulled towards the estimate.
        let second = phone.offer(north(10), at: 1, accuracy: 8, speed: nil)
        let pulled = Fixture.offset(of: second.coordinate, from: north(0)).north
        #expect(pulled > 1 && pulled < 9.9, "\(pulled)")
        #expect(second.accuracy! < 8)
        // The same tier again: the filter continues.
        phone.apply(Fixture.row(.best, filter: 5))
        let third = phone.offer(north(10), at: 2, accuracy: 8, speed: nil)
        #expect(at(third, 10) > 0.1, "\(at(third, 10))")
        // Another tier: the filter continues too, now with HundredMeters' 25 m floor, so the fix
        // (8 m, floored) pulls the estimate less than it would at Best.
        var stayed = phone
        phone.apply(Fixture.row(.hundredMeters))
        let fourth = phone.offer(north(10), at: 3, accuracy: 8, speed: nil)
        let fourthAtBest = stayed.offer(north(10), at: 3, accuracy: 8, speed: nil)
        #expect(at(fourth, 10) > 0.1, "not restarted at the fix: \(at(fourth, 10)) m")
        #expect(at(fourth, 10) > at(fourthAtBest, 10), "\(at(fourth, 10)) m against \(at(fourthAtBest, 10)) m at Best")
        // Location off forgets the filter: the first fix after it starts a new one there.
        phone.apply(Fixture.row(.off))
        phone.apply(Fixture.row(.nearestTenMeters))
        let fifth = phone.offer(north(50), at: 10, accuracy: 8, speed: nil)
        #expect(at(fifth, 50) < 1e-8)
        #expect(abs(fifth.accuracy! - 8) < 1e-12)
    }

    @Test("an accuracy of 0 is none: the smoothing filter uses the tier's nominal σ, not its floor")
    func zeroAccuracy() {
        var phone = PhoneEmulator(PhoneConfiguration(smoothing: .on(mode: .walk)), role: .hirer, row: Fixture.row(.best), exact: Geodesic())
        let o = phone.offer(Fixture.still, at: 0, accuracy: 0, speed: nil)
        // Best's nominal 10 m (σ 10/√2 per axis), reported back in iOS terms; the floor would give 3√2.
        #expect(abs(o.accuracy! - 10) < 1e-9, "\(o.accuracy!)")
        var none = PhoneEmulator(PhoneConfiguration(smoothing: .on(mode: .walk)), role: .hirer, row: Fixture.row(.best), exact: Geodesic())
        #expect(none.offer(Fixture.still, at: 0, accuracy: nil, speed: nil).accuracy == o.accuracy)
    }
}
