public import TraceDomain
public import TraceGeodesy
public import TraceIO
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
public protocol ReplayObserver {
    mutating func delivered(_ update: DeliveredUpdate)
}

/// Observes nothing.
public struct NoReplayObserver: ReplayObserver {
    public init() {}
    public mutating func delivered(_ update: DeliveredUpdate) {}
}
