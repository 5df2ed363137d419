public import TraceDomain

/// Accumulates one phone's battery estimate during a replay: time per accuracy tier, delivered
/// fixes, the radio's sends (and, optionally, receives) and distance travelled.
///
/// Feed it events in time order (seconds, the same epoch as `start`): ``setTier(_:at:)`` whenever
/// the phone's accuracy tier changes, ``deliverFix()`` for each fix the location manager delivers,
/// ``send(at:)`` for each update the phone sends, ``receive(at:)`` for each update it receives
/// (leave these out to estimate the sender's radio only), ``travel(metres:)`` for each step moved.
/// Then ``estimate(at:)`` gives the result at the replay's end. Every event is O(1) and
/// allocates nothing; make one meter per phone.
///
/// The same events can also be priced under other profiles (``across``, the spread a report gives
/// beside the chosen profile's figure): each has its own radio state machine fed the same sends
/// and receives, so a send costs O(number of profiles); ``estimates(acrossAt:)`` gives them.
public struct EnergyMeter: Sendable {
    /// The constants in use.
    public let profile: EnergyProfile
    /// When the meter started, in seconds.
    public let start: Double
    /// The phone's current accuracy tier.
    public private(set) var tier: AccuracyTier
    /// Since when (seconds) the phone is in ``tier``.
    public private(set) var tierSince: Double
    /// Seconds per tier of the intervals closed so far (not the open one in ``tier``).
    public private(set) var closedTierSeconds = TierSeconds()
    /// Fixes delivered so far.
    public private(set) var deliveredFixes = 0
    /// Updates received so far (they use the same radio as sends).
    public private(set) var received = 0
    /// Distance travelled so far, in metres.
    public private(set) var distanceMetres = 0.0
    /// The phone's radio, fed by sends and receives.
    public private(set) var radio: RadioStateMachine
    /// The other profiles the same events are priced under.
    public let across: [EnergyProfile]
    /// The radio of each of ``across``, fed the same sends and receives.
    public private(set) var acrossRadios: [RadioStateMachine]

    /// A meter starting at `start` (seconds) in `tier`, with nothing counted yet; the events are
    /// also priced under each of `across`.
    public init(profile: EnergyProfile = .lte, start: Double, tier: AccuracyTier = .off, across: [EnergyProfile] = []) {
        self.profile = profile
        self.start = start
        self.tier = tier
        self.tierSince = start
        self.radio = RadioStateMachine(profile: profile.radio)
        self.across = across
        self.acrossRadios = across.map { RadioStateMachine(profile: $0.radio) }
    }

    /// The phone switches to `tier` at `time` (seconds, not before the previous event): the time
    /// since the last switch is counted in the previous tier.
    public mutating func setTier(_ tier: AccuracyTier, at time: Double) {
        assert(time >= tierSince, "tier changes must come in time order")
        closedTierSeconds[self.tier] += time - tierSince
        self.tier = tier
        tierSince = time
    }

    /// The location manager delivered one fix to the app (E_fix each).
    public mutating func deliverFix() { deliveredFixes += 1 }

    /// The phone sent one update at `time` (seconds, non-decreasing across sends and receives).
    @discardableResult
    public mutating func send(at time: Double) -> RadioTransition {
        for i in acrossRadios.indices { acrossRadios[i].send(at: time) }
        return radio.send(at: time)
    }

    /// The phone received one update at `time` (seconds, non-decreasing across sends and receives).
    /// A received update costs the radio what a sent one does (assumed: one small message either
    /// way) and shares tails with sends.
    @discardableResult
    public mutating func receive(at time: Double) -> RadioTransition {
        received += 1
        for i in acrossRadios.indices { acrossRadios[i].send(at: time) }
        return radio.send(at: time)
    }

    /// The phone moved `metres` (at least 0).
    public mutating func travel(metres: Double) { distanceMetres += metres }

    /// The estimate at `end` (seconds, not before the last tier change): the open tier interval
    /// is counted up to `end`, and the last radio tail in full (``RadioStateMachine/energy``).
    /// The meter is not changed, so it can report along the way and go on.
    public func estimate(at end: Double) -> EnergyEstimate { estimate(at: end, under: profile, radio: radio) }

    /// The estimate under each of ``across``, in its order, at `end` (as ``estimate(at:)``).
    public func estimates(acrossAt end: Double) -> [EnergyEstimate] {
        zip(across, acrossRadios).map { estimate(at: end, under: $0, radio: $1) }
    }

    private func estimate(at end: Double, under profile: EnergyProfile, radio: RadioStateMachine) -> EnergyEstimate {
        assert(end >= tierSince, "the end comes before the last tier change")
        var seconds = closedTierSeconds
        seconds[tier] += end - tierSince
        var location = 0.0  // mW × s = mJ
        for t in AccuracyTier.allCases { location += profile.locationMilliwatts(t) * seconds[t] }
        return EnergyEstimate(
            profile: profile, durationSeconds: end - start, tierSeconds: seconds, distanceMetres: distanceMetres,
            deliveredFixes: deliveredFixes, sent: radio.sends - received, received: received, radioPromotions: radio.promotions,
            locationJoules: location / 1000, fixesJoules: Double(deliveredFixes) * profile.fixMillijoules / 1000, radio: radio.energy)
    }
}
