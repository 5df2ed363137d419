import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceReplay
import TraceSharing

import TraceBatch
@testable import TraceTune

/// Hand-built trips for the tune: a dog walk (not a ride: the hirer is shown the helper, the
/// helper nothing) on which every figure follows from how it was built.
enum WalkTrip {
    /// The helper's pace: 1.4 m due north every second (a fix a second on the dense walk).
    static let step = 1.4
    /// The timeline, seconds from 08:00:00Z: Finding Villager, Accepted at 60, En Route at 120,
    /// At Pickup at 700, In Task at 1,000, Awaiting Payment at 1,400, Completed at 1,450.
    static let timeline: [(FulfilmentState, Int)] = [
        (.findingVillager, 0), (.accepted, 60), (.enRoute, 120), (.atPickup, 700), (.inTask, 1000), (.awaitingPayment, 1400),
        (.completed, 1450),
    ]
    static let origin = (lat: 47.0, lon: 8.0)

    /// The point `north` metres north of the origin (along a meridian: the haversine distance
    /// between two such points is the difference of their `north`).
    static func point(north: Double) -> (lat: Double, lon: Double) {
        (origin.lat + north / 6_371_008.8 * 180 / .pi, origin.lon)
    }

    static func time(_ t: Int) -> String {
        String(format: "2024-05-01T08:%02d:%02dZ", t / 60, t % 60)
    }

