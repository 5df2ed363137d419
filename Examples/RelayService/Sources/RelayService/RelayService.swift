import TraceDomain
import TraceGeodesy
import TraceService
import TraceSharing

// README: service begins
/// A relay service's state: every live request, by id. One value, no globals, no locks: a server
/// keeps one per event loop or actor and hands each request's events and fixes to it.
public struct RelayService: Sendable {
    /// The policy every request follows, prepared once (its relay answers, the exact solver).
    let policy = PreparedPolicy(.seed, exact: KarneyGeodesic.wgs84)  // pure Swift: no PROJ
    var requests: [Int: LiveRequest] = [:]
    /// What went where: the fixes forwarded to each viewer, and those dropped, by reason.
    public private(set) var forwarded: [Role: Int] = [:]
    public private(set) var dropped: [String: Int] = [:]

    public init() {}

    /// A new request in Finding Villager.
    public mutating func open(_ id: Int, category: RequestCategory) {
        requests[id] = LiveRequest(category: category, policy: policy)
    }

    /// An event (accept, depart, arrive, handOffPickup, cancel…): the action the phones and maps
    /// must now perform, sent to them by the caller.
    public mutating func handle(_ event: FulfilmentEvent, for id: Int) throws -> SharingAction {
        guard let action = try requests[id]?.handle(event) else { throw RelayError.unknownRequest(id) }  // or a TransitionError
        return action
    }

    /// A fix from one phone of a request: forwarded to the viewers the request allows, or dropped.
    /// The request decides with what it knows (its category, state and hand-off), never with
    /// facts the caller passes.
    public mutating func receive(_ fix: Coordinate, from sender: Role, of id: Int, at time: Timestamp) -> RelayDecision {
        let decision = requests[id]?.receive(fix, from: sender, at: time) ?? .ended  // in place: no copy
        switch decision {
        case .forward(let viewers): for viewer in viewers.roles { forwarded[viewer, default: 0] += 1 }  // send(fix, to: viewer)
        case .notShown, .throttled, .ended: dropped["\(decision)", default: 0] += 1
        }
        return decision
    }

    /// What `viewer`'s map of request `id` shows now.
    public func annotations(of id: Int, seenBy viewer: Role) -> Set<MapAnnotation> {
        requests[id]?.annotations(seenBy: viewer) ?? []
    }
}
// README: service ends

public enum RelayError: Error, CustomStringConvertible {
    case unknownRequest(Int)

    public var description: String {
        switch self {
        case .unknownRequest(let id): "no live request \(id)"
        }
    }
}
