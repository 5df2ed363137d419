import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceSharing

@testable import TraceReplay

/// ``DecisionSchedule``: policies with equal decision keys on a trip replay to equal results, and
/// a policy that differs beyond the phones' settings has no key.
@Suite("Replay: the phones' decisions found without a replay (DecisionSchedule)")
struct DecisionScheduleTests {
    /// The phone configurations, send rules and networks the key must hold under.
    enum Setting: String, CaseIterable, CustomStringConvertible {
        case plain, plainTiers, emulatedTiers, smoothed, deadReckoning, idealNetwork
        var description: String { rawValue }

        var options: ReplayOptions {
            var o = ReplayOptions()
            switch self {
            case .plain, .plainTiers: break
            case .emulatedTiers: o.phone.accuracyEmulation = .white
            case .smoothed: o.phone.smoothing = .on(mode: .drive)
            case .deadReckoning: break  // the rows' own send rules, below
            case .idealNetwork: o.network = .ideal
            }
            return o
        }

        /// Candidate policies: En Route's and In Task's rows over a small grid (the tier too when
        /// accuracy is emulated; dead reckoning's threshold instead of the accuracy gate, so that
        /// policies deliver the same fixes and send different ones), so that several share their
        /// decisions and several do not.
        var policies: [SharingPolicy] {
            if self == .deadReckoning {
                return [0.0, 10, 40].flatMap { filter in
                    [nil, 15.0, 60].map { threshold in
                        var p = SharingPolicy.seed
                        for s in [FulfilmentState.enRoute, .inTask] {
                            p[s].distanceFilter = filter
                            p[s].send = .deadReckoning(thresholdMetres: threshold, heartbeatSeconds: 30)
                        }
                        return p
                    }
                }
            }
            var all: [SharingPolicy] = []
            // Tiers without emulation: the same fixes delivered, other energy (the key's tier words).
            let tiers: [AccuracyTier] =
                self == .emulatedTiers || self == .plainTiers ? [.best, .hundredMeters] : [SharingPolicy.seed[.enRoute].tier]
            for filter in [0.0, 10, 40, 150] {
                for delivery in [DeliveryModel.coreLocation, .distanceOrTime(interval: 20)] {
                    for gate in [nil, AccuracyGate(maximumAccuracy: 20)] {
                        for tier in tiers {
                            var p = SharingPolicy.seed
                            p[.enRoute].distanceFilter = filter
                            p[.enRoute].delivery = delivery
                            p[.enRoute].accuracyGate = gate
                            p[.enRoute].tier = tier
                            p[.inTask].distanceFilter = filter * 2
                            all.append(p)
                        }
                    }
                }
            }
            return all
        }
    }

    static let sidecars = LoadedTripTests.sidecars

    @Test("equal keys, equal replays; the recording replay is the plain one", arguments: sidecars, Setting.allCases)
    func equalKeysEqualReplays(sidecar: String, setting: Setting) throws {
        var options = setting.options
        options.viewerFigures = true
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: options))
        let (recorded, schedule) = try Replay.runRecordingDecisions(trip, options: options)
        #expect(recorded == (try Replay.run(trip, options: options)))
        #expect(schedule.offered > 0)
        var groups: [DecisionKey: ReplayResult] = [:]
        var shared = 0
        for policy in setting.policies {
            var o = options
            o.policy = policy
            let key = try #require(schedule.key(under: policy))
            let result = try Replay.run(trip, options: o)
            if let same = groups[key] {
                shared += 1
                // The whole result, but for each state's tier: the row's label, which a state the
                // trip never entered may change without a decision (the key holds each phone's
                // tier at each state change).
                var labelled = result
                for i in labelled.states.indices { labelled.states[i].tier = same.states[i].tier }
                #expect(labelled == same, "\(sidecar) \(setting)")
            } else {
                groups[key] = result
            }
        }
        // The grid has fewer distinct decisions than policies on every bundled trip, and on each
        // demo trip (all of whose states are entered) more than one (a real recording may never
        // reach En Route or In Task).
        #expect(shared > 0, "\(sidecar) \(setting): no two policies shared their decisions")
        if sidecar.hasPrefix("trips/") { #expect(groups.count > 1, "\(sidecar) \(setting): every policy made the same decisions") }
    }

    @Test("a policy that changes more than the phones' settings, or turns a tier off, has no key")
    func outsideTheKey() throws {
        let sidecar = try #require(Self.sidecars.first { $0.contains("ride") })
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: ReplayOptions()))
        let (_, schedule) = try Replay.runRecordingDecisions(trip, options: ReplayOptions())
        var renamed = SharingPolicy.seed
        renamed.name = "another"
        #expect(schedule.key(under: renamed) == schedule.key(under: .seed))
        var framed = SharingPolicy.seed
        framed[.enRoute].frame += 100
        #expect(schedule.key(under: framed) == nil)
        var off = SharingPolicy.seed
        off[.enRoute].tier = .off
        #expect(schedule.key(under: off) == nil)
        let dark = try #require(FulfilmentState.allCases.first { SharingPolicy.seed[$0].tier == .off })
        var on = SharingPolicy.seed
        on[dark].tier = .best
        #expect(schedule.key(under: on) == nil)
        var unseen = SharingPolicy.seed
        unseen[.enRoute].hirerAnnotations = []
        #expect(schedule.key(under: unseen) == nil)
    }
}
