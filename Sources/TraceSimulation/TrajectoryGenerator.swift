public import TraceGeodesy

/// A simulated ground truth: true positions and velocities in a local east/north plane (metres)
/// about `origin`, at increasing times (seconds from the start). Struct of arrays.
public struct SimulatedTrack: Sendable, Hashable {
    /// Where east = north = 0.
    public var origin: Coordinate
    /// Seconds since the start, increasing.
    public var times: [Double] = []
    /// True position, metres east and north of the origin in the plane.
    public var east: [Double] = []
    /// True position, metres north of the origin in the plane.
    public var north: [Double] = []
    /// True velocity, m/s east.
    public var velocityEast: [Double] = []
    /// True velocity, m/s north.
    public var velocityNorth: [Double] = []

    /// Number of samples.
    public var count: Int { times.count }

    /// The true position of sample `i` on the ellipsoid: the plane point mapped by
    /// ``LocalFrame`` about the origin (orthographic, so long tracks are compressed radially by
    /// cos(d/R), 0.3 % at 500 km; the coordinates are the truth either way). Nil only beyond the
    /// frame's horizon.
    public func coordinate(at i: Int) -> Coordinate? {
        LocalFrame(origin: origin).coordinate(at: EastNorth(east: east[i], north: north[i]))
    }

    /// Observations of this track: each true position plus the next error of `noise` and, where
    /// `spikes` fires, a spike on top (never on the first `spikeFreeStart` fixes, which start a
    /// filter). Errors are drawn in the plane, in metres.
    public func observe<Noise: PositionNoise>(noise: inout Noise, spikes: SpikeInjector? = nil, spikeFreeStart: Int = 10)
        -> SimulatedObservations
    {
        var out = SimulatedObservations()
        out.east.reserveCapacity(count)
        out.north.reserveCapacity(count)
        out.isSpike.reserveCapacity(count)
        var spikes = spikes
        for i in 0..<count {
            let e = noise.next(dt: i == 0 ? 0 : times[i] - times[i - 1])
            var de = e.east, dn = e.north
            var spiked = false
            if let s = spikes?.next(), i >= spikeFreeStart {
                de += s.east
                dn += s.north
                spiked = true
            }
            out.east.append(east[i] + de)
            out.north.append(north[i] + dn)
            out.isSpike.append(spiked)
        }
        return out
    }
}

/// Noisy observations of a ``SimulatedTrack``, in the same plane and order.
public struct SimulatedObservations: Sendable, Hashable {
    /// Observed position, metres east.
    public var east: [Double] = []
    /// Observed position, metres north.
    public var north: [Double] = []
    /// Whether a spike was injected into this fix.
    public var isSpike: [Bool] = []
}

/// A seeded generator of ground-truth tracks: legs at a cruising speed, turns at a bounded rate,
/// stops, with bounded accelerations, lateral ones included (``MotionProfile``).
///
/// Method: the motion is integrated in steps of at most 0.1 s (speed towards the leg's target
/// at the profile's acceleration, heading rotated at the turn rate) and sampled at `interval`
/// seconds, optionally jittered by ± `jitter` × `interval` for irregular sampling. Only IEEE
/// arithmetic is used (no libm), so a seed gives bit-identical tracks on every platform.
public struct TrajectoryGenerator: Sendable {
    /// How the traveller moves.
    public var profile: MotionProfile
    /// The position of the start.
    public var origin: Coordinate
    var random: SeededRandom

    /// A generator for `profile`, starting at `origin`, reproducible from `seed`.
    public init(profile: MotionProfile, origin: Coordinate, seed: UInt64) {
        self.profile = profile
        self.origin = origin
        random = SeededRandom(seed: seed)
    }

    private enum Phase {
        case cruise(remaining: Double)
        case stopping
        case stopped(remaining: Double)
        case turning(remaining: Double, direction: Double)
    }

