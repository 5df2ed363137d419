import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// One state × role cell of the meters: fix and update counts, distance, the viewers' display
/// error and staleness, and the phone's energy in the state.
struct MeterCell {
    var raw = 0, delivered = 0, sent = 0, received = 0
    var forwarded = RoleCounts()
    var distance = 0.0
    var withoutUpdate = 0
    var error = QuantileHistogram()
    var staleness = QuantileHistogram()
    var energy = EnergyParts()

    mutating func merge(_ c: MeterCell) {
        raw += c.raw
        delivered += c.delivered
        sent += c.sent
        received += c.received
        forwarded.add(c.forwarded)
        distance += c.distance
        withoutUpdate += c.withoutUpdate
        error.merge(c.error)
        staleness.merge(c.staleness)
        energy += c.energy
    }

    func metrics(_ role: Role, seconds: Double) -> StateRoleMetrics {
        StateRoleMetrics(
            role: role, rawFixes: raw, deliveredFixes: delivered, sentUpdates: sent, receivedUpdates: received, forwarded: forwarded,
            seconds: seconds, distanceMetres: distance,
            view: ViewMetrics(error: error, staleness: staleness, withoutUpdate: withoutUpdate), energy: energy)
    }
}

/// The replay's meters: a ``MeterCell`` per state and role, the seconds spent in each state and
/// whether it was entered, and the energy meter of each phone taking part (its energy so far is
/// split between states as each state closes).
///
/// Times are nanoseconds on the trace's clock; meters count seconds of request time from `start`:
/// the recording gaps (``exclude(from:to:)``) are not request time, so the request clock
/// (``clock(_:)``) skips them, and nothing that the clock measures (state time, tier time and
/// energy, staleness) grows across one.
struct Meters {
    private(set) var cells = StateRoleTable(repeating: MeterCell())
    private(set) var seconds = StateTable(repeating: 0.0)
    private(set) var entered = StateTable(repeating: false)
    /// The phones taking part (helper and hirer always, the delegate once handed off or with a trace).
    let roles: RoleSet
    let start: Int64
    private var since: Int64
    private var energy: RoleTable<EnergyMeter>
    /// Each phone's location and fixes energy when the current state began (its radio energy is
    /// charged by ``radio(_:at:state:receiving:)`` instead).
    private var snapshots = RoleTable(repeating: EnergyParts())
    /// The state of each phone's latest radio event: its tail is charged there.
    private var radioState = RoleTable(repeating: FulfilmentState.findingVillager)

    /// Meters from `start`, in Finding Villager, for the phones in `tiers` (each at its tier).
    init(start: Int64, profile: EnergyProfile, across: [EnergyProfile] = [], tiers: [(Role, AccuracyTier)]) {
        self.start = start
        since = start
        var roles = RoleSet()
        energy = RoleTable(repeating: EnergyMeter(profile: profile, start: 0, tier: .off))
        for (role, tier) in tiers {
            roles.insert(RoleSet(role))
            energy[role] = EnergyMeter(profile: profile, start: 0, tier: tier, across: across)
        }
        self.roles = roles
        entered[.findingVillager] = true
    }

    /// The recording gaps excluded so far, in time order (the fixes either side).
    private(set) var gaps: [(from: Int64, to: Int64)] = []
    /// Nanoseconds excluded by the gaps so far, and the end of the latest.
    private(set) var excluded: Int64 = 0
    private var latestGapEnd = Int64.min

    /// Seconds of request time from the start.
    @inline(__always) func seconds(_ t: Int64) -> Double { Double(clock(t) &- start) / 1e9 }

    /// `t` on the request clock: less the recording gaps before it (a time inside a gap is its
    /// start).
    @inline(__always) func clock(_ t: Int64) -> Int64 {
        if t >= latestGapEnd { return t &- excluded }
        return clockBeforeLatestGap(t)
    }

    private func clockBeforeLatestGap(_ t: Int64) -> Int64 {
        var before: Int64 = 0
        for g in gaps {
            if t >= g.to {
                before += g.to - g.from
            } else {
                return t > g.from ? g.from - before : t - before
            }
        }
        return t - before
    }

