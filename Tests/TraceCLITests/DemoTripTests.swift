import Foundation
import TestSupport
import Testing

/// A JSON member of the expected type, or an error naming it.
private struct Missing: Error { var what: String }
private func value<T>(_ x: Any?, _ what: String = "a member") throws -> T {
    guard let v = x as? T else { throw Missing(what: what) }
    return v
}

/// The demo trips of Traces/trips replayed by the built binary, checked against the oracle of
/// `ReplayOracleTests.swift` (which owes nothing to the product): the trips read without TraceKit
/// (the sidecar by Foundation's JSON parser, each GPX point by a pattern), every figure per state
/// and role, each phone's whole estimate and the arrivals derived from the user's document, the
/// seed's filters, Vincenty's distances and the battery model's constants.
@Suite("tracekit replay on the demo trips: every figure against the independent oracle")
struct DemoTripTests {
    static func replay(_ sidecar: String) throws -> [String: Any] {
        // The oracle computes the ideal view (instant, lossless, sampled at the sender's fixes).
        let r = try Run(["replay", "--network", "ideal", "--scenario", sidecar, "--format", "json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        return try value(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), "the replay JSON")
    }

    static let trips = ["ride", "dog-walk", "third-party-pickup"]

    @Test("every figure per state and role, each phone's estimate, the arrivals: the binary equals the oracle", arguments: trips)
    func trip(name: String) throws {
        let sidecar = "Traces/trips/\(name)/\(name).scenario.json"
        let trip = try OracleTrip.load(sidecar: sidecar)
        // The pattern read every point of every file.
        for (role, fixes) in trip.traces {
            let file = packageRoot.appendingPathComponent("Traces/trips/\(name)/\(role.key).gpx")
            let points = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
            #expect(fixes.count == points && points > 100, "\(name) \(role.key): \(fixes.count) of \(points) points read")
        }
        let oracle = OracleReplay(trip)
        let doc = try Self.replay(sidecar)
        try ReplayOracleTests.checkStates(trip, oracle, doc)
        try ReplayOracleTests.checkPhones(trip, oracle, doc)
        try ReplayOracleTests.checkArrivals(trip, oracle, doc)
        // Not trivial: every trip forwards the helper's position to the hirer.
        #expect(oracle.total(.helper).forwarded[OracleRole.hirer.rawValue] > 10)
    }

    @Test("the dog walk (not a ride) never forwards the hirer's location, and the hirer's phone never requests it")
    func dogWalk() throws {
        let doc = try Self.replay("Traces/trips/dog-walk/dog-walk.scenario.json")
        let hirer = try #require((doc["totals"] as? [[String: Any]])?.first { $0["role"] as? String == "hirer" })
        #expect(hirer["rawFixes"] as? Int == 293)
        #expect(hirer["deliveredFixes"] as? Int == 0 && hirer["sentUpdates"] as? Int == 0)
        #expect((hirer["forwarded"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
        #expect((hirer["energyJoules"] as? [String: Double])?["location"] == 0)
        // The helper's own totals: nothing forwarded to the helper from anyone.
        for t in try value(doc["totals"], "totals") as [[String: Any]] {
            #expect((t["forwarded"] as? [String: Int])?["helper"] == 0)
        }
    }

    @Test(
        "the third-party pickup (handed off from the start) forwards the helper's position to the delegate as to the hirer, and the delegate's and hirer's own positions to no one"
    )
    func thirdParty() throws {
        let doc = try Self.replay("Traces/trips/third-party-pickup/third-party-pickup.scenario.json")
        let totals: [[String: Any]] = try value(doc["totals"], "totals")
        let helper = try #require(totals.first { $0["role"] as? String == "helper" })
        let forwarded = try #require(helper["forwarded"] as? [String: Int])
        #expect(forwarded["delegate"]! > 0 && forwarded["delegate"] == forwarded["hirer"])
        for role in ["hirer", "delegate"] {
            let m = try #require(totals.first { $0["role"] as? String == role })
            #expect(m["sentUpdates"] as? Int == 0, "\(role)")
        }
        // Only in En Route and At Pickup (In Task shows the hirer's map no helper position).
        for st in try value(doc["states"], "states") as [[String: Any]] {
            let h = try #require((st["roles"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" })
            let toDelegate = (h["forwarded"] as? [String: Int])?["delegate"] ?? -1
            if !["enRoute", "atPickup"].contains(st["state"] as? String) { #expect(toDelegate == 0) }
        }
    }
}
