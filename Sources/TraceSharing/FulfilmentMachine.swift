public import TraceDomain

/// Something that happens to a request.
public enum FulfilmentEvent: Hashable, Sendable, CaseIterable {
    /// A helper accepts the request. Finding Villager → Accepted.
    case accept
    /// The helper sets off. Accepted → En Route.
    case depart
    /// The helper arrives at the pickup point or task location. En Route → At Pickup; also from
    /// Accepted (the helper was already there: En Route is skipped).
    case arrive
    /// The helper starts filling the request. At Pickup → In Task; also from Accepted or En Route
    /// (a request with no separate meeting: the skipped states are reported).
    case startTask
    /// The helper finishes. In Task → Awaiting Payment.
    case finishTask
    /// The hirer pays. Awaiting Payment → Completed.
    case confirmPayment
    /// Either party cancels. Allowed from Finding Villager to In Task; the request ends, all
    /// location sharing stops. Not allowed once payment is awaited (the work is done).
    case cancel
    /// The hirer designates a third party as the pickup party. Allowed from Finding Villager to At
    /// Pickup, once; the state does not change, but the "hirer" locations now come from the
    /// delegate's phone.
    case handOffPickup
}

/// Why an event was refused.
public enum TransitionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event does not apply in this state.
    case illegal(FulfilmentEvent, in: FulfilmentState)
    /// The request has ended (completed or cancelled); no event applies.
    case ended(FulfilmentEvent, cancelled: Bool)

    public var description: String {
        switch self {
        case .illegal(let e, let s): "event '\(e)' is not allowed in state \(s.displayName)"
        case .ended(let e, let cancelled): "event '\(e)' after the request was \(cancelled ? "cancelled" : "completed")"
        }
    }
}

/// What the phones and maps must do after an event: the caller performs it.
public struct SharingAction: Hashable, Sendable {
    /// The state entered (for a cancellation, the state the request was in).
    public var state: FulfilmentState
    /// Whether the request has just been cancelled: everything below is off.
    public var cancelled: Bool
    /// States passed over by this event (e.g. En Route when `arrive` comes in Accepted).
    public var skipped: [FulfilmentState]
    /// The accuracy tier the sharing phones request.
    public var tier: AccuracyTier
    /// The distance filter, metres.
    public var distanceFilter: Double
    /// The platform rule that decides which fixes are delivered.
    public var delivery: DeliveryModel
    /// The optional accuracy gate.
    public var accuracyGate: AccuracyGate?
    /// The minimum span of every viewer's map region, metres.
    public var frame: Double
    /// Whether route lines are drawn.
    public var routeLines: Bool
    /// How each role's phone uses location.
    public var locationUse: [Role: LocationUse]
    /// What each viewer's map shows.
    public var annotations: [Role: Set<MapAnnotation>]
}

extension SharingAction {
    /// This action with the phone settings of `row` (its tier, distance filter, delivery model and
    /// accuracy gate), set as the machine sets them: the action a policy gives at the same point
    /// when it differs from this action's only in those fields of the state's row, with the tier
    /// off in both or in neither (whether the tier is off decides each phone's location use and
    /// who sees whom; the rest of the row decides nothing else). TraceReplay's decision pass
    /// replays recorded state changes under candidate policies with it.
    public func withPhoneSettings(of row: StatePolicy) -> SharingAction {
        var a = self
        a.tier = cancelled ? .off : row.tier
        a.distanceFilter = row.distanceFilter
        a.delivery = row.delivery
        a.accuracyGate = row.accuracyGate
        return a
    }
}

/// The fulfilment state machine of one request: a value that takes an event and returns the
/// action to perform. The per-state behaviour comes from a ``SharingPolicy`` (data); the machine
/// only knows which transitions exist.
///
/// Transitions (anything else is a ``TransitionError``, never a crash):
///
/// | event | from | to |
/// |---|---|---|
/// | accept | Finding Villager | Accepted |
/// | depart | Accepted | En Route |
/// | arrive | Accepted, En Route | At Pickup |
/// | startTask | Accepted, En Route, At Pickup | In Task |
/// | finishTask | In Task | Awaiting Payment |
/// | confirmPayment | Awaiting Payment | Completed |
/// | cancel | Finding Villager … In Task | cancelled (ended) |
/// | handOffPickup | Finding Villager … At Pickup, once | same state, delegate sources the hirer locations |
public struct FulfilmentMachine: Hashable, Sendable {
    /// The current state (for a cancelled request, the state it was cancelled in).
    public private(set) var state: FulfilmentState
    /// Whether the request was cancelled.
    public private(set) var isCancelled = false
    /// The request's category and pickup hand-off.
    public private(set) var request: RequestContext
    /// The table the actions are read from.
    public let policy: SharingPolicy

