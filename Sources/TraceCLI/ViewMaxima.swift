import TraceBatch
import TraceDomain
import TraceReplay

/// The worst single sample of what the viewers saw, per state and role (and over the trip,
/// ``TraceBatch/FulfilmentStateKey/total``): the largest display error and staleness, which the
/// p95s of the gate leave out. Of one trip, or of a corpus (the largest over its trips); a few
/// dozen numbers, so a batch keeps one per trip and policy.
struct ViewMaxima: Sendable {
    struct Key: Hashable, Sendable {
        var state: FulfilmentStateKey
        var role: Role
    }

    /// Metres.
    var displayErrorMax: [Key: Double] = [:]
    /// Seconds.
    var stalenessMax: [Key: Double] = [:]

    init() {}

    /// The maxima of a replay: each state entered and the trip, per role (``ViewMetrics``'s).
    init(_ r: ReplayResult) {
        for role in r.roles {
            for st in r.states where st.entered {
                if let m = st[role] { add(Key(state: .state(st.state), role: role), m.view) }
            }
            if let t = r.roleTotals.first(where: { $0.role == role }) { add(Key(state: .total, role: role), t.view) }
        }
    }

    private mutating func add(_ key: Key, _ v: ViewMetrics) {
        if let x = v.displayErrorMaxMetres { displayErrorMax[key] = max(displayErrorMax[key] ?? x, x) }
        if let x = v.stalenessMaxSeconds { stalenessMax[key] = max(stalenessMax[key] ?? x, x) }
    }

    /// The largest of this and `other`, key by key.
    mutating func merge(_ other: ViewMaxima) {
        displayErrorMax.merge(other.displayErrorMax, uniquingKeysWith: max)
        stalenessMax.merge(other.stalenessMax, uniquingKeysWith: max)
    }
}
