import TraceDomain
import TraceJSON

// Readable values for services and logs: each prints as one short line.

extension MapAnnotation: CustomStringConvertible {
    /// The ``key``, e.g. "pickupPoint".
    public var description: String { key }
}

extension LocationUse: CustomStringConvertible {
    /// "off", "ownMapOnly" or "shares".
    public var description: String {
        switch self {
        case .off: "off"
        case .ownMapOnly: "ownMapOnly"
        case .shares: "shares"
        }
    }
}

extension FulfilmentEvent: CustomStringConvertible {
    /// The event's name, e.g. "handOffPickup".
    public var description: String {
        switch self {
        case .accept: "accept"
        case .depart: "depart"
        case .arrive: "arrive"
        case .startTask: "startTask"
        case .finishTask: "finishTask"
        case .confirmPayment: "confirmPayment"
        case .cancel: "cancel"
        case .handOffPickup: "handOffPickup"
        }
    }
}

extension DeliveryModel: CustomStringConvertible {
    /// The ``summary``, e.g. "Core Location".
    public var description: String { summary }
}

extension SharingAction: CustomStringConvertible {
    /// One line: the state, the phones' settings, and each role's location use and map, e.g.
    /// "enRoute: nearestTenMeters, filter 30 m, frame 500 m, no route lines; hirer shares, sees
    /// helperLocation, hirerLocation, pickupPoint; helper shares, sees …; delegate off, sees
    /// nothing". A cancelled request reads "cancelled in enRoute: everything off".
    public var description: String {
        if cancelled { return "cancelled in \(state): everything off" }
        var text = "\(state)"
        if !skipped.isEmpty { text += " (skipped \(skipped.map(\.key).joined(separator: ", ")))" }
        text += ": \(tier)"
        if tier != .off { text += ", filter \(JSONWriter.number(distanceFilter)) m" }
        text += ", frame \(JSONWriter.number(frame)) m, \(routeLines ? "route lines" : "no route lines")"
        for role in Role.allCases {
            let seen = (annotations[role] ?? []).sorted().map(\.key)
            text += "; \(role) \(locationUse[role] ?? .off), sees \(seen.isEmpty ? "nothing" : seen.joined(separator: ", "))"
        }
        return text
    }
}
