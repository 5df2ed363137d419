public import TraceDomain
public import TraceGeodesy
import TraceIO
import TraceSharing

/// A fix an emulated phone delivered, as the replay saw it.
public struct DeliveredUpdate: Hashable, Sendable {
    public var role: Role
    public var state: FulfilmentState
    public var time: Timestamp
    public var coordinate: Coordinate
    /// The fix's reported horizontal accuracy, metres; nil when the trace gives none.
    public var accuracyMetres: Double?
    /// Whether the phone sent it to the server (``LocationUse/shares``).
    public var sent: Bool
    /// The viewers the relay forwarded it to (empty when not sent).
    public var forwarded: RoleSet

    /// ``forwarded`` as a list, in ``Role`` order.
    public var forwardedTo: [Role] { Role.allCases.filter { forwarded.contains(RoleSet($0)) } }
}

/// Sees each delivered update as the replay produces it, in replay order, so an output of every
/// update (GeoJSON) can be streamed in bounded memory instead of collected.
///
/// A replay may try a single pass (``Replay/singlePassApplies(_:spec:)``) and abandon it part-way
/// for the two passes when a file turns out to need the first pass; the abandoned pass's updates
/// would then be shown again. ``seesDeliveries`` states whether that matters: the replay tries a
/// single pass only for an observer that does not see deliveries.
public protocol ReplayObserver {
    /// Whether this observer sees deliveries, so that each must be shown exactly once, in replay
    /// order, from the start: true (the default) rules out a single pass that may be abandoned; an
    /// observer that ignores ``delivered(_:)`` says false, and the replay may read each file once.
    static var seesDeliveries: Bool { get }

    mutating func delivered(_ update: DeliveredUpdate)
}

extension ReplayObserver {
    public static var seesDeliveries: Bool { true }
}

/// Observes nothing: a replay with it may try a single pass.
public struct NoReplayObserver: ReplayObserver {
    public static var seesDeliveries: Bool { false }
    public init() {}
    public mutating func delivered(_ update: DeliveredUpdate) {}
}
