import TraceDevice
public import TraceDomain
public import TraceGeodesy
public import TraceSharing

/// One live request as a service holds it: its category, its state, its pickup hand-off and its
/// policy, owned here, so no answer can be asked for with the wrong facts.
///
/// Events go in (``accept()``, ``depart()``, ``arrive()``, ``startTask()``, ``finishTask()``,
/// ``confirmPayment()``, ``cancel()``, ``handOffPickup()``, or ``handle(_:)``), each returning
/// the ``TraceSharing/SharingAction`` the phones and maps must perform; fixes from the phones go
/// in (``receive(_:from:at:speed:)``), each returning whether it is forwarded and to
/// whom. The request answers what each viewer's map may show (``annotations(seenBy:)``), the map
/// region (``region(for:positions:)``) and each phone's location use (``locationUse(of:)``).
/// Once completed, nothing is relayed and every answer agrees: phones off, no live position on
/// any map, whatever the policy's Completed row says.
///
/// Privacy by construction: whether the hirer's location may be shown depends on the request's
/// category (``TraceDomain/RequestCategory/isRide``) and on whether pickup was handed off; both
/// are facts of the request, set by ``init(category:policy:)`` and ``handOffPickup()``, and no
/// method takes them from the caller. Outside a ride no fix from the hirer's or the delegate's
/// phone is ever forwarded, whatever the policy says (``TraceSharing/SharingPolicy`` keeps the
/// user's document's ride-only rule itself), and after a hand-off the original hirer's phone is
/// no longer a source.
///
/// Cost: ``receive(_:from:at:speed:)`` allocates nothing: one read of the prepared relay answers
/// and, when the sender's position is shown, the state's delivery rule (one per state, in
/// ``PreparedPolicy``) against what the request remembers of that sender: 32 bytes, its last fix
/// forwarded, time and speed. Events build their action (a few small collections). Size:
/// `MemoryLayout<LiveRequest>.size` is 97 bytes on 64-bit Linux (104 in an array; the tests check
/// it), plus the category's name when it is longer than 15 UTF-8 bytes; the policy is shared.
/// With a million requests, a fix costs one read of main memory: decide fixes in batches
/// (`Array.receive(_:into:)`, ``IncomingFix``) to overlap those reads (Benchmarks/README.md,
/// "Live requests", gives the nanoseconds per fix both ways). `Sendable`: a value, one per request.
public struct LiveRequest: Sendable {
    // The fields a fix reads come first, together (a fix in a random request costs a miss or two
    // of the memory, not the decision): the policy, the state and its flags, the senders' memories.

    /// The prepared policy, shared by every request that follows it.
    public let prepared: PreparedPolicy
    /// The current state (for a cancelled request, the state it was cancelled in).
    public private(set) var state: FulfilmentState = .findingVillager
    /// Whether the request was cancelled.
    public private(set) var isCancelled = false
    /// Whether the hirer designated a third party as the pickup party (``handOffPickup()``).
    public private(set) var pickupHandedOff = false
    /// ``category``'s ride-ness, beside the state (the category's name is read by no fix).
    private let isRide: Bool
    /// What the helper's phone's delivery rule, re-applied to what it sends, remembers: the last
    /// fix forwarded, its time and speed (the rule itself is the state's, in ``prepared``).
    private var helperMemory = DeliveryMemory.empty
    /// The same for the phone the hirer's location comes from: the hirer's, or the delegate's once
    /// pickup is handed off (a new phone: a fresh memory).
    private var hirerSideMemory = DeliveryMemory.empty
    /// The request's category, fixed at creation.
    public let category: RequestCategory

    /// How many bytes from its start a fix may read of a request: through the last sender's
    /// memory (80 on 64-bit Linux); the category after it is read by no fix.
    static let bytesReadPerFix =
        (MemoryLayout<LiveRequest>.offset(of: \LiveRequest.hirerSideMemory) ?? MemoryLayout<LiveRequest>.size)
        + MemoryLayout<DeliveryMemory>.size

    /// A new request in Finding Villager, following `prepared`.
    public init(category: RequestCategory, policy prepared: PreparedPolicy) {
        self.prepared = prepared
        self.category = category
        isRide = category.isRide
    }

    /// The policy the request follows.
    public var policy: SharingPolicy { prepared.policy }

    /// Whether the request has ended (completed or cancelled).
    public var hasEnded: Bool { isCancelled || state == .completed }

