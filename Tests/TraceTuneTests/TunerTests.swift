import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceJSON
import TraceReplay
import TraceSharing

import TraceBatch
@testable import TraceTune

/// ``Tuner``: the search against an exhaustive one, binding and infeasible requirements, the
/// same answer on any number of jobs, and the chosen policy's figures reproduced by a replay.
@Suite("tune: the search")
struct TunerTests {
    static func trip(_ name: String) -> BatchTrip {
        BatchTrip(
            id: "trips/\(name)/\(name).scenario.json",
            path: packageRoot.appendingPathComponent("Traces/trips/\(name)/\(name).scenario.json").path, kind: .sidecar)
    }
    static let trips = [trip("ride"), trip("dog-walk")]

    /// En Route: 3 filters × 2 delivery models; At Pickup: 3 filters; 18 policies in all, the
    /// seed's rows among them.
    static let space = TuneSpace(states: [
        (
            .enRoute,
            TuneSpace.Axes(
                distanceFilters: [10, 30, 75], deliveries: [.coreLocation, .distanceOrTime(interval: 30)], accuracyGates: [nil])
        ),
        (.atPickup, TuneSpace.Axes(distanceFilters: [5, 13, 50], deliveries: [.coreLocation], accuracyGates: [nil])),
    ])

    static func request(_ requirements: [String], jobs: Int = 2, judgement: CorpusJudgement = .everyTrip) throws -> TuneRequest {
        TuneRequest(
            trips: trips, options: ReplayOptions(), requirements: try requirements.map { try Requirement(parsing: $0) },
            judgement: judgement, space: space, jobs: jobs)
    }

    static let requirements = ["enRoute.hirer.displayErrorP95<=30m", "atPickup.hirer.stalenessP95<=120s"]

