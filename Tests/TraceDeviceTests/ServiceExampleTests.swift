import Testing
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceSharing

/// The bare parts a service's request is made of (TraceService's `LiveRequest` holds them): the
/// state machine, the relay answers and the helper's update gate, one ride through its life.
@Test("the bare state machine, relay and gate: a ride through its life")
func serviceExample() throws {
    // One request: a ride; the policy is the seed (or SharingPolicy(fileBytes:file:) from a file).
    var request = FulfilmentMachine(category: .ride)
    let relay = RelayTable(request.policy)
    var helperGate = UpdateGate(request.policy[request.state], exact: Geodesic())
    var forwarded: [(to: RoleSet, at: Double)] = []

    // Each incoming fix from the helper's phone: gate it, then relay it to whoever may see it.
    func helperFix(_ c: Coordinate, at t: Double) {
        guard !request.hasEnded, helperGate.offer(c, at: t) else { return }
        let to = relay.viewers(
            ofLocationFrom: .helper, in: request.state,
            isRide: request.request.category.isRide,
            pickupHandedOff: request.request.pickupHandedOff)
        if !to.isEmpty { forwarded.append((to, t)) }
    }
    // Every event: apply the action (phones' tier and filter, each map's annotations).
    func on(_ event: FulfilmentEvent) throws -> SharingAction {
        let action = try request.handle(event)
        helperGate.apply(action)  // the action's tier: off once the request has ended
        return action
    }

    let start = try Coordinate(latitude: 47.3700, longitude: 8.5400)
    helperFix(start, at: 0)  // Finding Villager: location off
    _ = try on(.accept)
    let enRoute = try on(.depart)
    #expect(enRoute.tier == .nearestTenMeters && enRoute.locationUse[.helper] == .shares)
    for i in 1...10 {  // driving north, 11 m a second
        helperFix(try Coordinate(latitude: 47.3700 + Double(i) * 11 / 111_200, longitude: 8.5400), at: Double(i))
    }
    let atPickup = try on(.arrive)
    #expect(atPickup.frame == 150 && atPickup.annotations[.hirer] == [.helperLocation, .hirerLocation, .pickupPoint])
    _ = try on(.startTask)
    _ = try on(.finishTask)
    let done = try on(.confirmPayment)
    #expect(done.state == .completed && done.tier == .off && request.hasEnded)
    #expect(throws: TransitionError.self) { _ = try request.handle(.cancel) }

    // Nothing while location was off; in En Route the first fix (1 s), then one per 30 m of
    // movement (the filter): 4 s, 7 s, 10 s — each to the hirer only.
    #expect(forwarded.map(\.at) == [1, 4, 7, 10])
    #expect(forwarded.allSatisfy { $0.to == .hirer })
}

@Test("a cancelled request stops every update at once")
func cancelledStopsUpdates() throws {
    var request = FulfilmentMachine(category: .ride)
    let relay = RelayTable(request.policy)
    var gate = UpdateGate(request.policy[request.state], exact: Geodesic())
    _ = try request.handle(.accept)
    gate.apply(try request.handle(.depart))
    let here = try Coordinate(latitude: 47, longitude: 8)
    let first = gate.offer(here, at: 0)
    gate.apply(try request.handle(.cancel))
    let afterCancel = gate.offer(try Coordinate(latitude: 47.01, longitude: 8), at: 10)
    #expect(first && !afterCancel && gate.tier == .off)
    #expect(request.hasEnded)
    // The relay table answers per state; a service checks that the request is still open first.
    #expect(!relay.viewers(ofLocationFrom: .helper, in: request.state, isRide: true, pickupHandedOff: false).isEmpty)
}