    /// The action for the current state: what a phone or map joining now must do.
    public var action: SharingAction {
        ended(SharingAction(policy: prepared.policy, state: state, cancelled: isCancelled, request: context, skipped: []))
    }

    /// `action` as the request performs it once completed: nothing is relayed any more, so every
    /// phone's location is off and no map shows a live position (the state's other annotations,
    /// its route for one, stay), whatever the policy's Completed row says. A cancelled action is
    /// already all off.
    private func ended(_ action: SharingAction) -> SharingAction {
        guard state == .completed, !isCancelled else { return action }
        var a = action
        a.tier = .off
        for role in Role.allCases {
            a.locationUse[role] = .off
            a.annotations[role] = (a.annotations[role] ?? []).filter { $0.liveSource(handedOff: pickupHandedOff) == nil }
        }
        return a
    }

    // MARK: Events

    /// Applies `event` and returns the action to perform.
    /// - Throws: ``TraceSharing/TransitionError`` when the event does not apply now (the request
    ///   is then unchanged): the transitions are ``TraceSharing/FulfilmentMachine``'s.
    @discardableResult
    public mutating func handle(_ event: FulfilmentEvent) throws(TransitionError) -> SharingAction {
        let step = try FulfilmentStep(event, state: state, isCancelled: isCancelled, pickupHandedOff: pickupHandedOff)
        let newSource = step.pickupHandedOff != pickupHandedOff
        state = step.state
        isCancelled = step.isCancelled
        pickupHandedOff = step.pickupHandedOff
        // A phone whose position no map shows now starts afresh when one shows it again: its own
        // rule went on delivering fixes the request never saw (and a new source is a new phone).
        // A state whose tier is off shows no phone's position, so its last fix is forgotten too,
        // as a phone's own gate forgets it.
        if newSource || viewers(ofLocationFrom: pickupHandedOff ? .delegate : .hirer).isEmpty { hirerSideMemory = .empty }
        if viewers(ofLocationFrom: .helper).isEmpty { helperMemory = .empty }
        return ended(SharingAction(policy: prepared.policy, state: state, cancelled: isCancelled, request: context, skipped: step.skipped))
    }

    /// A helper accepts the request: Finding Villager → Accepted.
    @discardableResult public mutating func accept() throws(TransitionError) -> SharingAction { try handle(.accept) }
    /// The helper sets off: Accepted → En Route.
    @discardableResult public mutating func depart() throws(TransitionError) -> SharingAction { try handle(.depart) }
    /// The helper arrives: En Route (or Accepted, skipping En Route) → At Pickup.
    @discardableResult public mutating func arrive() throws(TransitionError) -> SharingAction { try handle(.arrive) }
    /// The helper starts filling the request: → In Task (from Accepted, En Route or At Pickup).
    @discardableResult public mutating func startTask() throws(TransitionError) -> SharingAction { try handle(.startTask) }
    /// The helper finishes: In Task → Awaiting Payment.
    @discardableResult public mutating func finishTask() throws(TransitionError) -> SharingAction { try handle(.finishTask) }
    /// The hirer pays: Awaiting Payment → Completed.
    @discardableResult public mutating func confirmPayment() throws(TransitionError) -> SharingAction { try handle(.confirmPayment) }
    /// Either party cancels (Finding Villager to In Task): all sharing stops.
    @discardableResult public mutating func cancel() throws(TransitionError) -> SharingAction { try handle(.cancel) }
    /// The hirer designates a third party as the pickup party (once, up to At Pickup): the hirer's
    /// location now comes from the delegate's phone, and the delegate sees the hirer's map.
    @discardableResult public mutating func handOffPickup() throws(TransitionError) -> SharingAction { try handle(.handOffPickup) }

    // MARK: Fixes