    @Test("on a small space, the exhaustive search picks the policy tune picks", arguments: [CorpusJudgement.everyTrip, .pooled])
    func exhaustive(judgement: CorpusJudgement) throws {
        let request = try Self.request(Self.requirements, judgement: judgement)
        let outcome = try Tuner.run(request)
        // Every combination, each trip replayed from its files (not the tuner's loaded trips).
        var best: (policy: SharingPolicy, key: (Double, Int, Int))?
        var options = ReplayOptions()
        options.viewerFigures = true
        for a in Self.space.states[0].axes.distanceFilters {
            for d in Self.space.states[0].axes.deliveries {
                for b in Self.space.states[1].axes.distanceFilters {
                    var p = SharingPolicy.seed
                    p[.enRoute].distanceFilter = a
                    p[.enRoute].delivery = d
                    p[.atPickup].distanceFilter = b
                    options.policy = p
                    let results = try Self.trips.map { try $0.replay(options: options) }
                    let feasible = request.requirements.allSatisfy { r in
                        guard let v = r.corpusValue(results.map { r.sample($0) }, judgement: judgement) else { return true }
                        return r.comparison.holds(v.value, r.bound)
                    }
                    guard feasible else { continue }
                    let objective = results.reduce(0) { $0 + TuneObjective.energy.value($1) }
                    let sent = results.reduce(0) { $0 + $1.roleTotals.reduce(0) { $0 + $1.sentUpdates } }
                    let changes = (a != 30 ? 1 : 0) + (d != .coreLocation ? 1 : 0) + (b != 13 ? 1 : 0)
                    let key = (objective, sent, changes)
                    if best.map({ key < $0.key }) ?? true { best = (p, key) }
                }
            }
        }
        let exhaustive = try #require(best)
        #expect(outcome.feasible)
        for s in FulfilmentState.allCases { #expect(outcome.chosen[s] == exhaustive.policy[s], "\(s)") }
        #expect(outcome.chosenEvaluation.objective == exhaustive.key.0)
        #expect(outcome.candidates <= 18)
    }

    @Test("an objective tie goes to the candidate that sends fewer updates: the exhaustive search over a tied objective agrees")
    func tieOnSent() throws {
        // The hirer's phone on a dog walk (not a ride: the hirer's location is shown to no one),
        // its radio not charged for what it receives: it spends nothing under every row, while the
        // helper's updates differ from row to row.
        var options = ReplayOptions()
        options.receiverRadio = false
        options.network = .ideal
        let space = TuneSpace(states: [
            (.enRoute, TuneSpace.Axes(distanceFilters: [10, 30, 100], deliveries: [.coreLocation], accuracyGates: [nil])),
            (.atPickup, TuneSpace.Axes(distanceFilters: [5, 13, 50], deliveries: [.coreLocation], accuracyGates: [nil])),
        ])
        let trips = [try WalkTrip.write("walk", every: 1)]
        var request = TuneRequest(
            trips: trips, options: options, requirements: [try Requirement(parsing: "enRoute.hirer.displayErrorP95<=1000m")],
            objective: .energyOf(.hirer), space: space, jobs: 2)
        request.keep = nil
        let outcome = try Tuner.run(request)

        var all: [(policy: SharingPolicy, objective: Double, sent: Int, changes: Int)] = []
        options.viewerFigures = true
        for a in space.states[0].axes.distanceFilters {
            for b in space.states[1].axes.distanceFilters {
                var p = SharingPolicy.seed
                p[.enRoute].distanceFilter = a
                p[.atPickup].distanceFilter = b
                options.policy = p
                let results = try trips.map { try $0.replay(options: options) }
                all.append(
                    (
                        p, results.reduce(0) { $0 + TuneObjective.energyOf(.hirer).value($1) },
                        results.reduce(0) { $0 + $1.roleTotals.reduce(0) { $0 + $1.sentUpdates } },
                        (a != 30 ? 1 : 0) + (b != 13 ? 1 : 0)
                    ))
            }
        }
        // The objective ties: every candidate costs the hirer the same, and the updates sent differ.
        #expect(Set(all.map(\.objective)) == [0])
        #expect(Set(all.map(\.sent)).count > 2)
        let best = try #require(all.min { ($0.objective, $0.sent, $0.changes) < ($1.objective, $1.sent, $1.changes) })
        #expect(outcome.chosen[.enRoute] == best.policy[.enRoute] && outcome.chosen[.atPickup] == best.policy[.atPickup])
        #expect(outcome.chosenEvaluation.sent == best.sent)
        // The fewest: the widest filters; the seed's rows (fewer fields changed) send more.
        #expect(best.policy[.enRoute].distanceFilter == 100 && best.policy[.atPickup].distanceFilter == 50)
        #expect(outcome.chosenEvaluation.sent < outcome.startEvaluation.sent)
    }

    @Test("the tuned policy's figures are a full replay's: each trip replayed under it from its files gives the same result")
    func reproduced() throws {
        let outcome = try Tuner.run(try Self.request(Self.requirements))
        var options = ReplayOptions()
        options.policy = outcome.chosen
        options.viewerFigures = true
        for (i, trip) in Self.trips.enumerated() {
            let again = try trip.replay(options: options)
            #expect(again == outcome.chosenResults[i], "\(trip.id) differs")
        }
        #expect(outcome.chosenEvaluation.objective == outcome.chosenResults.reduce(0) { $0 + TuneObjective.energy.value($1) })
    }

    @Test("a requirement that decides the choice is reported as binding; a loose one is not")
    func binding() throws {
        let outcome = try Tuner.run(try Self.request(["enRoute.hirer.displayErrorP95<=30m", "arrival.pickup.hirer<=600s"]))
        #expect(outcome.bindings[0].binds)
        #expect(outcome.bindings[0].cheaperState == .enRoute)
        #expect(outcome.bindings[0].cheaperObjective! < outcome.chosenEvaluation.objective)
        #expect(!outcome.bindings[1].binds)
        // Without the binding requirement, the tuner takes the cheaper row it refused.
        let loose = try Tuner.run(try Self.request(["arrival.pickup.hirer<=600s"]))
        #expect(loose.chosenEvaluation.objective < outcome.chosenEvaluation.objective)
    }

    @Test("infeasible: the best any candidate reached, and the requirement missed")
    func infeasible() throws {
        let outcome = try Tuner.run(try Self.request(["enRoute.hirer.displayErrorP95<=1m", "atPickup.hirer.stalenessP95<=600s"]))
        #expect(!outcome.feasible)
        #expect(outcome.chosenEvaluation.violated == [0])
        let best = try #require(outcome.bestReached[0])
        #expect(best > 1)
        // The best reached is the least any candidate of the last sweeps shows.
        let least = outcome.sweeps.flatMap { $0.evaluations.compactMap { $0.values[0]?.value } }.min()!
        #expect(best <= least)
    }

    @Test("the same outcome on 1 and 2 jobs")
    func jobs() throws {
        let one = try Tuner.run(try Self.request(Self.requirements, jobs: 1))
        let two = try Tuner.run(try Self.request(Self.requirements, jobs: 2))
        #expect(one.chosen == two.chosen)
        #expect(one.chosenEvaluation == two.chosenEvaluation)
        #expect(one.chosenResults == two.chosenResults)
        #expect(one.sweeps.map(\.evaluations) == two.sweeps.map(\.evaluations))
        #expect(one.candidates == two.candidates && one.fixEvaluations == two.fixEvaluations)
        #expect(one.replays == two.replays && one.sharedEvaluations == two.sharedEvaluations && one.sharedEvaluations > 0)
    }

    /// The replay options and space of ``shared(setting:)``: the default phone, accuracy emulated
    /// with the tier tuned, and a dead-reckoning send rule.
    static func sharingRequest(_ setting: Int, shares: Bool) throws -> TuneRequest {
        var options = ReplayOptions()
        var space = TuneSpace(states: [
            (
                .enRoute,
                TuneSpace.Axes(
                    distanceFilters: [0, 10, 30, 75, 200], deliveries: [.coreLocation, .distanceOrTime(interval: 30)],
                    accuracyGates: [nil, AccuracyGate(maximumAccuracy: 20)])
            ),
            (.atPickup, TuneSpace.Axes(distanceFilters: [0, 13, 50], deliveries: [.coreLocation], accuracyGates: [nil])),
            (
                .inTask,
                TuneSpace.Axes(
                    distanceFilters: [0, 20, 100], deliveries: [.coreLocation, .androidFused(interval: 10, minUpdateInterval: nil)],
                    accuracyGates: [nil])
            ),
        ])
        switch setting {
        case 1:
            options.phone.accuracyEmulation = .white
            space.states[0].axes.tiers = [AccuracyTier.best, .nearestTenMeters, .hundredMeters]
        case 2: options.send = .deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30)
        default: break
        }
        var request = TuneRequest(
            trips: trips + [trip("third-party-pickup")], options: options,
            requirements: try ["enRoute.hirer.displayErrorP95<=40m", "inTask.hirer.stalenessP95<=60s"].map { try Requirement(parsing: $0) },
            space: space, jobs: 2)
        request.sharesReplays = shares
        request.samplesJudgedViewsOnly = shares
        return request
    }

