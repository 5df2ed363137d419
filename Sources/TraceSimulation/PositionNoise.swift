/// A process that produces horizontal position errors in metres, one sample per fix, east and
/// north independent. Implementations are value types driven by a seed; the simulation calls them
/// generically (no existential in the loop).
public protocol PositionNoise {
    /// The error of the next fix, `dt` seconds after the previous one (ignored for the first).
    mutating func next(dt: Double) -> (east: Double, north: Double)
}

/// White Gaussian position noise: independent N(0, σ²) per axis and per fix.
public struct WhiteNoise: PositionNoise, Sendable, Hashable {
    /// Standard deviation per axis, metres.
    public let sigma: Double
    private var random: SeededRandom

    /// Noise of `sigma` metres per axis (≥ 0), reproducible from `seed`.
    public init(sigma: Double, seed: UInt64) {
        precondition(sigma >= 0 && sigma.isFinite, "sigma must be finite and non-negative")
        self.sigma = sigma
        random = SeededRandom(seed: seed)
    }

    /// The next error; `dt` is ignored (white noise has no memory).
    public mutating func next(dt: Double) -> (east: Double, north: Double) {
        (sigma * random.gaussian(), sigma * random.gaussian())
    }
}

/// First-order Gauss–Markov position noise (an Ornstein–Uhlenbeck process per axis), the usual
/// model of GNSS error that wanders over tens of seconds to minutes.
///
/// Method: exact discretisation for any step: x' = φ·x + σ·√(1 − φ²)·w with φ = e^(−dt/τ) and
/// w ~ N(0, 1); the first sample is drawn from the stationary distribution N(0, σ²). So the
/// process is stationary with standard deviation σ and autocorrelation e^(−|Δt|/τ) whatever the
/// sampling, regular or not. A step of dt ≤ 0 repeats the previous error.
public struct GaussMarkovNoise: PositionNoise, Sendable, Hashable {
    /// Stationary standard deviation per axis, metres.
    public let sigma: Double
    /// Correlation time, seconds.
    public let tau: Double
    private var random: SeededRandom
    private var current: EastNorthError?
    private struct EastNorthError: Sendable, Hashable {
        var east: Double, north: Double
    }

    /// Noise of stationary `sigma` metres per axis and correlation time `tau` seconds (default
    /// 60 s, about as long as real GNSS error stays correlated: docs/battery-model.md, "Kalman
    /// defaults"), reproducible from `seed`.
    public init(sigma: Double, tau: Double = 60, seed: UInt64) {
        precondition(sigma >= 0 && sigma.isFinite, "sigma must be finite and non-negative")
        precondition(tau > 0 && tau.isFinite, "tau must be positive and finite")
        self.sigma = sigma
        self.tau = tau
        random = SeededRandom(seed: seed)
        current = nil
    }

    /// The next error, `dt` seconds after the previous one.
    public mutating func next(dt: Double) -> (east: Double, north: Double) {
        guard let c = current else {
            let first = EastNorthError(east: sigma * random.gaussian(), north: sigma * random.gaussian())
            current = first
            return (first.east, first.north)
        }
        guard dt > 0 else { return (c.east, c.north) }
        let phi = DeterministicMath.exp(max(-dt / tau, -700))
        let k = sigma * (1 - phi * phi).squareRoot()
        let n = EastNorthError(east: phi * c.east + k * random.gaussian(), north: phi * c.north + k * random.gaussian())
        current = n
        return (n.east, n.north)
    }
}

/// Injected outliers: with a given probability a fix is displaced by a spike of between
/// `minimumSigmas` and `maximumSigmas` times `sigma` metres in a uniformly random direction.
public struct SpikeInjector: Sendable, Hashable {
    /// Probability that a fix is a spike, in [0, 1].
    public let probability: Double
    /// The measurement standard deviation per axis the spike sizes are counted in, metres.
    public let sigma: Double
    /// Smallest and largest spike length in multiples of `sigma`.
    public let minimumSigmas: Double, maximumSigmas: Double
    private var random: SeededRandom

    /// Spikes of `minimumSigmas`…`maximumSigmas` × `sigma` metres with `probability` per fix.
    public init(probability: Double, sigma: Double, minimumSigmas: Double = 10, maximumSigmas: Double = 20, seed: UInt64) {
        precondition((0...1).contains(probability), "probability must be in [0, 1]")
        precondition(sigma >= 0 && 0 <= minimumSigmas && minimumSigmas <= maximumSigmas, "invalid spike sizes")
        self.probability = probability
        self.sigma = sigma
        self.minimumSigmas = minimumSigmas
        self.maximumSigmas = maximumSigmas
        random = SeededRandom(seed: seed)
    }

    /// The displacement of the next fix, or nil when it is not a spike.
    public mutating func next() -> (east: Double, north: Double)? {
        let hit = random.unit() < probability
        let length = sigma * random.uniform(minimumSigmas, maximumSigmas)
        // A uniform direction without trigonometry: a point of the unit disc, normalised.
        var x = 0.0, y = 0.0, r2 = 0.0
        repeat {
            x = random.uniform(-1, 1)
            y = random.uniform(-1, 1)
            r2 = x * x + y * y
        } while r2 > 1 || r2 < 1e-6
        guard hit else { return nil }
        let r = r2.squareRoot()
        return (length * x / r, length * y / r)
    }
}
