public import TraceDomain

/// Which viewers' views a replay samples, per state: ``all`` (the default) measures every view
/// the relay shows; a narrower set measures only the (state, viewer) pairs in it, so that a
/// search that judges a few views (`tune`'s requirements) does not pay for the others.
///
/// What is narrowed is only the sampling of display error and staleness: every update is still
/// sent, delayed, lost, received and charged as before, arrivals are seen as before, and the
/// views in the set get exactly the samples, in the same order, that the replay with ``all``
/// gives them. The views outside the set, and the per-state display error and staleness of the
/// senders they would have fed, are left out of the result (incomplete, so never for a report).
/// With the realistic network, a state in which no viewer of the set is shown anything takes no
/// clock ticks at all: its arrivals are taken in order and the clock moves on.
public struct ViewSampling: Hashable, Sendable {
    /// Bit `state × 3 + viewer`.
    public private(set) var bits: UInt32

    private init(bits: UInt32) { self.bits = bits }

    /// Every viewer in every state.
    public static let all = ViewSampling(bits: (1 << UInt32(FulfilmentState.allCases.count * 3)) - 1)
    /// No view at all.
    public static let none = ViewSampling(bits: 0)

    /// Whether it samples every view.
    public var isAll: Bool { self == .all }

    /// The viewers sampled in `state`.
    @inline(__always)
    public subscript(state: FulfilmentState) -> RoleSet {
        RoleSet(rawValue: UInt8(truncatingIfNeeded: bits >> UInt32(state.rawValue * 3)) & 7)
    }

    /// Also samples `viewer`'s views in `state`.
    public mutating func insert(_ viewer: Role, in state: FulfilmentState) {
        bits |= 1 << UInt32(state.rawValue * 3 + viewer.rawValue)
    }

    /// Also samples `viewer`'s views in every state.
    public mutating func insert(_ viewer: Role) {
        for state in FulfilmentState.allCases { insert(viewer, in: state) }
    }
}
