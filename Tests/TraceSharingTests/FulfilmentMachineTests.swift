import Testing
import TraceDomain
import TraceSharing

@Suite("Fulfilment state machine")
struct FulfilmentMachineTests {
    /// The transition table, written from the machine's documented design: for each state, the
    /// state each event leads to; events not listed are illegal. "cancel" ends the request;
    /// "handOffPickup" keeps the state.
    static let expected: [FulfilmentState: [FulfilmentEvent: FulfilmentState]] = [
        .findingVillager: [.accept: .accepted, .cancel: .findingVillager, .handOffPickup: .findingVillager],
        .accepted: [.depart: .enRoute, .arrive: .atPickup, .startTask: .inTask, .cancel: .accepted, .handOffPickup: .accepted],
        .enRoute: [.arrive: .atPickup, .startTask: .inTask, .cancel: .enRoute, .handOffPickup: .enRoute],
        .atPickup: [.startTask: .inTask, .cancel: .atPickup, .handOffPickup: .atPickup],
        .inTask: [.finishTask: .awaitingPayment, .cancel: .inTask],
        .awaitingPayment: [.confirmPayment: .completed],
        .completed: [:],
    ]

    /// A machine brought to `state` by legal events.
    static func machine(in state: FulfilmentState, category: RequestCategory = .ride) throws -> FulfilmentMachine {
        var m = FulfilmentMachine(category: category)
        let path: [FulfilmentEvent] = [.accept, .depart, .arrive, .startTask, .finishTask, .confirmPayment]
        for event in path.prefix(state.rawValue) { _ = try m.handle(event) }
        #expect(m.state == state)
        return m
    }

    @Test("every (state × event) pair", arguments: FulfilmentState.allCases)
    func everyPair(state: FulfilmentState) throws {
        for event in FulfilmentEvent.allCases {
            var m = try Self.machine(in: state)
            let before = m
            if let target = Self.expected[state]![event] {
                let action = try m.handle(event)
                #expect(m.state == target && action.state == target, "\(state) + \(event)")
                #expect(m.isCancelled == (event == .cancel))
                #expect(action.cancelled == (event == .cancel))
                if event == .cancel {
                    #expect(action.tier == .off && action.locationUse.values.allSatisfy { $0 == .off })
                    #expect(action.annotations.values.allSatisfy(\.isEmpty) && !action.routeLines)
                }
                if event == .handOffPickup { #expect(m.request.pickupHandedOff) }
            } else {
                #expect(throws: TransitionError.self, "\(state) + \(event) must be refused") { _ = try m.handle(event) }
                #expect(m == before, "a refused event leaves the machine unchanged")
            }
        }
    }

    @Test("ended requests refuse every event with the reason")
    func ended() throws {
        var done = try Self.machine(in: .completed)
        #expect(throws: TransitionError.ended(.cancel, cancelled: false)) { _ = try done.handle(.cancel) }
        var cancelled = try Self.machine(in: .enRoute)
        _ = try cancelled.handle(.cancel)
        #expect(cancelled.hasEnded)
        for event in FulfilmentEvent.allCases {
            #expect(throws: TransitionError.ended(event, cancelled: true)) { _ = try cancelled.handle(event) }
        }
    }

    @Test("skipped states are reported")
    func skipped() throws {
        var m = try Self.machine(in: .accepted, category: .babysitting)
        let a = try m.handle(.startTask)
        #expect(a.skipped == [.enRoute, .atPickup] && a.state == .inTask)
        var n = try Self.machine(in: .accepted)
        #expect(try n.handle(.arrive).skipped == [.enRoute])
        var o = try Self.machine(in: .enRoute)
        #expect(try o.handle(.arrive).skipped.isEmpty)
    }

    @Test("pickup can be handed off once")
    func handOffOnce() throws {
        var m = try Self.machine(in: .enRoute)
        _ = try m.handle(.handOffPickup)
        #expect(throws: TransitionError.illegal(.handOffPickup, in: .enRoute)) { _ = try m.handle(.handOffPickup) }
    }

    @Test("actions carry the policy row: tier, filter, frame, route lines")
    func actionFromPolicy() throws {
        var m = try Self.machine(in: .enRoute)
        let a = try m.handle(.arrive)
        #expect(a.tier == .bestForNavigation && a.distanceFilter == 13 && a.frame == 150 && !a.routeLines)
        let e = try Self.machine(in: .enRoute).currentAction
        #expect(e.tier == .nearestTenMeters && e.distanceFilter == 30 && e.frame == 500)
        #expect(try Self.machine(in: .completed).currentAction.routeLines)
    }
}