    /// A new request in Finding Villager.
    public init(category: RequestCategory, policy: SharingPolicy = .seed, pickupHandedOff: Bool = false) {
        state = .findingVillager
        request = RequestContext(category: category, pickupHandedOff: pickupHandedOff)
        self.policy = policy
    }

    /// Whether the request has ended (completed or cancelled).
    public var hasEnded: Bool { isCancelled || state == .completed }

    /// The action for the current state (what a client joining now must do).
    public var currentAction: SharingAction { action(skipped: []) }

    /// Applies `event` and returns the action to perform.
    /// - Throws: ``TransitionError`` when the event does not apply; the machine is then unchanged.
    public mutating func handle(_ event: FulfilmentEvent) throws(TransitionError) -> SharingAction {
        let step = try FulfilmentStep(event, state: state, isCancelled: isCancelled, pickupHandedOff: request.pickupHandedOff)
        state = step.state
        isCancelled = step.isCancelled
        request.pickupHandedOff = step.pickupHandedOff
        return action(skipped: step.skipped)
    }

    private func action(skipped: [FulfilmentState]) -> SharingAction {
        SharingAction(policy: policy, state: state, cancelled: isCancelled, request: request, skipped: skipped)
    }
}

/// One transition of the machine, found from the facts it changes: what ``FulfilmentMachine``
/// and TraceService's `LiveRequest` (which keeps the facts, not a machine) both apply.
package struct FulfilmentStep {
    package var state: FulfilmentState
    package var isCancelled: Bool
    package var pickupHandedOff: Bool
    /// States passed over by the event.
    package var skipped: [FulfilmentState] = []

    /// The step `event` takes from `state`.
    /// - Throws: ``TransitionError`` when the event does not apply.
    package init(_ event: FulfilmentEvent, state from: FulfilmentState, isCancelled: Bool, pickupHandedOff: Bool) throws(TransitionError) {
        if isCancelled || from == .completed { throw .ended(event, cancelled: isCancelled) }
        state = from
        self.isCancelled = false
        self.pickupHandedOff = pickupHandedOff
        let to: FulfilmentState
        switch (event, from) {
        case (.accept, .findingVillager): to = .accepted
        case (.depart, .accepted): to = .enRoute
        case (.arrive, .accepted), (.arrive, .enRoute): to = .atPickup
        case (.startTask, .accepted), (.startTask, .enRoute), (.startTask, .atPickup): to = .inTask
        case (.finishTask, .inTask): to = .awaitingPayment
        case (.confirmPayment, .awaitingPayment): to = .completed
        case (.cancel, .findingVillager), (.cancel, .accepted), (.cancel, .enRoute), (.cancel, .atPickup), (.cancel, .inTask):
            self.isCancelled = true
            return
        case (.handOffPickup, .findingVillager), (.handOffPickup, .accepted), (.handOffPickup, .enRoute), (.handOffPickup, .atPickup):
            guard !pickupHandedOff else { throw .illegal(event, in: from) }
            self.pickupHandedOff = true
            return
        case (.accept, _), (.depart, _), (.arrive, _), (.startTask, _), (.finishTask, _), (.confirmPayment, _), (.cancel, _),
            (.handOffPickup, _):
            throw .illegal(event, in: from)
        }
        state = to
        skipped = FulfilmentState.allCases.filter { $0 > from && $0 < to }
    }
}

extension SharingAction {
    /// The action `policy` gives in `state` for `request`: everything off once `cancelled`.
    package init(policy: SharingPolicy, state: FulfilmentState, cancelled: Bool, request: RequestContext, skipped: [FulfilmentState]) {
        let row = policy[state]
        var use: [Role: LocationUse] = [:]
        var seen: [Role: Set<MapAnnotation>] = [:]
        for role in Role.allCases {
            use[role] = cancelled ? .off : policy.locationUse(of: role, in: state, for: request)
            seen[role] = cancelled ? [] : policy.annotations(seenBy: role, in: state, for: request)
        }
        self.init(
            state: state, cancelled: cancelled, skipped: skipped,
            tier: cancelled ? .off : row.tier, distanceFilter: row.distanceFilter,
            delivery: row.delivery, accuracyGate: row.accuracyGate,
            frame: row.frame, routeLines: !cancelled && row.shows.routeLines,
            locationUse: use, annotations: seen)
    }
}
