import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TraceSharing

@testable import TraceReplay

/// ``DecisionSchedule``: policies with equal decision keys on a trip replay to equal results, and
/// a policy that differs beyond the phones' settings has no key.
@Suite("Replay: the phones' decisions found without a replay (DecisionSchedule)")
struct DecisionScheduleTests {
    /// The phone configurations, send rules and networks the key must hold under.
    enum Setting: String, CaseIterable, CustomStringConvertible {
        case plain, plainTiers, emulatedTiers, smoothed, deadReckoning, deadReckoningExtrapolated, deadReckoningPaired, idealNetwork
        var description: String { rawValue }

        var options: ReplayOptions {
            var o = ReplayOptions()
            switch self {
            case .plain, .plainTiers: break
            case .emulatedTiers: o.phone.accuracyEmulation = .white
            case .smoothed: o.phone.smoothing = .on(mode: .drive)
            // The rows' own send rules, below, under the last-position viewer chosen (without a
            // choice, a dead-reckoning row pairs with the extrapolating viewer: deadReckoningPaired,
            // whose start, the seed, sends every delivered fix and so draws the last position).
            case .deadReckoning: o.viewer = .last
            case .deadReckoningPaired: break
            case .deadReckoningExtrapolated: o.viewer = .extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds)
            case .idealNetwork: o.network = .ideal
            }
            return o
        }

