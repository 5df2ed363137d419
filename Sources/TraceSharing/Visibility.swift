public import TraceDomain

/// The facts about a request that visibility depends on.
public struct RequestContext: Hashable, Sendable {
    /// The request's category (only its ``RequestCategory/isRide`` matters to visibility).
    public var category: RequestCategory
    /// Whether the hirer has designated a third party as the pickup party: the "hirer" locations
    /// then come from the ``Role/delegate``'s phone, and the delegate views the hirer's map.
    public var pickupHandedOff: Bool

    public init(category: RequestCategory, pickupHandedOff: Bool = false) {
        self.category = category
        self.pickupHandedOff = pickupHandedOff
    }

    /// The roles that have a map: hirer and helper, and the delegate once pickup is handed off.
    public var viewers: [Role] { pickupHandedOff ? [.hirer, .helper, .delegate] : [.hirer, .helper] }
}

/// How a phone uses location in a state.
public enum LocationUse: Int, Comparable, Hashable, Sendable {
    /// No location updates are requested.
    case off
    /// Updates are requested only to show the phone's own position on its own map.
    case ownMapOnly
    /// Updates are requested and sent, because another party's map shows this phone's position.
    case shares

    public static func < (a: LocationUse, b: LocationUse) -> Bool { a.rawValue < b.rawValue }
}

extension SharingPolicy {
    /// The annotations `viewer` sees in `state`: the state's rules for the viewer's role, without
    /// the rides-only ones unless the request is a ride. Empty for a delegate before pickup is
    /// handed off (the delegate has no map yet).
    public func annotations(seenBy viewer: Role, in state: FulfilmentState, for request: RequestContext) -> Set<MapAnnotation> {
        guard request.viewers.contains(viewer) else { return [] }
        var result = Set<MapAnnotation>()
        for rule in self[state].annotationRules(for: viewer) where rule.applies(to: request) {
            result.insert(rule.annotation)
        }
        return result
    }

    /// The viewers other than `sender` whose maps show the live position that comes from
    /// `sender`'s phone in `state`: where a delivered update from `sender` may be forwarded now.
    /// Empty when the state's tier is off.
    public func viewers(ofLocationFrom sender: Role, in state: FulfilmentState, for request: RequestContext) -> Set<Role> {
        Set(viewerSet(ofLocationFrom: sender, in: state, for: request).roles)
    }

    /// ``viewers(ofLocationFrom:in:for:)`` as a ``RoleSet``, found without allocating.
    func viewerSet(ofLocationFrom sender: Role, in state: FulfilmentState, for request: RequestContext) -> RoleSet {
        guard self[state].tier != .off else { return [] }
        var result = RoleSet()
        for viewer in Role.allCases where viewer != sender && sees(viewer, liveFrom: sender, in: state, for: request) {
            result.insert(RoleSet(viewer))
        }
        return result
    }

    /// Whether one of the annotations `viewer` sees in `state` (``annotations(seenBy:in:for:)``)
    /// is the live position from `sender`'s phone; read off the rules without building the set
    /// (``RelayTable`` asks it 168 times per policy: once per replay).
    func sees(_ viewer: Role, liveFrom sender: Role, in state: FulfilmentState, for request: RequestContext) -> Bool {
        guard viewer != .delegate || request.pickupHandedOff else { return false }
        return self[state].annotationRules(for: viewer).contains {
            $0.applies(to: request) && $0.annotation.liveSource(handedOff: request.pickupHandedOff) == sender
        }
    }

    /// How `role`'s phone uses location in `state`: it shares when another map shows its position,
    /// uses location only for its own map when only it shows its position (its own live annotation
    /// or "Your own location"), and is off otherwise, or whenever the state's tier is off. So the
    /// helper's "Your own location" in Finding Villager and Accepted, where the document sets no
    /// accuracy, is the operating system's own position dot: the app requests no updates for it.
    public func locationUse(of role: Role, in state: FulfilmentState, for request: RequestContext) -> LocationUse {
        guard self[state].tier != .off, request.viewers.contains(role) else { return .off }
        if !viewerSet(ofLocationFrom: role, in: state, for: request).isEmpty { return .shares }
        let own = annotations(seenBy: role, in: state, for: request)
        if own.contains(.ownLocation) || own.contains(where: { $0.liveSource(handedOff: request.pickupHandedOff) == role }) {
            return .ownMapOnly
        }
        return .off
    }
}

extension AnnotationRule {
    /// Whether the rule shows its annotation on a map of `request`: a rides-only rule only for a
    /// ride, and the hirer's location only for a ride whatever the rule says. The second is the
    /// user's document's first note ("Hirer Location" is for rides only), kept here rather than
    /// trusted to the policy: a policy file that says otherwise is refused (`policy validate`), and
    /// a policy built in code cannot show or relay a hirer's location outside a ride either.
    func applies(to request: RequestContext) -> Bool {
        request.category.isRide || (!ridesOnly && annotation != .hirerLocation)
    }
}
