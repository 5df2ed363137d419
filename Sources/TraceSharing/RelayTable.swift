package import TraceDomain

/// The relay decision: for a delivered update from one role, which viewers may receive it now.
/// Precomputed from a policy (84 answers: 7 states × 3 senders × ride or not × handed off or not),
/// so each decision is one table read: O(1), no allocation, `Sendable`.
///
/// The answers are exactly ``SharingPolicy/viewers(ofLocationFrom:in:for:)``'s, which is the
/// definition; this is its cache, inside the package: it takes the request's facts (ride or not,
/// handed off or not) from its caller, so services use TraceService's `LiveRequest`, which owns
/// them, and the replay, which resolves them from the scenario.
package struct RelayTable: Hashable, Sendable {
    private var table: [RoleSet]

    /// Precomputes every answer of `policy`.
    package init(_ policy: SharingPolicy) {
        table = []
        table.reserveCapacity(84)
        for state in FulfilmentState.allCases {
            for sender in Role.allCases {
                for isRide in [false, true] {
                    for handedOff in [false, true] {
                        let request = RequestContext(category: RequestCategory(name: "", isRide: isRide), pickupHandedOff: handedOff)
                        table.append(policy.viewerSet(ofLocationFrom: sender, in: state, for: request))
                    }
                }
            }
        }
    }

    /// The viewers that may receive an update from `sender`'s phone in `state`.
    @inlinable
    package func viewers(ofLocationFrom sender: Role, in state: FulfilmentState, isRide: Bool, pickupHandedOff: Bool) -> RoleSet {
        self[((state.rawValue * 3 + sender.rawValue) * 2 + (isRide ? 1 : 0)) * 2 + (pickupHandedOff ? 1 : 0)]
    }

    @usableFromInline
    subscript(index: Int) -> RoleSet { table[index] }
}
