import Testing
import TraceDomain
import TraceSharing

@Suite("Relay table")
struct RelayTableTests {
    @Test("every cached answer equals the policy's definition: the viewers whose annotations hold the sender's live position")
    func equalsDefinition() {
        var quiet = SharingPolicy.seed
        quiet[.inTask].helperAnnotations = []
        quiet[.inTask].hirerAnnotations = [AnnotationRule(.helperLocation)]
        // Rides-only live positions, and a state whose tier is off though its maps show them.
        var rides = SharingPolicy.seed
        rides[.enRoute].hirerAnnotations = [AnnotationRule(.helperLocation, ridesOnly: true), AnnotationRule(.origin)]
        rides[.atPickup].helperAnnotations = [AnnotationRule(.hirerLocation, ridesOnly: true)]
        rides[.inTask].tier = .off
        for policy in [SharingPolicy.seed, quiet, rides] {
            let table = RelayTable(policy)
            for state in FulfilmentState.allCases {
                for sender in Role.allCases {
                    for isRide in [false, true] {
                        for handedOff in [false, true] {
                            let request = RequestContext(category: RequestCategory(name: "x", isRide: isRide), pickupHandedOff: handedOff)
                            let expected = policy.viewers(ofLocationFrom: sender, in: state, for: request)
                            // The definition, spelled out from the annotations each viewer sees.
                            let seeing = request.viewers.filter { viewer in
                                viewer != sender && policy[state].tier != .off
                                    && policy.annotations(seenBy: viewer, in: state, for: request).contains {
                                        $0.liveSource(handedOff: handedOff) == sender
                                    }
                            }
                            #expect(expected == Set(seeing), "\(state) \(sender) ride \(isRide) handed \(handedOff)")
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
