import TraceDomain
import TraceGeodesy
import TraceSharing
import TraceSimulation
import TraceSmoothing

/// The motion profile that goes with a travel mode.
func profile(_ mode: TravelMode) -> MotionProfile {
    switch mode {
    case .walk: .walk
    case .bike: .bike
    case .drive: .drive
    }
}

/// Errors of one simulated run: raw fixes, forward filter and RTS smoother against the truth, and
/// the normalised estimation error squared (NEES, 2 degrees of freedom: position east and north).
struct Evaluation {
    var rawRMSE = 0.0, filterRMSE = 0.0, smootherRMSE = 0.0
    var filterNEES = 0.0, smootherNEES = 0.0
    var rejected = 0, spikes = 0, spikesRejected = 0
    var points = 0

    /// RMSE reduction of the smoother against the raw fixes, as a fraction.
    var smootherGain: Double { 1 - smootherRMSE / rawRMSE }
    var filterGain: Double { 1 - filterRMSE / rawRMSE }
}

/// Simulates `duration` seconds of `mode` travel, observes it with `noise`, reports accuracy as an
/// iOS device would (σ·√2) and runs the filter and the smoother in the plane.
func evaluate<N: PositionNoise>(
    mode: TravelMode, tier: AccuracyTier, noise: N, spikes: SpikeInjector? = nil,
    seed: UInt64, duration: Double = 3600, interval: Double = 1, jitter: Double = 0.2, modelMatched: Bool = false
) -> Evaluation {
    let configuration = SmoothingConfiguration(tier: tier, mode: mode)!
    let origin = Coordinate(uncheckedLatitude: 47.37, longitude: 8.54)
    var generator = TrajectoryGenerator(profile: profile(mode), origin: origin, seed: seed)
    // Model-matched: the truth is drawn from the filter's own model (white acceleration of the same q).
    let truth =
        modelMatched
        ? TrajectoryGenerator.whiteAcceleration(
            processNoise: configuration.parameters.processNoise, speed: profile(mode).cruiseSpeed,
            origin: origin, seed: seed, duration: duration, interval: interval, jitter: jitter)
        : generator.generate(duration: duration, interval: interval, jitter: jitter)
    var noise = noise
    let observed = truth.observe(noise: &noise, spikes: spikes)
    let sigma = configuration.nominalSigma
    let variance = configuration.variance(accuracy: sigma * 2.0.squareRoot())
    var forward = RTSSmoother(parameters: configuration.parameters, capacity: truth.count)
    for i in 0..<truth.count { forward.append(east: observed.east[i], north: observed.north[i], variance: variance, at: truth.times[i]) }
    var smooth = forward
    forward.run(smoothing: false)
    smooth.run(smoothing: true)
    var r = Evaluation()
    r.points = truth.count
    r.rejected = smooth.rejected
    for i in 0..<truth.count {
        func squared(_ e: Double, _ n: Double) -> Double {
            (e - truth.east[i]) * (e - truth.east[i]) + (n - truth.north[i]) * (n - truth.north[i])
        }
        r.rawRMSE += squared(observed.east[i], observed.north[i])
        let f = forward.estimate(at: i), s = smooth.estimate(at: i)
        r.filterRMSE += squared(f.east, f.north)
        r.smootherRMSE += squared(s.east, s.north)
        r.filterNEES += squared(f.east, f.north) / f.covariance.position
        r.smootherNEES += squared(s.east, s.north) / s.covariance.position
        if observed.isSpike[i] {
            r.spikes += 1
            if smooth.outcome(at: i) == .rejected { r.spikesRejected += 1 }
        }
    }
    let n = Double(truth.count)
    r.rawRMSE = (r.rawRMSE / n).squareRoot()
    r.filterRMSE = (r.filterRMSE / n).squareRoot()
    r.smootherRMSE = (r.smootherRMSE / n).squareRoot()
    r.filterNEES /= n
    r.smootherNEES /= n
    return r
}

func percent(_ x: Double) -> String { "\(Double(Int((x * 1000).rounded())) / 10) %" }
func rounded(_ x: Double, _ digits: Double = 100) -> Double { (x * digits).rounded() / digits }
