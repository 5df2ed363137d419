import Testing
import TraceDomain
import TraceEnergy
import TraceJSON
import TraceSharing

@Suite("Energy meter")
struct EnergyMeterTests {
    @Test("time per tier accumulates in MetricKit's buckets; off counts apart")
    func timePerTier() {
        var meter = EnergyMeter(start: 1000, tier: .nearestTenMeters)
        meter.setTier(.best, at: 1100)
        meter.setTier(.off, at: 1160)
        meter.setTier(.bestForNavigation, at: 1200)
        meter.setTier(.bestForNavigation, at: 1230)  // no change: still one bucket
        meter.setTier(.kilometer, at: 1260)
        let e = meter.estimate(at: 1300)
        #expect(e.tierSeconds[.nearestTenMeters] == 100)
        #expect(e.tierSeconds[.best] == 60)
        #expect(e.tierSeconds[.off] == 40)
        #expect(e.tierSeconds[.bestForNavigation] == 60)
        #expect(e.tierSeconds[.kilometer] == 40)
        #expect(e.tierSeconds[.hundredMeters] == 0 && e.tierSeconds[.threeKilometers] == 0)
        #expect(e.tierSeconds.activeSeconds == 260 && e.tierSeconds.totalSeconds == 300 && e.durationSeconds == 300)
        // Σ P_loc × seconds with the powers of docs/battery-model.md, in joules.
        let milliJoules: Double = 145 * 100 + 290 * 60 + 425 * 60 + 8 * 40
        let location = milliJoules / 1000
        #expect(abs(e.locationJoules - location) < 1e-12)
        // estimate(at:) leaves the meter as it was: a later estimate counts on.
        #expect(meter.estimate(at: 1400).tierSeconds[.kilometer] == 140)
        #expect(
            TierSeconds.metricKitOrder.map { $0.metricKitName ?? "" } == [
                "cumulativeBestAccuracyForNavigationTime", "cumulativeBestAccuracyTime", "cumulativeNearestTenMetersAccuracyTime",
                "cumulativeHundredMetersAccuracyTime", "cumulativeKilometerAccuracyTime", "cumulativeThreeKilometersAccuracyTime",
            ])
        #expect(AccuracyTier.off.metricKitName == nil)
    }

    @Test("the parts stay separate; totals in J, mAh and mAh per hour")
    func parts() throws {
        // One hour at NearestTenMeters, a fix delivered every 10 s, one sent every 60 s.
        var meter = EnergyMeter(profile: .lte, start: 0, tier: .nearestTenMeters)
        for k in 0..<360 { meter.deliverFix(); if k % 6 == 0 { meter.send(at: Double(k) * 10) }; meter.travel(metres: 12.5) }
        let e = meter.estimate(at: 3600)
        let location = 0.145 * 3600.0
        let fixes = 360 * 0.050
        let radio = 60 * (1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12)
        #expect(abs(e.locationJoules - location) < 1e-9)
        #expect(abs(e.fixesJoules - fixes) < 1e-12)
        #expect(abs(e.radio.totalJoules - radio) < 1e-9)
        #expect(abs(e.totalJoules - (location + fixes + radio)) < 1e-9)
        #expect(abs(e.milliampHours - (location + fixes + radio) / 13.86) < 1e-9)
        #expect(abs(try #require(e.milliampHoursPerHour) - (location + fixes + radio) / 13.86) < 1e-9)  // exactly one hour
        #expect(abs(try #require(e.averageMilliwatts) - (location + fixes + radio) / 3.6) < 1e-9)
        #expect(e.sent == 60 && e.received == 0 && e.radioPromotions == 60 && e.deliveredFixes == 360)
        #expect(e.distanceMetres == 4500)
        // Radio ≈ 670 J against location 522 J and fixes 18 J.
        let d = try #require(e.dominant)
        #expect(d.part == .radio)
        #expect(abs(d.share - radio / (location + fixes + radio)) < 1e-12)
        #expect(e.label == "tracekit-energy 1, profile lte")
    }

    @Test("what dominates: the largest part; nothing when nothing was spent")
    func dominance() throws {
        var meter = EnergyMeter(profile: .lteModern, start: 0, tier: .bestForNavigation)
        meter.send(at: 0)
        let e = meter.estimate(at: 600)  // 255 J of GNSS against one update's ≈ 5.5 J
        let d = try #require(e.dominant)
        #expect(d.part == .location && d.joules == e.locationJoules)
        #expect(abs(d.share - 255 / (255 + 1.210 * 0.26 + 1.2 * 0.1 + 0.5 * 10.12)) < 1e-12)
        #expect(EnergyMeter(start: 0).estimate(at: 100).dominant == nil)
        #expect(EnergyMeter(start: 0).estimate(at: 0).milliampHoursPerHour == nil)
    }

    @Test("no rate from less than 300 s covered: mAh/h and mW are withheld, and the estimate says why")
    func minimumRateSeconds() throws {
        #expect(EnergyEstimate.minimumRateSeconds == 300)
        var meter = EnergyMeter(profile: .lte, start: 0, tier: .bestForNavigation)
        meter.send(at: 0)
        // A zero-length trip and a very short one (a 44 s watch route): the one send's tail alone
        // would read as 10.7 J / 44 s ≈ 250 mW, whatever the phone draws over an hour.
        for (seconds, covered) in [(0.0, "0 s"), (3.437e-7, "under 0.001 s"), (0.25, "0.250 s"), (44, "44 s"), (299.96, "299.9 s")] {
            let e = meter.estimate(at: seconds)
            #expect(e.milliampHoursPerHour == nil && e.averageMilliwatts == nil, "\(seconds) s")
            #expect(e.rateWithheld == "\(covered) covered; rates need at least 300 s")
            #expect(e.milliampHours > 0)
            let json = JSONWriter.compact(e.json)
            #expect(
                json.contains("\"milliampHoursPerHour\":null,\"averageMilliwatts\":null,\"rateWithheld\":\"\(covered) covered; rates need"))
        }
        let e = meter.estimate(at: 300)
        #expect(e.rateWithheld == nil)
        #expect(abs(try #require(e.milliampHoursPerHour) - e.milliampHours * 12) < 1e-9)
        #expect(abs(try #require(e.averageMilliwatts) - e.totalJoules * 1000 / 300) < 1e-9)
        #expect(JSONWriter.compact(e.json).contains("\"rateWithheld\":null"))
    }

    @Test("received updates share the phone's radio with its sends")
    func receives() {
        var meter = EnergyMeter(start: 0)
        meter.send(at: 10)
        #expect(meter.receive(at: 13) == .sharedTail(tailSeconds: 13 - (10 + 0.26 + 0.1)))
        let e = meter.estimate(at: 100)
        #expect(e.sent == 1 && e.received == 1 && e.radioPromotions == 1)
        #expect(abs(e.radio.totalJoules - (1.210 * 0.26 + 2 * 1.2 * 0.1 + 1.06 * 2.64 + 1.06 * 10.12)) < 1e-9)
    }

    @Test("the same events give identical estimates and JSON")
    func deterministic() {
        func run() -> EnergyEstimate {
            var meter = EnergyMeter(profile: .threeG, start: 0, tier: .hundredMeters)
            var t = 0.0
            for k in 0..<2000 {
                t += Double((k * 7919) % 13) + 0.5
                if k % 50 == 0 { meter.setTier(AccuracyTier.allCases[(k / 50) % 7], at: t) }
                meter.deliverFix()
                if k % 3 == 0 { meter.send(at: t) }
                meter.travel(metres: Double(k % 17))
            }
            return meter.estimate(at: t + 30)
        }
        let a = run(), b = run()
        #expect(a == b)
        #expect(JSONWriter.string(a.json) == JSONWriter.string(b.json))
        #expect(a.totalJoules.bitPattern == b.totalJoules.bitPattern)
    }

    @Test("the estimate's JSON names model, version, profile and its assumptions")
    func json() throws {
        var meter = EnergyMeter(profile: .wifi, start: 0, tier: .best)
        meter.send(at: 1)
        let v = meter.estimate(at: 10).json
        #expect(v["model"] == .string("tracekit-energy"))
        #expect(v["modelVersion"] == .number(1))
        #expect(v["profile"] == .string("wifi"))
        #expect(v["estimate"] == .bool(true))
        #expect(v["tierSeconds"]?["cumulativeBestAccuracyTime"] == .number(10))
        let assumed = try #require(v["assumed"])
        #expect(
            assumed
                == .array(
                    [
                        "locationMilliwatts.bestForNavigation", "locationMilliwatts.best", "locationMilliwatts.nearestTenMeters",
                        "locationMilliwatts.hundredMeters", "locationMilliwatts.kilometer", "locationMilliwatts.threeKilometers",
                        "fixMillijoules", "referenceBatteryMilliampHours", "radio.transmitSeconds", "radio.tailMilliwatts",
                    ].map { .string($0) }))
        #expect(v["dominant"]?["part"] == .string("location"))
    }
}
