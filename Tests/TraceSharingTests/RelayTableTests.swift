import Testing
import TraceDomain
import TraceSharing

@Suite("Relay table")
struct RelayTableTests {
    @Test("every cached answer equals the policy's definition")
    func equalsDefinition() {
        var quiet = SharingPolicy.seed
        quiet[.inTask].helperAnnotations = []
        quiet[.inTask].hirerAnnotations = [AnnotationRule(.helperLocation)]
        for policy in [SharingPolicy.seed, quiet] {
            let table = RelayTable(policy)
            for state in FulfilmentState.allCases {
                for sender in Role.allCases {
                    for isRide in [false, true] {
                        for handedOff in [false, true] {
                            let request = RequestContext(category: RequestCategory(name: "x", isRide: isRide), pickupHandedOff: handedOff)
                            let expected = policy.viewers(ofLocationFrom: sender, in: state, for: request)
                            let cached = table.viewers(ofLocationFrom: sender, in: state, isRide: isRide, pickupHandedOff: handedOff)
                            #expect(Set(cached.roles) == expected, "\(state) \(sender) ride \(isRide) handed \(handedOff)")
                        }
                    }
                }
            }
        }
        #expect(RelayTable(quiet).viewers(ofLocationFrom: .helper, in: .inTask, isRide: false, pickupHandedOff: false) == .hirer)
    }
}
