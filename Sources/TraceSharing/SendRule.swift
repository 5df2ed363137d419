import TraceJSON

/// Which delivered fixes the app sends while its phone shares its location in a state: a rule the
/// app applies on top of the OS's delivery (``DeliveryModel`` decides which fixes the app receives).
///
/// Chosen per state by the policy (``StatePolicy/send``, a policy file's `send` from version 3 on)
/// and replaceable for a whole replay (TraceReplay's `ReplayOptions.send`, `--send`). In a state
/// whose tier is off nothing is delivered, so nothing is sent whatever the rule.
///
/// Sources (read to understand, never copied):
/// - Ouri Wolfson, A. Prasad Sistla, Sam Chamberlain, Yelena Yesha, "Updating and Querying
///   Databases that Track Mobile Units", Distributed and Parallel Databases 7(3), 1999: the
///   dead-reckoning update policies, which update the database location whenever the distance
///   between the actual location and the database location exceeds a threshold.
/// - Mikkel Baun Kjærgaard, Jakob Langdal, Torben Godsk, Thomas Toftkjær, "EnTracked:
///   energy-efficient robust position tracking for mobile devices", MobiSys 2009: a tracker that
///   schedules position updates from its prediction of the target's mobility to save energy.
public enum SendRule: Hashable, Sendable {
    /// Every delivered fix is sent (the default, and TraceKit's only rule before).
    case everyDelivered
    /// Dead reckoning (Wolfson et al.'s dead-reckoning update policies for moving objects; EnTracked):
    /// a delivered fix is sent only when the position the viewer would draw at the fix's time,
    /// predicted from the updates sent before, is more than `thresholdMetres` from the fix
    /// (nil: the state's distance filter, ``StatePolicy/distanceFilter``), or when at least
    /// `heartbeatSeconds` have passed since the last send (so a phone whose delivery still delivers
    /// fixes proves it is alive). The first delivered fix of a sharing state is always sent.
    case deadReckoning(thresholdMetres: Double?, heartbeatSeconds: Double)

    /// The heartbeat when none is given: 30 s. Assumed: neither source gives one for this use; it is
    /// a round value, not a measured or cited one.
    public static let defaultHeartbeatSeconds: Double = 30

    /// "everyDelivered" or "deadReckoning" (policy files and the command line).
    public var key: String {
        switch self {
        case .everyDelivered: "everyDelivered"
        case .deadReckoning: "deadReckoning"
        }
    }

    /// Every rule's key, in declaration order (for messages and help).
    public static let keys = ["everyDelivered", "deadReckoning"]

    /// The threshold in `row` (the rule's, or the row's distance filter), metres; nil for everyDelivered.
    public func thresholdMetres(in row: StatePolicy) -> Double? {
        switch self {
        case .everyDelivered: nil
        case .deadReckoning(let threshold, _): threshold ?? row.distanceFilter
        }
    }

    /// One line for reports and diffs, without a row: "every delivered fix", "dead reckoning 30 m,
    /// heartbeat 30 s", or, without a threshold of its own, "dead reckoning at the state's distance
    /// filter, heartbeat 30 s". ``summary(in:)`` gives the threshold a row resolves to.
    public var summary: String {
        switch self {
        case .everyDelivered: return "every delivered fix"
        case .deadReckoning(let threshold, let heartbeat):
            let at = threshold.map { "\(JSONWriter.number($0)) m" } ?? "at the state's distance filter"
            return "dead reckoning \(at), heartbeat \(JSONWriter.number(heartbeat)) s"
        }
    }

    /// ``summary`` with the threshold `row` resolves to, e.g. "dead reckoning 30 m (the state's
    /// distance filter), heartbeat 30 s"; the same as ``summary`` when the rule has its own threshold.
    public func summary(in row: StatePolicy) -> String {
        guard case .deadReckoning(nil, let heartbeat) = self else { return summary }
        return
            "dead reckoning \(JSONWriter.number(row.distanceFilter)) m (the state's distance filter), heartbeat \(JSONWriter.number(heartbeat)) s"
    }
}
