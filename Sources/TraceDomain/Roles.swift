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
        self =
            [RequestCategory.ride, .babysitting, .dogWalking, .delivery].first { $0.name == folded }
            ?? RequestCategory(name: folded, isRide: false)
    }
}
