public import TraceSharing
public import TraceSmoothing

/// How one replayed phone is emulated besides its state's policy row: optional accuracy
/// emulation, optional smoothing before the distance filter, the platform's accuracy convention
/// and an optional delivery model that replaces every state's. The default (``init(accuracyEmulation:seed:smoothing:convention:deliveryOverride:)``
/// with no arguments) is the plain ``UpdateGate``: fixes pass through unchanged.
///
/// Validated where it is used: ``PhoneEmulator/init(_:role:row:)`` requires a Gauss–Markov τ that
/// is positive and finite and a smoothing gate above 0 (a precondition; a command line checks
/// its flags before building one).
public struct PhoneConfiguration: Hashable, Sendable {
    /// Whether fixes are degraded to the state's tier when the tier is coarser than the recording.
    public enum AccuracyEmulation: Hashable, Sendable {
        /// Fixes pass through as recorded (the default).
        case off
        /// Independent Gaussian noise per fix and axis.
        case white
        /// First-order Gauss–Markov noise per axis with correlation time `tau` seconds (default
        /// 60 s: real GNSS error is correlated over about that long; docs/battery-model.md,
        /// "Kalman defaults").
        case gaussMarkov(tau: Double = 60)
    }

    /// Whether the phone smooths its fixes (an online ``TrackFilter``) before the distance filter.
    public enum Smoothing: Hashable, Sendable {
        /// The distance filter sees the fixes themselves (the default).
        case off
        /// A forward Kalman filter with the defaults of ``SmoothingConfiguration`` for the
        /// state's tier, this travel mode and the configuration's ``PhoneConfiguration/convention``,
        /// rejecting innovations whose squared Mahalanobis distance exceeds `gate` (default 13.8,
        /// χ² with 2 degrees of freedom at 0.999).
        case on(mode: TravelMode, gate: Double = 13.8)
    }

    /// Accuracy emulation; off by default.
    public var accuracyEmulation: AccuracyEmulation
    /// The seed of the emulation's noise (mixed with the phone's role, see ``PhoneEmulator``); a
    /// replay also seeds its realistic network's draws with it. Printed in reports when emulation
    /// or the realistic network is on, so a replay can be repeated exactly.
    public var seed: UInt64
    /// Smoothing before the filter; off by default.
    public var smoothing: Smoothing
    /// How the recording's reported accuracies are read and how the emulated or smoothed
    /// accuracy is reported (iOS by default: σ per axis = accuracy / √2).
    public var convention: AccuracyConvention
    /// A delivery model that replaces every state's (``UpdateGate/deliveryOverride``); nil uses
    /// the state's.
    public var deliveryOverride: DeliveryModel?

    /// Whether fixes reach the state's update gate as recorded and the state's delivery model
    /// decides: accuracy emulation and smoothing off, no delivery override. The seed and the
    /// convention change nothing then; a report need not mention the configuration.
    public var isPassThrough: Bool {
        guard case .off = accuracyEmulation, case .off = smoothing else { return false }
        return deliveryOverride == nil
    }

    /// A configuration; every argument defaults to "as recorded, as the policy says".
    public init(
        accuracyEmulation: AccuracyEmulation = .off, seed: UInt64 = 0, smoothing: Smoothing = .off,
        convention: AccuracyConvention = .ios, deliveryOverride: DeliveryModel? = nil
    ) {
        self.accuracyEmulation = accuracyEmulation
        self.seed = seed
        self.smoothing = smoothing
        self.convention = convention
        self.deliveryOverride = deliveryOverride
    }
}
