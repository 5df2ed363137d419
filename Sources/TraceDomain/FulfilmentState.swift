/// The stages a request goes through while it is filled, in order (the seed's "Request
/// Fulfillment States").
public enum FulfilmentState: Int, CaseIterable, Comparable, Hashable, Sendable {
    /// The request is looking for someone to fill it.
    case findingVillager
    /// The request has been accepted but not yet started.
    case accepted
    /// The helper is on the way to fill the request.
    case enRoute
    /// The helper is waiting for the hirer / has arrived at the location.
    case atPickup
    /// The helper is filling the request (for a ride: driving to the destination).
    case inTask
    /// The helper is awaiting payment from the hirer.
    case awaitingPayment
    /// The request has been completed.
    case completed

    /// The seed's name, e.g. "Finding Villager".
    public var displayName: String {
        switch self {
        case .findingVillager: "Finding Villager"
        case .accepted: "Accepted"
        case .enRoute: "En Route"
        case .atPickup: "At Pickup"
        case .inTask: "In Task"
        case .awaitingPayment: "Awaiting Payment"
        case .completed: "Completed"
        }
    }

    /// The key used in policy files and JSON output, e.g. "findingVillager".
    public var key: String {
        switch self {
        case .findingVillager: "findingVillager"
        case .accepted: "accepted"
        case .enRoute: "enRoute"
        case .atPickup: "atPickup"
        case .inTask: "inTask"
        case .awaitingPayment: "awaitingPayment"
        case .completed: "completed"
        }
    }

    /// The state whose ``key`` or ``displayName`` is `text` (case-insensitive, spaces ignored).
    public init?(parsing text: String) {
        let folded = text.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
        guard let s = FulfilmentState.allCases.first(where: { $0.key.lowercased() == folded }) else { return nil }
        self = s
    }

    public static func < (a: FulfilmentState, b: FulfilmentState) -> Bool { a.rawValue < b.rawValue }
}
