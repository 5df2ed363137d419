import Testing
import TraceGeodesy
import TraceSharing
import TraceSimulation
import TraceSmoothing

/// Long traces: the local frame is re-anchored as the track moves, without losing precision.
@Suite("Re-anchoring on long traces")
struct ReanchoringTests {
    /// A motorway drive: 30 m/s ± 10 %, gentle bends of 5–15°, long legs, few stops (assumed).
    static let motorway = MotionProfile(
        cruiseSpeed: 30, speedVariation: 0.1, acceleration: 1, turnRate: 0.05, lateralAcceleration: 1.5, turnSpeedFactor: 0.9,
        legDuration: 300...900, turnAngle: 5...15, stopProbability: 0.02, stopDuration: 30...120)

    /// Observes a track as coordinates (truth + white noise in the origin's plane), smooths them
    /// with `reanchorDistance`, and returns the errors in the origin's plane, metres.
    static func errors(_ track: SimulatedTrack, sigma: Double, reanchorDistance: Double, smoothing: Bool = true)
        -> (raw: [Double], smoothed: [Double], smoother: TrackSmoother)
    {
        var configuration = SmoothingConfiguration(tier: .bestForNavigation, mode: .drive)!
        configuration.reanchorDistance = reanchorDistance
        var noise = WhiteNoise(sigma: sigma, seed: 77)
        let observed = track.observe(noise: &noise)
        let plane = LocalFrame(origin: track.origin)
        var smoother = TrackSmoother(configuration: configuration, capacity: track.count)
        for i in 0..<track.count {
            let c = plane.coordinate(at: EastNorth(east: observed.east[i], north: observed.north[i]))!
            smoother.append(c, time: track.times[i], accuracy: sigma * 2.0.squareRoot())
        }
        _ = smoother.run(smoothing: smoothing)
        var raw: [Double] = [], smoothed: [Double] = []
        for i in 0..<track.count {
            let s = plane.eastNorth(of: smoother.coordinate(at: i))
            raw.append(((observed.east[i] - track.east[i]) * (observed.east[i] - track.east[i]) + (observed.north[i] - track.north[i]) * (observed.north[i] - track.north[i])).squareRoot())
            smoothed.append(((s.east - track.east[i]) * (s.east - track.east[i]) + (s.north - track.north[i]) * (s.north - track.north[i])).squareRoot())
        }
        return (raw, smoothed, smoother)
    }

    static func rms<C: Collection<Double>>(_ xs: C) -> Double { (xs.reduce(0) { $0 + $1 * $1 } / Double(xs.count)).squareRoot() }

    @Test("a 500 km drive: the error stays the same from the first 50 km to the last, re-anchored or not")
    func longDrive() {
        var generator = TrajectoryGenerator(profile: Self.motorway, origin: Coordinate(uncheckedLatitude: 46.2, longitude: 6.1), seed: 5)
        let track = generator.generate(duration: 18_000, interval: 1, jitter: 0.1)
        let last = track.count - 1
        let reach = (track.east[last] * track.east[last] + track.north[last] * track.north[last]).squareRoot()
        #expect(reach > 250_000, "the drive ends \(reach) m from its start")
        let anchored = Self.errors(track, sigma: 3.5, reanchorDistance: 10_000)
        let single = Self.errors(track, sigma: 3.5, reanchorDistance: .infinity)
        #expect(anchored.smoother.configuration.reanchorDistance == 10_000)
        // Over the whole drive and over its first and last ~50 km (1,700 fixes at 30 m/s).
        let head = 0..<1700, tail = (track.count - 1700)..<track.count
        for (name, range) in [("all", 0..<track.count), ("first 50 km", head), ("last 50 km", tail)] {
            let raw = Self.rms(anchored.raw[range]), a = Self.rms(anchored.smoothed[range]), s = Self.rms(single.smoothed[range])
            #expect(1 - a / raw >= 0.40, "\(name): re-anchored RMSE \(a) m against raw \(raw) m")
            #expect(abs(a - s) <= 0.02 * s, "\(name): re-anchored \(a) m, single frame \(s) m")
        }
        #expect(abs(Self.rms(anchored.smoothed[tail]) / Self.rms(anchored.raw[tail]) - Self.rms(anchored.smoothed[head]) / Self.rms(anchored.raw[head])) < 0.1)
    }

    @Test("re-anchoring every kilometre gives the same estimates as one frame on a 30 km drive (to 2 cm)")
    func transparent() {
        var generator = TrajectoryGenerator(profile: .drive, origin: Coordinate(uncheckedLatitude: 59.3, longitude: 18.0), seed: 6)
        let track = generator.generate(duration: 2400)
        for smoothing in [false, true] {
            let often = Self.errors(track, sigma: 3.5, reanchorDistance: 1000, smoothing: smoothing)
            let never = Self.errors(track, sigma: 3.5, reanchorDistance: .infinity, smoothing: smoothing)
            var worst = 0.0
            for i in 0..<track.count {
                worst = max(worst, TangentPlane.distanceIfNear(from: often.smoother.coordinate(at: i), to: never.smoother.coordinate(at: i))!)
            }
            #expect(worst < 0.02, "smoothing \(smoothing): largest difference \(worst) m")
        }
    }

    @Test("the online TrackFilter gives the forward pass's estimates, frame changes included")
    func onlineFilterMatchesForwardPass() {
        var generator = TrajectoryGenerator(profile: .drive, origin: Coordinate(uncheckedLatitude: -33.9, longitude: 151.2), seed: 7)
        let track = generator.generate(duration: 1200, interval: 2)
        let forward = Self.errors(track, sigma: 3.5, reanchorDistance: 2000, smoothing: false)
        var configuration = SmoothingConfiguration(tier: .bestForNavigation, mode: .drive)!
        configuration.reanchorDistance = 2000
        var online = TrackFilter(configuration: configuration)
        #expect(online.estimate == nil && online.sigma == nil)
        var noise = WhiteNoise(sigma: 3.5, seed: 77)
        let observed = track.observe(noise: &noise)
        let plane = LocalFrame(origin: track.origin)
        for i in 0..<track.count {
            let c = plane.coordinate(at: EastNorth(east: observed.east[i], north: observed.north[i]))!
            #expect(online.update(c, time: track.times[i], accuracy: 3.5 * 2.0.squareRoot()) == forward.smoother.outcome(at: i))
            let d = TangentPlane.distanceIfNear(from: online.estimate!, to: forward.smoother.coordinate(at: i))!
            #expect(d < 1e-6)
            #expect(abs(online.sigma! - forward.smoother.sigma(at: i)) < 1e-9)
        }
        #expect(online.reanchors > 3)
    }
}
