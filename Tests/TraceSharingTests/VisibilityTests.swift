import Testing
import TraceDomain
import TraceSharing

/// Every (state × viewer × category × delegated) cell against a table written from the seed
/// (the user's document, restated in docs/domain.md), independent of the policy code.
@Suite("Visibility and privacy")
struct VisibilityTests {
    typealias A = MapAnnotation
    /// Per state: (hirer sees for a ride, hirer for a non-ride, helper for a ride, helper for a non-ride).
    static let seed: [FulfilmentState: ([A], [A], [A], [A])] = [
        // "Hirer: Origin\Destination", "Helper: Origin\Destination\Your own location"; route for rides,
        // the location (destination) for non-rides.
        .findingVillager: ([.origin, .destination], [.destination], [.origin, .destination, .ownLocation], [.destination, .ownLocation]),
        .accepted: ([.origin, .destination], [.destination], [.origin, .destination, .ownLocation], [.destination, .ownLocation]),
        // "Hirer: Helper Location, Hirer Location, Pickup Point (Only shown for rides)"; the hirer's
        // location only for rides.
        .enRoute: (
            [.helperLocation, .hirerLocation, .pickupPoint], [.helperLocation],
            [.helperLocation, .hirerLocation, .pickupPoint], [.helperLocation, .pickupPoint]
        ),
        .atPickup: (
            [.helperLocation, .hirerLocation, .pickupPoint], [.helperLocation, .pickupPoint],
            [.helperLocation, .hirerLocation, .pickupPoint], [.helperLocation, .pickupPoint]
        ),
        // "Hirer: Hirer Location, Dropoff Point", "Helper: Helper Location, Pickup Point".
        .inTask: ([.hirerLocation, .dropoffPoint], [.dropoffPoint], [.helperLocation, .pickupPoint], [.helperLocation, .pickupPoint]),
        .awaitingPayment: ([], [], [], []),
        .completed: ([], [], [], []),
    ]

    static let categories: [RequestCategory] = [
        .ride, .babysitting, .dogWalking, .delivery, RequestCategory(name: "moving", isRide: false),
    ]

