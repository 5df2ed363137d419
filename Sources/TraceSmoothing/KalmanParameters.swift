/// The numbers a ``KalmanFilter`` runs on, independent of where they came from.
public struct KalmanParameters: Sendable, Hashable {
    /// Process noise q: spectral density of the white acceleration per axis, m²/s³.
    public var processNoise: Double
    /// Squared Mahalanobis distance above which a fix is rejected (χ² with 2 degrees of
    /// freedom: 13.8 rejects 0.1 % of consistent fixes). Infinity disables gating (and so
    /// restarts); unusable fixes are still refused (``KalmanOutcome/invalid``).
    public var gate: Double
    /// Variance of each velocity component at the first fix, (m/s)².
    public var initialVelocityVariance: Double
    /// After this many rejections in a row the filter restarts at the next fix (a lasting jump,
    /// which the model cannot explain, must not lock the filter out for ever).
    public var maximumConsecutiveRejections: Int

    /// Parameters with the defaults of docs/battery-model.md, "Kalman defaults": the gate (13.8)
    /// and a restart at the fifth rejection in a row (assumed: a real manoeuvre the model cannot
    /// follow, or a lasting jump, must not lock the filter out).
    public init(processNoise: Double, gate: Double = 13.8, initialVelocityVariance: Double, maximumConsecutiveRejections: Int = 4) {
        precondition(processNoise >= 0 && processNoise.isFinite, "process noise must be finite and non-negative")
        precondition(
            gate > 0 && initialVelocityVariance >= 0 && initialVelocityVariance.isFinite && maximumConsecutiveRejections >= 1,
            "invalid Kalman parameters")
        self.processNoise = processNoise
        self.gate = gate
        self.initialVelocityVariance = initialVelocityVariance
        self.maximumConsecutiveRejections = maximumConsecutiveRejections
    }
}
