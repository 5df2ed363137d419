import Testing
import TraceDomain

/// The shared vocabulary: every key parses back to its value, the orders are the document's, and
/// role sets behave as sets.
@Suite("TraceDomain: roles, states, tiers, categories")
struct VocabularyTests {
    @Test("every state, tier and role parses back from its key; states from their names, tiers from Core Location's; nothing else parses")
    func keysRoundTrip() {
        for s in FulfilmentState.allCases {
            #expect(FulfilmentState(parsing: s.key) == s)
            #expect(FulfilmentState(parsing: s.key.uppercased()) == s)  // keys are read in any case
            #expect(FulfilmentState(parsing: s.displayName) == s)  // "En Route": spaces ignored
        }
        for t in AccuracyTier.allCases {
            #expect(AccuracyTier(parsing: t.key) == t)
            #expect(AccuracyTier(parsing: t.coreLocationName) == t)
        }
        for r in Role.allCases { #expect(Role(parsing: r.key) == r) }
        for junk in ["", " ", "en-route!", "best!", "kCLLocationAccuracy", "hirers"] {
            #expect(FulfilmentState(parsing: junk) == nil && AccuracyTier(parsing: junk) == nil && Role(parsing: junk) == nil, "\(junk)")
        }
    }

    @Test("the document's order: states from Finding Villager to Completed; tiers from off to the best")
    func orders() {
        #expect(
            FulfilmentState.allCases.map(\.key) == [
                "findingVillager", "accepted", "enRoute", "atPickup", "inTask", "awaitingPayment", "completed",
            ])
        #expect(FulfilmentState.allCases == FulfilmentState.allCases.sorted())
        #expect(AccuracyTier.allCases.first == .off && AccuracyTier.allCases.last == .bestForNavigation)
        #expect(AccuracyTier.allCases == AccuracyTier.allCases.sorted())
        // A finer tier never costs less battery.
        let levels = AccuracyTier.allCases.map(\.batteryLevel)
        #expect(levels == levels.sorted())
    }

    @Test("a role set is a set of the three roles: union, membership, its roles in order, its text")
    func roleSets() {
        let both: RoleSet = [.hirer, .delegate]
        #expect(both.contains(.hirer) && !both.contains(.helper) && both.roles == [.hirer, .delegate])
        #expect(RoleSet().roles.isEmpty && RoleSet().isEmpty)
        #expect(both.union(.helper).roles == Role.allCases)
        #expect(RoleSet(.helper) == .helper)
        for r in Role.allCases { #expect(RoleSet(r).roles == [r]) }
        #expect("\(RoleSet())" == "nobody")
    }

    @Test("categories by name: the four known ones in any spelling, any other a non-ride of that name")
    func categories() {
        #expect(RequestCategory(named: "Dog-Walking") == .dogWalking && RequestCategory(named: "dog_walking") == .dogWalking)
        #expect(RequestCategory(named: "RIDE") == .ride && RequestCategory(named: "ride").isRide)
        let other = RequestCategory(named: "Grocery Run")
        #expect(other.name == "grocery run" && !other.isRide)
        #expect([RequestCategory.babysitting, .delivery, .dogWalking].allSatisfy { !$0.isRide })
    }
}
