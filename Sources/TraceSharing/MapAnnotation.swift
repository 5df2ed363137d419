public import TraceDomain

/// The seed's map annotations.
public enum MapAnnotation: Int, CaseIterable, Comparable, Hashable, Sendable {
    /// Where a ride starts.
    case origin
    /// Where the request ends (a ride's destination, or the task's location).
    case destination
    /// The viewer's own position (shown by the viewer's phone; never sent).
    case ownLocation
    /// The helper's live position.
    case helperLocation
    /// The hirer's live position (from the delegate's phone when pickup is handed off).
    case hirerLocation
    /// Where the helper meets the hirer.
    case pickupPoint
    /// Where a ride ends.
    case dropoffPoint

    /// The key used in policy files.
    public var key: String {
        switch self {
        case .origin: "origin"
        case .destination: "destination"
        case .ownLocation: "ownLocation"
        case .helperLocation: "helperLocation"
        case .hirerLocation: "hirerLocation"
        case .pickupPoint: "pickupPoint"
        case .dropoffPoint: "dropoffPoint"
        }
    }

    /// The seed's wording, e.g. "Pickup Point".
    public var displayName: String {
        switch self {
        case .origin: "Origin"
        case .destination: "Destination"
        case .ownLocation: "Your own location"
        case .helperLocation: "Helper Location"
        case .hirerLocation: "Hirer Location"
        case .pickupPoint: "Pickup Point"
        case .dropoffPoint: "Dropoff Point"
        }
    }

    /// The role whose phone is the source of this annotation's position, if it is a live position.
    /// `hirerLocation` comes from the delegate when pickup has been handed off.
    public func liveSource(handedOff: Bool) -> Role? {
        switch self {
        case .helperLocation: .helper
        case .hirerLocation: handedOff ? .delegate : .hirer
        case .origin, .destination, .ownLocation, .pickupPoint, .dropoffPoint: nil
        }
    }

    /// The annotation whose ``key`` is `text`.
    public init?(parsing text: String) {
        guard let a = MapAnnotation.allCases.first(where: { $0.key == text }) else { return nil }
        self = a
    }

    public static func < (a: MapAnnotation, b: MapAnnotation) -> Bool { a.rawValue < b.rawValue }
}
