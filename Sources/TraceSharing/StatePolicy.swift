public import TraceDomain

/// An annotation a viewer sees in a state, and whether only for rides.
public struct AnnotationRule: Hashable, Sendable {
    public var annotation: MapAnnotation
    /// Shown only when the request's category is a ride.
    public var ridesOnly: Bool

    public init(_ annotation: MapAnnotation, ridesOnly: Bool = false) {
        self.annotation = annotation
        self.ridesOnly = ridesOnly
    }
}

/// What the map shows in a state, apart from annotations.
public struct ShownContent: Hashable, Sendable {
    /// The route between the request's points is drawn (for a ride; a non-ride shows its location).
    public var route: Bool
    /// The route is drawn as lines (the seed's "No Route Lines" turns this off).
    public var routeLines: Bool
    /// The destination is shown.
    public var destination: Bool

    public init(route: Bool, routeLines: Bool, destination: Bool) {
        self.route = route
        self.routeLines = routeLines
        self.destination = destination
    }
}

/// Everything a state asks of the phones and the maps: one row of the policy table.
public struct StatePolicy: Hashable, Sendable {
    /// The accuracy tier the phones request (``AccuracyTier/off``: no location updates).
    public var tier: AccuracyTier
    /// The map frame: the minimum span of the viewer's map region, metres.
    public var frame: Double
    /// How far a phone must move, horizontally, from the last delivered location before the next
    /// update (Core Location's `distanceFilter`, Android's `minUpdateDistanceMeters`, the base of the
    /// speed-elastic filter), metres; 0 delivers every fix. Ignored when off.
    public var distanceFilter: Double
    /// The platform rule that decides which fixes the phone delivers (``DeliveryModel``); Core
    /// Location's by default.
    public var delivery: DeliveryModel
    /// An optional rule that stops fixes with a worse reported accuracy; nil consults no accuracy.
    public var accuracyGate: AccuracyGate?
    /// Which delivered fixes the app sends while the phone shares (``SendRule``); every delivered
    /// fix by default.
    public var send: SendRule
    /// What the map shows besides annotations.
    public var shows: ShownContent
    /// The annotations each viewer role sees: `hirer` and `helper` (a delegate sees the hirer's).
    public var hirerAnnotations: [AnnotationRule]
    public var helperAnnotations: [AnnotationRule]

    public init(
        tier: AccuracyTier, frame: Double, distanceFilter: Double, delivery: DeliveryModel = .coreLocation,
        accuracyGate: AccuracyGate? = nil, send: SendRule = .everyDelivered, shows: ShownContent, hirerAnnotations: [AnnotationRule],
        helperAnnotations: [AnnotationRule]
    ) {
        self.tier = tier
        self.frame = frame
        self.distanceFilter = distanceFilter
        self.delivery = delivery
        self.accuracyGate = accuracyGate
        self.send = send
        self.shows = shows
        self.hirerAnnotations = hirerAnnotations
        self.helperAnnotations = helperAnnotations
    }

    /// The rules for a viewer role's map; a delegate (the designated pickup party) sees what the
    /// hirer sees.
    public func annotationRules(for viewer: Role) -> [AnnotationRule] {
        switch viewer {
        case .hirer, .delegate: hirerAnnotations
        case .helper: helperAnnotations
        }
    }
}
