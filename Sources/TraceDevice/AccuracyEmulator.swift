import TraceDomain
import TraceGeodesy
import TraceSharing
import TraceSimulation
import TraceSmoothing

/// Degrades a fix to the accuracy of a coarser tier: the noise step of ``PhoneEmulator``.
///
/// Conventions:
/// - A tier's accuracy is ``SmoothingConfiguration/nominalSigma(tier:)``: the upper end of
///   ``AccuracyTier/nominalAccuracy`` read as an iOS `horizontalAccuracy`, σ per axis =
///   5/√2, 10/√2, 10/√2, 100/√2, 1000/√2, 3000/√2 m from BestForNavigation to ThreeKilometers.
/// - A fix's σ per axis is its reported accuracy read with the configuration's
///   ``AccuracyConvention``; a fix without a usable accuracy (nil, not positive, not finite: 0 is
///   Android's and CSV exports' "none", as for ``SmoothingConfiguration/variance(accuracy:)``) is
///   taken as exact (σ 0: the recording is the truth).
/// - The tier is coarser when σ_tier > σ_fix. Then noise of σ_added = √(σ_tier² − σ_fix²) per
///   axis is added, so that, with the recording's own error independent, the total σ per axis is
///   σ_tier; the fix reports the tier's nominal accuracy in the configuration's convention
///   (σ_tier × divisor, exactly the nominal upper bound for iOS). Otherwise the fix passes through
///   unchanged and no noise is drawn.
/// - The noise is a unit-variance process per axis scaled by σ_added of the fix, in the fix's
///   local east/north frame (``LocalFrame``: an offset in its tangent plane differs from the
///   distance on the ellipsoid by under 1e-6 of itself within 9 km), converted back to a
///   coordinate.
/// - Gauss–Markov: one process per phone for its whole replay (across state and tier changes),
///   advanced by the time since its last draw with the exact discretisation of
///   ``GaussMarkovNoise`` (any dt; a step back in time counts as 0 and repeats the last value).
///   Fixes that draw nothing (location off, a tier not coarser) do not advance the stream; the next
///   draw covers the whole gap, which for this process is exact.
///
/// O(1) per fix, no allocation.
struct AccuracyEmulator: Sendable {
    private enum Noise: Sendable {
        case off
        case white(WhiteNoise)
        case gaussMarkov(GaussMarkovNoise)
    }

    private var noise: Noise
    /// Whether emulation is on: off, ``emulate(_:at:accuracy:tier:)`` returns at once on this flag
    /// (matching the noise enum, whose payloads are large, cost about 90 instructions per fix).
    let emulates: Bool
    private let convention: AccuracyConvention
    /// Time of the last draw, seconds (nil before the first).
    private var lastDraw: Double?

    /// The emulation `emulation` with its noise seeded by `seed`.
    init(_ emulation: PhoneConfiguration.AccuracyEmulation, convention: AccuracyConvention, seed: UInt64) {
        switch emulation {
        case .off: noise = .off
        case .white: noise = .white(WhiteNoise(sigma: 1, seed: seed))
        case .gaussMarkov(let tau): noise = .gaussMarkov(GaussMarkovNoise(sigma: 1, tau: tau, seed: seed))
        }
        if case .off = emulation { emulates = false } else { emulates = true }
        self.convention = convention
    }

    /// The fix as a phone at `tier` would report it: position and accuracy (metres, nil when the
    /// recording has none and the fix passes through).
    mutating func emulate(_ fix: Coordinate, at time: Double, accuracy: Double?, tier: AccuracyTier) -> (Coordinate, Double?) {
        guard emulates else { return (fix, accuracy) }
        guard let sigmaTier = SmoothingConfiguration.nominalSigma(tier: tier), let nominal = tier.nominalAccuracy else {
            return (fix, accuracy)
        }
        var sigmaFix = 0.0
        if let accuracy = ReportedAccuracy.usable(accuracy) { sigmaFix = convention.sigma(accuracy: accuracy) }
        guard sigmaTier > sigmaFix else { return (fix, accuracy) }
        let added = ((sigmaTier - sigmaFix) * (sigmaTier + sigmaFix)).squareRoot()
        let dt = lastDraw.map { max(time - $0, 0) } ?? 0
        lastDraw = max(lastDraw ?? time, time)
        let unit: (east: Double, north: Double)
        switch noise {
        case .off: unit = (0, 0)
        case .white(var n):
            unit = n.next(dt: dt)
            noise = .white(n)
        case .gaussMarkov(var n):
            unit = n.next(dt: dt)
            noise = .gaussMarkov(n)
        }
        // nominalSigma is the upper bound ÷ √2, so upper × (divisor / √2) is σ_tier × divisor,
        // and for iOS exactly the upper bound.
        let reported = nominal.upperBound * (convention.divisor / AccuracyConvention.ios.divisor)
        // The inverse is nil only beyond the Earth's outline (thousands of km): keep the fix then.
        let moved = LocalFrame(origin: fix).coordinate(at: EastNorth(east: added * unit.east, north: added * unit.north)) ?? fix
        return (moved, reported)
    }
}
