import TestSupport
import Testing
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceService
import TraceSharing

/// Who receives a fix from each phone, read off the user's document (spec/location-sharing.txt)
/// and written here independently of the policy code: the oracle of the exhaustive test.
///
/// - Finding Villager, Accepted, Awaiting Payment, Completed: "Location Accuracy Level: None":
///   no phone shares, nobody receives anything.
/// - En Route and At Pickup: both maps show "Helper Location" and "Hirer Location"; the hirer's
///   location only for rides (the first note).
/// - In Task: the hirer's map shows "Hirer Location, Dropoff Point", the helper's "Helper
///   Location, Pickup Point": nobody sees the other party's position.
/// - A hand-off (second note): "the map locations get handed off to the 3rd party": the hirer's
///   location comes from the delegate's phone, the delegate sees the hirer's map, and the original
///   hirer's phone is no longer a source.
func documentRecipients(state: FulfilmentState, sender: Role, isRide: Bool, handedOff: Bool) -> Set<Role> {
    // The maps that show each live position in this state.
    let helperShownTo: Set<Role>
    let hirerShownTo: Set<Role>
    switch state {
    case .enRoute, .atPickup:
        helperShownTo = [.hirer, .helper]
        hirerShownTo = isRide ? [.hirer, .helper] : []
    case .inTask:
        helperShownTo = [.helper]
        hirerShownTo = isRide ? [.hirer] : []
    case .findingVillager, .accepted, .awaitingPayment, .completed:
        helperShownTo = []
        hirerShownTo = []
    }
    // The delegate, once pickup is handed off, sees what the hirer sees.
    func withDelegate(_ shown: Set<Role>) -> Set<Role> { handedOff && shown.contains(.hirer) ? shown.union([.delegate]) : shown }
    let hirerSource: Role = handedOff ? .delegate : .hirer
    switch sender {
    case .helper: return withDelegate(helperShownTo).subtracting([.helper])
    case hirerSource: return withDelegate(hirerShownTo).subtracting([sender])
    default: return []
    }
}

/// A request of `category` brought to `state` by the shortest legal path, handing pickup off on
/// the way when `handOffAt` names a state (at most At Pickup, and not after `state`).
func request(_ category: RequestCategory, in state: FulfilmentState, handOffAt: FulfilmentState?, policy: PreparedPolicy) throws
    -> LiveRequest
{
    var r = LiveRequest(category: category, policy: policy)
    let path: [FulfilmentEvent] = [.accept, .depart, .arrive, .startTask, .finishTask, .confirmPayment]
    for e in [FulfilmentEvent?.none] + path.map(Optional.some) {
        if let e { try r.handle(e) }
        if r.state == handOffAt { try r.handOffPickup() }
        if r.state == state { break }
    }
    return r
}

/// `request(_:in:handOffAt:policy:)` without a hand-off, or with one in Finding Villager.
func request(_ category: RequestCategory, in state: FulfilmentState, handedOff: Bool, policy: PreparedPolicy) throws -> LiveRequest {
    try request(category, in: state, handOffAt: handedOff ? .findingVillager : nil, policy: policy)
}

/// Where a hand-off can happen on the way to `state`: nowhere, or any state up to At Pickup and
/// not after `state`.
func handOffPoints(before state: FulfilmentState) -> [FulfilmentState?] {
    [nil] + FulfilmentState.allCases.filter { $0 <= min(state, .atPickup) }
}

let categories: [RequestCategory] = [.ride, .babysitting, .dogWalking, .delivery, RequestCategory(named: "grocery run")]
let zurich = try! Coordinate(latitude: 47.37, longitude: 8.54)

@Suite("LiveRequest: a request a service holds")
struct LiveRequestTests {
    let seed = PreparedPolicy(.seed, exact: Geodesic.wgs84)

