import TraceGeodesy
import TraceSimulation

/// A traveller's legs, built from ``TrajectoryGenerator`` tracks and placed on the trip's clock
/// and plane.
///
/// The generator wanders (legs, turns, stops) from the origin; a trip needs legs that end at a
/// pickup or return home. So a leg is generated long enough, cut where its path length reaches
/// the wanted distance, brought to rest at the profile's deceleration, optionally closed into a
/// loop, and then translated so it starts or ends where the trip needs it.
struct LegBuilder {
    var random: SeededRandom

    /// A leg of about `length` metres with `profile`, sampled as `sampling` says, whose samples
    /// are in the generator's plane (starting at 0, 0 at time 0) and which ends at rest.
    mutating func leg(_ profile: MotionProfile, length: Double, sampling: Sampling) -> [TruthSample] {
        var duration = 2 * length / profile.cruiseSpeed + 120
        while true {
            var generator = TrajectoryGenerator(profile: profile, origin: Self.planeOrigin, seed: random.next())
            let track = generator.generate(duration: duration, interval: sampling.interval, jitter: sampling.jitter)
            if let cut = Self.prefix(of: track, length: length) {
                return Self.comingToRest(cut, deceleration: profile.acceleration, sampling: sampling, random: &random)
            }
            duration *= 2  // too many stops to cover the distance: generate a longer track
        }
    }

    /// A walk of about `duration` seconds that ends where it started: the best closing of
    /// `candidates` generated walks (the one whose end is nearest its start for its length),
    /// closed by spreading the remaining gap along the path (see ``closed(_:)``).
    mutating func loop(_ profile: MotionProfile, duration: Double, sampling: Sampling, candidates: Int = 12) -> [TruthSample] {
        var best: [TruthSample] = []
        var bestRatio = Double.infinity
        for _ in 0..<candidates {
            var generator = TrajectoryGenerator(profile: profile, origin: Self.planeOrigin, seed: random.next())
            let track = generator.generate(duration: duration, interval: sampling.interval, jitter: sampling.jitter)
            let samples = Self.comingToRest(
                Self.samples(of: track, upTo: track.count), deceleration: profile.acceleration, sampling: sampling, random: &random)
            let path = Self.pathLength(samples)
            let gap = Self.distance(samples[0], samples[samples.count - 1])
            if path > 0, gap / path < bestRatio {
                bestRatio = gap / path
                best = samples
            }
        }
        return Self.closed(best)
    }

    /// Samples at rest at (`east`, `north`) from `start` to `end` seconds (both included).
    mutating func dwell(east: Double, north: Double, from start: Double, to end: Double, sampling: Sampling) -> [TruthSample] {
        var out: [TruthSample] = []
        var t = start
        while t < end {
            out.append(TruthSample(time: t, east: east, north: north, velocityEast: 0, velocityNorth: 0))
            t += sampling.interval * (1 + sampling.jitter * random.uniform(-1, 1))
        }
        out.append(TruthSample(time: end, east: east, north: north, velocityEast: 0, velocityNorth: 0))
        return out
    }

    // MARK: - Plane operations

    /// Any origin: the generator's plane is only used for its east/north metres.
    static let planeOrigin = try! Coordinate(latitude: 0, longitude: 0)

    /// `samples` moved by (`east`, `north`) metres and `time` seconds.
    static func shifted(_ samples: [TruthSample], east: Double, north: Double, time: Double) -> [TruthSample] {
        samples.map {
            TruthSample(
                time: $0.time + time, east: $0.east + east, north: $0.north + north, velocityEast: $0.velocityEast,
                velocityNorth: $0.velocityNorth)
        }
    }

    /// `samples` placed to start at `time` at (`east`, `north`).
    static func starting(_ samples: [TruthSample], atEast east: Double, north: Double, time: Double) -> [TruthSample] {
        let first = samples.start
        return shifted(samples, east: east - first.east, north: north - first.north, time: time - first.time)
    }