        /// Candidate policies: En Route's and In Task's rows over a small grid (the tier too when
        /// accuracy is emulated; dead reckoning's threshold instead of the accuracy gate, so that
        /// policies deliver the same fixes and send different ones), so that several share their
        /// decisions and several do not.
        var policies: [SharingPolicy] {
            if self == .deadReckoning || self == .deadReckoningExtrapolated || self == .deadReckoningPaired {
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
        // (Under an extrapolating viewer the dead-reckoning grid's policies all send differently:
        // that setting is here for DecisionTraceTests, where the send rule's memory must match.)
        if setting != .deadReckoningExtrapolated && setting != .deadReckoningPaired {
            #expect(shared > 0, "\(sidecar) \(setting): no two policies shared their decisions")
        }
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

/// ``DecisionSchedule/key(under:near:)``: the key found from a base policy's trace, running the
/// phones only where a candidate can decide otherwise, is the whole pass's key, word for word.
@Suite("Replay: a candidate's decisions found from a base's trace (DecisionTrace)")
struct DecisionTraceTests {
    /// Single-state sweeps of every state the phones use, from two bases, and candidates that
    /// differ from the base in two states.
    static func candidates(near base: SharingPolicy, setting: DecisionScheduleTests.Setting) -> [SharingPolicy] {
        var all = setting.policies
        for state in FulfilmentState.allCases where base[state].tier != .off {
            for filter in [0.0, 25, 300] {
                for delivery in [DeliveryModel.coreLocation, .distanceOrTime(interval: 15), .androidFused(interval: 5, minUpdateInterval: nil)] {
                    var p = base
                    p[state].distanceFilter = filter
                    p[state].delivery = delivery
                    all.append(p)
                    if setting == .deadReckoning || setting == .deadReckoningExtrapolated {
                        p[state].send = .deadReckoning(thresholdMetres: filter == 0 ? nil : filter, heartbeatSeconds: 20)
                        all.append(p)
                    }
                }
            }
        }
        var two = base
        two[.enRoute].distanceFilter = 50
        two[.inTask].accuracyGate = AccuracyGate(maximumAccuracy: 15)
        all.append(two)
        return all
    }

    @Test("equal to the whole pass's key, word for word; the phones run over fewer offers", arguments: DecisionScheduleTests.sidecars, DecisionScheduleTests.Setting.allCases)
    func equalToTheWholePass(sidecar: String, setting: DecisionScheduleTests.Setting) throws {
        let options = setting.options
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: options))
        let (_, schedule) = try Replay.runRecordingDecisions(trip, options: options)
        var moved = SharingPolicy.seed
        moved[.enRoute].distanceFilter = 30
        moved[.inTask].delivery = .distanceOrTime(interval: 10)
        var bases = [SharingPolicy.seed, moved]
        if setting == .deadReckoning || setting == .deadReckoningExtrapolated {
            // Dead reckoning in every state: the send rule's memory decides after the swept state.
            var reckoning = SharingPolicy.seed
            for s in FulfilmentState.allCases { reckoning[s].send = .deadReckoning(thresholdMetres: 150, heartbeatSeconds: 90) }
            bases.append(reckoning)
        }
        var run = 0, whole = 0, joins = 0
        for base in bases {
            let trace = try #require(schedule.trace(under: base))
            #expect(trace.key == schedule.key(under: base))
            for policy in Self.candidates(near: base, setting: setting) {
                let found = try #require(schedule.keyAndOffersRun(under: policy, near: trace))
                #expect(found.key == schedule.key(under: policy), "\(sidecar) \(setting)")
                if let joined = found.joined {
                    // Joined only where the whole pass holds what the base's held: both phones and
                    // the send rule's memory, bit for bit.
                    let mine = try #require(schedule.trace(under: policy)).points[joined / DecisionSchedule.stride]
                    let theirs = trace.points[joined / DecisionSchedule.stride]
                    #expect(mine.offer == joined && theirs.offer == joined)
                    #expect(mine.sent.isIdentical(to: theirs.sent), "\(sidecar) \(setting): the send rule's memory differs at \(joined)")
                    #expect(mine.phones.indices.allSatisfy { mine.phones[$0].decidesAlike(theirs.phones[$0]) })
                    joins += 1
                }
                run += found.offers
                whole += schedule.offered
                if setting == .emulatedTiers || setting == .smoothed {
                    // No points kept: a whole pass, or none when no state the trip reaches differs.
                    #expect(found.offers == 0 || found.offers == schedule.offered)
                }
            }
        }
        var framed = SharingPolicy.seed
        framed[.enRoute].frame += 100
        #expect(schedule.key(under: framed, near: try #require(schedule.trace(under: .seed))) == nil)
        // The points are kept without emulation or smoothing; there the passes run over fewer
        // offers than whole passes on every trip that enters more than one state.
        if setting != .emulatedTiers && setting != .smoothed && schedule.changes.count > 2 {
            #expect(run < whole, "\(sidecar) \(setting): \(run) of \(whole) offers run")
            // Each demo trip's states are all entered: some candidate's pass joins the base's key.
            if sidecar.hasPrefix("trips/") { #expect(joins > 0, "\(sidecar) \(setting): no pass joined the base's key") }
        }
    }
}

extension DecisionTraceTests {
    @Test("the schedule's bytes bound counts a trace's kept points")
    func traceBytes() throws {
        let sidecar = try #require(DecisionScheduleTests.sidecars.first { $0.contains("ride") })
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: ReplayOptions()))
        let (_, schedule) = try Replay.runRecordingDecisions(trip, options: ReplayOptions())
        let trace = try #require(schedule.trace(under: .seed))
        #expect(trace.points.count == (schedule.offered + DecisionSchedule.stride - 1) / DecisionSchedule.stride)
        // The offers and the points (the state changes, a few a trip, are not in the bound).
        let held = schedule.offered * MemoryLayout<DecisionSchedule.Offer>.stride + trace.points.count * DecisionTrace.bytesPerPoint
        #expect(held <= DecisionSchedule.bytes(fixes: trip.fixes))
        #expect(trace.bytes >= trace.points.count * DecisionTrace.bytesPerPoint)
    }
}

extension DecisionTraceTests {
    /// One step of a pass, as the key's builder sees it.
    enum Step {
        case outcome(UInt64)
        case delivered(sent: Bool)
        case change(Role)

        static let somewhere = try! Coordinate(latitude: 1, longitude: 2)

        func add(to b: inout DecisionKey.Builder) {
            switch self {
            case .outcome(let code): b.outcome(code)
            case .delivered(let sent): b.delivered(sent: sent, coordinate: Self.somewhere, accuracy: 5)
            case .change(let role): b.change(role: role, tier: .best)
            }
        }
    }

