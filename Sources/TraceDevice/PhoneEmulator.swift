public import TraceDomain
public import TraceGeodesy
public import TraceSharing
import TraceSimulation
import TraceSmoothing

/// One phone of a replay: each recorded fix goes through accuracy emulation, smoothing and the
/// state's update gate, and comes out as a ``PhoneOutcome``.
///
/// Per fix, in order:
/// 1. Location off (``AccuracyTier/off``): nothing is delivered, no noise is drawn, the filter
///    sees nothing; the outcome is the fix as recorded, not delivered.
/// 2. Accuracy emulation (``PhoneConfiguration/AccuracyEmulation``, off by default): when the
///    state's tier is coarser than the fix (its nominal σ per axis,
///    ``TraceSmoothing/SmoothingConfiguration/nominalSigma(tier:)``, above the fix's), seeded
///    noise of σ_added = √(σ_tier² − σ_fix²) per axis is added and the fix reports the tier's
///    nominal accuracy; otherwise it passes through. White noise is independent per fix;
///    Gauss–Markov is one process per phone, continuing across state changes, advanced exactly
///    over irregular time steps. A fix without accuracy is taken as exact.
/// 3. Smoothing (``PhoneConfiguration/Smoothing``, off by default): an online
///    ``TraceSmoothing/TrackFilter`` configured for the state's tier; the position passed on is
///    its estimate (the prediction when it rejects the fix) and the accuracy its σ per axis
///    times the convention's divisor. One filter per phone: a tier change keeps its estimate
///    and re-configures it for the new tier (``TraceSmoothing/TrackFilter/reconfigure(_:)``:
///    noise floor and nominal σ from the next fix, process noise from the next prediction), as a
///    service would keep one filter per device across state changes; location off forgets it,
///    and the next fix with location on starts a new one. A fix without a usable accuracy (nil,
///    0 or less, not finite) gets the tier's nominal σ.
/// 4. The ``TraceSharing/UpdateGate`` with the state's row (accuracy gate, distance filter,
///    delivery model, or the configuration's override) decides on that position and accuracy,
///    with the fix's reported speed unchanged (0 means still; a missing speed is derived by the
///    gate from the delivered positions, smoothed when smoothing is on).
///
/// With both options off the outcome is the fix itself, bit for bit, and `delivered` is what an
/// ``UpdateGate`` given the same rows and fixes answers.
///
/// Seeding: the noise seed of a phone is the first output of SplitMix64
/// (``TraceSimulation/SeededRandom``) seeded with `seed ^ ((role.rawValue + 1) × 0x9E3779B97F4A7C15)`,
/// so the hirer's, helper's and delegate's noise are independent and each is fixed by the seed.
/// The noise itself is bit-identical across platforms; positions go through `LocalFrame`'s libm
/// sines and cosines, so they are reproducible on one platform to the last bit and across
/// platforms to nanometres.
///
/// A `Sendable` value, one per phone; O(1) per fix, no allocation.
public struct PhoneEmulator: Sendable {
    /// The configuration it was built with.
    public let configuration: PhoneConfiguration
    /// The update gate, with the current state's row (for the last delivered fix and the model in
    /// use).
    public private(set) var gate: UpdateGate
    private var emulator: AccuracyEmulator
    /// The smoothing filter, created at the first fix with location on and re-configured at each
    /// tier change; nil when smoothing is off or location is off.
    private var filter: TrackFilter?
    /// Whether smoothing is on (``PhoneConfiguration/smoothing``): off, ``offer(_:at:accuracy:speed:)``
    /// tests this flag instead of the optional filter (an outlined tag read per fix, measured).
    private let smooths: Bool