    @Test("every state × sender × category × hand-off (at each state it can happen in) forwards what the user's document allows")
    func everyCaseAgainstTheDocument() throws {
        var checked = 0
        for state in FulfilmentState.allCases {
            for category in categories {
                for handOffAt in handOffPoints(before: state) {
                    let handedOff = handOffAt != nil
                    for sender in Role.allCases {
                        var r = try request(category, in: state, handOffAt: handOffAt, policy: seed)
                        #expect(r.state == state && r.pickupHandedOff == handedOff)
                        let expected = documentRecipients(state: state, sender: sender, isRide: category.isRide, handedOff: handedOff)
                        let decision = r.receive(zurich, from: sender, at: Timestamp(seconds: 1_700_000_000))
                        let what = "\(state) \(category) hand-off at \(handOffAt.map(\.key) ?? "none") from \(sender): \(decision)"
                        if state == .completed {
                            #expect(decision == .ended)
                        } else if expected.isEmpty {
                            #expect(decision == .notShown, "\(what)")
                        } else {
                            #expect(decision == .forward(to: roleSet(expected)), "\(what)")
                        }
                        #expect(r.viewers(ofLocationFrom: sender) == (state == .completed ? [] : roleSet(expected)))
                        // The maps agree: a viewer receives a sender's fixes exactly when its map
                        // shows that sender's live position.
                        for viewer in Role.allCases where viewer != sender {
                            let shows = r.annotations(seenBy: viewer).contains { $0.liveSource(handedOff: handedOff) == sender }
                            #expect(shows == expected.contains(viewer), "\(what): \(viewer)'s map")
                        }
                        checked += 1
                    }
                }
            }
        }
        // 7 states; hand-offs: none plus 1, 2, 3, 4, 4, 4, 4 points.
        #expect(checked == (7 + 1 + 2 + 3 + 4 + 4 + 4 + 4) * categories.count * 3)
    }

    @Test("once completed every answer agrees: phones off, no live position, nothing relayed, whatever the policy says")
    func completedIsConsistent() throws {
        var policy = SharingPolicy.seed
        policy[.completed].tier = .nearestTenMeters
        policy[.completed].helperAnnotations = [AnnotationRule(.helperLocation), AnnotationRule(.destination)]
        policy[.completed].hirerAnnotations = [AnnotationRule(.helperLocation), AnnotationRule(.destination)]
        let r = try request(.ride, in: .completed, handedOff: false, policy: PreparedPolicy(policy, exact: KarneyGeodesic.wgs84))
        #expect(r.action.tier == .off && r.hasEnded)
        for role in Role.allCases {
            #expect(r.locationUse(of: role) == .off && r.action.locationUse[role] == .off)
            #expect(!r.annotations(seenBy: role).contains(.helperLocation))
            #expect(r.viewers(ofLocationFrom: role).isEmpty)
        }
        #expect(r.annotations(seenBy: .hirer) == [.destination])
        let region = try #require(r.region(for: .hirer, positions: [.destination: zurich, .helperLocation: zurich]))
        #expect(region.center == zurich)
    }

    @Test("a cancelled request forwards nothing and shows nothing, in every state it can be cancelled in")
    func cancelled() throws {
        for state in [FulfilmentState.findingVillager, .accepted, .enRoute, .atPickup, .inTask] {
            var r = try request(.ride, in: state, handedOff: false, policy: seed)
            let action = try r.cancel()
            #expect(action.cancelled && action.tier == .off && r.hasEnded)
            for role in Role.allCases {
                #expect(r.receive(zurich, from: role, at: Timestamp(seconds: 1)) == .ended)
                #expect(r.annotations(seenBy: role).isEmpty && r.locationUse(of: role) == .off)
                #expect(r.region(for: role, positions: [.helperLocation: zurich]) == nil)
            }
            #expect(throws: TransitionError.self) { try r.accept() }
        }
    }

    /// A policy built in code that breaks the document's ride-only rule everywhere: every state
    /// shares, and both maps show the hirer's location with `ridesOnly` false.
    static let hostile: SharingPolicy = {
        var p = SharingPolicy.seed
        p.name = "hostile"
        for state in FulfilmentState.allCases {
            p[state].tier = .bestForNavigation
            p[state].distanceFilter = 0
            p[state].hirerAnnotations = [AnnotationRule(.hirerLocation), AnnotationRule(.helperLocation)]
            p[state].helperAnnotations = [AnnotationRule(.hirerLocation), AnnotationRule(.helperLocation)]
        }
        return p
    }()

