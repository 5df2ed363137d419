import Foundation
import Testing
import TestSupport
import TraceGeodesy
import TraceIO
import TraceSharing

/// A JSON member of the expected type, or an error naming it.
private struct Missing: Error { var what: String }
private func value<T>(_ x: Any?, _ what: String = "a member") throws -> T {
    guard let v = x as? T else { throw Missing(what: what) }
    return v
}
private func some<T>(_ x: T?, _ what: String) throws -> T {
    guard let x else { throw Missing(what: what) }
    return x
}

/// The demo trips of Traces/trips replayed by the built binary, checked against figures this file
/// derives on its own from the GPX files (read with TraceIO), the sidecar's true timeline and the
/// rules of `spec/location-sharing.txt`, written out below without the engine's code: which map
/// shows whose live position in which state, Core Location's distance filter from the last
/// delivered fix, ENERGY.md's location powers and 50 mJ per delivered fix.
@Suite("tracekit replay on the demo trips: numbers derived independently")
struct DemoTripTests {
    // MARK: The spec's rules, as the document states them

    /// Whether `viewer`'s map shows the live position coming from `sender`'s phone in `state`.
    ///
    /// location-sharing.txt: En Route and At Pickup show the hirer (and the helper) "Helper
    /// Location, Hirer Location"; In Task shows the hirer "Hirer Location, Dropoff Point" and the
    /// helper "Helper Location, Pickup Point"; the other states set accuracy "None" and show no
    /// live position. Notes: the hirer's location is shown only for rides; once pickup is handed
    /// off, the third party (delegate) gets the hirer's map and the "hirer location" comes from
    /// the delegate's phone.
    static func shows(_ viewer: Role, positionOf sender: Role, in state: FulfilmentState, isRide: Bool, handedOff: Bool) -> Bool {
        let hirerSource: Role = handedOff ? .delegate : .hirer
        let hirerMap = viewer == .hirer || (viewer == .delegate && handedOff)
        let helperMap = viewer == .helper
        guard hirerMap || helperMap else { return false }   // a delegate without a hand-off has no map
        let helperLocation = sender == .helper
        let hirerLocation = sender == hirerSource && isRide
        switch state {
        case .enRoute, .atPickup: return helperLocation || hirerLocation
        case .inTask: return hirerMap ? hirerLocation : helperLocation
        case .findingVillager, .accepted, .awaitingPayment, .completed: return false
        }
    }

    static let roles: [Role] = [.hirer, .helper, .delegate]

    /// The seed's accuracy tier per state, as location-sharing.txt gives it (None where it says
    /// None), written out rather than read from `SharingPolicy.seed`.
    static func tier(_ state: FulfilmentState) -> AccuracyTier {
        switch state {
        case .enRoute: .nearestTenMeters
        case .atPickup: .bestForNavigation
        case .inTask: .hundredMeters
        case .findingVillager, .accepted, .awaitingPayment, .completed: .off
        }
    }

    /// The seed's distance filter per state in metres, as the README gives it (ENERGY.md's
    /// jitter-safe value for the state's tier): 30, 13 and 160 m; 0 where location is off.
    static func distanceFilter(_ state: FulfilmentState) -> Double {
        switch state {
        case .enRoute: 30
        case .atPickup: 13
        case .inTask: 160
        case .findingVillager, .accepted, .awaitingPayment, .completed: 0
        }
    }

    /// Whether `role`'s phone requests location in `state`: some map (its own included) shows its position.
    static func usesLocation(_ role: Role, _ state: FulfilmentState, isRide: Bool, handedOff: Bool) -> Bool {
        roles.contains { shows($0, positionOf: role, in: state, isRide: isRide, handedOff: handedOff) }
    }

    /// ENERGY.md's default P_loc per tier, milliwatts.
    static func milliwatts(_ tier: AccuracyTier) -> Double {
        switch tier {
        case .bestForNavigation: 425
        case .best: 290
        case .nearestTenMeters: 145
        case .hundredMeters: 30
        case .kilometer: 8
        case .threeKilometers: 2
        case .off: 0
        }
    }