    @Test("a builder resumed and joined at a point writes the whole pass's words (random passes, with and without positions)")
    func builderJoins() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            // SplitMix64: a fixed sequence, the same on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func steps(_ n: Int, positions: Bool) -> [Step] {
            (0..<n).map { _ in
                let r = next() % 16
                if r == 0 { return .change(.helper) }
                if positions { return r < 10 ? .outcome(0) : .delivered(sent: r.isMultiple(of: 2)) }
                return .outcome(r < 7 ? 0 : r < 12 ? 1 : 2)
            }
        }
        func build(_ s: [Step]) -> DecisionKey.Builder {
            var b = DecisionKey.Builder()
            for step in s { step.add(to: &b) }
            return b
        }
        for round in 0..<2000 {
            let positions = round.isMultiple(of: 2)
            // Two passes that differ before the point and agree after it.
            let before = steps(Int(next() % 20), positions: positions)
            let other = steps(Int(next() % 20), positions: positions)
            let after = steps(Int(next() % 20), positions: positions)
            let base = build(before + after)
            let (words, runPrefix) = build(before).position
            let point = DecisionTrace.Point(offer: 0, next: 0, words: words, runPrefix: runPrefix, phones: [], sent: SentMemory())
            // Resumed from the base's key, the builder is the base's at the point.
            var resumed = DecisionKey.Builder()
            resumed.resume(base.key, at: point)
            for step in after { step.add(to: &resumed) }
            #expect(resumed.key == base.key)
            // Joined, the candidate's builder gives its whole pass's words.
            var candidate = build(other)
            candidate.join(base.key, at: point)
            #expect(candidate.key == build(other + after).key, "round \(round)")
            #expect(candidate.key.hashValue == build(other + after).key.hashValue)
            // Keys are equal exactly when their words are (the fold decides nothing alone).
            #expect((candidate.key == base.key) == (candidate.key.words == base.key.words))
        }
    }

    @Test("keys differing in one word, or only in length, are unequal; equal words, equal keys and hashes")
    func keyEquality() {
        let words: [UInt64] = [1 << 62 | 5, 3 << 62 | 2, 2 << 62 | 1, 0 << 62 | 9]
        let key = DecisionKey(words: words)
        #expect(key == DecisionKey(words: Array(words)) && key.hashValue == DecisionKey(words: Array(words)).hashValue)
        for i in words.indices {
            var other = words
            other[i] ^= 1
            #expect(DecisionKey(words: other) != key)
        }
        #expect(DecisionKey(words: Array(words.dropLast())) != key)
        #expect(DecisionKey(words: words + [0]) != key)
        #expect(DecisionKey(words: []) == DecisionKey(words: []))
        #expect(Set((0..<1000).map { DecisionKey(words: [UInt64($0)]) }).count == 1000)
    }
}

extension DecisionTraceTests {
    @Test("a state touched only by a change after the last offer, the offers a multiple of the stride")
    func changeAfterTheLastOffer() throws {
        let sidecar = try #require(DecisionScheduleTests.sidecars.first { $0.contains("ride") })
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: ReplayOptions()))
        let (_, recorded) = try Replay.runRecordingDecisions(trip, options: ReplayOptions())
        // The schedule cut before its last state change (into Completed, location off: a row
        // whose filter may still differ), at a multiple of the stride, the change moved there:
        // that state's only touch is after the last offer.
        let c = try #require(recorded.changes.last { $0.at >= DecisionSchedule.stride })
        let end = c.at / DecisionSchedule.stride * DecisionSchedule.stride
        var schedule = recorded
        schedule.offers = Array(recorded.offers.prefix(end))
        schedule.changes = recorded.changes.filter { $0.at < end } + [c].map { var moved = $0; moved.at = end; return moved }
        #expect(!schedule.offers.contains { $0.state == c.action.state })
        let trace = try #require(schedule.trace(under: .seed))
        var policy = SharingPolicy.seed
        policy[c.action.state].distanceFilter += 7
        #expect(schedule.key(under: policy, near: trace) == schedule.key(under: policy))
    }
}
