/// How a simulated traveller moves: cruising speeds, accelerations, turns and stops.
///
/// The presets are assumptions chosen to look like ordinary urban travel (not fitted to data):
/// a walk at about 1.4 m/s, a bike ride at about 5 m/s, an urban drive at about 14 m/s (50 km/h),
/// each with legs between turns, turns at a bounded rate and occasional stops.
public struct MotionProfile: Sendable, Hashable {
    /// Mean cruising speed, m/s.
    public var cruiseSpeed: Double
    /// Each leg's speed is `cruiseSpeed` × (1 ± this fraction), uniformly.
    public var speedVariation: Double
    /// Largest speed change, m/s² (both speeding up and slowing down).
    public var acceleration: Double
    /// Largest turn rate, rad/s.
    public var turnRate: Double
    /// Largest lateral (centripetal) acceleration in a turn, m/s²: the turn rate is at most this
    /// divided by the speed.
    public var lateralAcceleration: Double
    /// Speed while turning, as a fraction of the leg's speed; the traveller slows to within 20 %
    /// of it before turning.
    public var turnSpeedFactor: Double
    /// Leg duration between turns, seconds, uniform in this range.
    public var legDuration: ClosedRange<Double>
    /// Turn angle, degrees, uniform in this range (left or right with equal probability).
    public var turnAngle: ClosedRange<Double>
    /// Probability that a leg ends with a stop (before the turn).
    public var stopProbability: Double
    /// Stop duration, seconds, uniform in this range.
    public var stopDuration: ClosedRange<Double>

    /// A profile with every parameter given.
    public init(
        cruiseSpeed: Double, speedVariation: Double, acceleration: Double, turnRate: Double,
        lateralAcceleration: Double, turnSpeedFactor: Double, legDuration: ClosedRange<Double>, turnAngle: ClosedRange<Double>,
        stopProbability: Double, stopDuration: ClosedRange<Double>
    ) {
        precondition(
            cruiseSpeed >= 0 && acceleration > 0 && turnRate > 0 && lateralAcceleration > 0 && legDuration.lowerBound > 0,
            "invalid motion profile")
        precondition((0...1).contains(stopProbability) && (0...1).contains(speedVariation) && turnSpeedFactor > 0, "invalid motion profile")
        self.cruiseSpeed = cruiseSpeed
        self.speedVariation = speedVariation
        self.acceleration = acceleration
        self.turnRate = turnRate
        self.lateralAcceleration = lateralAcceleration
        self.turnSpeedFactor = turnSpeedFactor
        self.legDuration = legDuration
        self.turnAngle = turnAngle
        self.stopProbability = stopProbability
        self.stopDuration = stopDuration
    }

    /// Walking: 1.4 m/s ± 20 %, 0.5 m/s², turns of 20–110° at up to 0.5 rad/s and 1 m/s² lateral, legs of 30–120 s,
    /// a stop of 10–60 s after one leg in five (assumed).
    public static let walk = MotionProfile(
        cruiseSpeed: 1.4, speedVariation: 0.2, acceleration: 0.5, turnRate: 0.5, lateralAcceleration: 1, turnSpeedFactor: 0.8,
        legDuration: 30...120, turnAngle: 20...110, stopProbability: 0.2, stopDuration: 10...60)
    /// Cycling: 5 m/s ± 30 %, 0.8 m/s², turns of 20–100° at up to 0.3 rad/s and
    /// 1.5 m/s² lateral, legs of 30–180 s,
    /// a stop of 10–40 s after one leg in five (assumed).
    public static let bike = MotionProfile(
        cruiseSpeed: 5, speedVariation: 0.3, acceleration: 0.8, turnRate: 0.3, lateralAcceleration: 1.5, turnSpeedFactor: 0.6,
        legDuration: 30...180, turnAngle: 20...100, stopProbability: 0.2, stopDuration: 10...40)
    /// Urban driving: 14 m/s (50 km/h) ± 30 %, 1.5 m/s², turns of 20–100° at up to 0.25 rad/s
    /// and 2 m/s² lateral (slowing to 40 % of the leg's speed), legs of 30–300 s, a stop of 10–60 s after one leg in
    /// four (assumed).
    public static let drive = MotionProfile(
        cruiseSpeed: 14, speedVariation: 0.3, acceleration: 1.5, turnRate: 0.25, lateralAcceleration: 2, turnSpeedFactor: 0.4,
        legDuration: 30...300, turnAngle: 20...100, stopProbability: 0.25, stopDuration: 10...60)
}