    @Test("every cell matches the seed", arguments: FulfilmentState.allCases)
    func everyCell(state: FulfilmentState) {
        let row = Self.seed[state]!
        for category in Self.categories {
            for delegated in [false, true] {
                let request = RequestContext(category: category, pickupHandedOff: delegated)
                let hirer = Set(category.isRide ? row.0 : row.1), helper = Set(category.isRide ? row.2 : row.3)
                #expect(
                    SharingPolicy.seed.annotations(seenBy: .hirer, in: state, for: request) == hirer,
                    "\(state) hirer \(category.name) \(delegated)")
                #expect(
                    SharingPolicy.seed.annotations(seenBy: .helper, in: state, for: request) == helper,
                    "\(state) helper \(category.name) \(delegated)")
                // The designated pickup party sees the hirer's map; before a hand-off it has none.
                #expect(SharingPolicy.seed.annotations(seenBy: .delegate, in: state, for: request) == (delegated ? hirer : []))
            }
        }
    }

    @Test("the hirer's location is never shown, relayed or needed for a non-ride", arguments: FulfilmentState.allCases)
    func hirerPrivacy(state: FulfilmentState) {
        for category in Self.categories where !category.isRide {
            for delegated in [false, true] {
                let r = RequestContext(category: category, pickupHandedOff: delegated)
                for viewer in Role.allCases {
                    #expect(!SharingPolicy.seed.annotations(seenBy: viewer, in: state, for: r).contains(.hirerLocation))
                }
                #expect(SharingPolicy.seed.locationUse(of: .hirer, in: state, for: r) == .off)
                #expect(SharingPolicy.seed.locationUse(of: .delegate, in: state, for: r) == .off)
                #expect(SharingPolicy.seed.viewers(ofLocationFrom: .hirer, in: state, for: r).isEmpty)
            }
        }
    }

    @Test("relay and location use for a ride, with and without a hand-off")
    func relay() {
        let p = SharingPolicy.seed
        let ride = RequestContext(category: .ride)
        #expect(p.viewers(ofLocationFrom: .helper, in: .enRoute, for: ride) == [.hirer])
        #expect(p.viewers(ofLocationFrom: .hirer, in: .enRoute, for: ride) == [.helper])
        #expect(p.locationUse(of: .helper, in: .enRoute, for: ride) == .shares)
        #expect(p.locationUse(of: .hirer, in: .atPickup, for: ride) == .shares)
        // In Task each party sees only its own position: nothing is relayed.
        #expect(p.viewers(ofLocationFrom: .helper, in: .inTask, for: ride).isEmpty)
        #expect(p.locationUse(of: .helper, in: .inTask, for: ride) == .ownMapOnly)
        #expect(p.locationUse(of: .hirer, in: .inTask, for: ride) == .ownMapOnly)
        // Location off: nothing, whatever the annotations.
        #expect(p.locationUse(of: .helper, in: .findingVillager, for: ride) == .off)

        // Hand-off: the delegate's phone sources the hirer location, for the helper and the hirer;
        // the original hirer's phone stops being a source.
        let handed = RequestContext(category: .ride, pickupHandedOff: true)
        #expect(p.viewers(ofLocationFrom: .delegate, in: .enRoute, for: handed) == [.helper, .hirer])
        #expect(p.viewers(ofLocationFrom: .hirer, in: .enRoute, for: handed).isEmpty)
        #expect(p.locationUse(of: .hirer, in: .enRoute, for: handed) == .off)
        #expect(p.locationUse(of: .delegate, in: .enRoute, for: handed) == .shares)
        #expect(p.viewers(ofLocationFrom: .helper, in: .enRoute, for: handed) == [.hirer, .delegate])
        #expect(p.viewers(ofLocationFrom: .delegate, in: .inTask, for: handed) == [.hirer])

        let walk = RequestContext(category: .dogWalking)
        #expect(p.viewers(ofLocationFrom: .helper, in: .enRoute, for: walk) == [.hirer])
        #expect(p.locationUse(of: .helper, in: .atPickup, for: walk) == .shares)
    }

    @Test("frames and tiers are the seed's")
    func framesAndTiers() {
        let frames = FulfilmentState.allCases.map { SharingPolicy.seed[$0].frame }
        #expect(frames == [250, 500, 500, 150, 500, 250, 250])
        let tiers = FulfilmentState.allCases.map { SharingPolicy.seed[$0].tier }
        #expect(tiers == [.off, .off, .nearestTenMeters, .bestForNavigation, .hundredMeters, .off, .off])
        #expect(AccuracyTier.bestForNavigation.nominalAccuracy == 1...5 && AccuracyTier.bestForNavigation.batteryLevel == .veryHigh)
        #expect(AccuracyTier.threeKilometers.nominalAccuracy == 3000...3000 && AccuracyTier.threeKilometers.batteryLevel == .minimal)
        #expect(AccuracyTier.off.nominalAccuracy == nil)
        // Distance filters, as written in the README (docs/battery-model.md's jitter-safe values for the state's
        // tier): En Route 30 m (NearestTenMeters), At Pickup 13 m (BestForNavigation), In Task
        // 160 m (HundredMeters); 0 where location is off.
        let filters = FulfilmentState.allCases.map { SharingPolicy.seed[$0].distanceFilter }
        #expect(filters == [0, 0, 30, 13, 160, 0, 0])
        #expect(AccuracyTier.nearestTenMeters.jitterSafeDistanceFilter == 30)
        #expect(AccuracyTier.bestForNavigation.jitterSafeDistanceFilter == 13)
        #expect(AccuracyTier.hundredMeters.jitterSafeDistanceFilter == 160)
    }
}