    @Test("outside a ride the hirer's location is never forwarded nor shown, whatever the events, fixes and policy")
    func neverTheHirerOutsideARide() throws {
        var rng = SplitMix64(seed: 37)
        var forwarded = 0
        for policy in [seed, PreparedPolicy(Self.hostile, exact: Geodesic.wgs84)] {
            for category in categories where !category.isRide {
                for _ in 0..<300 {
                    var r = LiveRequest(category: category, policy: policy)
                    for step in 0..<40 {
                        if rng.next() % 4 == 0 {
                            // Any event, legal or not: an illegal one throws and changes nothing.
                            _ = try? r.handle(FulfilmentEvent.allCases[Int(rng.next() % 8)])
                        }
                        let sender = Role.allCases[Int(rng.next() % 3)]
                        let fix = try Coordinate(latitude: 47 + Double(rng.next() % 1000) / 1e4, longitude: 8.5)
                        let decision = r.receive(fix, from: sender, at: Timestamp(seconds: Double(step)))
                        if sender != .helper { #expect(decision.recipients.isEmpty, "\(category) \(r.state) from \(sender)") }
                        forwarded += decision.recipients.isEmpty ? 0 : 1
                        for viewer in Role.allCases {
                            #expect(!r.annotations(seenBy: viewer).contains(.hirerLocation))
                            #expect(!(r.action.annotations[viewer] ?? []).contains(.hirerLocation))
                        }
                        #expect(r.locationUse(of: .hirer) != .shares && r.locationUse(of: .delegate) != .shares)
                    }
                }
            }
        }
        #expect(forwarded > 0)  // the helper's fixes did go through: the test exercised the relay
        // The hostile policy does forward the hirer's location in a ride: the rule is the category's.
        var ride = LiveRequest(category: .ride, policy: PreparedPolicy(Self.hostile, exact: Geodesic.wgs84))
        #expect(ride.receive(zurich, from: .hirer, at: Timestamp(seconds: 0)) == .forward(to: .helper))
    }

    @Test("a hand-off moves the hirer's location to the delegate's phone and gives the delegate the hirer's map")
    func handOff() throws {
        var r = try request(.ride, in: .enRoute, handedOff: false, policy: seed)
        #expect(r.receive(zurich, from: .hirer, at: Timestamp(seconds: 0)) == .forward(to: .helper))
        #expect(r.receive(zurich, from: .delegate, at: Timestamp(seconds: 0)) == .notShown)
        #expect(r.annotations(seenBy: .delegate).isEmpty)
        let action = try r.handOffPickup()
        #expect(action.state == .enRoute && r.pickupHandedOff)
        #expect(r.receive(zurich, from: .hirer, at: Timestamp(seconds: 1)) == .notShown)
        #expect(r.receive(zurich, from: .delegate, at: Timestamp(seconds: 1)) == .forward(to: [.hirer, .helper]))
        #expect(r.receive(zurich, from: .helper, at: Timestamp(seconds: 1)) == .forward(to: [.hirer, .delegate]))
        #expect(r.annotations(seenBy: .delegate) == r.annotations(seenBy: .hirer))
        #expect(throws: TransitionError.self) { try r.handOffPickup() }  // once only
    }

    @Test("fixes an honest phone delivers all go through; a phone that ignores its filter is held to it")
    func throttling() throws {
        // Driving north at 11 m/s for 10 minutes, a fix a second, in En Route (30 m filter).
        let fixes = try (0..<600).map { i in
            (try Coordinate(latitude: 47.37 + Double(i) * 11 / 111_200, longitude: 8.54), Timestamp(seconds: 1_700_000_000 + Double(i)))
        }
        var phone = UpdateGate(SharingPolicy.seed[.enRoute], exact: Geodesic.wgs84)
        let delivered = fixes.filter { phone.offer($0.0, at: $0.1.seconds) }
        #expect(delivered.count > 150 && delivered.count < 300)

        var honest = try request(.ride, in: .enRoute, handedOff: false, policy: seed)
        #expect(delivered.allSatisfy { honest.receive($0.0, from: .helper, at: $0.1) == .forward(to: .hirer) })

        var flooding = try request(.ride, in: .enRoute, handedOff: false, policy: seed)
        let passed = fixes.filter { flooding.receive($0.0, from: .helper, at: $0.1) != .throttled }
        #expect(passed.map(\.1) == delivered.map(\.1))

        var open = try request(
            .ride, in: .enRoute, handedOff: false, policy: PreparedPolicy(.seed, exact: Geodesic.wgs84, throttles: false))
        #expect(fixes.allSatisfy { open.receive($0.0, from: .helper, at: $0.1) == .forward(to: .hirer) })
    }

    @Test("the throttle is the state's rate, not its accuracy gate: fixes without an accuracy still go through")
    func throttleWithoutAccuracies() throws {
        var policy = SharingPolicy.seed
        policy[.enRoute].accuracyGate = AccuracyGate(maximumAccuracy: 20, deliversWithoutAccuracy: false)
        var r = try request(.ride, in: .enRoute, handedOff: false, policy: PreparedPolicy(policy, exact: KarneyGeodesic.wgs84))
        let far = try Coordinate(latitude: 47.371, longitude: 8.54)  // 111 m from zurich
        #expect(r.receive(zurich, from: .helper, at: Timestamp(seconds: 0)) == .forward(to: .hirer))
        #expect(r.receive(far, from: .helper, at: Timestamp(seconds: 10)) == .forward(to: .hirer))
        #expect(r.receive(far, from: .helper, at: Timestamp(seconds: 11)) == .throttled)  // 0 m: under the 30 m filter
    }

    @Test(
        "the throttle decides as each phone's own UpdateGate would, under every delivery model",
        arguments: [
            DeliveryModel.coreLocation, .androidFused(interval: 5, minUpdateInterval: 2), .speedElastic(elasticityMultiplier: 4),
            .distanceOrTime(interval: 10), .distanceAndTime(interval: 3),
        ])
    func throttleIsTheGate(model: DeliveryModel) throws {
        // The request keeps only what each sender's rule remembers and reads the rule from the
        // prepared policy; the oracle is a whole UpdateGate per phone (screened, as a replay runs
        // it), started afresh when no map shows the phone, as the request's documentation says.
        var policy = SharingPolicy.seed
        for state in FulfilmentState.allCases { policy[state].delivery = model }
        // In Task shows the helper to the hirer, under a wide filter: what each phone remembers
        // from before decides there.
        policy[.inTask].hirerAnnotations = [AnnotationRule(.helperLocation)]
        policy[.inTask].distanceFilter = 5_000
        // Location off at the pickup: no map shows a position there, and every phone's gate
        // forgets its last fix.
        policy[.atPickup].tier = .off
        let prepared = PreparedPolicy(policy, exact: Geodesic.wgs84)
        var rng = SplitMix64(seed: 41)
        var forwarded = 0, throttled = 0
        for trial in 0..<200 {
            var r = LiveRequest(category: trial % 3 == 0 ? .delivery : .ride, policy: prepared)
            func gate() -> UpdateGate {
                var row = policy[r.state]
                row.accuracyGate = nil
                return UpdateGate(row, exact: Geodesic.wgs84)
            }
            var helper = gate(), hirerSide = gate()
            var position = try Coordinate(latitude: 47.3 + Double(trial) / 1000, longitude: 8.5)
            var seconds = 1_700_000_000.0
            for _ in 0..<120 {
                // Now and then the next event of the request's life; rarely any event (a cancel, a
                // hand-off, or one that does not apply now).
                let next: [FulfilmentEvent] = [.accept, .depart, .arrive, .startTask, .finishTask, .confirmPayment, .confirmPayment]
                let roll = rng.next() % 60
                if roll < 3 || roll == 3,
                    let event = roll < 3 ? next[r.state.rawValue] : FulfilmentEvent.allCases.randomElement(using: &rng)
                {
                    let handedOff = r.pickupHandedOff
                    guard (try? r.handle(event)) != nil else { continue }
                    var row = policy[r.state]
                    row.accuracyGate = nil
                    if r.pickupHandedOff != handedOff || r.viewers(ofLocationFrom: r.pickupHandedOff ? .delegate : .hirer).isEmpty {
                        hirerSide = gate()
                    }
                    if r.viewers(ofLocationFrom: .helper).isEmpty { helper = gate() }
                    helper.apply(row)
                    hirerSide.apply(row)
                }
                // Steps of 0–60 m, now and then 3 km (beyond the tangent plane: the exact solver);
                // time on by 0–8 s, now and then back 20 s or on 5 minutes; speeds given or not.
                let step = rng.next() % 25 == 0 ? 3_000 : Double(rng.next() % 40)
                position = try Coordinate(latitude: position.latitude + step / 111_200, longitude: position.longitude)
                let clock = rng.next() % 30
                seconds += clock == 0 ? -20 : clock == 1 ? 300 : Double(rng.next() % 9)
                let time = Timestamp(seconds: seconds)
                let speed: Double? = rng.next() % 3 == 0 ? nil : Double(rng.next() % 20) - 1
                let sender = Role.allCases[Int(rng.next() % 3)]
                let reachesGate = !r.hasEnded && !r.viewers(ofLocationFrom: sender).isEmpty
                let decision = r.receive(position, from: sender, at: time, speed: speed)
                guard reachesGate else {
                    #expect(decision == .ended || decision == .notShown)
                    continue
                }
                let delivered =
                    sender == .helper
                    ? helper.offer(position, at: time.seconds, accuracy: nil, speed: speed)
                    : hirerSide.offer(position, at: time.seconds, accuracy: nil, speed: speed)
                #expect((decision != .throttled) == delivered, "\(model) trial \(trial) \(r.state) from \(sender)")
                if delivered { forwarded += 1 } else { throttled += 1 }
            }
        }
        // Both outcomes happened hundreds of times under every model (357 to 1,239 each when
        // written): the comparison was not vacuous.
        #expect(forwarded > 250 && throttled > 250, "\(forwarded) forwarded, \(throttled) throttled")
    }

    @Test("a sender no map showed starts afresh when one shows it again")
    func senderShownAgain() throws {
        // A policy that hides the helper from the hirer in At Pickup (the helper's own map keeps
        // it, so its phone goes on delivering) and shows it again in In Task.
        var policy = SharingPolicy.seed
        policy[.atPickup].hirerAnnotations = [AnnotationRule(.pickupPoint)]
        policy[.inTask].hirerAnnotations = [AnnotationRule(.helperLocation)]
        policy[.inTask].distanceFilter = 160
        var r = try request(.ride, in: .enRoute, handedOff: false, policy: PreparedPolicy(policy, exact: KarneyGeodesic.wgs84))
        #expect(r.receive(zurich, from: .helper, at: Timestamp(seconds: 0)) == .forward(to: .hirer))
        try r.arrive()
        #expect(r.receive(zurich, from: .helper, at: Timestamp(seconds: 5)) == .notShown)
        try r.startTask()
        // 50 m from the last fix forwarded, under In Task's 160 m: a fresh start forwards it.
        let near = try Coordinate(latitude: 47.37045, longitude: 8.54)
        #expect(r.receive(near, from: .helper, at: Timestamp(seconds: 60)) == .forward(to: .hirer))
    }

    @Test("the map region and route lines follow the state and the category")
    func regionAndRoute() throws {
        var r = try request(.dogWalking, in: .atPickup, handedOff: false, policy: seed)
        let pickup = try Coordinate(latitude: 47.3702, longitude: 8.5402)
        let region = try #require(
            r.region(for: .hirer, positions: [.helperLocation: zurich, .pickupPoint: pickup, .hirerLocation: pickup]))
        #expect(region.minimumSpan >= 150 && region.minimumSpan < 160)
        #expect(r.routeLineTolerance == nil)  // "No Route Lines"
        try r.startTask()
        try r.finishTask()
        #expect(r.routeLineTolerance == 250.0 / 400)  // Awaiting Payment: route with lines
    }