    /// A phone of `role` in the state whose policy row is `row`, emulated as `configuration` says;
    /// `exact` measures the gate's steps beyond the tangent plane's domain (``UpdateGate/init(_:exact:)``).
    public init(_ configuration: PhoneConfiguration, role: Role, row: StatePolicy, exact: some GeodesicSolver & Sendable) {
        if case .gaussMarkov(let tau) = configuration.accuracyEmulation {
            precondition(tau > 0 && tau.isFinite, "the Gauss–Markov correlation time must be positive and finite")
        }
        if case .on(_, let g) = configuration.smoothing { precondition(g > 0, "the smoothing gate must be positive") }
        self.configuration = configuration
        if case .on = configuration.smoothing { smooths = true } else { smooths = false }
        gate = UpdateGate(row, exact: exact)
        gate.deliveryOverride = configuration.deliveryOverride
        var mixer = SeededRandom(seed: configuration.seed ^ (UInt64(role.rawValue + 1) &* 0x9E37_79B9_7F4A_7C15))
        emulator = AccuracyEmulator(configuration.accuracyEmulation, convention: configuration.convention, seed: mixer.next())
    }

    /// The current tier (``AccuracyTier/off``: location off).
    public var tier: AccuracyTier { gate.tier }

    /// Applies a new state's row, as ``UpdateGate/apply(_:)-(StatePolicy)`` does (keeping the last
    /// delivered fix unless location goes off); a change of tier re-configures the smoothing
    /// filter, location off forgets it.
    public mutating func apply(_ row: StatePolicy) {
        let old = gate.tier
        gate.apply(row)
        tierChanged(from: old)
    }

    /// Applies the settings of an action from ``FulfilmentMachine``, as
    /// ``UpdateGate/apply(_:)-(SharingAction)`` does; a change of tier re-configures the
    /// smoothing filter, location off forgets it.
    public mutating func apply(_ action: SharingAction) {
        let old = gate.tier
        gate.apply(action)
        tierChanged(from: old)
    }

    private mutating func tierChanged(from old: AccuracyTier) {
        guard gate.tier != old, filter != nil else { return }
        if let c = Self.smoothingConfiguration(configuration, gate.tier) { filter!.reconfigure(c) } else { filter = nil }
    }

    /// The smoothing configuration of `configuration` for `tier`; nil when smoothing or the tier is
    /// off. Static: a method on the emulator, called from ``offer(_:at:accuracy:speed:)``, copied
    /// the whole emulator per fix (measured under callgrind).
    private static func smoothingConfiguration(_ configuration: PhoneConfiguration, _ tier: AccuracyTier) -> SmoothingConfiguration? {
        guard case .on(let mode, let threshold) = configuration.smoothing else { return nil }
        return SmoothingConfiguration(tier: tier, mode: mode, convention: configuration.convention, gate: threshold)
    }

    /// Whether this phone and `other` deliver every later fix alike, given the same rows and fixes:
    /// the same configuration and gate (``UpdateGate/decidesAlike(_:)``), with neither accuracy
    /// emulation nor smoothing, whose memory (the noise, the filter) is not compared: with either
    /// on, false.
    public func decidesAlike(_ other: PhoneEmulator) -> Bool {
        !smooths && !emulator.emulates && configuration == other.configuration && gate.decidesAlike(other.gate)
    }

    /// Offers a recorded fix at `fix`, taken at `time` seconds (non-decreasing), with its reported
    /// horizontal accuracy (metres) and speed (m/s), either possibly absent; returns what the
    /// phone does with it.
    public mutating func offer(_ fix: Coordinate, at time: Double, accuracy: Double?, speed: Double?) -> PhoneOutcome {
        let tier = gate.tier
        guard tier != .off else { return PhoneOutcome(delivered: false, coordinate: fix, accuracy: accuracy) }
        // Without emulation the fix passes through: no call for the gate's every offer.
        var (position, reported) = emulator.emulates ? emulator.emulate(fix, at: time, accuracy: accuracy, tier: tier) : (fix, accuracy)
        if smooths {
            if filter == nil, let c = Self.smoothingConfiguration(configuration, tier) { filter = TrackFilter(configuration: c) }
            if filter != nil {
                filter!.update(position, time: time, accuracy: reported)
                if let estimate = filter!.estimate, let sigma = filter!.sigma {
                    position = estimate
                    reported = sigma * configuration.convention.divisor
                }
            }
        }
        let delivered = gate.offer(position, at: time, accuracy: reported, speed: speed)
        return PhoneOutcome(delivered: delivered, coordinate: position, accuracy: reported)
    }
}
