public import TraceDomain

/// The per-state policy table: one ``StatePolicy`` for each ``FulfilmentState``.
///
/// Data, not code: the default (``seed``) encodes the user's document (restated, with TraceKit's
/// reading of it, in docs/domain.md, "The seed table"), and a policy file can override any field of
/// any state.
public struct SharingPolicy: Hashable, Sendable {
    /// A name for reports ("seed" for the default).
    public var name: String
    /// Internal, visible to inlined code: a row's field read in another module (`policy[state].send`
    /// on every delivered fix of a replay) is a load, not a copy of the row and its annotation lists.
    @usableFromInline var rows: [StatePolicy]
    /// Where a tuned policy came from (`tracekit tune --out`); nil for any other. A note for
    /// people: the replay does not read it.
    public var tuning: PolicyTuning?

    /// A policy from one row per state, in state order.
    /// - Precondition: `rows.count == FulfilmentState.allCases.count`.
    public init(name: String, rows: [StatePolicy]) {
        precondition(rows.count == FulfilmentState.allCases.count, "a policy has one row per state")
        self.name = name
        self.rows = rows
        tuning = nil
    }

    /// The row for `state`.
    @inlinable public subscript(state: FulfilmentState) -> StatePolicy {
        get { rows[state.rawValue] }
        set { rows[state.rawValue] = newValue }
    }

    /// Whether `self` and `other` are equal but for their names and tuning provenance, their rows
    /// compared by `sameRows` (state by state, in state order) and everything else by `==`;
    /// without copying the rows.
    public func equals(_ other: SharingPolicy, rows sameRows: (StatePolicy, StatePolicy) -> Bool) -> Bool {
        var rest = self
        rest.name = other.name
        rest.tuning = other.tuning
        rest.rows = other.rows  // the same storage: compared at once
        guard rest == other else { return false }
        return zip(rows, other.rows).allSatisfy(sameRows)
    }

    /// The seed's table.
    ///
    /// Map frames, tiers and annotations are the document's. Its wording is read as follows:
    /// "Origin\Destination" in Finding Villager and Accepted shows the origin only for rides (the
    /// state "shows Route \ Location destination for non rides": a route for a ride, the location
    /// for anything else); every "Hirer Location" is rides-only (the document's first note); the
    /// hirer's "Pickup Point (Only shown for rides)" in En Route is rides-only; "No Route Lines" in
    /// At Pickup and In Task turns lines off, and lines are drawn only where the document says
    /// "Route" (Finding Villager, Accepted, Awaiting Payment, Completed). The document gives En
    /// Route's frame "for ride" only; non-rides use the same 500 m.
    ///
    /// Distance filters (the document gives none; docs/domain.md, "Distance filters", and
    /// docs/battery-model.md, "Distance filters"): the jitter-safe value for each state's tier,
    /// about 2.5 × its accuracy — 30 m for En Route (NearestTenMeters), 13 m for At Pickup
    /// (BestForNavigation), 160 m for In Task (HundredMeters). Why jitter-safe: the helper stands
    /// still at the pickup and at lights, and a filter below ~2.5 × the accuracy turns GNSS jitter
    /// into updates the other party sees as the car crawling about; on the 150–500 m frames these
    /// filters stay at 6–32 % of the span, small against what the viewer needs. States with
    /// location off carry 0 (unused). Every state uses Core Location's delivery model, no
    /// accuracy gate, and sends every delivered fix (``SendRule/everyDelivered``).
    public static let seed: SharingPolicy = {
        let od = [AnnotationRule(.origin, ridesOnly: true), AnnotationRule(.destination)]
        let live = [AnnotationRule(.helperLocation), AnnotationRule(.hirerLocation, ridesOnly: true)]
        return SharingPolicy(
            name: "seed",
            rows: [
                StatePolicy(  // Finding Villager
                    tier: .off, frame: 250, distanceFilter: 0,
                    shows: ShownContent(route: true, routeLines: true, destination: true),
                    hirerAnnotations: od, helperAnnotations: od + [AnnotationRule(.ownLocation)]),
                StatePolicy(  // Accepted
                    tier: .off, frame: 500, distanceFilter: 0,
                    shows: ShownContent(route: true, routeLines: true, destination: true),
                    hirerAnnotations: od, helperAnnotations: od + [AnnotationRule(.ownLocation)]),
                StatePolicy(  // En Route
                    tier: .nearestTenMeters, frame: 500, distanceFilter: 30,
                    shows: ShownContent(route: false, routeLines: false, destination: false),
                    hirerAnnotations: live + [AnnotationRule(.pickupPoint, ridesOnly: true)],
                    helperAnnotations: live + [AnnotationRule(.pickupPoint)]),
                StatePolicy(  // At Pickup
                    tier: .bestForNavigation, frame: 150, distanceFilter: 13,
                    shows: ShownContent(route: false, routeLines: false, destination: true),
                    hirerAnnotations: live + [AnnotationRule(.pickupPoint)],
                    helperAnnotations: live + [AnnotationRule(.pickupPoint)]),
                StatePolicy(  // In Task
                    tier: .hundredMeters, frame: 500, distanceFilter: 160,
                    shows: ShownContent(route: false, routeLines: false, destination: true),
                    hirerAnnotations: [AnnotationRule(.hirerLocation, ridesOnly: true), AnnotationRule(.dropoffPoint)],
                    helperAnnotations: [AnnotationRule(.helperLocation), AnnotationRule(.pickupPoint)]),
                StatePolicy(  // Awaiting Payment
                    tier: .off, frame: 250, distanceFilter: 0,
                    shows: ShownContent(route: true, routeLines: true, destination: false),
                    hirerAnnotations: [], helperAnnotations: []),
                StatePolicy(  // Completed
                    tier: .off, frame: 250, distanceFilter: 0,
                    shows: ShownContent(route: true, routeLines: true, destination: false),
                    hirerAnnotations: [], helperAnnotations: []),
            ])
    }()
}

/// How a policy was tuned (``SharingPolicy/tuning``): the policy file's `tuned` member.
public struct PolicyTuning: Hashable, Sendable {
    /// The TraceKit version that tuned it.
    public var tracekitVersion: String
    /// The corpus it was tuned on: the inputs as given, and how many trips they held.
    public var corpus: [String]
    public var trips: Int
    /// The requirements, as written.
    public var requirements: [String]
    /// How a requirement was judged across the corpus, and what was minimised.
    public var judged: String
    public var objective: String
    /// The policy the search started from.
    public var start: String

    public init(
        tracekitVersion: String, corpus: [String], trips: Int, requirements: [String], judged: String, objective: String, start: String
    ) {
        self.tracekitVersion = tracekitVersion
        self.corpus = corpus
        self.trips = trips
        self.requirements = requirements
        self.judged = judged
        self.objective = objective
        self.start = start
    }
}
