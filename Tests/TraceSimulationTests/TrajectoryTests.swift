import Testing
import TraceGeodesy
import TraceSimulation

@Suite("Ground-truth generator")
struct TrajectoryTests {
    static let origin = Coordinate(uncheckedLatitude: 47.37, longitude: 8.54)

    @Test("a seed gives the same track; another seed another", arguments: ["walk", "bike", "drive"])
    func determinism(mode: String) {
        let profile: MotionProfile = mode == "walk" ? .walk : mode == "bike" ? .bike : .drive
        var a = TrajectoryGenerator(profile: profile, origin: Self.origin, seed: 11)
        var b = TrajectoryGenerator(profile: profile, origin: Self.origin, seed: 11)
        var c = TrajectoryGenerator(profile: profile, origin: Self.origin, seed: 12)
        let ta = a.generate(duration: 1800, interval: 1, jitter: 0.3)
        #expect(ta == b.generate(duration: 1800, interval: 1, jitter: 0.3))
        #expect(ta != c.generate(duration: 1800, interval: 1, jitter: 0.3))
    }

    @Test("motion is physical: speed and acceleration bounded, stops and turns present", arguments: ["walk", "bike", "drive"])
    func physical(mode: String) {
        let profile: MotionProfile = mode == "walk" ? .walk : mode == "bike" ? .bike : .drive
        var g = TrajectoryGenerator(profile: profile, origin: Self.origin, seed: 21)
        let t = g.generate(duration: 3 * 3600, interval: 1, jitter: 0.25)
        let maxSpeed = profile.cruiseSpeed * (1 + profile.speedVariation)
        var stoppedSamples = 0, headingChanges = 0
        for i in 1..<t.count {
            let dt = t.times[i] - t.times[i - 1]
            #expect(dt >= 0.75 - 1e-9 && dt <= 1.25 + 1e-9)
            let v0 = (t.velocityEast[i - 1], t.velocityNorth[i - 1]), v1 = (t.velocityEast[i], t.velocityNorth[i])
            let s0 = (v0.0 * v0.0 + v0.1 * v0.1).squareRoot(), s1 = (v1.0 * v1.0 + v1.1 * v1.1).squareRoot()
            #expect(s1 <= maxSpeed + 1e-9)
            #expect(abs(s1 - s0) <= profile.acceleration * dt + 1e-6)
            // Displacement between samples is at most the top speed × dt.
            let d =
                ((t.east[i] - t.east[i - 1]) * (t.east[i] - t.east[i - 1]) + (t.north[i] - t.north[i - 1]) * (t.north[i] - t.north[i - 1]))
                .squareRoot()
            #expect(d <= maxSpeed * dt + 1e-6)
            if s1 == 0 { stoppedSamples += 1 }
            if s0 > 0.1 && s1 > 0.1 && (v0.0 * v1.1 - v0.1 * v1.0) / (s0 * s1) > 0.01 { headingChanges += 1 }
        }
        #expect(stoppedSamples > 30, "\(mode): no stops")
        #expect(headingChanges > 20, "\(mode): no turns")
        // The truth maps to coordinates near the origin's frame.
        let end = t.coordinate(at: t.count - 1)
        #expect(end != nil)
    }

    @Test("observations: truth plus noise, spikes only where flagged and never in the first fixes")
    func observations() {
        var g = TrajectoryGenerator(profile: .walk, origin: Self.origin, seed: 31)
        let t = g.generate(duration: 2000)
        var noise = WhiteNoise(sigma: 3, seed: 1)
        let o = t.observe(noise: &noise, spikes: SpikeInjector(probability: 0.05, sigma: 3, seed: 2))
        #expect(o.east.count == t.count && !o.isSpike.prefix(10).contains(true))
        var spikes = 0
        for i in 0..<t.count {
            let e = ((o.east[i] - t.east[i]) * (o.east[i] - t.east[i]) + (o.north[i] - t.north[i]) * (o.north[i] - t.north[i])).squareRoot()
            if o.isSpike[i] {
                spikes += 1
                #expect(e > 30 - 6 * 3)  // ≥ 10σ spike, less at most a 6σ-ish noise sample
            } else {
                #expect(e < 6 * 3)
            }
        }
        #expect(spikes > 50)
    }
}