    /// A track of `duration` seconds sampled every `interval` seconds (jittered by up to
    /// ± `jitter` × `interval`, `jitter` in [0, 1)), starting east-north-east at rest.
    public mutating func generate(duration: Double, interval: Double = 1, jitter: Double = 0) -> SimulatedTrack {
        precondition(duration >= 0 && interval > 0 && (0..<1).contains(jitter), "invalid sampling")
        let p = profile
        var track = SimulatedTrack(origin: origin)
        let expected = Int(duration / interval) + 2
        track.times.reserveCapacity(expected)
        track.east.reserveCapacity(expected)
        track.north.reserveCapacity(expected)
        track.velocityEast.reserveCapacity(expected)
        track.velocityNorth.reserveCapacity(expected)
        var x = 0.0, y = 0.0, speed = 0.0
        // Heading as a unit vector (east, north); the start direction is random.
        let start = random.unit() * 1.5 - 0.75
        var (hy, hx) = DeterministicMath.sinCos(start)  // within ±43° of east
        if random.unit() < 0.5 { hx = -hx }
        var legSpeed = p.cruiseSpeed * (1 + p.speedVariation * random.uniform(-1, 1))
        var phase = Phase.cruise(remaining: random.uniform(p.legDuration.lowerBound, p.legDuration.upperBound))
        var t = 0.0
        var nextSample = 0.0
        while true {
            if t >= nextSample - 1e-9 {
                guard nextSample <= duration else { break }
                track.times.append(nextSample)
                track.east.append(x)
                track.north.append(y)
                track.velocityEast.append(speed * hx)
                track.velocityNorth.append(speed * hy)
                nextSample += interval * (1 + jitter * random.uniform(-1, 1))
            }
            let h = min(0.1, nextSample - t)
            // The target speed and turn of the current phase, and the next phase.
            var target = legSpeed
            var turn = 0.0
            switch phase {
            case .cruise(let remaining):
                if remaining - h <= 0 {
                    if random.unit() < p.stopProbability {
                        phase = .stopping
                    } else {
                        phase = Self.turn(&random, p)
                    }
                } else {
                    phase = .cruise(remaining: remaining - h)
                }
            case .stopping:
                target = 0
                if speed == 0 {
                    phase = .stopped(remaining: random.uniform(p.stopDuration.lowerBound, p.stopDuration.upperBound))
                }
            case .stopped(let remaining):
                target = 0
                if remaining - h <= 0 { phase = Self.turn(&random, p) } else { phase = .stopped(remaining: remaining - h) }
            case .turning(let remaining, let direction):
                target = legSpeed * p.turnSpeedFactor
                // Slow down first; then turn no faster than the lateral acceleration allows.
                let rate = speed > 1.2 * target ? 0 : min(p.turnRate, p.lateralAcceleration / max(speed, 1e-3))
                let step = min(rate * h, remaining)
                turn = direction * step
                if remaining - step <= 0 {
                    legSpeed = p.cruiseSpeed * (1 + p.speedVariation * random.uniform(-1, 1))
                    phase = .cruise(remaining: random.uniform(p.legDuration.lowerBound, p.legDuration.upperBound))
                } else {
                    phase = .turning(remaining: remaining - step, direction: direction)
                }
            }
            // Speed towards the target at the bounded acceleration; position by the mean speed.
            let change = min(max(target - speed, -p.acceleration * h), p.acceleration * h)
            let newSpeed = max(speed + change, 0)
            let mean = 0.5 * (speed + newSpeed)
            if turn != 0 {
                // Move along the chord at the mid-step heading, then finish the rotation.
                let half = DeterministicMath.sinCos(0.5 * turn)
                let mx = hx * half.cos - hy * half.sin, my = hx * half.sin + hy * half.cos
                x += mean * h * mx
                y += mean * h * my
                let norm = (mx * mx + my * my).squareRoot()
                hx = (mx * half.cos - my * half.sin) / norm
                hy = (mx * half.sin + my * half.cos) / norm
            } else {
                x += mean * h * hx
                y += mean * h * hy
            }
            speed = newSpeed
            t += h
        }
        return track
    }

    private static func turn(_ random: inout SeededRandom, _ p: MotionProfile) -> Phase {
        let degrees = random.uniform(p.turnAngle.lowerBound, p.turnAngle.upperBound)
        return .turning(remaining: degrees * Double.pi / 180, direction: random.unit() < 0.5 ? -1 : 1)
    }
}