    @Test(
        "replays shared by equal decisions, sampling only the judged views: every candidate's figures those of its own full replay",
        arguments: [0, 1, 2])
    func shared(setting: Int) throws {
        let full = try Tuner.run(try Self.sharingRequest(setting, shares: false))
        let shared = try Tuner.run(try Self.sharingRequest(setting, shares: true))
        #expect(full.sharedEvaluations == 0 && full.replays == full.evaluations + 2 * 3)
        #expect(shared.sharedEvaluations > 0 && shared.replays == shared.evaluations - shared.sharedEvaluations + 2 * 3)
        #expect(shared.evaluations == full.evaluations && shared.fixEvaluations == full.fixEvaluations)
        #expect(shared.sweeps.map(\.evaluations) == full.sweeps.map(\.evaluations))
        #expect(shared.sweeps.map(\.rows) == full.sweeps.map(\.rows))
        #expect(shared.chosen == full.chosen && shared.chosenEvaluation == full.chosenEvaluation)
        #expect(shared.chosenResults == full.chosenResults && shared.bestReached == full.bestReached)
    }

    @Test("the limit: the minimum over the viewer's senders' fixes in the state, never above the updates a bound-keeping policy sends")
    func limit() throws {
        let outcome = try Tuner.run(try Self.request(["enRoute.hirer.displayErrorMax<=80m"]))
        let limit = try #require(outcome.limits.first)
        #expect(limit.state == .enRoute && limit.tripsLeftOut == 0)
        // By hand: the fewest sends over each trip's recorded helper fixes in En Route.
        var minimum = 0
        for (t, result) in outcome.chosenResults.enumerated() {
            let trip = try #require(try Self.trips[t].load(options: ReplayOptions()))
            let from = try #require(result.scenario.timeline.first { $0.state == .enRoute }).time.nanoseconds
            let to = try #require(result.scenario.timeline.first { $0.state == .atPickup }).time.nanoseconds
            let fixes = trip.fixes(of: .helper)
            let inState = fixes.times.indices.filter { fixes.times[$0] >= from && fixes.times[$0] < to }.map { fixes.coordinates[$0] }
            minimum += UpdateLimit.fewestSends(inState, boundMetres: 80, exact: ReplayOptions().exact).count
        }
        #expect(limit.minimum == minimum && minimum > 0)
        #expect(limit.sent == outcome.chosenResults.reduce(0) { $0 + $1.states[FulfilmentState.enRoute.rawValue][.helper]!.sentUpdates })
        #expect(outcome.limits.count == 1)
        // Only upper bounds of a display error in a state have one.
        #expect(try Tuner.run(try Self.request(["enRoute.hirer.displayErrorMax>=1m"])).limits.isEmpty)
    }

    @Test("over the corpus's memory bound, trips are replayed from their files: the same outcome, no trip left out")
    func overTheBound() throws {
        let held = try Tuner.run(try Self.request(Self.requirements))
        var request = try Self.request(Self.requirements)
        request.memoryLimitCorpusBytes = 0
        let read = try Tuner.run(request)
        #expect(held.tripsInMemory == 2 && read.tripsInMemory == 0 && read.bytesInMemory == 0)
        #expect(read.chosen == held.chosen && read.chosenResults == held.chosenResults)
        #expect(read.sweeps.map(\.evaluations) == held.sweeps.map(\.evaluations))
        // The limit needs every trip's fixes in memory.
        #expect(read.limits.isEmpty)
    }

