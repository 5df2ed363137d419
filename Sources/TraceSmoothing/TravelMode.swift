/// How the device travels: selects the Kalman filter's process noise (docs/battery-model.md,
/// "Kalman defaults") and the prior on the first fix's speed.
public enum TravelMode: String, CaseIterable, Hashable, Sendable {
    /// On foot.
    case walk
    /// By bicycle. The model's sources give no bike column (docs/battery-model.md, "Kalman
    /// defaults"): its process noise is an assumption, see
    /// ``SmoothingConfiguration/processNoise(tier:mode:)``.
    case bike
    /// By car.
    case drive

    /// Standard deviation of the speed along each axis assumed at the first fix (the filter
    /// starts at rest with this uncertainty), m/s: 2 for walking, 8 for cycling, 30 for driving
    /// (assumed: about the fastest ordinary speed of each mode).
    public var initialSpeedSigma: Double {
        switch self {
        case .walk: 2
        case .bike: 8
        case .drive: 30
        }
    }
}
