import Testing
import TraceEnergy

/// Expected values are derived here from the constants of docs/battery-model.md (watts × seconds
/// = joules), not from the code under test. Tolerance 1e-9: the code computes the same products
/// in milliwatts, and the two orders of rounding differ by a few ulps of values near 10.
@Suite("Radio state machine")
struct RadioStateMachineTests {
    /// The radio energy of sends at `times` (seconds).
    func energy(_ profile: RadioProfile, _ times: [Double]) -> RadioStateMachine {
        var radio = RadioStateMachine(profile: profile)
        for t in times { radio.send(at: t) }
        return radio
    }

    @Test("one isolated LTE update costs ≈ 11.16 J, ≈ 0.81 mAh")
    func isolatedLTE() {
        let expected = 1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12  // promotion + transmit + full tail, J
        var radio = RadioStateMachine(profile: .lte)
        #expect(radio.energy.totalJoules == 0)
        #expect(radio.send(at: 0) == .promoted)
        #expect(abs(radio.energy.totalJoules - expected) < 1e-9)
        #expect(abs(radio.energy.promotionJoules - 1.210 * 0.26) < 1e-9)
        #expect(abs(radio.energy.transmitJoules - 1.2 * 0.1) < 1e-9)
        #expect(abs(radio.energy.tailJoules - 1.06 * 10.12) < 1e-9)
        #expect(abs(RadioProfile.lte.isolatedUpdateJoules - expected) < 1e-9)
        #expect((radio.energy.totalJoules * 100).rounded() / 100 == 11.16)
        let mAh = radio.energy.totalJoules / EnergyProfile.lte.joulesPerMilliampHour
        #expect(abs(mAh - expected / 13.86) < 1e-9)
        #expect((mAh * 100).rounded() / 100 == 0.81)
    }

    @Test(
        "LTE every 5 / 15 / 30 / 60 / 300 s averages ≈ 1063 / 744 / 372 / 186 / 37 mW",
        arguments: [
            (5.0, 1063.0), (15, 744), (30, 372), (60, 186), (300, 37),
        ])
    func periodicLTE(period: Double, rounded: Double) throws {
        // Within the 10.12 s tail (5 s): a transmission and the tail cut after period − t_tx, per period.
        // Beyond it: one isolated update per period.
        let joulesPerPeriod =
            period < 0.1 + 10.12
            ? 1.2 * 0.1 + 1.06 * (period - 0.1)
            : 1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12
        let expected = joulesPerPeriod / period * 1000
        let closed = try #require(RadioProfile.lte.averagePowerMilliwatts(sendingEvery: period))
        #expect(abs(closed - expected) < 1e-9)
        #expect(closed.rounded() == rounded)
        // The state machine agrees: the energy of 40 more sends in steady state, per second.
        let measured = steadyStateMilliwatts(.lte, period: period)
        #expect(abs(measured - expected) < 1e-9 * expected)
    }

    /// Average power in milliwatts over `cycles` sends after `warmup` sends, from the state machine.
    func steadyStateMilliwatts(_ profile: RadioProfile, period: Double, warmup: Int = 10, cycles: Int = 40) -> Double {
        let before = energy(profile, (0..<warmup).map { Double($0) * period }).energy.totalJoules
        let after = energy(profile, (0..<(warmup + cycles)).map { Double($0) * period }).energy.totalJoules
        return (after - before) * 1000 / (Double(cycles) * period)
    }

    @Test(
        "the closed form agrees with the state machine in every regime",
        arguments: [
            (RadioProfile.lte, [0.05, 0.1, 3, 5, 10.2, 10.3, 10.47, 10.5, 12, 60]),  // 10.3: one send in two promoted
            (RadioProfile.lteModern, [1, 5, 10.4, 30]),
            (RadioProfile.threeG, [1, 5, 13, 14.05, 15, 16.2, 20, 60]),  // 15: one send in two promoted
            (RadioProfile.wifi, [0.05, 0.2, 0.3, 0.36, 1, 5]),
        ])
    func closedFormAgrees(profile: RadioProfile, periods: [Double]) throws {
        for period in periods {
            let closed = try #require(profile.averagePowerMilliwatts(sendingEvery: period))
            let measured = steadyStateMilliwatts(profile, period: period)
            #expect(abs(measured - closed) <= 1e-9 * closed, "\(profile.name) every \(period) s")
        }
    }

    @Test("between T_tail + t_tx and that plus t_pro, promoted and unpromoted sends alternate")
    func alternatingBand() {
        var radio = RadioStateMachine(profile: .lte)
        var transitions: [RadioTransition] = []
        for k in 0..<4 { transitions.append(radio.send(at: Double(k) * 10.3)) }
        #expect(transitions[0] == .promoted && transitions[2] == .promoted)
        guard case .sharedTail(let cut) = transitions[1] else { Issue.record("expected a shared tail"); return }
        #expect(abs(cut - (10.3 - 0.26 - 0.1)) < 1e-12)
        #expect(transitions[3] != .promoted)
        #expect(radio.promotions == 2)
    }