    /// A recording gap from `from` to `to` (later than every gap before): not request time.
    mutating func exclude(from: Int64, to: Int64) {
        gaps.append((from, to))
        excluded += to - from
        latestGapEnd = to
    }

    /// Whether `role`'s phone takes part.
    @inline(__always) func takesPart(_ role: Role) -> Bool { roles.rawValue & (1 << UInt8(role.rawValue)) != 0 }

    /// The cell of `state` and `role`, mutated in place.
    @inline(__always)
    subscript(state: FulfilmentState, role: Role) -> MeterCell {
        get { cells[state, role] }
        _modify { yield &cells[state, role] }
    }

    /// The energy meter of a phone taking part, mutated in place.
    @inline(__always)
    subscript(energyOf role: Role) -> EnergyMeter {
        get { energy[role] }
        _modify { yield &energy[role] }
    }

    /// A state entered.
    mutating func enter(_ state: FulfilmentState) { entered[state] = true }

    /// The energy estimate of `role`'s phone at `t` seconds (not before its tier's start).
    func estimate(_ role: Role, at t: Double) -> EnergyEstimate {
        let m = energy[role]
        return m.estimate(at: max(t, m.tierSince))
    }

    /// The energy estimates of `role`'s phone at `t` seconds under each spread profile.
    func estimates(across role: Role, at t: Double) -> [EnergyEstimate] {
        let m = energy[role]
        return m.estimates(acrossAt: max(t, m.tierSince))
    }

    /// Ends the current state's interval at `t`: its seconds and each phone's location and fixes
    /// energy in it (the radio's is charged per event, by the state of the update).
    mutating func close(_ state: FulfilmentState, at t: Int64) {
        seconds[state] += seconds(t) - seconds(since)
        for role in Role.allCases where takesPart(role) {
            var now = EnergyParts(estimate(role, at: seconds(t)))
            now.radioJoules = 0
            cells[state, role].energy += now - snapshots[role]
            snapshots[role] = now
        }
        since = t
    }

    /// `role`'s phone sends (or, `receiving`, receives) an update of `state` at `t` seconds: the
    /// radio's energy goes to the state of the update that causes it (docs/battery-model.md, "Per
    /// state"). This event's promotion and transmission are charged to `state`; the tail this
    /// event settles (the previous event's, cut short here or run out in full) to the previous
    /// event's state, even when that tail outlasted its state. So a change confined to one state
    /// leaves another state's radio energy alone, unless it decides whether that state's first
    /// event finds the radio still awake (a shared tail) or idle (a promotion).
    mutating func radio(_ role: Role, at t: Double, state: FulfilmentState, receiving: Bool) {
        let before = energy[role].radio.settled
        if receiving {
            energy[role].receive(at: t)
            cells[state, role].received += 1
        } else {
            energy[role].send(at: t)
        }
        let after = energy[role].radio.settled
        cells[radioState[role], role].energy.radioJoules += after.tailJoules - before.tailJoules
        cells[state, role].energy.radioJoules +=
            (after.promotionJoules - before.promotionJoules) + (after.transmitJoules - before.transmitJoules)
        radioState[role] = state
    }

    /// At the end of the replay: each phone's last tail, charged in full (as the phone's estimate
    /// charges it), to the state of its last radio event. Call once, after the last ``close``.
    mutating func chargeLastTails() {
        for role in Role.allCases where takesPart(role) && energy[role].radio.sends > 0 {
            cells[radioState[role], role].energy.radioJoules += energy[role].radio.profile.fullTailJoules
        }
    }

    /// When the current state's interval began.
    var stateSince: Int64 { since }

    /// All phones' energy so far, in joules (hirer, helper, delegate summed in that order).
    func energyJoules(at now: Double) -> Double {
        var total = 0.0
        for role in Role.allCases where takesPart(role) { total += estimate(role, at: now).totalJoules }
        return total
    }
}
