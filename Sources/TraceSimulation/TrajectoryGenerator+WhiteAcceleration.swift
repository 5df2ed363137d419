public import TraceGeodesy

extension TrajectoryGenerator {
    /// A track drawn from the constant-velocity model itself: per axis, velocity driven by white
    /// acceleration of spectral density `processNoise` q (m²/s³), starting at `speed` m/s in a
    /// random direction. This is exactly the model a Kalman filter with the same q assumes, so it
    /// is the reference for consistency checks (NEES); the motion profiles are the realistic
    /// reference.
    ///
    /// Method: exact discretisation for each (irregular) step dt: the state (position, velocity)
    /// moves by F = [[1, dt], [0, 1]] plus a Gaussian draw with covariance
    /// q·[[dt³/3, dt²/2], [dt²/2, dt]] (by its Cholesky factor). IEEE arithmetic only.
    public static func whiteAcceleration(
        processNoise q: Double, speed: Double, origin: Coordinate, seed: UInt64,
        duration: Double, interval: Double = 1, jitter: Double = 0
    ) -> SimulatedTrack {
        precondition(q >= 0 && duration >= 0 && interval > 0 && (0..<1).contains(jitter), "invalid white-acceleration track")
        var random = SeededRandom(seed: seed)
        var track = SimulatedTrack(origin: origin)
        var x = 0.0, y = 0.0
        let direction = DeterministicMath.sinCos(random.uniform(-1.5, 1.5))
        var vx = speed * direction.cos, vy = speed * direction.sin
        var t = 0.0
        while t <= duration {
            track.times.append(t)
            track.east.append(x)
            track.north.append(y)
            track.velocityEast.append(vx)
            track.velocityNorth.append(vy)
            let dt = interval * (1 + jitter * random.uniform(-1, 1))
            // Cholesky of q·[[dt³/3, dt²/2], [dt²/2, dt]]: l11 = √(q dt³/3), l21 = √(3 q dt)/2, l22 = √(q dt)/2.
            let l11 = (q * dt * dt * dt / 3).squareRoot(), l21 = (3 * q * dt).squareRoot() / 2, l22 = (q * dt).squareRoot() / 2
            let a = random.gaussian(), b = random.gaussian(), c = random.gaussian(), d = random.gaussian()
            x += vx * dt + l11 * a
            vx += l21 * a + l22 * b
            y += vy * dt + l11 * c
            vy += l21 * c + l22 * d
            t += dt
        }
        return track
    }
}