    @Test("two sends 3 s apart share one tail; 20 s apart they pay twice")
    func tailMerging() {
        let near = energy(.lte, [100, 103])
        #expect(near.promotions == 1)
        // One promotion, two transmissions, the first tail cut after 3 − 0.26 − 0.1 = 2.64 s, one full tail.
        let merged = 1.210 * 0.26 + 2 * 1.2 * 0.1 + 1.06 * 2.64 + 1.06 * 10.12
        #expect(abs(near.energy.totalJoules - merged) < 1e-9)
        var radio = RadioStateMachine(profile: .lte)
        radio.send(at: 100)
        guard case .sharedTail(let cut) = radio.send(at: 103) else { Issue.record("expected a shared tail"); return }
        #expect(abs(cut - 2.64) < 1e-12)

        let far = energy(.lte, [100, 120])
        #expect(far.promotions == 2)
        let twice = 2 * (1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12)
        #expect(abs(far.energy.totalJoules - twice) < 1e-9)
        #expect(near.energy.totalJoules < far.energy.totalJoules)

        // The tail ends 0.26 + 0.1 + 10.12 = 10.48 s after an isolated send: before, shared;
        // after, the radio is idle again (the exact instant is left to rounding).
        #expect(energy(.lte, [0, 10.47]).promotions == 1)
        #expect(energy(.lte, [0, 10.49]).promotions == 2)
    }

    @Test("a send during promotion or transmission waits and shares the connection")
    func queued() {
        var radio = RadioStateMachine(profile: .lte)
        radio.send(at: 0)
        guard case .queued(let wait) = radio.send(at: 0.1) else { Issue.record("expected to wait"); return }
        #expect(abs(wait - 0.26) < 1e-12)  // the first transmission ends at 0.36 s
        #expect(abs(radio.transmissionEnd - 0.46) < 1e-12)
        let expected = 1.210 * 0.26 + 2 * 1.2 * 0.1 + 1.06 * 10.12
        #expect(abs(radio.energy.totalJoules - expected) < 1e-9)
    }

    @Test("3G: a two-stage tail, DCH then FACH; a send in FACH shares the tail and restarts it at DCH")
    func threeG() {
        let isolated = 0.65 * 2.0 + 1.3 * 0.1 + 1.3 * 4 + 0.3 * 10  // 9.63 J
        #expect(abs(energy(.threeG, [0]).energy.totalJoules - isolated) < 1e-9)
        #expect(abs(RadioProfile.threeG.isolatedUpdateJoules - 9.63) < 1e-9)
        // First transmission ends at 2.1 s; a send at 9.1 s is 7 s into the tail: 4 s DCH, 3 s FACH.
        let inFACH = energy(.threeG, [0, 9.1])
        #expect(inFACH.promotions == 1)
        let expected = 0.65 * 2.0 + 2 * 1.3 * 0.1 + (1.3 * 4 + 0.3 * 3) + (1.3 * 4 + 0.3 * 10)
        #expect(abs(inFACH.energy.totalJoules - expected) < 1e-9)
        // 2 s into the tail: DCH only.
        let inDCH = energy(.threeG, [0, 4.1])
        #expect(abs(inDCH.energy.totalJoules - (0.65 * 2.0 + 2 * 1.3 * 0.1 + 1.3 * 2 + 1.3 * 4 + 0.3 * 10)) < 1e-9)
        // The tail ends 2 + 0.1 + 14 = 16.1 s after an isolated send.
        #expect(energy(.threeG, [0, 16.05]).promotions == 1)
        #expect(energy(.threeG, [0, 16.11]).promotions == 2)
        #expect(abs(RadioProfile.threeG.tailJoules(after: 7) - (1.3 * 4 + 0.3 * 3)) < 1e-12)
    }

    @Test("Wi-Fi: no promotion, 403 mW while active, a 0.25 s tail")
    func wifi() throws {
        let isolated = 0.403 * 0.1 + 0.403 * 0.25
        #expect(abs(energy(.wifi, [0]).energy.totalJoules - isolated) < 1e-12)
        #expect(energy(.wifi, [0]).energy.promotionJoules == 0)
        let every5 = try #require(RadioProfile.wifi.averagePowerMilliwatts(sendingEvery: 5))
        #expect(abs(every5 - isolated / 5 * 1000) < 1e-9)
        // Every 0.3 s: each send falls 0.2 s into the previous tail.
        let every03 = try #require(RadioProfile.wifi.averagePowerMilliwatts(sendingEvery: 0.3))
        #expect(abs(every03 - (0.403 * 0.1 + 0.403 * 0.2) / 0.3 * 1000) < 1e-9)
        #expect(energy(.wifi, [0, 0.3]).promotions == 1)
        #expect(energy(.wifi, [0, 0.4]).promotions == 2)
    }

    @Test("the closed form has no answer for a non-positive period, nor without a short repeating pattern")
    func closedFormDomain() {
        #expect(RadioProfile.lte.averagePowerMilliwatts(sendingEvery: 0) == nil)
        #expect(RadioProfile.lte.averagePowerMilliwatts(sendingEvery: -5) == nil)
        #expect(RadioProfile.lte.averagePowerMilliwatts(sendingEvery: .infinity) == nil)
        // A tail (0.1 s) shorter than the promotion (1 s): every 0.5 s the second send queues
        // behind the promoted transmission.
        let slowPromotion = RadioProfile(
            name: "slow", promotionMilliwatts: 1000, promotionSeconds: 1,
            transmitMilliwatts: 1000, transmitSeconds: 0.1, tailMilliwatts: 500, tailSeconds: 0.1)
        #expect(slowPromotion.averagePowerMilliwatts(sendingEvery: 0.5) == nil)
        #expect(slowPromotion.averagePowerMilliwatts(sendingEvery: 2) != nil)
    }

    @Test("the same sends give bit-identical energy")
    func deterministic() {
        let times = (0..<500).map { Double($0 * $0 % 97) + Double($0) * 7.3 }.sorted()
        let a = energy(.threeG, times), b = energy(.threeG, times)
        #expect(a == b)
        #expect(a.energy.totalJoules.bitPattern == b.energy.totalJoules.bitPattern)
    }
}
