/// What a ``KalmanFilter`` did with a fix.
public enum KalmanOutcome: UInt8, Sendable, Hashable, CaseIterable {
    /// The first fix: the filter started there, at rest.
    case initialised
    /// The fix passed the gate and updated the estimate.
    case accepted
    /// The fix failed the gate: the estimate is the prediction.
    case rejected
    /// The fix came after too many rejections in a row: the filter restarted there.
    case restarted
}

/// The covariance of one axis' (position, velocity) pair, shared by east and north.
///
/// With isotropic measurement noise and the same process noise on both axes, the east and north
/// covariances are identical (PERFORMANCE.md, "facts found"), so one 2×2 recursion serves both.
public struct AxisCovariance: Sendable, Hashable {
    /// Position variance per axis, m².
    public var position: Double
    /// Position–velocity covariance, m²/s.
    public var cross: Double
    /// Velocity variance per axis, (m/s)².
    public var velocity: Double

    /// A covariance with these entries.
    @inlinable
    public init(position: Double, cross: Double, velocity: Double) {
        self.position = position
        self.cross = cross
        self.velocity = velocity
    }
}

/// A constant-velocity Kalman filter in a local east/north plane (metres), for irregular time
/// steps, with gating of outliers. A value type: O(1) per fix, no allocation, `Sendable`; one per
/// device in a service.
///
/// Model (ENERGY.md, "Kalman defaults"), per axis: state (position, velocity),
/// F = [[1, dt], [0, 1]], Q = q·[[dt³/3, dt²/2], [dt²/2, dt]] (white acceleration of spectral
/// density q), H = [1, 0], measurement variance r per fix, the same on both axes. The covariance
/// is the one ``AxisCovariance`` both axes share.
///
/// Gating: the innovation's squared Mahalanobis distance d² = (νₑ² + νₙ²) / (P₀₀ + r) (2 degrees
/// of freedom) is compared with ``KalmanParameters/gate``; a fix above it (or NaN) is rejected and
/// counted, and the estimate stays the prediction. After
/// ``KalmanParameters/maximumConsecutiveRejections`` rejections in a row the next rejected fix
/// restarts the filter instead.
///
/// Times are seconds on any clock; a time before the previous one is treated as the same time
/// (no prediction), so a duplicated or backwards time never makes the covariance shrink.
public struct KalmanFilter: Sendable, Hashable {
    /// The parameters (q, gate, initial velocity variance, restart rule).
    public let parameters: KalmanParameters
    /// Estimated position, metres east of the frame's origin.
    public private(set) var east = 0.0
    /// Estimated position, metres north.
    public private(set) var north = 0.0
    /// Estimated velocity, m/s east.
    public private(set) var velocityEast = 0.0
    /// Estimated velocity, m/s north.
    public private(set) var velocityNorth = 0.0
    /// The covariance shared by both axes.
    public private(set) var covariance = AxisCovariance(position: 0, cross: 0, velocity: 0)
    /// Time of the estimate, seconds.
    public private(set) var time = 0.0
    /// Whether a fix has been seen.
    public private(set) var isInitialised = false
    /// Fixes accepted by the gate (not counting initialisations and restarts).
    public private(set) var accepted = 0
    /// Fixes rejected by the gate.
    public private(set) var rejected = 0
    /// Restarts after too many rejections in a row.
    public private(set) var restarts = 0
    /// The squared Mahalanobis distance of the last fix's innovation (0 for a first fix).
    public private(set) var lastSquaredDistance = 0.0
    private var rejectionsInARow = 0

    /// A filter that has seen no fix.
    public init(parameters: KalmanParameters) { self.parameters = parameters }

    /// Advances the estimate to `time` without a measurement (no-op before the first fix or for a
    /// time not after the estimate's).
    public mutating func predict(to t: Double) {
        let dt = t - time
        guard isInitialised, dt > 0 else { return }
        time = t
        east += velocityEast * dt
        north += velocityNorth * dt
        let p = covariance, q = parameters.processNoise
        let qdt = q * dt
        covariance = AxisCovariance(
            position: p.position + dt * (2 * p.cross + dt * p.velocity) + qdt * dt * dt * (1.0 / 3),
            cross: p.cross + dt * p.velocity + 0.5 * qdt * dt,
            velocity: p.velocity + qdt)
    }

    /// Filters one fix at (`east`, `north`) metres with measurement variance `variance` m² per
    /// axis, taken at `time` seconds: predict to its time, gate, update.
    @discardableResult
    public mutating func update(east zE: Double, north zN: Double, variance r: Double, at t: Double) -> KalmanOutcome {
        guard isInitialised else {
            start(east: zE, north: zN, variance: r, at: t)
            return .initialised
        }
        predict(to: t)
        let p = covariance
        let s = p.position + r
        let ie = zE - east, iN = zN - north
        let inverse = 1 / s
        let d2 = (ie * ie + iN * iN) * inverse
        lastSquaredDistance = d2
        guard d2 <= parameters.gate else {
            rejected += 1
            rejectionsInARow += 1
            if rejectionsInARow > parameters.maximumConsecutiveRejections {
                restarts += 1
                start(east: zE, north: zN, variance: r, at: max(t, time))
                return .restarted
            }
            return .rejected
        }
        rejectionsInARow = 0
        accepted += 1
        let k0 = p.position * inverse, k1 = p.cross * inverse
        east += k0 * ie
        north += k0 * iN
        velocityEast += k1 * ie
        velocityNorth += k1 * iN
        let f = r * inverse  // 1 − k0
        covariance = AxisCovariance(position: p.position * f, cross: p.cross * f, velocity: p.velocity - k1 * p.cross)
        return .accepted
    }

    /// The squared Mahalanobis distance a fix at (`east`, `north`) with variance `variance`, taken
    /// at `time`, would have against the prediction; the filter is not changed. Infinity before
    /// the first fix.
    public func squaredDistance(east zE: Double, north zN: Double, variance r: Double, at t: Double) -> Double {
        guard isInitialised else { return .infinity }
        let dt = max(t - time, 0)
        let p = covariance
        let s = p.position + dt * (2 * p.cross + dt * p.velocity) + parameters.processNoise * dt * dt * dt * (1.0 / 3) + r
        let ie = zE - (east + velocityEast * dt), iN = zN - (north + velocityNorth * dt)
        return (ie * ie + iN * iN) / s
    }

    /// Whether a fix would pass the gate (see ``squaredDistance(east:north:variance:at:)``).
    public func wouldAccept(east zE: Double, north zN: Double, variance r: Double, at t: Double) -> Bool {
        squaredDistance(east: zE, north: zN, variance: r, at: t) <= parameters.gate
    }

    /// Re-expresses the estimate in another frame (re-anchoring): positions and velocities are
    /// mapped by `transform`; the shared covariance is unchanged by the rotation and scaled by
    /// the square of its scale.
    public mutating func apply(_ transform: FrameTransform) {
        guard isInitialised else { return }
        (east, north) = transform.position(east, north)
        (velocityEast, velocityNorth) = transform.vector(velocityEast, velocityNorth)
        let s2 = transform.scale * transform.scale
        covariance = AxisCovariance(position: covariance.position * s2, cross: covariance.cross * s2, velocity: covariance.velocity * s2)
    }

    private mutating func start(east zE: Double, north zN: Double, variance r: Double, at t: Double) {
        isInitialised = true
        rejectionsInARow = 0
        lastSquaredDistance = 0
        east = zE
        north = zN
        velocityEast = 0
        velocityNorth = 0
        time = t
        covariance = AxisCovariance(position: r, cross: 0, velocity: parameters.initialVelocityVariance)
    }
}
