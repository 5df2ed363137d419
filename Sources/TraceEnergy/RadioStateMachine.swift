/// Radio energy in joules, in its three parts.
public struct RadioEnergy: Hashable, Sendable {
    /// Promotions from idle to connected, in joules.
    public var promotionJoules: Double = 0
    /// Transmissions, in joules.
    public var transmitJoules: Double = 0
    /// Tails (both stages), in joules.
    public var tailJoules: Double = 0

    /// An energy of 0 J.
    public init() {}

    /// The sum of the three parts, in joules.
    public var totalJoules: Double { promotionJoules + transmitJoules + tailJoules }
}

/// What the radio did with one send (the action a ``RadioStateMachine`` returns).
public enum RadioTransition: Hashable, Sendable {
    /// The radio was idle (first send, or the previous tail had run out and was charged in full):
    /// it is promoted, then transmits.
    case promoted
    /// The send fell in the previous tail, which is cut short after `tailSeconds` and charged for
    /// that long; no promotion. The tail restarts (from its first stage) after this transmission.
    case sharedTail(tailSeconds: Double)
    /// The send came while the radio was still being promoted or transmitting: it waits
    /// `waitSeconds` and transmits right after, with no tail in between and no promotion.
    case queued(waitSeconds: Double)
}

/// The radio of one phone as a state machine over its send times (docs/battery-model.md, "Radio"):
/// promotion, transmission and tail, with tail merging.
///
/// Timeline of a send at time t (seconds):
/// - If the radio is idle, it is promoted during [t, t + t_pro] and transmits during
///   [t + t_pro, t + t_pro + t_tx]. Otherwise it transmits from t (or, when the previous
///   promotion or transmission is still running, right after it).
/// - The tail starts when the transmission ends and lasts T_tail = ``RadioProfile/tailTotalSeconds``.
///   A send within T_tail of the end of the previous transmission shares that tail: no new
///   promotion, and the tail is cut short by the send (charged only up to it). A send at or after
///   the tail's end finds the radio idle: the previous tail is charged in full and the radio is
///   promoted again.
/// - Two-stage tails (3G): the first stage (DCH) is charged at its power for up to
///   ``RadioProfile/tailSeconds``, then the second (FACH) at its power for the rest. A send in
///   either stage shares the tail (docs/battery-model.md, "Radio"; a FACH→DCH promotion is not
///   modelled), and the next tail starts again from the first stage.
/// - End of the replay: ``energy`` charges the last send's tail in full, even where it runs past
///   the end of the replay: the send causes it and the phone pays it.
///
/// Sends must come in non-decreasing time order (checked in debug builds). Each send is O(1)
/// and allocates nothing.
public struct RadioStateMachine: Hashable, Sendable {
    /// The radio's constants.
    public let profile: RadioProfile
    /// Energy charged for everything before the last transmission's tail, in joules.
    public private(set) var settled = RadioEnergy()
    /// Sends so far.
    public private(set) var sends = 0
    /// Promotions so far (idle → connected; the first send is one).
    public private(set) var promotions = 0
    /// When the last transmission ends, in seconds; -infinity before the first send.
    public private(set) var transmissionEnd = -Double.infinity
    private var lastSend = -Double.infinity

    /// An idle radio.
    public init(profile: RadioProfile) {
        self.profile = profile
    }

    /// Records one update sent at `time` (seconds, any epoch, non-decreasing) and returns what the
    /// radio did.
    @discardableResult
    public mutating func send(at time: Double) -> RadioTransition {
        assert(time >= lastSend, "sends must come in time order")
        lastSend = time
        sends += 1
        let sinceTransmission = time - transmissionEnd  // +infinity before the first send
        let start: Double
        let transition: RadioTransition
        if sinceTransmission >= profile.tailTotalSeconds {
            if promotions > 0 { settled.tailJoules += profile.fullTailJoules }
            settled.promotionJoules += profile.promotionJoules
            promotions += 1
            start = time + profile.promotionSeconds
            transition = .promoted
        } else if sinceTransmission >= 0 {
            settled.tailJoules += profile.tailJoules(after: sinceTransmission)
            start = time
            transition = .sharedTail(tailSeconds: sinceTransmission)
        } else {
            start = transmissionEnd
            transition = .queued(waitSeconds: -sinceTransmission)
        }
        settled.transmitJoules += profile.transmitJoules
        transmissionEnd = start + profile.transmitSeconds
        return transition
    }

    /// All the energy the sends so far cost, in joules, the last send's tail charged in full.
    public var energy: RadioEnergy {
        var e = settled
        if sends > 0 { e.tailJoules += profile.fullTailJoules }
        return e
    }
}