    static func gpx(_ points: [(t: Int, lat: Double, lon: Double)]) -> String {
        var s =
            #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
        for p in points {
            s +=
                "<trkpt lat=\"\(String(format: "%.10f", p.lat))\" lon=\"\(String(format: "%.10f", p.lon))\"><time>\(time(p.t))</time></trkpt>\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// The walk as a sidecar and two traces in a folder of its own: the helper walks north at
    /// ``step`` m/s with a fix every `every` seconds from 0 to 1,499 s; the hirer stands 20 m east
    /// of the pickup (the point the helper passes at 600 s, in En Route) with a fix every 10 s.
    static func write(_ name: String, every: Int) throws -> BatchTrip {
        let dir = scratchFolder.appendingPathComponent("walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let helper = stride(from: 0, to: 1500, by: every).map { t in
            let p = point(north: step * Double(t))
            return (t, p.lat, p.lon)
        }
        let pickup = point(north: step * 600)
        let hirer = stride(from: 0, to: 1500, by: 10).map {
            ($0, pickup.lat, pickup.lon + 20 / (6_371_008.8 * cos(pickup.lat * .pi / 180)) * 180 / .pi)
        }
        try gpx(helper).write(to: dir.appendingPathComponent("helper.gpx"), atomically: true, encoding: .utf8)
        try gpx(hirer).write(to: dir.appendingPathComponent("hirer.gpx"), atomically: true, encoding: .utf8)
        let entries = timeline.map { #"{"state": "\#($0.0.key)", "at": "\#(time($0.1))"}"# }.joined(separator: ", ")
        let sidecar = """
            {"schema": "tracekit-scenario/1", "category": "dog walking", "pickupHandedOff": false,
             "pickup": {"lat": \(pickup.lat), "lon": \(pickup.lon)}, "dropoff": {"lat": \(pickup.lat), "lon": \(pickup.lon)},
             "traces": {"helper": "helper.gpx", "hirer": "hirer.gpx"}, "timeline": [\(entries)]}
            """
        let path = dir.appendingPathComponent("\(name).scenario.json")
        try sidecar.write(to: path, atomically: true, encoding: .utf8)
        return BatchTrip(id: "\(name).scenario.json", path: path.path, kind: .sidecar)
    }

    /// Under the ideal network (the hirer's view sampled at each of the helper's fixes, each
    /// update shown at once) and a distance filter of `filter` m on the dense walk: the filter
    /// passes every k-th fix, k = ⌈filter / step⌉ (the first at least `filter` from the last one
    /// passed), so the hirer's view is at most (k − 1) steps and (k − 1) seconds behind.
    static func largestError(filter: Double) -> Double { (ceil(filter / step) - 1) * step }
    static func largestStaleness(filter: Double) -> Double { ceil(filter / step) - 1 }
}

/// ``TuneRequest/keep``, ``TuneRequest/released`` and ``TuneRequest/skipsInfeasibleTrips``: the
/// figures no requirement names kept near the start's, given up when released, and the trips no
/// candidate can meet a requirement on named and left out.
@Suite("tune: what it keeps, what it leaves out")
struct TunerKeepTests {
    /// Only At Pickup is tuned: a 13 m filter (the seed's), 30 m or 100 m.
    static let pickupSpace = TuneSpace(states: [
        (.atPickup, TuneSpace.Axes(distanceFilters: [13, 30, 100], deliveries: [.coreLocation], accuracyGates: [nil]))
    ])

    /// The dense walk under the ideal network, asked only for a loose En Route figure: nothing
    /// any candidate does in At Pickup is asked about.
    static func pickupRequest() throws -> TuneRequest {
        var options = ReplayOptions()
        options.network = .ideal
        return TuneRequest(
            trips: [try WalkTrip.write("walk", every: 1)], options: options,
            requirements: [try Requirement(parsing: "enRoute.hirer.displayErrorP95<=1000m")], space: pickupSpace, jobs: 2)
    }

    /// The kept figure `head` (e.g. `atPickup.hirer.displayErrorMax`): its index among the
    /// outcome's requirements, and the figure.
    static func kept(_ outcome: TuneOutcome, _ head: String) throws -> (index: Int, figure: KeptFigure) {
        let k = try #require(outcome.kept.firstIndex { $0.requirement.text.hasPrefix(head + "<=") }, "\(head) is not kept")
        return (outcome.request.requirements.count + k, outcome.kept[k])
    }

    /// At Pickup's view of the helper under the outcome's chosen policy, on its one trip: the
    /// largest error and staleness.
    static func pickupView(_ outcome: TuneOutcome) throws -> (displayErrorMaxMetres: Double, stalenessMaxSeconds: Double) {
        let view = try #require(
            outcome.chosenResults[0].viewerViews.first { $0.state == .atPickup && $0.viewer == .hirer && $0.sender == .helper }
        ).view
        return (try #require(view.displayErrorMaxMetres), try #require(view.stalenessMaxSeconds))
    }

    @Test("a search that would relax At Pickup keeps it within the tolerance of the start's by default; the kept figure binds")
    func keptByDefault() throws {
        // Without keeping (the old search), nothing asked about At Pickup: the cheapest row, 100 m.
        var loose = try Self.pickupRequest()
        loose.keep = nil
        let relaxed = try Tuner.run(loose)
        #expect(relaxed.kept.isEmpty)
        #expect(relaxed.chosen[.atPickup].distanceFilter == 100)
        #expect(abs(try Self.pickupView(relaxed).displayErrorMaxMetres - WalkTrip.largestError(filter: 100)) < 0.05)

        let outcome = try Tuner.run(try Self.pickupRequest())
        #expect(outcome.feasible)
        #expect(outcome.chosen[.atPickup].distanceFilter == 13)
        // The start's largest error at the pickup, 12.6 m, may reach max(12.6 × 1.1, 12.6 + 2) = 14.6 m.
        let start = WalkTrip.largestError(filter: 13)
        let (i, figure) = try Self.kept(outcome, "atPickup.hirer.displayErrorMax")
        #expect(abs(figure.start - start) < 0.05)
        #expect(figure.requirement.tripBounds == [KeepTolerance.standard.allowed(figure.start, .displayErrorMax)])
        #expect(abs(figure.requirement.bound - (start + 2)) < 0.06)
        let tuned = try #require(outcome.chosenEvaluation.values[i])
        #expect(tuned.value <= figure.requirement.bound(trip: tuned.trip))
        #expect(try Self.pickupView(outcome).displayErrorMaxMetres <= start + 2)
        // 30 m would show the helper 29.4 m off and 21 s late: the error and the staleness refuse it together.
        #expect(outcome.bindings[i].binds || outcome.bindings[i].bindsJointly)
        let (s, _) = try Self.kept(outcome, "atPickup.hirer.stalenessMax")
        #expect(outcome.bindings[s].binds || outcome.bindings[s].bindsJointly)
        // What En Route shows is kept too (not tuned here, so not binding); the figure a
        // requirement names is not.
        #expect(outcome.kept.contains { $0.requirement.text.hasPrefix("enRoute.hirer.displayErrorMax<=") })
        #expect(!outcome.kept.contains { $0.requirement.text.hasPrefix("enRoute.hirer.displayErrorP95<=") })
        // The helper is shown nothing (a dog walk): no figure of its view.
        #expect(!outcome.kept.contains { $0.requirement.role == .helper })

        // With the error alone kept, it alone refuses the cheaper At Pickup rows.
        var one = try Self.pickupRequest()
        one.released = try [
            "atPickup.hirer.displayErrorP95", "atPickup.hirer.stalenessP95", "atPickup.hirer.stalenessMax", "enRoute", "arrival",
        ]
        .map { try KeepRelease(parsing: $0) }
        let alone = try Tuner.run(one)
        #expect(alone.kept.count == 1)
        let (a, _) = try Self.kept(alone, "atPickup.hirer.displayErrorMax")
        #expect(alone.bindings[a].binds && alone.bindings[a].cheaperState == .atPickup)
        #expect(alone.chosen[.atPickup].distanceFilter == 13)
    }

    @Test("the same search with At Pickup released relaxes it; a wider tolerance allows the 30 m row")
    func released() throws {
        var request = try Self.pickupRequest()
        request.released = [try KeepRelease(parsing: "atPickup")]
        let outcome = try Tuner.run(request)
        #expect(outcome.feasible)
        #expect(outcome.chosen[.atPickup].distanceFilter == 100)
        #expect(abs(try Self.pickupView(outcome).displayErrorMaxMetres - WalkTrip.largestError(filter: 100)) < 0.05)
        #expect(!outcome.kept.contains { $0.requirement.state == .atPickup })
        #expect(outcome.kept.contains { $0.requirement.state == .enRoute })

        // Releasing the error alone: the staleness still keeps the 13 m row.
        var error = try Self.pickupRequest()
        error.released = try ["atPickup.hirer.displayErrorP95", "atPickup.hirer.displayErrorMax"].map { try KeepRelease(parsing: $0) }
        #expect(try Tuner.run(error).chosen[.atPickup].distanceFilter == 13)

        // Worse by 150 %: the 30 m row's 29.4 m and 21 s are within 2.5 × 12.6 m and 2.5 × 9 s; 100 m's are not.
        var wide = try Self.pickupRequest()
        wide.keep = KeepTolerance(relative: 1.5, metres: 2, seconds: 2)
        let widened = try Tuner.run(wide)
        #expect(WalkTrip.largestError(filter: 30) <= 2.5 * WalkTrip.largestError(filter: 13))
        #expect(WalkTrip.largestStaleness(filter: 30) <= 2.5 * WalkTrip.largestStaleness(filter: 13))
        #expect(widened.chosen[.atPickup].distanceFilter == 30)
        #expect(abs(try Self.pickupView(widened).stalenessMaxSeconds - WalkTrip.largestStaleness(filter: 30)) < 0.05)
    }

    /// The dense walk and the same walk with a fix every 120 s, under the realistic network
    /// (the views sampled every second), asked for the hirer to see the helper within 40 m on the
    /// way: En Route (and At Pickup) tuned.
    static func sparseRequest() throws -> TuneRequest {
        TuneRequest(
            trips: [try WalkTrip.write("dense", every: 1), try WalkTrip.write("sparse", every: 120)], options: ReplayOptions(),
            requirements: [try Requirement(parsing: "enRoute.hirer.displayErrorP95<=40m")],
            space: TuneSpace(states: [
                (.enRoute, TuneSpace.Axes(distanceFilters: [10, 30, 100], deliveries: [.coreLocation], accuracyGates: [nil])),
                (.atPickup, TuneSpace.Axes(distanceFilters: [13, 100], deliveries: [.coreLocation], accuracyGates: [nil])),
            ]), jobs: 2)
    }

    @Test("a trip no candidate can meet a requirement on is named, with the best reached and its fixes' gaps; left out with the option")
    func infeasibleTrips() throws {
        let outcome = try Tuner.run(try Self.sparseRequest())
        #expect(!outcome.feasible)
        // The sparse walk's fixes are 168 m apart: the hirer's view falls that far behind between them.
        let t = try #require(outcome.infeasibleTrips.first)
        #expect(outcome.infeasibleTrips.count == 1)
        #expect(t.trip == "sparse.scenario.json" && t.requirement == 0 && !t.leftOut)
        #expect(t.best > 40 && t.best == outcome.bestReached[0])
        // En Route, 120 s to 700 s: the fixes at 120, 240, 360, 480 and 600 s.
        #expect(t.fixGaps == FixGaps(senders: [.helper], fixes: 5, medianSeconds: 120, largestSeconds: 120))
        #expect(outcome.leftOut.isEmpty && outcome.request.trips.count == 2)
        // Kept figures are each trip's own: the sparse walk's far worse views loosen nothing on the dense one.
        let (i, figure) = try Self.kept(outcome, "atPickup.hirer.displayErrorMax")
        let bounds = try #require(figure.requirement.tripBounds)
        #expect(bounds[0] < 20 && bounds[1] > 100)
        #expect(outcome.chosenEvaluation.excess[i] == 0)

        var request = try Self.sparseRequest()
        request.skipsInfeasibleTrips = true
        let skipped = try Tuner.run(request)
        #expect(skipped.feasible)
        #expect(skipped.leftOut == ["sparse.scenario.json"])
        #expect(skipped.infeasibleTrips.count == 1 && skipped.infeasibleTrips[0].leftOut)
        #expect(skipped.infeasibleTrips[0].best == t.best && skipped.infeasibleTrips[0].fixGaps == t.fixGaps)
        #expect(skipped.request.trips.map(\.id) == ["dense.scenario.json"])
        #expect(skipped.startResults.count == 1 && skipped.chosenResults.count == 1)
        let met = try #require(skipped.chosenEvaluation.values[0])
        #expect(met.value <= 40 && met.trip == 0)
        // The dense walk alone, tuned from scratch, gives the same answer.
        var alone = try Self.sparseRequest()
        alone.trips = [request.trips[0]]
        let fresh = try Tuner.run(alone)
        #expect(fresh.chosen == skipped.chosen && fresh.chosenEvaluation == skipped.chosenEvaluation && fresh.kept == skipped.kept)
        #expect(fresh.infeasibleTrips.isEmpty)

        // Pooled, a trip is not judged alone: none is named.
        var pooled = try Self.sparseRequest()
        pooled.judgement = .pooled
        pooled.skipsInfeasibleTrips = true
        let pool = try Tuner.run(pooled)
        #expect(pool.infeasibleTrips.isEmpty && pool.request.trips.count == 2)
    }

    @Test("when every trip is infeasible, none is left out")
    func everyTripInfeasible() throws {
        var request = try Self.sparseRequest()
        request.trips.removeFirst()
        request.skipsInfeasibleTrips = true
        let outcome = try Tuner.run(request)
        #expect(!outcome.feasible && outcome.infeasibleTrips.count == 1 && outcome.leftOut.isEmpty)
        #expect(outcome.request.trips.count == 1)
    }
}

@Suite("tune: the kept figures' tolerance and releases")
struct KeepSyntaxTests {
    @Test("the tolerance: max(start × (1 + relative), start + absolute), rounded up to a tenth")
    func allowed() {
        let t = KeepTolerance.standard
        #expect(t.allowed(26.6, .displayErrorP95) == 29.3)  // 29.26
        #expect(t.allowed(12.6, .displayErrorMax) == 14.6)  // 13.86 < 14.6
        #expect(t.allowed(0, .stalenessP95) == 2)
        #expect(t.allowed(100, .stalenessMax) == 110)
        #expect(t.allowed(5.7, .arrivalDelay) == 7.7)
        #expect(KeepTolerance(relative: 0, metres: 0, seconds: 0).allowed(12.34, .displayErrorP95) == 12.4)
        #expect(t.description == "10%,2m,2s")
    }

    @Test("the tolerance as written: parts in any order, each optional")
    func parses() throws {
        #expect(try KeepTolerance(parsing: "10%,2m,2s") == .standard)
        #expect(try KeepTolerance(parsing: "5%") == KeepTolerance(relative: 0.05, metres: 2, seconds: 2))
        #expect(try KeepTolerance(parsing: "1min, 0.5km") == KeepTolerance(relative: 0.1, metres: 500, seconds: 60))
        #expect(try KeepTolerance(parsing: "0%,0m,0s") == KeepTolerance(relative: 0, metres: 0, seconds: 0))
        for (text, message) in [
            ("10", "expected % (worse"), ("10%,20%", "given twice"), ("2x", "unit 'x'"), ("", "expected a number"), ("2000%", "too large"),
        ] {
            #expect(throws: RequirementError.self) { try KeepTolerance(parsing: text) }
            do { _ = try KeepTolerance(parsing: text) } catch {
                #expect(error.description.hasPrefix("tolerance '\(text)'") && error.message.contains(message), "\(error)")
            }
        }
    }

    @Test("a release: all, a state, a view, a figure, arrivals; what it covers")
    func releases() throws {
        func r(_ s: String) throws -> Requirement { try Requirement(parsing: s) }
        let figure = try r("atPickup.hirer.displayErrorP95<=1m")
        #expect(try KeepRelease(parsing: "all").covers(figure))
        #expect(try KeepRelease(parsing: "atPickup").covers(figure))
        #expect(try KeepRelease(parsing: "atPickup.hirer").covers(figure))
        #expect(try KeepRelease(parsing: "atPickup.hirer.displayErrorP95").covers(figure))
        #expect(try !KeepRelease(parsing: "atPickup.hirer.displayErrorMax").covers(figure))
        #expect(try !KeepRelease(parsing: "atPickup.delegate").covers(figure))
        #expect(try !KeepRelease(parsing: "enRoute").covers(figure))
        #expect(try !KeepRelease(parsing: "arrival").covers(figure))
        #expect(try KeepRelease(parsing: "arrival").covers(r("arrival.dropoff.delegate<=1s")))
        #expect(try KeepRelease(parsing: "arrival.pickup").covers(r("arrival.pickup.hirer<=1s")))
        #expect(try !KeepRelease(parsing: "arrival.pickup").covers(r("arrival.dropoff.hirer<=1s")))
        #expect(try !KeepRelease(parsing: "arrival.pickup.delegate").covers(r("arrival.pickup.hirer<=1s")))
        #expect(try !KeepRelease(parsing: "atPickup").covers(r("arrival.pickup.hirer<=1s")))
        for (text, message) in [
            ("trip.hirer", "kept per state"), ("atPickup.hirer.sentPerMinute", "not a kept figure"),
            ("arrival.pickup.helper", "hirer or the delegate"),
            ("onTheWay", "unknown scope"), ("atPickup.driver", "unknown viewer"), ("arrival.office", "unknown arrival"),
            ("atPickup.hirer.displayErrorP95.x", "expected STATE"), ("all.hirer", "unknown scope"),
        ] {
            do {
                _ = try KeepRelease(parsing: text)
                Issue.record("'\(text)' was accepted")
            } catch {
                #expect(error.description.hasPrefix("release '\(text)'") && error.message.contains(message), "\(error)")
            }
        }
    }

    @Test("the figures kept: every view figure and arrival the start has, but those a requirement names or a release covers")
    func derived() throws {
        var options = ReplayOptions()
        options.viewerFigures = true
        options.network = .ideal
        let result = try WalkTrip.write("walk", every: 1).replay(options: options)
        func heads(_ requirements: [String], _ released: [String] = []) throws -> [String] {
            KeptFigure.derive(
                requirements: try requirements.map { try Requirement(parsing: $0) }, tolerance: .standard,
                released: try released.map { try KeepRelease(parsing: $0) }, results: [result], judgement: .everyTrip
            ).map { String($0.requirement.text.prefix { $0 != "<" }) }
        }
        let views = ["displayErrorP95", "displayErrorMax", "stalenessP95", "stalenessMax"]
        // A dog walk: the hirer sees the helper on the way and at the pickup, and the arrival there.
        let all = views.map { "enRoute.hirer.\($0)" } + views.map { "atPickup.hirer.\($0)" } + ["arrival.pickup.hirer"]
        #expect(try heads([]) == all)
        #expect(try heads(["atPickup.hirer.displayErrorP95>=1m"]) == all.filter { $0 != "atPickup.hirer.displayErrorP95" })
        // A requirement over the trip names the figure in every state.
        #expect(try heads(["trip.hirer.stalenessMax<=60min"]) == all.filter { !$0.hasSuffix("stalenessMax") })
        #expect(try heads(["arrival.pickup.hirer<=5s"], ["enRoute"]) == views.map { "atPickup.hirer.\($0)" })
        #expect(try heads([], ["all"]).isEmpty)
        // Judged trip by trip: each trip's own bound; pooled: one bound, but for an arrival, which
        // is judged trip by trip either way.
        let every = KeptFigure.derive(
            requirements: [], tolerance: .standard, released: [], results: [result, result], judgement: .everyTrip)
        #expect(every.count == all.count && every.allSatisfy { $0.requirement.tripBounds?.count == 2 && $0.tripStarts?.count == 2 })
        let pooled = KeptFigure.derive(requirements: [], tolerance: .standard, released: [], results: [result, result], judgement: .pooled)
        #expect(pooled.count == all.count)
        #expect(pooled.allSatisfy { ($0.requirement.tripBounds == nil) == ($0.requirement.figure != .arrivalDelay) })
    }
}
