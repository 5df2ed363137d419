import Testing
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// The generated trips tell the story their sidecars claim: the parties are where the timeline
/// says, for as long as it says, with phone-like sampling, accuracy and speed. Distances allow for
/// the simulated position error (a few metres outdoors; up to tens of metres indoors).
@Suite("Traces/trips: the generated trips match their scenarios")
struct TripTests {
    /// The trip's sidecar and its timeline as a lookup.
    private func trip(_ name: String) throws -> (Scenario, [FulfilmentState: Timestamp]) {
        let s = try Scenario("trips/\(name)/\(name).scenario.json")
        let timeline = try #require(s.timeline)
        #expect(timeline.map(\.state) == FulfilmentState.allCases, "a generated trip knows every state")
        return (s, Dictionary(uniqueKeysWithValues: timeline.map { ($0.state, $0.at) }))
    }

    private func metres(_ a: Coordinate, _ b: Coordinate) -> Double { Haversine.distance(from: a, to: b) }

    @Test(
        "every party's phone: accuracy on every fix, times increasing, from Accepted to Completed",
        arguments: ["ride", "dog-walk", "third-party-pickup"])
    func phones(name: String) throws {
        let (s, at) = try trip(name)
        for (role, _) in s.traces {
            let fixes = try s.fixes(of: role)
            #expect(fixes.allSatisfy { $0.horizontalAccuracy.map { (4...65).contains($0) } == true }, "\(name) \(role.key)")
            #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.time! < $1.time! }, "\(name) \(role.key)")
            #expect(fixes.first?.time == at[.accepted] && fixes.last?.time == at[.completed], "\(name) \(role.key)")
        }
    }

    @Test("ride: 3–5 km to the pickup at 1 Hz, a 2–4 min wait while the hirer walks ~300 m to it, ~5 km with the hirer aboard")
    func ride() throws {
        let (s, at) = try trip("ride")
        let helper = try s.fixes(of: .helper), hirer = try s.fixes(of: .hirer)
        let pickup = try #require(s.pickup), dropoff = try #require(s.dropoff)
        let toPickup = pathLength(helper, from: at[.enRoute]!, to: at[.atPickup]!)
        #expect((2900...5600).contains(toPickup), "\(toPickup) m to the pickup")
        let wait = at[.inTask]!.seconds(since: at[.atPickup]!)
        #expect((120...240).contains(wait))
        let driving = helper.filter { $0.time! > at[.enRoute]! && $0.time! < at[.atPickup]! }
        #expect(zip(driving, driving.dropFirst()).allSatisfy { $1.time!.seconds(since: $0.time!) <= 1.001 }, "1 s fixes while driving")
        #expect(driving.allSatisfy { $0.speed != nil } && driving.contains { $0.speed! > 10 })
        #expect(metres(fix(helper, nearest: at[.atPickup]!).coordinate, pickup) < 25)
        #expect(metres(fix(hirer, nearest: at[.inTask]!).coordinate, pickup) < 25, "the hirer is at the pickup when the car leaves")
        let home = hirer[0].coordinate
        #expect((150...400).contains(metres(home, pickup)), "the hirer lives \(metres(home, pickup)) m from the pickup")
        #expect(metres(fix(hirer, nearest: at[.atPickup]!).coordinate, pickup) > 20, "the hirer is still walking when the helper arrives")
        let ride = pathLength(helper, from: at[.inTask]!, to: at[.awaitingPayment]!)
        #expect((4300...6200).contains(ride), "\(ride) m ride")
        #expect(metres(fix(helper, nearest: at[.awaitingPayment]!).coordinate, dropoff) < 25)
        #expect(metres(fix(hirer, nearest: at[.awaitingPayment]!).coordinate, dropoff) < 25, "the hirer arrives with the helper")
    }

    @Test("dog walk: the helper walks to the door, a ~30 min loop back to it; the hirer never leaves home")
    func dogWalk() throws {
        let (s, at) = try trip("dog-walk")
        let helper = try s.fixes(of: .helper), hirer = try s.fixes(of: .hirer)
        let door = try #require(s.pickup)
        #expect(s.dropoff == door)
        let walk = at[.awaitingPayment]!.seconds(since: at[.inTask]!)
        #expect((28 * 60...34 * 60).contains(walk), "\(walk) s with the dog")
        #expect(metres(fix(helper, nearest: at[.atPickup]!).coordinate, door) < 25)
        #expect(metres(fix(helper, nearest: at[.awaitingPayment]!).coordinate, door) < 25, "the loop ends at the door")
        let farthest =
            helper.filter { $0.time! > at[.inTask]! && $0.time! < at[.awaitingPayment]! }.map { metres($0.coordinate, door) }.max() ?? 0
        #expect(farthest > 200, "the walk leaves the door (\(farthest) m at most)")
        let walking = helper.filter { $0.time! > at[.enRoute]! && $0.time! < at[.atPickup]! }
        #expect(
            zip(walking, walking.dropFirst()).allSatisfy { (1...5.001).contains($1.time!.seconds(since: $0.time!)) }, "1–5 s fixes on foot")
        #expect(hirer.allSatisfy { metres($0.coordinate, door) < 120 }, "the hirer stays home (indoor jitter only)")
        #expect(hirer.allSatisfy { $0.speed == nil && $0.horizontalAccuracy! >= 15 }, "indoor fixes: Wi-Fi accuracy, no speed")
    }

    @Test("third-party pickup: the delegate meets the helper at the pickup; the hirer stays at the dropoff")
    func thirdPartyPickup() throws {
        let (s, at) = try trip("third-party-pickup")
        let helper = try s.fixes(of: .helper), delegate = try s.fixes(of: .delegate), hirer = try s.fixes(of: .hirer)
        let pickup = try #require(s.pickup), dropoff = try #require(s.dropoff)
        #expect(metres(fix(helper, nearest: at[.atPickup]!).coordinate, pickup) < 25)
        #expect(metres(fix(delegate, nearest: at[.inTask]!).coordinate, pickup) < 25, "the delegate hands over at the pickup")
        #expect(metres(delegate[0].coordinate, pickup) > 60, "the delegate walks there from their door")
        #expect(metres(fix(helper, nearest: at[.awaitingPayment]!).coordinate, dropoff) < 25)
        #expect(hirer.allSatisfy { metres($0.coordinate, dropoff) < 120 }, "the hirer waits at home")
        #expect(metres(pickup, dropoff) > 300)
    }
}
