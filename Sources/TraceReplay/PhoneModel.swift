import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceSharing

/// One emulated phone of a replay: the policy's location use for its role, around TraceDevice's
/// ``PhoneEmulator`` (accuracy emulation, smoothing before the filter, the state's update gate).
///
/// The engine calls ``apply(_:)`` at each action and ``offer(_:at:)`` for each raw fix. A phone
/// that does not use location in a state (its ``LocationUse`` is off) has its tier off: nothing
/// is delivered, no noise is drawn, the smoothing filter restarts.
struct PhoneModel {
    let role: Role
    private var emulator: PhoneEmulator
    /// How the phone uses location in the current state.
    private(set) var use: LocationUse = .off

    init(role: Role, configuration: PhoneConfiguration, exact: any GeodesicSolver & Sendable) {
        self.role = role
        emulator = PhoneEmulator(
            configuration, role: role,
            row: StatePolicy(
                tier: .off, frame: 0, distanceFilter: 0, shows: ShownContent(route: false, routeLines: false, destination: false),
                hirerAnnotations: [], helperAnnotations: []), exact: exact)
    }

    /// Applies an action; returns the tier the phone now requests (off when it does not use
    /// location in the new state).
    mutating func apply(_ action: SharingAction) -> AccuracyTier {
        use = action.locationUse[role] ?? .off
        var own = action
        if use == .off { own.tier = .off }
        emulator.apply(own)
        return own.tier
    }

    /// Whether this phone and `other` deliver every later fix alike (``TraceDevice/PhoneEmulator/decidesAlike(_:)``)
    /// and use location alike.
    func decidesAlike(_ other: PhoneModel) -> Bool {
        role == other.role && use == other.use && emulator.decidesAlike(other.emulator)
    }

    /// What the phone does with a raw fix taken at `seconds` on the replay's clock: whether it is
    /// delivered, and the position it reports (the fix itself when the pipeline passes through).
    @inline(__always)
    mutating func offer(_ fix: ReplayFix, at seconds: Double) -> PhoneOutcome {
        emulator.offer(
            fix.coordinate, at: seconds,
            accuracy: fix.accuracy.isNaN ? nil : fix.accuracy,
            speed: fix.speed.isNaN ? nil : fix.speed)
    }
}
