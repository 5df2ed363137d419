/// What a ``KalmanFilter`` did with a fix.
public enum KalmanOutcome: UInt8, Sendable, Hashable, CaseIterable {
    /// The first fix: the filter started there, at rest.
    case initialised
    /// The fix passed the gate and updated the estimate.
    case accepted
    /// The fix failed the gate: the estimate is the prediction.
    case rejected
    /// The fix came after too many rejections in a row: the filter restarted there. Counted in
    /// ``KalmanFilter/restarts`` only, not as a rejection.
    case restarted
    /// The fix was unusable: a position or time that is not finite, or a variance that is not
    /// positive and finite. The filter is unchanged (no prediction, no effect on the gate's count
    /// of rejections in a row); counted in ``KalmanFilter/invalid``.
    case invalid
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
/// Model (docs/battery-model.md, "Kalman defaults"), per axis: state (position, velocity),
/// F = [[1, dt], [0, 1]], Q = q·[[dt³/3, dt²/2], [dt²/2, dt]] (white acceleration of spectral
/// density q), H = [1, 0], measurement variance r per fix, the same on both axes. The covariance
/// is the one ``AxisCovariance`` both axes share.
///
/// Gating: the innovation's squared Mahalanobis distance d² = (νₑ² + νₙ²) / (P₀₀ + r) (2 degrees
/// of freedom) is compared with ``KalmanParameters/gate``; a fix above it is rejected and
/// counted, and the estimate stays the prediction. After
/// ``KalmanParameters/maximumConsecutiveRejections`` rejections in a row the next fix the gate
/// would reject restarts the filter there instead; it is counted as a restart, not a rejection.
///
/// Inputs: a fix whose position or time is not finite, or whose variance is not positive and
/// finite (0 would make the innovation's variance 0 after a first fix with no time elapsed; +∞
/// makes the covariance NaN), is ``KalmanOutcome/invalid``: counted, and the state is not
/// touched, so the state never holds NaN.
///
/// Times are seconds on any clock. A time before the estimate's is treated as the estimate's
/// time: there is no prediction (a negative step would shrink the covariance), the fix updates
/// the estimate as if taken then, and the estimate's time never goes back.
public struct KalmanFilter: Sendable, Hashable {
    /// The parameters (q, gate, initial velocity variance, restart rule); see
    /// ``reconfigure(_:)``.
    public private(set) var parameters: KalmanParameters
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
    /// Fixes rejected by the gate (the fix that restarts the filter is not one of them).
    public private(set) var rejected = 0
    /// Restarts after too many rejections in a row (each restarting fix counted here only).
    public private(set) var restarts = 0
    /// Unusable fixes (``KalmanOutcome/invalid``).
    public private(set) var invalid = 0
    /// The squared Mahalanobis distance of the last fix's innovation (0 for a first fix).
    public private(set) var lastSquaredDistance = 0.0
    private var rejectionsInARow = 0

    /// A filter that has seen no fix.
    public init(parameters: KalmanParameters) { self.parameters = parameters }

    /// Replaces the parameters and keeps the state: the new process noise applies from the next
    /// prediction, the gate and restart rule from the next fix, the initial velocity variance at
    /// the next (re)start. For a device whose tier or travel mode changes.
    public mutating func reconfigure(_ parameters: KalmanParameters) { self.parameters = parameters }

    /// Whether a fix with these values can be filtered (see ``KalmanOutcome/invalid``).
    @inlinable
    public static func isUsable(east: Double, north: Double, variance r: Double, at t: Double) -> Bool {
        east.isFinite && north.isFinite && t.isFinite && r > 0 && r.isFinite
    }

    /// Advances the estimate to `time` without a measurement (no-op before the first fix, for a
    /// time not after the estimate's, or a time that is not finite).
    public mutating func predict(to t: Double) {
        let dt = t - time
        guard isInitialised, dt > 0, dt.isFinite else { return }
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
        guard Self.isUsable(east: zE, north: zN, variance: r, at: t) else {
            invalid += 1
            return .invalid
        }
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
            rejectionsInARow += 1
            if rejectionsInARow > parameters.maximumConsecutiveRejections {
                restarts += 1
                start(east: zE, north: zN, variance: r, at: max(t, time))
                return .restarted
            }
            rejected += 1
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
    /// the first fix; NaN for an unusable fix (``KalmanOutcome/invalid``), which never passes.
    public func squaredDistance(east zE: Double, north zN: Double, variance r: Double, at t: Double) -> Double {
        guard Self.isUsable(east: zE, north: zN, variance: r, at: t) else { return .nan }
        guard isInitialised else { return .infinity }
        let dt = max(t - time, 0)
        let p = covariance
        let s = p.position + dt * (2 * p.cross + dt * p.velocity) + parameters.processNoise * dt * dt * dt * (1.0 / 3) + r
        let ie = zE - (east + velocityEast * dt), iN = zN - (north + velocityNorth * dt)
        return (ie * ie + iN * iN) / s
    }

    /// Whether a fix would pass the gate (see ``squaredDistance(east:north:variance:at:)``); false
    /// for an unusable fix, even with an infinite gate.
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