    @Test("values print as people read them")
    func descriptions() throws {
        var r = LiveRequest(category: .ride, policy: seed)
        try r.accept()
        let action = try r.depart()
        let text = "\(action)"
        #expect(!text.contains("TraceDomain.") && !text.contains("TraceSharing."))
        #expect(
            text
                == "enRoute: nearestTenMeters, filter 30 m, frame 500 m, no route lines; hirer shares, sees helperLocation, hirerLocation, pickupPoint; helper shares, sees helperLocation, hirerLocation, pickupPoint; delegate off, sees nothing"
        )
        #expect("\(r.receive(zurich, from: .helper, at: Timestamp(seconds: 0)))" == "forward to hirer")
        #expect("\(RelayDecision.notShown)" == "not shown" && "\(RoleSet())" == "nobody")
        #expect("\(Role.delegate)" == "delegate" && "\(FulfilmentState.atPickup)" == "atPickup" && "\(AccuracyTier.best)" == "best")
        #expect("\(RequestCategory.dogWalking)" == "dog walking" && "\(RequestCategory(name: "taxi", isRide: true))" == "taxi (a ride)")
        #expect("\([Role.hirer: LocationUse.shares])" == "[hirer: shares]")
        #expect(try r.cancel().description == "cancelled in enRoute: everything off")
    }

    @Test("a live request is small and shares its policy")
    func size() {
        #expect(MemoryLayout<LiveRequest>.size == 97)  // the figure LiveRequest's documentation gives
        #expect(MemoryLayout<LiveRequest>.stride <= 1024)
        // The pure-Swift solver is one reference, held once by the prepared policy (the benchmark
        // measures the resident bytes).
        #expect(MemoryLayout<KarneyGeodesic>.size == 8)
    }

    @Test("requests are Sendable values: one per task")
    func sendable() async throws {
        let policy = seed
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<4 {
                group.addTask {
                    var r = try request(.ride, in: .enRoute, handedOff: false, policy: policy)
                    var n = 0
                    for i in 0..<100 {
                        let c = try Coordinate(latitude: 47.37 + Double(i * (t + 1)) * 1e-3, longitude: 8.54)
                        n += r.receive(c, from: .helper, at: Timestamp(seconds: Double(i))).recipients.isEmpty ? 0 : 1
                    }
                    return n
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.count == 4 && counts.allSatisfy { $0 == 100 })
    }
}

