import Testing
import TraceDomain
import TraceEnergy

@testable import TraceReplay

@Suite("Replay: the meters' typed tables and the meters")
struct StateRoleTableTests {
    @Test("every state and role has its own cell, mutated in place")
    func cells() {
        var t = StateRoleTable(repeating: 0)
        for s in FulfilmentState.allCases {
            for r in Role.allCases { t[s, r] += s.rawValue * 10 + r.rawValue }
        }
        for s in FulfilmentState.allCases {
            for r in Role.allCases { #expect(t[s, r] == s.rawValue * 10 + r.rawValue) }
        }
        var states = StateTable(repeating: false)
        states[.inTask] = true
        #expect(FulfilmentState.allCases.filter { states[$0] } == [.inTask])
        var roles = RoleTable<Int?>(repeating: nil)
        roles[.delegate] = 3
        #expect(roles[.delegate] == 3 && roles[.hirer] == nil && roles[.helper] == nil)
    }

    @Test("meters: seconds per state, Finding Villager entered at the start, energy only for the phones taking part")
    func meters() {
        var m = Meters(start: 1_000_000_000, profile: .lte, tiers: [(.helper, .nearestTenMeters), (.hirer, .off)])
        #expect(m.takesPart(.helper) && m.takesPart(.hirer) && !m.takesPart(.delegate))
        #expect(m.entered[.findingVillager] && !m.entered[.enRoute])
        #expect(m.seconds(3_500_000_000) == 2.5)
        m.close(.findingVillager, at: 3_500_000_000)
        m.enter(.enRoute)
        m[.enRoute, .helper].raw += 2
        m.close(.enRoute, at: 4_500_000_000)
        #expect(m.seconds[.findingVillager] == 2.5 && m.seconds[.enRoute] == 1 && m.entered[.enRoute])
        #expect(m[.enRoute, .helper].raw == 2 && m[.enRoute, .hirer].raw == 0)
        // The helper's location energy is split between the two states as they closed.
        let fv = m[.findingVillager, .helper].energy, er = m[.enRoute, .helper].energy
        #expect(fv.totalJoules > 0 && abs(er.totalJoules * 2.5 - fv.totalJoules) < 1e-9)
        #expect(m[.enRoute, .delegate].energy.totalJoules == 0)
        #expect(abs(m.energyJoules(at: 3.5) - m.estimate(.helper, at: 3.5).totalJoules - m.estimate(.hirer, at: 3.5).totalJoules) < 1e-12)
    }
}