    /// `samples` placed to end at (`east`, `north`), starting at `time`.
    static func ending(_ samples: [TruthSample], atEast east: Double, north: Double, startTime time: Double) -> [TruthSample] {
        let last = samples.end
        return shifted(samples, east: east - last.east, north: north - last.north, time: time - samples[0].time)
    }

    /// `samples` travelled backwards (the same path, back the way it came), starting at `time`.
    static func reversed(_ samples: [TruthSample], startTime time: Double) -> [TruthSample] {
        let end = samples.end.time
        return samples.reversed().map {
            TruthSample(
                time: time + (end - $0.time), east: $0.east, north: $0.north, velocityEast: -$0.velocityEast,
                velocityNorth: -$0.velocityNorth)
        }
    }

    /// Distance along the samples, metres.
    static func pathLength(_ samples: [TruthSample]) -> Double {
        var s = 0.0
        for i in samples.indices.dropFirst() { s += distance(samples[i - 1], samples[i]) }
        return s
    }

    static func distance(_ a: TruthSample, _ b: TruthSample) -> Double {
        let de = b.east - a.east, dn = b.north - a.north
        return (de * de + dn * dn).squareRoot()
    }

    private static func samples(of track: SimulatedTrack, upTo end: Int) -> [TruthSample] {
        (0..<end).map {
            TruthSample(
                time: track.times[$0], east: track.east[$0], north: track.north[$0],
                velocityEast: track.velocityEast[$0], velocityNorth: track.velocityNorth[$0])
        }
    }

    /// The samples of `track` up to the first whose path length reaches `length`, or nil when the
    /// track is shorter.
    private static func prefix(of track: SimulatedTrack, length: Double) -> [TruthSample]? {
        var s = 0.0
        for i in 1..<track.count {
            let de = track.east[i] - track.east[i - 1], dn = track.north[i] - track.north[i - 1]
            s += (de * de + dn * dn).squareRoot()
            if s >= length { return samples(of: track, upTo: i + 1) }
        }
        return nil
    }

    /// `samples` followed by a straight stop at `deceleration` m/s² from the last sample's
    /// velocity, sampled as `sampling` says; the last sample is at rest.
    private static func comingToRest(_ samples: [TruthSample], deceleration a: Double, sampling: Sampling, random: inout SeededRandom)
        -> [TruthSample]
    {
        var out = samples
        let last = samples[samples.count - 1]
        let v = last.speed
        guard v > 0 else { return out }
        let ue = last.velocityEast / v, un = last.velocityNorth / v
        let stop = v / a
        var tau = 0.0
        while true {
            tau += sampling.interval * (1 + sampling.jitter * random.uniform(-1, 1))
            let t = min(tau, stop)
            let along = v * t - 0.5 * a * t * t
            let speed = v - a * t
            out.append(
                TruthSample(
                    time: last.time + t, east: last.east + ue * along, north: last.north + un * along,
                    velocityEast: ue * speed, velocityNorth: un * speed))
            if tau >= stop { return out }
        }
    }

    /// A track bent to end where it starts: each sample moves back by the gap between end and
    /// start times the fraction of the path walked so far, p′ = p − (s/S)·(end − start), so a
    /// pause stays a pause (no drift while at rest) and each velocity changes by
    /// −|v|·(end − start)/S (a small, constant fraction of the speed when the gap is small
    /// against the path).
    private static func closed(_ samples: [TruthSample]) -> [TruthSample] {
        let total = pathLength(samples)
        let first = samples[0], last = samples[samples.count - 1]
        let ge = last.east - first.east, gn = last.north - first.north
        guard total > 0 else { return samples }
        var out = samples
        var s = 0.0
        for i in samples.indices {
            if i > 0 { s += distance(samples[i - 1], samples[i]) }
            let f = s / total
            let speed = samples[i].speed
            out[i].east -= f * ge
            out[i].north -= f * gn
            out[i].velocityEast -= speed * ge / total
            out[i].velocityNorth -= speed * gn / total
        }
        out[out.count - 1].east = first.east
        out[out.count - 1].north = first.north
        return out
    }
}
