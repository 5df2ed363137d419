import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceEnergy
import TraceIO
import TraceSharing

@testable import TraceReplay

/// How a radio tail that outlasts the state of its send is attributed (docs/battery-model.md,
/// "Per state"): to the state of the send, so a change confined to one state moves no other
/// state's energy, and the states still add up to each phone's estimate.
@Suite("Replay: radio energy charged to the state of the send")
struct EnergyAttributionTests {
    static let radio = EnergyProfile.lte.radio

    /// The helper alone, in En Route from 90 s and At Pickup from 100 s, with one fix at
    /// `enRouteSend` s (in En Route) and one at 102 s (in At Pickup), each delivered and sent
    /// (filter 0), over `network`.
    func replay(enRouteSend: Int, network: NetworkModel = .ideal, receiverRadio: Bool = true) throws -> ReplayResult {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 90), (.atPickup, 100), (.inTask, 200)])
        spec.pickup = Sourced(try .init(latitude: 47, longitude: 8), .flag)
        var o = ReplayOptions()
        o.network = network
        o.receiverRadio = receiverRadio
        o.policy[.enRoute].distanceFilter = 0
        o.policy[.atPickup].distanceFilter = 0
        let points = [P(north: 0, east: 0, t: enRouteSend), P(north: 5, east: 0, t: 102)]
        return try Replay.run([TraceInput(path: try temp(gpx([(nil, points)])))], scenario: spec, options: o)
    }

    @Test("a tail that runs into the next state is charged to the state of its send")
    func tailStaysWithItsSend() throws {
        let r = try replay(enRouteSend: 95)
        #expect(r.cell(.enRoute, .helper).sentUpdates == 1 && r.cell(.atPickup, .helper).sentUpdates == 1)
        // At Pickup's send comes 7 s after En Route's (6.64 s after its transmission ended): it
        // shares that tail, so no promotion. En Route pays its promotion, its transmission and
        // its tail up to At Pickup's send; At Pickup its transmission and its own tail in full.
        let sharedTail = Self.radio.tailJoules(after: 7 - Self.radio.promotionSeconds - Self.radio.transmitSeconds)
        let enRoute = r.cell(.enRoute, .helper).energy.radioJoules
        let atPickup = r.cell(.atPickup, .helper).energy.radioJoules
        #expect(abs(enRoute - (Self.radio.promotionJoules + Self.radio.transmitJoules + sharedTail)) < 1e-9)
        #expect(abs(atPickup - (Self.radio.transmitJoules + Self.radio.fullTailJoules)) < 1e-9)
        // The hirer's radio receives each update in the state it was sent in.
        #expect(abs(r.cell(.atPickup, .hirer).energy.radioJoules - atPickup) < 1e-9)
    }

    @Test("a change confined to En Route moves no other state's energy; the totals stay the phone's estimate", arguments: [NetworkModel.ideal, .realistic])
    func changeInOneState(network: NetworkModel) throws {
        // En Route's send 2 s earlier: its tail until At Pickup's send is longer, and nothing
        // else changes. Under the old rule (a state charged the estimate's difference) At
        // Pickup got back the part of En Route's tail that did not run, so it changed too.
        let a = try replay(enRouteSend: 95, network: network), b = try replay(enRouteSend: 93, network: network)
        for role in [Role.helper, .hirer] {
            for state in FulfilmentState.allCases where state != .enRoute {
                #expect(a.cell(state, role).energy == b.cell(state, role).energy, "\(role.key) \(state.displayName)")
            }
            #expect(a.cell(.enRoute, role).energy.radioJoules != b.cell(.enRoute, role).energy.radioJoules)
            for r in [a, b] {
                let states = r.states.reduce(0.0) { $0 + ($1[role]?.energy.totalJoules ?? 0) }
                let phone = r.energy.first { $0.role == role }!.estimate.totalJoules
                #expect(abs(states - phone) < 1e-9, "\(role.key): the states add up to the phone's estimate")
            }
        }
    }

    @Test("the exception: a change that decides whether the next state's first send finds the radio awake moves its promotion")
    func promotionFollowsTheRadio() throws {
        // En Route's send at 91 s: 11 s before At Pickup's, beyond the 10.12 s tail, so At
        // Pickup's send finds the radio idle and pays a promotion; the full tail goes to En Route.
        let r = try replay(enRouteSend: 91)
        let atPickup = r.cell(.atPickup, .helper).energy.radioJoules
        #expect(abs(atPickup - Self.radio.isolatedUpdateJoules) < 1e-9)
        #expect(abs(r.cell(.enRoute, .helper).energy.radioJoules - Self.radio.isolatedUpdateJoules) < 1e-9)
    }

    @Test("under an Android power profile, a phone's mAh are each current × the time the replay kept its component on")
    func androidProfileByHand() throws {
        let xml = """
            <device>
              <item name="battery.capacity">3000</item>
              <item name="gps.on">50</item>
              <item name="radio.active">200</item>
              <item name="cpu.awake">10</item>
              <array name="cpu.active"><value>40</value><value>60</value></array>
            </device>
            """
        let profile = try EnergyProfile(androidXML: Array(xml.utf8), file: "test.xml")
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 90), (.atPickup, 100), (.inTask, 200)])
        spec.pickup = Sourced(try .init(latitude: 47, longitude: 8), .flag)
        var o = ReplayOptions()
        o.network = .ideal
        o.energyProfile = profile
        o.policy[.enRoute].distanceFilter = 0
        o.policy[.atPickup].distanceFilter = 0
        let points = [P(north: 0, east: 0, t: 95), P(north: 5, east: 0, t: 102)]
        let r = try Replay.run([TraceInput(path: try temp(gpx([(nil, points)])))], scenario: spec, options: o)
        let helper = try #require(r.energy.first { $0.role == .helper }).estimate
        #expect(helper.sent == 2 && helper.received == 0 && helper.deliveredFixes == 2)

        // By hand: GNSS at 50 mA in its tiers, the model's assumed power (at the nominal 3.85 V,
        // the file giving no voltage) in the others.
        var milliampSeconds = 0.0
        for tier in AccuracyTier.allCases where tier != .off {
            let current = EnergyProfile.gnssTiers.contains(tier) ? 50 : EnergyProfile.lte.locationMilliwatts(tier) / 3.85
            milliampSeconds += current * helper.tierSeconds[tier]
        }
        // Each delivered fix: the CPU's idle loop (10 mA) and its lowest speed (40 mA) for 0.1 s.
        milliampSeconds += 2 * (10 + 40) * 0.1
        // The radio at 200 mA while active: the first send's promotion (0.26 s) and transmission
        // (0.1 s), its tail until the second send 7 s after the first, the second's transmission
        // and its whole tail (10.12 s).
        let active = 0.26 + 0.1 + (7 - 0.26 - 0.1) + 0.1 + 10.12
        milliampSeconds += 200 * active
        #expect(abs(helper.milliampHours - milliampSeconds / 3600) < 1e-9, "\(helper.milliampHours) vs \(milliampSeconds / 3600)")
        #expect(abs(helper.percentOfReferenceBattery - milliampSeconds / 3600 / 3000 * 100) < 1e-9)
    }
}