    // MARK: Derivation

    struct Derived {
        var raw = [[Int]](repeating: [Int](repeating: 0, count: 7), count: 3)          // [role][state]
        var delivered = [[Int]](repeating: [Int](repeating: 0, count: 7), count: 3)
        var sent = [[Int]](repeating: [Int](repeating: 0, count: 7), count: 3)
        var forwarded = [[[Int]]](repeating: [[Int]](repeating: [0, 0, 0], count: 7), count: 3)   // [sender][state][viewer]
        var seconds = [Double](repeating: 0, count: 7)
        var location = [[Double]](repeating: [Double](repeating: 0, count: 7), count: 3)      // joules
    }

    static func derive(sidecar: String) throws -> Derived {
        let folder = (sidecar as NSString).deletingLastPathComponent
        let doc: [String: Any] = try value(try JSONSerialization.jsonObject(with: Data(contentsOf: packageRoot.appendingPathComponent(sidecar))), "the sidecar")
        let isRide = (doc["category"] as? String) == "ride"
        let handedOff = doc["pickupHandedOff"] as? Bool ?? false
        // The true timeline: (state, nanoseconds), in order.
        var timeline: [(FulfilmentState, Int64)] = []
        for e in try value(doc["timeline"], "timeline") as [[String: Any]] {
            let state = try some(FulfilmentState(parsing: try value(e["state"], "state")), "a state")
            let at = try some(Timestamp.parseISO8601(Substring(try value(e["at"], "at") as String)), "a time")
            timeline.append((state, at.timestamp.nanoseconds))
        }
        // Every role's fixes, in file order (the generated files are in time order).
        var fixes: [Role: [(time: Int64, coordinate: Coordinate)]] = [:]
        for (key, file) in try value(doc["traces"], "traces") as [String: String] {
            let role = try some(Role(parsing: key), key)
            var reader = try openTrace(packageRoot.appendingPathComponent(folder).appendingPathComponent(file).path)
            while let item = try reader.next() {
                if case .trackPoint(let fix) = item, let t = fix.time { fixes[role, default: []].append((t.nanoseconds, fix.coordinate)) }
            }
        }
        // The state at time t: the last entry at or before t (events apply before fixes of their time).
        func state(at t: Int64) -> FulfilmentState { timeline.last { $0.1 <= t }?.0 ?? .findingVillager }

        var d = Derived()
        for (role, list) in fixes {
            var last: Coordinate?
            for (t, c) in list {
                let s = state(at: t)
                d.raw[role.rawValue][s.rawValue] += 1
                guard usesLocation(role, s, isRide: isRide, handedOff: handedOff) else {
                    last = nil   // location off: the next fix is a first fix
                    continue
                }
                if let l = last {
                    let step = try some(TangentPlane.distanceIfNear(from: l, to: c), "a step under 2 km")
                    guard step >= distanceFilter(s) else { continue }
                }
                last = c
                d.delivered[role.rawValue][s.rawValue] += 1
                var shared = false
                for v in roles where v != role && shows(v, positionOf: role, in: s, isRide: isRide, handedOff: handedOff) {
                    d.forwarded[role.rawValue][s.rawValue][v.rawValue] += 1
                    shared = true
                }
                if shared { d.sent[role.rawValue][s.rawValue] += 1 }
            }
        }
        // State seconds: the clock runs from the earliest fix or event (Finding Villager's entry is
        // the request's epoch, before any phone records, and is not an event) to the latest.
        let events = timeline.filter { $0.0 != .findingVillager }
        let times = fixes.values.flatMap { $0.map(\.time) }
        let start = min(times.min()!, events.first!.1), end = max(times.max()!, events.last!.1)
        var since = start
        var current = FulfilmentState.findingVillager
        for (s, t) in events + [(.completed, end)] {
            d.seconds[current.rawValue] += Double(t - since) / 1e9
            current = s
            since = t
        }
        for role in roles where fixes[role] != nil || role != .delegate || handedOff {
            for s in FulfilmentState.allCases where usesLocation(role, s, isRide: isRide, handedOff: handedOff) {
                d.location[role.rawValue][s.rawValue] = milliwatts(tier(s)) / 1000 * d.seconds[s.rawValue]
            }
        }
        return d
    }

