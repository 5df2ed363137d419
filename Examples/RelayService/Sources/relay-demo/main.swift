// The bundled ride replayed through many live requests of a RelayService: each request follows
// the ride's timeline; the helper's and the hirer's fixes are fed in time order (the hirer's as the
// delegate's where pickup was handed off). Prints what was forwarded and dropped, and exits 1 when
// a request forwarded what the user's document forbids.
//
//     swift run relay-demo [TRIP_FOLDER] [REQUESTS]     (default: ../../Traces/trips/ride, 400)

import RelayService
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceReplay
import TraceSharing

#if canImport(Glibc)
    import Glibc  // exit
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let folder = arguments.first ?? "../../Traces/trips/ride"
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 400

/// The fixes of one trace file, in file order.
func fixes(_ path: String) throws -> [(Coordinate, Timestamp)] {
    var reader = try openTrace(path)
    var out: [(Coordinate, Timestamp)] = []
    while let item = try reader.next() {
        if case .trackPoint(let fix) = item, let time = fix.time { out.append((fix.coordinate, time)) }
    }
    return out
}

do {
    let scenario = try ScenarioSpec(sidecarFile: "\(folder)/ride.scenario.json")
    let timeline = scenario.timeline?.value ?? []
    // Every event and fix of the trip, in time order: (time, order, what).
    enum Input { case event(FulfilmentEvent), fix(Coordinate, Role) }
    var inputs: [(Timestamp, Int, Input)] = []
    for entry in timeline { if let e = TimelineEntry.event(entering: entry.state) { inputs.append((entry.time, 0, .event(e))) } }
    for (c, t) in try fixes("\(folder)/helper.gpx") { inputs.append((t, 1, .fix(c, .helper))) }
    for (c, t) in try fixes("\(folder)/hirer.gpx") { inputs.append((t, 1, .fix(c, .hirer))) }
    inputs.sort { ($0.0, $0.1) < ($1.0, $1.1) }

    var service = RelayService()
    let categories: [RequestCategory] = [.ride, .dogWalking, .babysitting, .delivery]
    for id in 0..<count {
        service.open(id, category: categories[id % categories.count])
        if id % 5 == 4 { _ = try service.handle(.handOffPickup, for: id) }
    }
    var violations = 0
    var firstRide: [String] = []
    for (time, _, input) in inputs {
        for id in 0..<count {
            switch input {
            case .event(let e):
                let action = try service.handle(e, for: id)
                if id == 0 { firstRide.append("\(time) \(e): \(action)") }
            case .fix(let c, let role):
                let handedOff = id % 5 == 4
                let sender = role == .hirer && handedOff ? Role.delegate : role
                let decision = service.receive(c, from: sender, of: id, at: time)
                // The document: the hirer's location (from the hirer's or the delegate's phone) only for rides.
                if sender != .helper && !categories[id % categories.count].isRide && !decision.recipients.isEmpty { violations += 1 }
            }
        }
    }
    print("relay-demo: \(count) live requests over \(folder) (\(inputs.count) events and fixes each)")
    for line in firstRide { print("  request 0 (a ride) \(line)") }
    print("forwarded: " + Role.allCases.map { "\($0) \(service.forwarded[$0] ?? 0)" }.joined(separator: ", "))
    print("dropped: " + service.dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    print("hirer locations forwarded outside a ride: \(violations)")
    if violations > 0 || (service.forwarded[.hirer] ?? 0) == 0 { throw DemoFailure.checks }
} catch {
    print("relay-demo: \(error)")
    exit(1)
}

enum DemoFailure: Error { case checks }