    /// A fix from `sender`'s phone, taken at `time`, with its reported speed (m/s) when the phone
    /// gives one (the speed-elastic model reads it): whether it is forwarded, and to whom. No
    /// accuracy is asked for: the phone applies the state's accuracy gate before it sends.
    ///
    /// In order: a request that has ended forwards nothing (``RelayDecision/ended``); a fix
    /// whose sender's position no other map shows now is ``RelayDecision/notShown`` (the hirer's
    /// phone outside a ride, or after a hand-off; any phone in a state whose tier is off); a fix
    /// the state's delivery rule would not deliver after the last one forwarded is
    /// ``RelayDecision/throttled`` (only when the prepared policy ``PreparedPolicy/throttles``);
    /// otherwise it goes to the viewers whose maps show it (``RelayDecision/forward(to:)``).
    /// O(1), no allocation.
    public mutating func receive(
        _ fix: Coordinate, from sender: Role, at time: Timestamp, speed: Double? = nil
    ) -> RelayDecision {
        if isCancelled || state == .completed { return .ended }
        let viewers = prepared.relay.viewers(ofLocationFrom: sender, in: state, isRide: isRide, pickupHandedOff: pickupHandedOff)
        if viewers.isEmpty { return .notShown }
        guard prepared.throttles else { return .forward(to: viewers) }
        // The sender's memory goes in as a local, and the solver is reached through a closure
        // only for a long step (over 2 km); no screen is kept (the tangent plane is as quick).
        var memory = sender == .helper ? helperMemory : hirerSideMemory
        var noScreen: TangentPlane.Screen?
        let delivered = prepared.rules[state.rawValue].offer(
            fix, at: time.seconds, speed: speed, memory: &memory, screen: &noScreen, screens: false
        ) {
            prepared.exact.inverse(from: $0, to: $1).distance
        }
        if sender == .helper { helperMemory = memory } else { hirerSideMemory = memory }
        return delivered ? .forward(to: viewers) : .throttled
    }

    // MARK: What each party sees

    /// The viewers whose maps show the live position from `sender`'s phone now (where a fix from
    /// it would go, before any throttling); nobody once the request has ended.
    public func viewers(ofLocationFrom sender: Role) -> RoleSet {
        if hasEnded { return [] }
        return prepared.relay.viewers(ofLocationFrom: sender, in: state, isRide: isRide, pickupHandedOff: pickupHandedOff)
    }

    /// How `role`'s phone uses location now: it shares when another map shows its position; off
    /// once the request has ended.
    public func locationUse(of role: Role) -> LocationUse {
        hasEnded ? .off : prepared.policy.locationUse(of: role, in: state, for: context)
    }

    /// What `viewer`'s map shows now: the state's annotations for the role, the ride-only ones
    /// only for a ride; nothing for a delegate before a hand-off, nor for anyone once cancelled;
    /// no live position once completed.
    public func annotations(seenBy viewer: Role) -> Set<MapAnnotation> {
        action.annotations[viewer] ?? []
    }

    /// The region `viewer`'s map shows now, given where the annotations are: the bounding box of
    /// the visible ones grown to the state's frame (``TraceSharing/SharingPolicy/region(for:in:request:positions:)``);
    /// nil when none of them has a position, or once cancelled.
    public func region(for viewer: Role, positions: [MapAnnotation: Coordinate]) -> MapRegion? {
        guard !isCancelled, let box = BoundingBox(covering: annotations(seenBy: viewer).sorted().compactMap({ positions[$0] })) else {
            return nil
        }
        return MapRegion(around: box, minimumSpan: prepared.policy[state].frame)
    }

    /// The tolerance at which to simplify the route line drawn now, metres, or nil where none is
    /// drawn (``TraceSharing/SharingPolicy/routeLineTolerance(in:for:)``).
    public var routeLineTolerance: Double? {
        isCancelled ? nil : prepared.policy.routeLineTolerance(in: state, for: context)
    }

    private var context: RequestContext { RequestContext(category: category, pickupHandedOff: pickupHandedOff) }
}

/// What happens to a fix a phone sent: ``LiveRequest/receive(_:from:at:speed:)``.
public enum RelayDecision: Hashable, Sendable, CustomStringConvertible {
    /// Forward it to these viewers (never empty).
    case forward(to: RoleSet)
    /// No other map shows the sender's position now: drop it.
    case notShown
    /// The state's delivery rule would not deliver it after the last fix forwarded: drop it.
    case throttled
    /// The request has ended (completed or cancelled): drop it.
    case ended

    /// The viewers it goes to; empty unless ``forward(to:)``.
    public var recipients: RoleSet {
        if case .forward(let to) = self { return to }
        return []
    }

    /// "forward to hirer, delegate", "not shown", "throttled" or "ended".
    public var description: String {
        switch self {
        case .forward(let to): "forward to \(to)"
        case .notShown: "not shown"
        case .throttled: "throttled"
        case .ended: "ended"
        }
    }
}
