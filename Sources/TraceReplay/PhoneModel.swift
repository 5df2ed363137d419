import TraceGeodesy
import TraceSharing

/// One emulated phone: which fixes its location manager delivers, state by state.
///
/// The seam where the per-phone device pipeline (accuracy emulation, smoothing, then the gate)
/// plugs in: today it is the policy's ``UpdateGate`` alone. The engine only calls ``apply(_:)``
/// at each action and ``offer(_:at:)`` for each raw fix.
struct PhoneModel {
    let role: Role
    private var gate = UpdateGate(tier: .off, distanceFilter: 0)
    /// How the phone uses location in the current state.
    private(set) var use: LocationUse = .off

    init(role: Role) { self.role = role }

    /// Applies an action; returns the tier the phone now requests (off when it does not use
    /// location in the new state).
    mutating func apply(_ action: SharingAction) -> AccuracyTier {
        use = action.locationUse[role] ?? .off
        var own = action
        if use == .off { own.tier = .off }
        gate.apply(own)
        return own.tier
    }

    /// Whether the phone delivers a raw fix taken at `seconds` on the replay's clock.
    mutating func offer(_ fix: ReplayFix, at seconds: Double) -> Bool {
        gate.offer(fix.coordinate, at: seconds,
                   accuracy: fix.accuracy.isNaN ? nil : fix.accuracy,
                   speed: fix.speed.isNaN ? nil : fix.speed)
    }
}
