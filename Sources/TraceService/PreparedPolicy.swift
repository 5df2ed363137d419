import TraceDevice
import TraceDomain
public import TraceGeodesy
public import TraceSharing

/// A sharing policy prepared once for every live request that follows it: the policy, its relay
/// answers (``TraceSharing/RelayTable``: 84 of them, so each decision is one read), each state's
/// delivery rule, the exact solver the requests' throttle measures long steps with, and whether a
/// request re-applies the state's delivery rule to the fixes it receives.
///
/// A class, shared by reference: a million requests on one policy hold one copy of it (8 bytes
/// each). Immutable, hence `Sendable`: requests on different threads may share it.
public final class PreparedPolicy: Sendable {
    /// The per-state table.
    public let policy: SharingPolicy
    /// Whether requests re-apply each state's delivery rule (its tier, distance filter and
    /// delivery model, decided exactly as TraceDevice's ``TraceDevice/UpdateGate`` decides; not its accuracy gate,
    /// which needs accuracies a caller may not pass) to the fixes a phone sends before forwarding
    /// them (``LiveRequest/receive(_:from:at:speed:)``).
    ///
    /// On (the default), a phone that ignores its distance filter (an old app version, a bug)
    /// cannot flood the viewers: its extra fixes are ``RelayDecision/throttled``. A phone that
    /// keeps Core Location's rule, the seed's, loses nothing: each fix it delivers is at least the
    /// filter from the one before, so the same rule passes it again (the tests check it on a
    /// replayed trip), and the request starts a sender afresh whenever no map showed its position
    /// (its phone went on delivering fixes the request never saw). Under the time-based models a
    /// phone's allowance for jitter can differ from the server's clock, and a phone whose app also
    /// applies a send rule (``TraceSharing/SendRule/deadReckoning(thresholdMetres:heartbeatSeconds:)``)
    /// sends only some of its delivered fixes, one of which can be nearer than the filter to the
    /// last one forwarded: turn the rule off for such apps.
    public let throttles: Bool
    /// The relay answers of ``policy``, one read each.
    let relay: RelayTable
    /// The solver for steps beyond the tangent plane's domain (over 2 km, or near a pole).
    let exact: any GeodesicSolver & Sendable
    /// Each state's delivery rule as requests re-apply it (its tier, filter and model; not its
    /// accuracy gate), by ``TraceDomain/FulfilmentState/rawValue``: one read per fix, so a request
    /// keeps only what each sender's rule remembers.
    let rules: [DeliveryRule]

    /// Prepares `policy` (84 relay answers and 7 delivery rules, once). `exact` measures the
    /// throttle's rare long steps: a pure-Swift solver keeps a service free of C libraries; TraceProj's `Geodesic` (PROJ)
    /// gives the same decisions.
    public init(_ policy: SharingPolicy = .seed, exact: some GeodesicSolver & Sendable, throttles: Bool = true) {
        self.policy = policy
        self.throttles = throttles
        self.exact = exact
        relay = RelayTable(policy)
        rules = FulfilmentState.allCases.map { DeliveryRule(policy[$0]) }
    }
}