    @Test("a trip that cannot be read stops the tune, naming it")
    func unreadable() throws {
        var request = try Self.request(Self.requirements)
        request.trips.append(BatchTrip(id: "missing.gpx", path: "/nonexistent/missing.gpx", kind: .trace))
        #expect {
            _ = try Tuner.run(request)
        } throws: { error in
            (error as? TuneError)?.trip == "missing.gpx" && (error as? TuneError)?.error.category == .cannotOpen
        }
    }
}

@Suite("tune: the search space")
struct TuneSpaceTests {
    @Test("the default: every live state of the start, the tier only with emulation")
    func defaults() {
        let plain = TuneSpace.defaults(for: .seed, emulation: false)
        #expect(plain.states.map(\.state) == [.enRoute, .atPickup, .inTask])
        #expect(plain.states.allSatisfy { $0.axes.count == 132 && $0.axes.tiers.isEmpty })
        #expect(TuneSpace.defaults(for: .seed, emulation: true).states[0].axes.count == 660)
        // The start's row first, then no repeat.
        let rows = plain.candidates(.atPickup, start: SharingPolicy.seed[.atPickup], base: SharingPolicy.seed[.atPickup])
        #expect(rows[0] == SharingPolicy.seed[.atPickup] && Set(rows).count == rows.count && rows.count == 133)
        // Only the tuned fields change.
        #expect(rows.allSatisfy { $0.frame == SharingPolicy.seed[.atPickup].frame && $0.send == SharingPolicy.seed[.atPickup].send })
    }

    static func space(_ text: String, emulation: Bool = false) throws -> TuneSpace {
        try TuneSpace(fileBytes: Array(text.utf8), file: "space.json", policy: .seed, emulation: emulation)
    }

    @Test("a file narrows or widens the axes, per state too, and leaves a state alone with false")
    func file() throws {
        let s = try Self.space(
            #"{"format": "tracekit-tune-space", "version": 1, "distanceFilterMetres": [0, 25], "accuracyGate": [null, {"maximumMetres": 30, "withoutAccuracy": "drop"}], "states": {"enRoute": {"delivery": [{"model": "distanceOrTime", "intervalSeconds": 20}]}, "inTask": false}}"#
        )
        #expect(s.states.map(\.state) == [.enRoute, .atPickup])
        #expect(s.states[0].axes.deliveries == [.distanceOrTime(interval: 20)] && s.states[0].axes.distanceFilters == [0, 25])
        #expect(s.states[1].axes.deliveries.count == 6 && s.states[1].axes.accuracyGates.count == 2)
        #expect(s.states[1].axes.accuracyGates[1] == AccuracyGate(maximumAccuracy: 30, deliversWithoutAccuracy: false))
    }

    @Test(
        "a bad file names the line, the field and why",
        arguments: [
            (#"{"format": "tracekit-tune-space", "version": 1, "tier": ["best"]}"#, "tiers are tuned only with accuracy emulation on"),
            (
                #"{"format": "tracekit-tune-space", "version": 1, "states": {"accepted": {"distanceFilterMetres": [5]}}}"#,
                "location is off in Accepted"
            ),
            (#"{"format": "tracekit-tune-space", "version": 1, "distanceFilterMetres": []}"#, "empty"),
            (#"{"format": "tracekit-tune-space", "version": 1, "distanceFilterMetres": [-5]}"#, "distanceFilterMetres[0]"),
            (#"{"format": "tracekit-tune-space", "version": 1, "delivery": [{"model": "carrierPigeon"}]}"#, "unknown model"),
            (#"{"format": "tracekit-tune-space", "version": 1, "frames": [1]}"#, "unknown member"),
            (#"{"format": "tracekit-policy", "version": 1}"#, "expected \"tracekit-tune-space\""),
            (#"{"format": "tracekit-tune-space", "version": 2}"#, "expected 1"),
        ])
    func refuses(text: String, expected: String) {
        #expect {
            _ = try Self.space(text)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".hasPrefix("space.json:")
        }
    }

    @Test("with emulation, tiers from the file; never off")
    func tiers() throws {
        let s = try Self.space(#"{"format": "tracekit-tune-space", "version": 1, "tier": ["best", "hundredMeters"]}"#, emulation: true)
        #expect(s.states[0].axes.tiers == [.best, .hundredMeters])
        #expect(throws: (any Error).self) {
            try Self.space(#"{"format": "tracekit-tune-space", "version": 1, "tier": ["off"]}"#, emulation: true)
        }
    }
}