    // MARK: The binary's answer

    static func replay(_ sidecar: String) throws -> [String: Any] {
        let r = try Run(["replay", "--scenario", sidecar, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try value(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), "the replay JSON")
    }

    static func close(_ a: Double, _ b: Double) -> Bool { a == b || abs(a - b) <= 1e-9 * max(abs(a), abs(b)) }

    static let trips = ["ride", "dog-walk", "third-party-pickup"]

    @Test("counts per state and role, forwarded to whom, location and fixes energy: the binary equals the derivation", arguments: trips)
    func trip(name: String) throws {
        let sidecar = "Traces/trips/\(name)/\(name).scenario.json"
        let derived = try Self.derive(sidecar: sidecar)
        let doc = try Self.replay(sidecar)
        let states: [[String: Any]] = try value(doc["states"], "states")
        #expect(states.count == 7)
        var totalFixesJoules = [0.0, 0.0, 0.0], totalLocationJoules = [0.0, 0.0, 0.0]
        for st in states {
            let state = try some(FulfilmentState(parsing: try value(st["state"], "state")), "a state")
            let s = state.rawValue
            #expect(Self.close(try value(st["seconds"], "seconds"), derived.seconds[s]), "\(name) \(state) seconds")
            for m in try value(st["roles"], "roles") as [[String: Any]] {
                let role = try some(Role(parsing: try value(m["role"], "role")), "a role")
                let r = role.rawValue
                let what = "\(name) \(state.key) \(role.key)"
                #expect(m["rawFixes"] as? Int == derived.raw[r][s], "\(what) raw")
                #expect(m["deliveredFixes"] as? Int == derived.delivered[r][s], "\(what) delivered")
                #expect(m["sentUpdates"] as? Int == derived.sent[r][s], "\(what) sent")
                let forwarded: [String: Int] = try value(m["forwarded"], "forwarded")
                for v in Self.roles { #expect(forwarded[v.key] == derived.forwarded[r][s][v.rawValue], "\(what) → \(v.key)") }
                let energy: [String: Double] = try value(m["energyJoules"], "energyJoules")
                #expect(Self.close(try some(energy["location"], "location"), derived.location[r][s]), "\(what) location J")
                #expect(Self.close(try some(energy["fixes"], "fixes"), Double(derived.delivered[r][s]) * 0.05), "\(what) fixes J")
                totalFixesJoules[r] += Double(derived.delivered[r][s]) * 0.05
                totalLocationJoules[r] += derived.location[r][s]
            }
        }
        // Each phone's whole estimate has the same parts.
        for phone in try value(doc["energy"], "energy") as [[String: Any]] {
            let r = try some(Role(parsing: try value(phone["role"], "role")), "a role").rawValue
            let e: [String: Any] = try value(phone["estimate"], "estimate")
            #expect(Self.close(try value(e["locationJoules"], "locationJoules"), totalLocationJoules[r]), "\(name) phone \(r) location")
            #expect(Self.close(try value(e["fixesJoules"], "fixesJoules"), totalFixesJoules[r]), "\(name) phone \(r) fixes")
        }
        // The derivation is not trivial: every trip forwards the helper's position to the hirer.
        #expect(derived.forwarded[Role.helper.rawValue].reduce(0) { $0 + $1[Role.hirer.rawValue] } > 10)
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

    @Test("the third-party pickup (handed off from the start) forwards the helper's position to the delegate as to the hirer, and the delegate's and hirer's own positions to no one")
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
