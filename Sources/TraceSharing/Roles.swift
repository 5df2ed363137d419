/// A party to a request.
public enum Role: Int, CaseIterable, Hashable, Sendable {
    /// The person who posted the request.
    case hirer
    /// The villager filling it.
    case helper
    /// A third party the hirer designated as the pickup party: the "hirer" locations come from
    /// this person's phone.
    case delegate

    /// The key used in files and output.
    public var key: String {
        switch self {
        case .hirer: "hirer"
        case .helper: "helper"
        case .delegate: "delegate"
        }
    }

    /// The role whose ``key`` is `text`.
    public init?(parsing text: String) {
        guard let r = Role.allCases.first(where: { $0.key == text.lowercased() }) else { return nil }
        self = r
    }
}

/// What kind of request this is. Ride-ness is a property of the category: the rules that depend
/// on it (the hirer's location, the pickup point in En Route, the origin) read ``isRide`` and
/// never compare category names.
public struct RequestCategory: Hashable, Sendable {
    /// A name for reports, e.g. "dog walking".
    public var name: String
    /// Whether the helper carries the hirer (a ride).
    public var isRide: Bool

    public init(name: String, isRide: Bool) {
        self.name = name
        self.isRide = isRide
    }

    public static let ride = RequestCategory(name: "ride", isRide: true)
    public static let babysitting = RequestCategory(name: "babysitting", isRide: false)
    public static let dogWalking = RequestCategory(name: "dog walking", isRide: false)
    public static let delivery = RequestCategory(name: "delivery", isRide: false)

    /// The known categories by name (case-insensitive; "dog-walking" and "dog_walking" too); an
    /// unknown name is a non-ride category of that name.
    public init(named name: String) {
        let folded = String(name.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 })
        self = [RequestCategory.ride, .babysitting, .dogWalking, .delivery].first { $0.name == folded }
            ?? RequestCategory(name: folded, isRide: false)
    }
}

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