func roleSet(_ roles: Set<Role>) -> RoleSet { roles.reduce(into: RoleSet()) { $0.insert(RoleSet($1)) } }

@Suite("LiveRequest batches: many requests, fixes decided in batches")
struct LiveRequestBatchTests {
    @Test("a batch decides each fix exactly as the requests receiving them one by one")
    func batchIsOneByOne() throws {
        let prepared = PreparedPolicy(.seed, exact: KarneyGeodesic.wgs84)
        var rng = SplitMix64(seed: 43)
        let paths: [[FulfilmentEvent]] = [
            [], [.accept, .depart], [.accept, .depart, .arrive], [.accept, .depart, .arrive, .startTask], [.accept, .cancel],
        ]
        var requests: [LiveRequest] = []
        for i in 0..<500 {
            var r = LiveRequest(category: categories[i % categories.count], policy: prepared)
            if i % 7 == 0 { try r.handOffPickup() }
            for e in paths[Int(rng.next() % UInt64(paths.count))] { try r.handle(e) }
            requests.append(r)
        }
        var oneByOne = requests
        var decisions: [RelayDecision] = []
        var seconds = 1_700_000_000.0
        var seen: Set<String> = []
        // Batches of every size up to 40 (shorter and longer than the distance the batch reads
        // ahead), the same request often several times in one batch, fixes 0–60 m apart.
        for size in 0...40 {
            var batch: [IncomingFix] = []
            for _ in 0..<size {
                let r = Int(rng.next() % (size % 3 == 0 ? 5 : 500))
                seconds += 0.5
                let fix = try Coordinate(latitude: 47.37 + Double(rng.next() % 600) / 1e5, longitude: 8.54)
                batch.append(
                    IncomingFix(request: r, sender: Role.allCases[Int(rng.next() % 3)], coordinate: fix, time: Timestamp(seconds: seconds)))
            }
            decisions.removeAll(keepingCapacity: true)
            requests.receive(batch, into: &decisions)
            let expected = batch.map { oneByOne[$0.request].receive($0.coordinate, from: $0.sender, at: $0.time, speed: $0.speed) }
            #expect(decisions == expected, "batch of \(size)")
            for d in decisions { seen.insert(d.recipients.isEmpty ? d.description : "forward") }
        }
        // Every outcome happened (later batches agreeing shows the requests' memories agree too).
        #expect(seen == ["forward", "throttled", "not shown", "ended"])
    }
}
