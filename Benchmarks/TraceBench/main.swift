// TraceKit benchmarks: release only, seeded inputs at PERFORMANCE.md's sizes, medians with spread,
// and ratios against C baselines built in the same run. `tracekit-bench --help` for options.
import CBaselines
import CProj
import TestSupport
import TraceBatch
import TraceTune
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceIO
import TracePlatform
import TraceProj
import TraceReplay
import TraceService
import TraceSharing
import TraceSimulation
import TraceSmoothing

#if canImport(Glibc)
    import Glibc  // math
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timings of a debug build mean nothing: stop before measuring.
/// Reads the trace at `path` in batches of 1024 items (`read(into:limit:)`, through `openTrace`'s
/// `any TraceReader`, as `tracekit info` reads) and sums `value` over its track points, which must
/// number `points`.
@inline(__always)
func readInBatches(_ path: String, points expected: Int, _ value: (FixBatch, Int) -> Double) -> Double {
    var reader = try! openTrace(path)
    var batch = FixBatch(capacity: 1024)
    var sum = 0.0, points = 0
    while try! reader.read(into: &batch, limit: 1024) > 0 {
        for i in 0..<batch.count where batch.kind(i) == .trackPoint {
            points += 1
            sum += value(batch, i)
        }
    }
    precondition(points == expected, "read \(points) points of \(expected) in batches")
    return sum
}

/// A generated input's time of row `i`: `2024-05-DDThh:mm:ss`, one second per row from
/// 2024-05-01T00:00:00 (zone and fraction left to the caller).
func generatedTime(_ i: Int) -> String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "2024-05-\(two(1 + i / 86400))T\(two((i / 3600) % 24)):\(two((i / 60) % 60)):\(two(i % 60))"
}

/// A C peer's read of `path` (it returns its point count, which must be `expected`, and a checksum).
func peerRead(_ path: String, points expected: Int, _ read: (UnsafePointer<CChar>, UnsafeMutablePointer<Double>) -> Int) -> Double {
    var checksum = 0.0
    let points = read(path, &checksum)
    precondition(points == expected, "the peer read \(points) points of \(expected)")
    return checksum
}

/// Prints a read case's throughput and its libxml2 SAX2 peer's, from their medians per point.
func printThroughput(_ label: String, path: String, points n: Int, ours: Measurement?, peer: Measurement?) {
    guard let ours, let peer else { return }
    let megabytes = Double((try? Platform.status(ofPath: path))?.size ?? 0) / 1e6
    let rate = { (m: Measurement) in fmt(megabytes / (m.median * Double(n) / 1e9), 0) }
    print("  \(label): \(rate(ours)) MB/s (TraceKit), \(rate(peer)) MB/s (libxml2 SAX2), file \(fmt(megabytes, 1)) MB")
}

func refuseDebugBuild() {
    #if DEBUG
        printError("tracekit-bench: refusing to run a debug build; use `make bench` (swift build -c release).")
        Platform.exit(2)
    #endif
}
refuseDebugBuild()

var bench = Bench()
var jsonPath: String?
var scale = 1
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--json": jsonPath = args.popFirst()
    case "--samples": bench.samples = max(3, Int(args.popFirst() ?? "") ?? 7)
    case "--filter": bench.filter = args.popFirst()
    case "--quick": scale = 10
    case "-h", "--help":
        print(
            """
            USAGE: tracekit-bench [--samples N] [--filter TEXT] [--quick] [--json FILE]
              --samples N    timed samples per case after one warm-up (default 7, at least 3)
              --filter TEXT  run only the cases whose name contains TEXT
              --quick        inputs a tenth of the documented sizes (a smoke run)
              --json FILE    also write the results as JSON (schema tracekit-bench/1)
            """)
        Platform.exit(0)
    default:
        printError("tracekit-bench: unknown argument '\(a)'")
        Platform.exit(64)
    }
}

print("TraceKit benchmarks (release), ns per item: median of \(bench.samples) samples after a warm-up\n")

// MARK: Haversine, 10 M pairs about 55 m apart, struct of arrays.
do {
    let n = 10_000_000 / scale
    var rng = SplitMix64(seed: 1)
    var lat1 = [Double](), lon1 = [Double](), lat2 = [Double](), lon2 = [Double]()
    lat1.reserveCapacity(n); lon1.reserveCapacity(n); lat2.reserveCapacity(n); lon2.reserveCapacity(n)
    for _ in 0..<n {
        let la = rng.uniform(-70, 70), lo = rng.uniform(-180, 180)
        let bearing = rng.uniform(0, 2 * .pi)
        let dLat = 55 * cos(bearing) / 111_195, dLon = 55 * sin(bearing) / (111_195 * cos(la * .pi / 180))
        lat1.append(la); lon1.append(lo)
        lat2.append(la + dLat); lon2.append(Coordinate.normalizedLongitude(lo + dLon))
    }
    var out = [Double](repeating: 0, count: n)
    let ours = bench.measure("haversine batch, 10M pairs ~55 m", items: n) {
        lat1.withUnsafeBufferPointer { a1 in
            lon1.withUnsafeBufferPointer { o1 in
                lat2.withUnsafeBufferPointer { a2 in
                    lon2.withUnsafeBufferPointer { o2 in
                        out.withUnsafeMutableBufferPointer { r in
                            Haversine.distances(latitudes1: a1, longitudes1: o1, latitudes2: a2, longitudes2: o2, into: r)
                        }
                    }
                }
            }
        }
        return out[n / 2]
    }
    let c = bench.measure("haversine, C libm baseline", items: n) {
        cb_haversine(lat1, lon1, lat2, lon2, &out, n)
        return out[n / 2]
    }
    bench.ratio("haversine TraceKit / C libm", ours, over: c)
    var peerOut = [Double](repeating: 0, count: n)
    if cb_haversine_avx2(lat1, lon1, lat2, lon2, &peerOut, n) == 1 {
        let peer = bench.measure("haversine, C AVX2+FMA polynomial peer", items: n) {
            _ = cb_haversine_avx2(lat1, lon1, lat2, lon2, &peerOut, n)
            return peerOut[n / 2]
        }
        bench.ratio("haversine TraceKit / C AVX2+FMA peer", ours, over: peer)
        // The peer must compute the same thing: compare it with TraceKit's results.
        let ours = Haversine.distances(
            from: try! CoordinateColumns(latitudes: lat1, longitudes: lon1), to: try! CoordinateColumns(latitudes: lat2, longitudes: lon2))
        let worst = (0..<n).reduce(0.0) { max($0, abs(peerOut[$1] - ours[$1]) / max(ours[$1], 1e-9)) }
        print("  peer vs TraceKit: max relative difference \(worst)")
    } else {
        print("  (no AVX2/FMA on this CPU: the vectorised C peer is skipped)")
    }

    // The same points as one track: consecutive-fix distances.
    var track = CoordinateColumns(minimumCapacity: n)
    for i in 0..<n { track.append(Coordinate(uncheckedLatitude: lat1[i], longitude: lon1[i])) }
    // Make consecutive points ~55 m apart by walking from the first point.
    var steps = CoordinateColumns(minimumCapacity: n)
    var p = track[0]
    for i in 0..<n {
        steps.append(p)
        p = Coordinate(
            uncheckedLatitude: min(max(p.latitude + (lat2[i] - lat1[i]), -70), 70),
            longitude: Coordinate.normalizedLongitude(p.longitude + (lon2[i] - lon1[i])))
    }
    let geodesic = Geodesic()
    var stepOut = [Double](repeating: 0, count: n - 1)
    let tp = bench.measure("tangent-plane step distance, 10M fixes", items: n - 1) {
        let slow = steps.latitudes.withUnsafeBufferPointer { a in
            steps.longitudes.withUnsafeBufferPointer { o in
                stepOut.withUnsafeMutableBufferPointer { r in
                    TangentPlane.stepDistances(latitudes: a, longitudes: o, into: r, fallback: geodesic)
                }
            }
        }
        if slow > 0 { print("  (\(slow) steps took the exact fallback)") }
        return stepOut[n / 3] + Double(slow)
    }
    let hs = bench.measure("haversine step distance, 10M fixes", items: n - 1) {
        steps.latitudes.withUnsafeBufferPointer { a in
            steps.longitudes.withUnsafeBufferPointer { o in
                stepOut.withUnsafeMutableBufferPointer { r in
                    Haversine.distances(
                        latitudes1: UnsafeBufferPointer(rebasing: a[0..<(n - 1)]),
                        longitudes1: UnsafeBufferPointer(rebasing: o[0..<(n - 1)]),
                        latitudes2: UnsafeBufferPointer(rebasing: a[1...]), longitudes2: UnsafeBufferPointer(rebasing: o[1...]), into: r)
                }
            }
        }
        return stepOut[n / 3]
    }
    bench.ratio("tangent plane / haversine (steps)", tp, over: hs)
}

// MARK: Exact geodesic: TraceKit's wrapper against raw geod_inverse, near and global pairs; the
// pure-Swift KarneyGeodesic against the wrapper on the same pairs.
do {
    let geodesic = Geodesic()
    let pure = KarneyGeodesic()
    for (label, count, near) in [("near", 400_000 / scale, true), ("global", 200_000 / scale, false)] {
        var rng = SplitMix64(seed: near ? 3 : 4)
        var lat1 = [Double](), lon1 = [Double](), lat2 = [Double](), lon2 = [Double]()
        for _ in 0..<count {
            let la = rng.uniform(-80, 80), lo = rng.uniform(-180, 180)
            lat1.append(la); lon1.append(lo)
            if near {
                lat2.append(la + rng.uniform(-0.01, 0.01)); lon2.append(Coordinate.normalizedLongitude(lo + rng.uniform(-0.01, 0.01)))
            } else {
                lat2.append(rng.uniform(-90, 90)); lon2.append(rng.uniform(-180, 180))
            }
        }
        let a = (0..<count).map { Coordinate(uncheckedLatitude: lat1[$0], longitude: lon1[$0]) }
        let b = (0..<count).map { Coordinate(uncheckedLatitude: lat2[$0], longitude: lon2[$0]) }
        var s12 = [Double](repeating: 0, count: count)
        // One loop for every solver, each output consumed.
        func inverses(_ solver: some GeodesicSolver) -> Double {
            var sum = 0.0
            for i in 0..<count {
                let g = solver.inverse(from: a[i], to: b[i])
                sum += g.distance + g.initialAzimuth + g.finalAzimuth
            }
            return sum
        }
        let ours = bench.measure("exact geodesic (Geodesic.inverse), \(label)", items: count) { inverses(geodesic) }
        let raw = bench.measure("exact geodesic, raw C geod_inverse, \(label)", items: count) {
            cb_geod_inverse(lat1, lon1, lat2, lon2, &s12, count) + s12[count / 2]
        }
        bench.ratio("Geodesic.inverse / raw geod_inverse (\(label))", ours, over: raw)
        // Both names carry "KarneyGeodesic", so that --filter KarneyGeodesic runs the pair.
        let swift = bench.measure("KarneyGeodesic.inverse (pure Swift), \(label)", items: count) { inverses(pure) }
        let peer = bench.measure("KarneyGeodesic's peer: PROJ Geodesic.inverse, \(label)", items: count) { inverses(geodesic) }
        bench.ratio("KarneyGeodesic / PROJ Geodesic.inverse (\(label))", swift, over: peer)
    }
}

// MARK: PROJ transform batch, WGS84 to UTM 33N, 1 M points.
do {
    let n = 1_000_000 / scale
    var rng = SplitMix64(seed: 5)
    let points = (0..<n).map { _ in ProjPoint(x: rng.uniform(10, 20), y: rng.uniform(-60, 60)) }
    let transformer = try! ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")
    let ours = bench.measure("PROJ transform batch (ProjTransformer), 1M", items: n) {
        let r = transformer.transform(points)
        return r.points[n / 2]!.x + Double(r.failures.count)
    }
    let handle = cb_proj_create("EPSG:4326", "EPSG:32633")!
    var xy = [Double](repeating: 0, count: 2 * n)
    let raw = bench.measure("PROJ transform, raw C proj_trans_generic, 1M", items: n) {
        for i in 0..<n { xy[2 * i] = points[i].x; xy[2 * i + 1] = points[i].y }
        return Double(cb_proj_trans(handle, &xy, n)) + xy[n]
    }
    cb_proj_destroy(handle)
    bench.ratio("ProjTransformer / raw proj_trans_generic", ours, over: raw)
}

// MARK: Services: the per-device update gate and the relay decision, per fix.
do {
    let n = 10_000_000 / scale
    var rng = SplitMix64(seed: 9)
    // A walk at 1.4 m/s, one fix a second, with ±4 m of jitter.
    var fixes: [Coordinate] = []
    fixes.reserveCapacity(n)
    var lat = 47.0, lon = 8.0
    for _ in 0..<n {
        lat += 1.4 / 111_195 * rng.uniform(-1, 1)
        lon += 1.4 / 75_800 * rng.uniform(-1, 1)
        fixes.append(Coordinate(uncheckedLatitude: lat + rng.uniform(-4, 4) / 111_195, longitude: lon + rng.uniform(-4, 4) / 75_800))
    }
    _ = bench.measure("update gate offer (30 m filter), 10M fixes", items: n) {
        var gate = UpdateGate(SharingPolicy.seed[.enRoute], exact: Geodesic())
        var delivered = 0
        for i in 0..<n where gate.offer(fixes[i], at: Double(i)) { delivered += 1 }
        return Double(delivered)
    }
    // The heaviest model: speed-elastic with the speed derived from the previous fix (two
    // distances per fix) behind an accuracy gate that stops about one fix in ten.
    let accuracies = (0..<n).map { _ in rng.uniform(3, 16.5) }
    _ = bench.measure("update gate offer (speed-elastic, derived speed, accuracy gate), 10M fixes", items: n) {
        var gate = UpdateGate(
            tier: .best, distanceFilter: 30, delivery: .speedElastic(elasticityMultiplier: 1),
            accuracyGate: AccuracyGate(maximumAccuracy: 15), exact: Geodesic())
        var delivered = 0
        for i in 0..<n where gate.offer(fixes[i], at: Double(i), accuracy: accuracies[i], speed: nil) { delivered += 1 }
        return Double(delivered)
    }
    // The phone pipeline of a replay with everything on: Gauss–Markov accuracy emulation to
    // HundredMeters (In Task's tier, coarser than every fix here, so each fix draws noise),
    // walk smoothing, then In Task's gate. Per fix: two local frames out and back (the noise's and
    // the filter's), the filter and the gate.
    // The same with one option at a time, to show where the time goes.
    let m = 1_000_000 / scale
    for (label, configuration) in [
        (
            "Gauss–Markov emulation + smoothing + gate",
            PhoneConfiguration(accuracyEmulation: .gaussMarkov(), seed: 1, smoothing: .on(mode: .walk))
        ),
        ("Gauss–Markov emulation + gate", PhoneConfiguration(accuracyEmulation: .gaussMarkov(), seed: 1)),
        ("smoothing + gate", PhoneConfiguration(smoothing: .on(mode: .walk))),
    ] {
        _ = bench.measure("phone pipeline offer (\(label)), 1M fixes", items: m) {
            var phone = PhoneEmulator(configuration, role: .helper, row: SharingPolicy.seed[.inTask], exact: Geodesic())
            var delivered = 0
            for i in 0..<m where phone.offer(fixes[i], at: Double(i), accuracy: accuracies[i], speed: nil).delivered { delivered += 1 }
            return Double(delivered)
        }
    }
    let table = RelayTable(.seed)
    _ = bench.measure("relay decision (RelayTable), 10M updates", items: n) {
        var acc: UInt = 0
        for i in 0..<n {
            let viewers = table.viewers(
                ofLocationFrom: Role(rawValue: i % 3)!, in: FulfilmentState(rawValue: i % 7)!,
                isRide: i & 1 == 0, pickupHandedOff: i & 2 == 0)
            acc &+= UInt(viewers.rawValue)
        }
        return Double(acc)
    }
}

/// The baseline of `relayLoop`: each fix offered to a bare update gate, one per request; the
/// fixes delivered.
@inline(never)
func gateLoop(_ gates: inout [UpdateGate], which: [Int32], fixes: [Coordinate], from start: Int64) -> Int {
    var delivered = 0
    for i in 0..<which.count where gates[Int(which[i])].offer(fixes[i], at: Timestamp(nanoseconds: start &+ Int64(i) &* 1000).seconds) {
        delivered += 1
    }
    return delivered
}

/// A service's receive loop: each fix (one every microsecond from `start`, nanoseconds) to its
/// request; the recipients, summed, and in `gated` the fixes that reached a sender's gate. A
/// function of its own, so the requests are an `inout` array (as a service's store would be), not
/// a variable captured by the timing closure.
@inline(never)
func relayLoop(_ requests: inout [LiveRequest], which: [Int32], senders: [Role], fixes: [Coordinate], from start: Int64, gated: inout Int)
    -> Int
{
    var forwarded = 0
    gated = 0
    for i in 0..<which.count {
        let decision = requests[Int(which[i])].receive(fixes[i], from: senders[i], at: Timestamp(nanoseconds: start &+ Int64(i) &* 1000))
        forwarded &+= Int(decision.recipients.rawValue)
        if decision == .throttled || !decision.recipients.isEmpty { gated &+= 1 }
    }
    return forwarded
}

// MARK: Live requests: one process holding 1,000,000 of them (TraceService's LiveRequest), fed
// fixes from every phone in random request order, against the same fixes offered to 1,000,000
// bare update gates (the part of a decision a request cannot avoid), and in request order (the
// same work with the memory read in sequence).
do {
    let count = 1_000_000 / scale
    let n = 4_000_000 / scale
    var rng = SplitMix64(seed: 37)
    // The solver a service without PROJ passes (one reference: no copy per request).
    let prepared = PreparedPolicy(.seed, exact: KarneyGeodesic.wgs84)
    let kinds: [RequestCategory] = [.ride, .ride, .dogWalking, .babysitting, .delivery]
    let paths: [[FulfilmentEvent]] = [
        [], [.accept], [.accept, .depart], [.accept, .depart], [.accept, .depart, .arrive], [.accept, .depart, .arrive, .startTask],
        [.accept, .depart, .arrive, .startTask], [.accept, .depart, .arrive, .startTask, .finishTask], [.accept, .cancel],
    ]
    let residentBefore = Platform.residentBytes
    var requests: [LiveRequest] = []
    requests.reserveCapacity(count)
    var homes: [Coordinate] = []
    homes.reserveCapacity(count)
    for _ in 0..<count {
        var r = LiveRequest(category: kinds[Int(rng.next() % 5)], policy: prepared)
        if rng.next() % 10 == 0 { try! r.handOffPickup() }
        for e in paths[Int(rng.next() % UInt64(paths.count))] { try! r.handle(e) }
        requests.append(r)
        homes.append(Coordinate(uncheckedLatitude: 47.3 + rng.uniform(0, 0.2), longitude: 8.4 + rng.uniform(0, 0.3)))
    }
    if let before = residentBefore, let after = Platform.residentBytes {
        print("  live requests: \(count) held, resident memory grew by \((after - before) / count) bytes per request")
    }
    // The stream: a request, a phone (the helper's most often) and a fix within 60 m of the
    // request's place; a million fixes a second across the process, so about one a second each.
    var which: [Int32] = [], senders: [Role] = [], fixes: [Coordinate] = []
    which.reserveCapacity(n)
    senders.reserveCapacity(n)
    fixes.reserveCapacity(n)
    for _ in 0..<n {
        let r = Int(rng.next() % UInt64(count))
        which.append(Int32(r))
        let s = rng.next() % 20
        senders.append(s < 12 ? .helper : s < 19 ? .hirer : .delegate)
        fixes.append(
            Coordinate(
                uncheckedLatitude: homes[r].latitude + rng.uniform(-60, 60) / 111_195,
                longitude: homes[r].longitude + rng.uniform(-60, 60) / 75_800))
    }
    let base: Int64 = 1_700_000_000_000_000_000
    // Each run goes on where the last stopped (the clock moves on; nothing is copied or set up
    // inside the timing).
    var gateArray = [UpdateGate](repeating: UpdateGate(SharingPolicy.seed[.enRoute], exact: KarneyGeodesic.wgs84), count: count)
    var clock: Int64 = 0
    let gates = bench.measure("live requests: bare UpdateGate ×1M, random order, 4M fixes", items: n) {
        defer { clock &+= Int64(n) }
        return Double(gateLoop(&gateArray, which: which, fixes: fixes, from: base &+ clock &* 1000))
    }
    gateArray = []
    clock = 0
    /// Feeds `stream` (requests and fixes) to the requests, fix by fix; the recipients, summed.
    var gated = 0  // fixes that reached a gate (forwarded or throttled), for the note below
    func feed(_ stream: (which: [Int32], fixes: [Coordinate])) -> Double {
        defer { clock &+= Int64(n) }
        return Double(
            relayLoop(&requests, which: stream.which, senders: senders, fixes: stream.fixes, from: base &+ clock &* 1000, gated: &gated))
    }
    let live = bench.measure("live requests: LiveRequest.receive ×1M, random order, 4M fixes", items: n) { feed((which, fixes)) }
    bench.ratio("live request receive / bare gate, 1M each, random order", live, over: gates)
    // The same stream in batches of 256, as a service's receive loop would take them off the
    // network: the batch fetches the requests of the fixes ahead while it decides each one.
    var decisions: [RelayDecision] = []
    decisions.reserveCapacity(256)
    var buffer: [IncomingFix] = []
    buffer.reserveCapacity(256)
    let batched = bench.measure("live requests: [LiveRequest].receive(batch) ×1M, random order, 4M fixes in batches of 256", items: n) {
        var forwarded = 0
        var start = 0
        while start < n {
            let end = min(start + 256, n)
            buffer.removeAll(keepingCapacity: true)
            for i in start..<end {
                buffer.append(
                    IncomingFix(
                        request: Int(which[i]), sender: senders[i], coordinate: fixes[i],
                        time: Timestamp(nanoseconds: base &+ (clock &+ Int64(i)) &* 1000)))
            }
            decisions.removeAll(keepingCapacity: true)
            requests.receive(buffer, into: &decisions)
            for d in decisions { forwarded &+= Int(d.recipients.rawValue) }
            start = end
        }
        clock &+= Int64(n)
        return Double(forwarded)
    }
    bench.ratio("live request batches / one by one, 1M random order", batched, over: live)
    bench.ratio("live request batches / bare gate, 1M each, random order", batched, over: gates)

    if live != nil { print("  live requests: \(gated * 100 / n) % of the fixes reached a sender's gate (the rest: not shown, or ended)") }
    // The same requests in request order (the memory read in sequence), each fix near its own
    // request's place; then 1,000 of them in random order (the working set in cache): what the
    // decision costs when memory is not the bottleneck.
    func nearby(_ which: [Int32], seed: UInt64) -> [Coordinate] {
        var g = SplitMix64(seed: seed)
        var out: [Coordinate] = []
        out.reserveCapacity(which.count)
        for r in which {
            out.append(
                Coordinate(
                    uncheckedLatitude: homes[Int(r)].latitude + g.uniform(-60, 60) / 111_195,
                    longitude: homes[Int(r)].longitude + g.uniform(-60, 60) / 75_800))
        }
        return out
    }
    let inOrder = (0..<n).map { Int32($0 % count) }
    let inOrderFixes = nearby(inOrder, seed: 38)
    _ = bench.measure("live requests: LiveRequest.receive ×1M, request order, 4M fixes", items: n) { feed((inOrder, inOrderFixes)) }
    let few = (0..<n).map { _ in Int32(rng.next() % 1000) }
    let fewFixes = nearby(few, seed: 39)
    let hot = bench.measure("live requests: LiveRequest.receive ×1,000 (in cache), random order, 4M fixes", items: n) {
        feed((few, fewFixes))
    }
    bench.ratio("live request receive, 1,000 in cache / bare gate, 1M random", hot, over: gates)
    print(
        "  live request: \(MemoryLayout<LiveRequest>.stride) bytes in an array (\(MemoryLayout<LiveRequest>.size) of fields); update gate \(MemoryLayout<UpdateGate>.stride)"
    )
}

// MARK: Trace reading: GPX (1 M trkpt with ele/time/hdop ≈ 155 MB) against libxml2 SAX2.
do {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n).gpx"
    var rng = SplitMix64(seed: 11)
    if !Platform.exists(path) {
        // Generated once per size (deterministic), then reused.
        guard let f = try? Platform.createStream(path + ".part") else { fatalError("cannot write \(path)") }
        Platform.put(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"tracekit-bench\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n  <trk>\n    <name>bench</name>\n    <trkseg>\n",
            to: f)
        var lat = 47.0, lon = 8.0
        for i in 0..<n {
            lat += rng.uniform(-1e-4, 1e-4)
            lon += rng.uniform(-1e-4, 1e-4)
            let s = i % 60, m = (i / 60) % 60, h = (i / 3600) % 24, d = 1 + i / 86400
            let line =
                "      <trkpt lat=\"\(lat)\" lon=\"\(lon)\">\n        <ele>\((rng.uniform(300, 500) * 10).rounded() / 10)</ele>\n        <time>2024-05-\(d < 10 ? "0" : "")\(d)T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)Z</time>\n        <hdop>\((rng.uniform(0.5, 3) * 10).rounded() / 10)</hdop>\n      </trkpt>\n"
            Platform.put(line, to: f)
        }
        Platform.put("    </trkseg>\n  </trk>\n</gpx>\n", to: f)
        Platform.close(f)
        try? Platform.rename(path + ".part", to: path)
    }
    let megabytes = Double((try? Platform.status(ofPath: path))?.size ?? 0) / 1e6
    let ours = bench.measure("GPX read (GPXReader), 1M trkpt", items: n) {
        var reader = try! openTrace(path)
        var sum = 0.0, points = 0
        while let item = try! reader.next() {
            if case .trackPoint(let f) = item {
                points += 1
                sum += f.coordinate.latitude + (f.elevation ?? 0) + (f.hdop ?? 0) + Double(f.time?.nanoseconds ?? 0) * 1e-18
            }
        }
        precondition(points == n, "GPX benchmark read \(points) points")
        return sum
    }
    // The same file in batches of columns (`read(into:limit:)`, what `tracekit info` reads).
    let batched = bench.measure("GPX read in batches (GPXReader.read(into:)), 1M trkpt", items: n) {
        readInBatches(path, points: n) { b, i in
            b.latitude(i) + (b.elevation(i) ?? 0) + (b.hdop(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
        }
    }
    let peer = bench.measure("GPX read, C libxml2 SAX2 peer, 1M trkpt", items: n) {
        var checksum = 0.0
        let points = cb_libxml2_sax_gpx(path, &checksum)
        precondition(points == n, "libxml2 read \(points) points")
        return checksum
    }
    if let ours, let peer {
        print(
            "  GPX: \(fmt(megabytes / (ours.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (libxml2 SAX2), file \(fmt(megabytes, 1)) MB"
        )
    }
    bench.ratio("GPX read TraceKit / libxml2 SAX2", ours, over: peer)
    if let batched, let peer {
        print(
            "  GPX in batches: \(fmt(megabytes / (batched.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (libxml2 SAX2)"
        )
    }
    bench.ratio("GPX read in batches TraceKit / libxml2 SAX2", batched, over: peer)
}

// MARK: Trace reading: KML (one gx:Track of 1 M when/gx:coord pairs) against libxml2 SAX2.
if bench.filter.map({ "KML read".contains($0) || $0.contains("KML") }) ?? true {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n).kml"
    var rng = SplitMix64(seed: 17)
    if !Platform.exists(path) {
        // Generated once per size (deterministic), then reused: all times, then all positions, as
        // the schema orders them (and Google Earth writes them).
        guard let f = try? Platform.createStream(path + ".part") else { fatalError("cannot write \(path)") }
        Platform.put(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<Document>\n  <Placemark>\n    <name>bench</name>\n    <gx:Track>\n      <altitudeMode>absolute</altitudeMode>\n",
            to: f)
        for i in 0..<n {
            let s = i % 60, m = (i / 60) % 60, h = (i / 3600) % 24, d = 1 + i / 86400
            Platform.put(
                "      <when>2024-05-\(d < 10 ? "0" : "")\(d)T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)Z</when>\n",
                to: f)
        }
        var lat = 47.0, lon = 8.0
        for _ in 0..<n {
            lat += rng.uniform(-1e-4, 1e-4)
            lon += rng.uniform(-1e-4, 1e-4)
            Platform.put("      <gx:coord>\(lon) \(lat) \((rng.uniform(300, 500) * 10).rounded() / 10)</gx:coord>\n", to: f)
        }
        Platform.put("    </gx:Track>\n  </Placemark>\n</Document>\n</kml>\n", to: f)
        Platform.close(f)
        try? Platform.rename(path + ".part", to: path)
    }
    let batched = bench.measure("KML read in batches (KMLReader.read(into:)), 1M gx:Track points", items: n) {
        readInBatches(path, points: n) { b, i in
            b.longitude(i) + b.latitude(i) + (b.elevation(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
        }
    }
    let peer = bench.measure("KML read, C libxml2 SAX2 peer, 1M gx:Track points", items: n) {
        peerRead(path, points: n) { cb_libxml2_sax_kml($0, $1) }
    }
    printThroughput("KML in batches", path: path, points: n, ours: batched, peer: peer)
    bench.ratio("KML read in batches TraceKit / libxml2 SAX2", batched, over: peer)
}

// MARK: End-to-end replay of the same 1 M-point GPX (no scenario: inferred; the first pass keeps
// the trip in memory, or two passes read the file twice).
do {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n).gpx"
    /// One replay of the file, its raw fixes checked; the ideal view (no network, the marker at
    /// the last position: TraceKit's view before the network model) is the same-run baseline of
    /// the realistic network with an extrapolating viewer. `inMemory` off: the file read twice
    /// (``ReplayOptions/tripInMemory``), the same-run baseline of the trip held in memory.
    func replay(_ spec: ScenarioSpec, network: NetworkModel, viewer: ViewerModel, inMemory: Bool = true) -> Double {
        var options = ReplayOptions()
        options.tracekitVersion = "bench"
        options.network = network
        options.viewer = viewer
        options.tripInMemory = inMemory
        let r = try! Replay.run([TraceInput(path: path)], scenario: spec, options: options)
        let raw = r.roleTotals.reduce(0) { $0 + $1.rawFixes }
        precondition(raw == n, "replay read \(raw) fixes")
        return r.energy.reduce(0.0) { $0 + $1.estimate.totalJoules }
    }
    let realistic = (
        network: NetworkModel.realistic, viewer: ViewerModel.extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds)
    )
    let ideal = bench.measure("replay end to end (Replay.run, inferred scenario, trip in memory, ideal view), 1M-point GPX", items: n) {
        replay(ScenarioSpec(), network: .ideal, viewer: .last)
    }
    if let ideal { print("  replay, trip in memory: \(fmt(1e9 / ideal.median / 1e6, 2)) M fixes per second (one core)") }
    let twice = bench.measure("replay end to end (Replay.run, inferred scenario, read twice, ideal view), 1M-point GPX", items: n) {
        replay(ScenarioSpec(), network: .ideal, viewer: .last, inMemory: false)
    }
    if let twice { print("  replay, read twice: \(fmt(1e9 / twice.median / 1e6, 2)) M fixes per second (one core)") }
    bench.ratio("replay trip in memory / read twice (inferred scenario)", ideal, over: twice)
    let real = bench.measure(
        "replay end to end (Replay.run, inferred scenario, realistic network, extrapolating viewer), 1M-point GPX", items: n
    ) {
        replay(ScenarioSpec(), network: realistic.network, viewer: realistic.viewer)
    }
    // Issue 19's target: the realistic view at least 90 % of the ideal one's speed (a ratio of time ≤ 1.11).
    bench.ratio("replay realistic view / ideal view (inferred scenario)", real, over: ideal)

    // The same file with a complete scenario (pickup, dropoff, timeline given): one pass. The
    // timeline spreads the 11.6 days of 1 Hz fixes over every state, so every gate is exercised.
    var spec = ScenarioSpec()
    spec.pickup = Sourced(try! Coordinate(latitude: 47, longitude: 8), .flag)
    spec.dropoff = Sourced(try! Coordinate(latitude: 47.01, longitude: 8.01), .flag)
    let day: Int64 = 86_400_000_000_000
    let start = Timestamp.parseISO8601("2024-05-01T00:00:00Z")!.timestamp.nanoseconds
    let entries = [(FulfilmentState.accepted, 0), (.enRoute, 1), (.atPickup, 2), (.inTask, 3), (.awaitingPayment, 10), (.completed, 11)]
        .map { TimelineEntry(state: $0.0, time: Timestamp(nanoseconds: start + Int64($0.1) * day), provenance: .flag) }
    spec.timeline = Sourced(try! TimelineEntry.validated(entries), .flag)
    let single = bench.measure("replay end to end (Replay.run, complete scenario: one pass, ideal view), 1M-point GPX", items: n) {
        replay(spec, network: .ideal, viewer: .last)
    }
    if let single { print("  replay, one pass: \(fmt(1e9 / single.median / 1e6, 2)) M fixes per second (one core)") }
    let singleReal = bench.measure(
        "replay end to end (Replay.run, complete scenario: one pass, realistic network, extrapolating viewer), 1M-point GPX", items: n
    ) {
        replay(spec, network: realistic.network, viewer: realistic.viewer)
    }
    bench.ratio("replay realistic view / ideal view (one pass)", singleReal, over: single)

    // One loaded trip (read and inferred once, not timed) replayed under candidate policies, as
    // `tune` will: En Route's and In Task's distance filters over a grid of 8, the default view
    // (realistic network, last position). Items are candidates × fixes.
    var options = ReplayOptions()
    options.tracekitVersion = "bench"
    let candidatesCase = "loaded trip replayed under 8 candidate policies (Replay.run(LoadedTrip)), per candidate × fix, 1M-point GPX"
    if bench.filter.map({ candidatesCase.contains($0) }) ?? true,
        let trip = try! Replay.load([TraceInput(path: path)], scenario: ScenarioSpec(), options: options)
    {
        print("  loaded trip: \(trip.fixes) fixes, \(trip.bytes) bytes (\(fmt(Double(trip.bytes) / Double(trip.fixes), 1)) bytes a fix)")
        let filters: [Double] = [0, 5, 10, 20, 40, 80, 160, 320]
        let candidates = bench.measure(candidatesCase, items: n * filters.count) {
            var sum = 0.0
            for f in filters {
                var o = options
                o.policy[.enRoute].distanceFilter = f
                o.policy[.inTask].distanceFilter = f
                let r = try! Replay.run(trip, options: o)
                precondition(r.roleTotals.reduce(0) { $0 + $1.rawFixes } == n, "a candidate replayed another trip")
                sum += r.energy.reduce(0.0) { $0 + $1.estimate.totalJoules }
            }
            return sum
        }
        if let candidates {
            print("  candidates × fixes: \(fmt(1e9 / candidates.median / 1e6, 2)) M per second (one core)")
        }
    }
}

// MARK: Trace reading: CSV (1 M rows lat,lon,ISO time,accuracy ≈ 48 MB) against a C strtod loop.
do {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n).csv"
    var rng = SplitMix64(seed: 12)
    if !Platform.exists(path) {
        guard let f = try? Platform.createStream(path + ".part") else { fatalError("cannot write \(path)") }
        Platform.put("lat,lon,time,accuracy\n", to: f)
        var lat = 47.0, lon = 8.0
        for i in 0..<n {
            lat += rng.uniform(-1e-4, 1e-4)
            lon += rng.uniform(-1e-4, 1e-4)
            let s = i % 60, m = (i / 60) % 60, h = (i / 3600) % 24, d = 1 + i / 86400
            let latText = fmt(lat, 6), lonText = fmt(lon, 6)
            Platform.put(
                "\(latText),\(lonText),2024-05-\(d < 10 ? "0" : "")\(d)T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)Z,\((rng.uniform(3, 30) * 10).rounded() / 10)\n",
                to: f)
        }
        Platform.close(f)
        try? Platform.rename(path + ".part", to: path)
    }
    let megabytes = Double((try? Platform.status(ofPath: path))?.size ?? 0) / 1e6
    let ours = bench.measure("CSV read (CSVReader), 1M rows", items: n) {
        var reader = try! openTrace(path)
        var sum = 0.0, points = 0
        while let item = try! reader.next() {
            if case .trackPoint(let f) = item {
                points += 1
                sum += f.coordinate.latitude + (f.horizontalAccuracy ?? 0) + Double(f.time?.nanoseconds ?? 0) * 1e-18
            }
        }
        precondition(points == n, "CSV benchmark read \(points) points")
        return sum
    }
    let batched = bench.measure("CSV read in batches (CSVReader.read(into:)), 1M rows", items: n) {
        readInBatches(path, points: n) { b, i in
            b.latitude(i) + (b.horizontalAccuracy(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
        }
    }
    let peer = bench.measure("CSV read, C fgets + strtod loop, 1M rows", items: n) {
        var checksum = 0.0
        let rows = cb_strtod_csv(path, &checksum)
        precondition(rows == n, "strtod loop read \(rows) rows")
        return checksum
    }
    // The floor: the simplest C parser of exactly these rows (checks nothing); it must read the
    // same values (the same sum, in the same order, as the batches' case).
    var batchedSum: Double?
    let floor = bench.measure("CSV read, C minimal unchecked parser (a floor, not a peer), 1M rows", items: n) {
        var checksum = 0.0
        let rows = cb_minimal_csv(path, &checksum)
        precondition(rows == n, "the minimal C parser read \(rows) rows")
        if batchedSum == nil {
            batchedSum = readInBatches(path, points: n) { b, i in
                b.latitude(i) + (b.horizontalAccuracy(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
            }
        }
        if checksum != batchedSum {
            printError("tracekit-bench: the minimal C parser's values differ from TraceKit's (sums \(checksum) and \(batchedSum!))")
            Platform.exit(1)
        }
        return checksum
    }
    if let ours, let peer {
        print(
            "  CSV: \(fmt(megabytes / (ours.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (C strtod loop), file \(fmt(megabytes, 1)) MB"
        )
    }
    bench.ratio("CSV read TraceKit / C strtod loop", ours, over: peer)
    if let batched, let peer {
        print(
            "  CSV in batches: \(fmt(megabytes / (batched.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (C strtod loop)"
        )
    }
    bench.ratio("CSV read in batches TraceKit / C strtod loop", batched, over: peer)
    bench.ratio("CSV minimal unchecked C floor / C strtod loop", floor, over: peer)
    bench.ratio("CSV read in batches TraceKit / minimal unchecked C floor", batched, over: floor)
}

// MARK: Trace reading: NMEA (1 M epochs of RMC + GGA ≈ 150 MB) against a C fgets + strtok loop.
do {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n).nmea"
    var rng = SplitMix64(seed: 17)
    if !Platform.exists(path) {
        guard let f = try? Platform.createStream(path + ".part") else { fatalError("cannot write \(path)") }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        /// ddmm.mmmmmm (dddmm.mmmmmm) of positive degrees.
        func minutes(_ degrees: Double, width: Int) -> String {
            let whole = Int(degrees)
            let micro = Int(((degrees - Double(whole)) * 60 * 1e6).rounded())
            var d = String(whole)
            while d.count < width { d = "0" + d }
            var m = String(micro)
            while m.count < 8 { m = "0" + m }
            return d + m.prefix(2) + "." + m.dropFirst(2)
        }
        func sentence(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            let hex = Array("0123456789ABCDEF")
            return "$\(body)*\(hex[Int(sum >> 4)])\(hex[Int(sum & 15)])\r\n"
        }
        var lat = 47.0, lon = 8.0, alt = 400.0
        for i in 0..<n {
            lat += rng.uniform(-1e-4, 1e-4)
            lon += rng.uniform(-1e-4, 1e-4)
            alt += rng.uniform(-0.5, 0.5)
            let s = i % 60, m = (i / 60) % 60, h = (i / 3600) % 24, d = 1 + i / 86400
            let time = "\(two(h))\(two(m))\(two(s)).00", position = "\(minutes(lat, width: 2)),N,\(minutes(lon, width: 3)),E"
            Platform.put(
                sentence("GPRMC,\(time),A,\(position),\(fmt(rng.uniform(0, 30), 1)),\(fmt(rng.uniform(0, 359), 1)),\(two(d))0524,,,A"),
                to: f)
            Platform.put(sentence("GPGGA,\(time),\(position),1,09,0.9,\(fmt(alt, 1)),M,47.0,M,,"), to: f)
        }
        Platform.close(f)
        try? Platform.rename(path + ".part", to: path)
    }
    let megabytes = Double((try? Platform.status(ofPath: path))?.size ?? 0) / 1e6
    let ours = bench.measure("NMEA read in batches (NMEAReader.read(into:)), 1M epochs", items: n) {
        readInBatches(path, points: n) { b, i in
            b.latitude(i) + b.longitude(i) + (b.speed(i) ?? 0) + (b.elevation(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
        }
    }
    let peer = bench.measure("NMEA read, C fgets + strtok loop, 1M epochs", items: n) {
        var checksum = 0.0
        let epochs = cb_strtok_nmea(path, &checksum)
        precondition(epochs == n, "strtok loop read \(epochs) epochs")
        return checksum
    }
    if let ours, let peer {
        print(
            "  NMEA: \(fmt(megabytes / (ours.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (C strtok loop), file \(fmt(megabytes, 1)) MB"
        )
    }
    bench.ratio("NMEA read in batches TraceKit / C strtok loop", ours, over: peer)
}

// MARK: Trace reading: JSON (a 1 M-record Google Records.json) against Foundation's JSONSerialization.
do {
    let n = 1_000_000 / scale
    let path = "/tmp/tracekit-bench-\(n)-records.json"
    var rng = SplitMix64(seed: 14)
    if !Platform.exists(path) {
        guard let f = try? Platform.createStream(path + ".part") else { fatalError("cannot write \(path)") }
        Platform.put("{\"locations\": [\n", to: f)
        var lat = 470_000_000, lon = 80_000_000
        for i in 0..<n {
            lat += Int(rng.uniform(-1000, 1000))
            lon += Int(rng.uniform(-1000, 1000))
            let time = "\(generatedTime(i)).\(100 + i % 900)Z"
            Platform.put(
                "\(i == 0 ? "" : ",\n"){\"latitudeE7\": \(lat), \"longitudeE7\": \(lon), \"accuracy\": \(Int(rng.uniform(3, 60))), \"source\": \"WIFI\", \"deviceTag\": 1234567890, \"timestamp\": \"\(time)\"}",
                to: f)
        }
        Platform.put("\n]}\n", to: f)
        Platform.close(f)
        try? Platform.rename(path + ".part", to: path)
    }
    let megabytes = Double((try? Platform.status(ofPath: path))?.size ?? 0) / 1e6
    var oursSum: Double?
    let ours = bench.measure("JSON read in batches (Records.json, JSONTraceReader.read(into:)), 1M records", items: n) {
        let sum = readInBatches(path, points: n) { b, i in
            b.latitude(i) + (b.horizontalAccuracy(i) ?? 0) + Double(b.time(i)?.nanoseconds ?? 0) * 1e-18
        }
        oursSum = sum
        return sum
    }
    let peer = bench.measure("JSON read, Foundation JSONSerialization into the same values, 1M records", items: n) {
        let (sum, records) = foundationRecordsSum(path)
        precondition(records == n, "JSONSerialization read \(records) records")
        if let oursSum, oursSum != sum {
            printError("tracekit-bench: JSONSerialization's values differ from TraceKit's (sums \(sum) and \(oursSum))")
            Platform.exit(1)
        }
        return sum
    }
    if let ours, let peer {
        print(
            "  JSON: \(fmt(megabytes / (ours.median * Double(n) / 1e9), 0)) MB/s (TraceKit), \(fmt(megabytes / (peer.median * Double(n) / 1e9), 0)) MB/s (JSONSerialization), file \(fmt(megabytes, 1)) MB"
        )
    }
    bench.ratio("JSON read in batches TraceKit / Foundation JSONSerialization", ours, over: peer)
}

// MARK: Kalman filter, gate and RTS smoother (PERFORMANCE.md: 100 k points; the C dense 4×4 peer).
do {
    let n = 100_000 / max(scale / 10, 1)  // 100 k even in --quick: the smoother's size is the point
    let configuration = SmoothingConfiguration(tier: .best, mode: .drive)!
    let p = configuration.parameters
    // A drive observed at 1 Hz ± 20 % with 7 m of white noise and 1 % spikes (seeded).
    var generator = TrajectoryGenerator(profile: .drive, origin: try! Coordinate(latitude: 47.37, longitude: 8.54), seed: 13)
    let truth = generator.generate(duration: Double(n) - 1, interval: 1, jitter: 0.2)
    var noise = WhiteNoise(sigma: 7, seed: 14)
    let observed = truth.observe(noise: &noise, spikes: SpikeInjector(probability: 0.01, sigma: 7, seed: 15))
    let m = truth.count
    let times = truth.times, east = observed.east, north = observed.north
    let variances = [Double](repeating: 49, count: m)
    let filter = bench.measure("Kalman filter predict+gate+update, 100k fixes", items: m) {
        var f = KalmanFilter(parameters: p)
        for i in 0..<m { f.update(east: east[i], north: north[i], variance: variances[i], at: times[i]) }
        return f.east + Double(f.rejected)
    }
    let cFilter = bench.measure("Kalman filter, C dense 4x4 peer, 100k fixes", items: m) {
        cb_kalman_dense(times, east, north, variances, m, p.processNoise, p.initialVelocityVariance, p.gate)
    }
    bench.ratio("Kalman filter TraceKit / C dense 4x4", filter, over: cFilter)
    // The gate alone: squared Mahalanobis distance of each fix against a running estimate.
    var settled = KalmanFilter(parameters: p)
    for i in 0..<1000 { settled.update(east: east[i], north: north[i], variance: 49, at: times[i]) }
    let base = settled.time
    let gateOffsets = times.map { 0.8 + 0.4 * ($0 - $0.rounded(.down)) }  // 0.8–1.2 s ahead
    _ = bench.measure("gate (squared Mahalanobis), 100k fixes", items: m) {
        var accepted = 0
        for i in 0..<m where settled.wouldAccept(east: east[i % 1000], north: north[i % 1000], variance: 49, at: base + gateOffsets[i]) {
            accepted += 1
        }
        return Double(accepted)
    }
    var smoother = RTSSmoother(parameters: p, capacity: m)
    for i in 0..<m { smoother.append(east: east[i], north: north[i], variance: variances[i], at: times[i]) }
    let forwardOnly = bench.measure("RTS smoother, forward pass only, 100k points", items: m) {
        smoother.run(smoothing: false)
        return smoother.estimate(at: m / 2).east
    }
    let rts = bench.measure("RTS smoother forward+backward, 100k points", items: m) {
        smoother.run(smoothing: true)
        return smoother.estimate(at: m / 2).east
    }
    _ = bench.measure("RTS smoother append+forward+backward, 100k points", items: m) {
        smoother.removeAll()
        for i in 0..<m { smoother.append(east: east[i], north: north[i], variance: variances[i], at: times[i]) }
        smoother.run(smoothing: true)
        return smoother.estimate(at: m / 3).north
    }
    if let forwardOnly, let rts { print("  backward pass alone: \(fmt(rts.median - forwardOnly.median, 2)) ns per point") }
    var xs = [Double](repeating: 0, count: 4 * m), ps = [Double](repeating: 0, count: 16 * m)
    let cRTS = bench.measure("RTS smoother, C dense 4x4 peer, 100k points", items: m) {
        cb_rts_dense(times, east, north, variances, m, p.processNoise, p.initialVelocityVariance, p.gate, &xs, &ps)
    }
    bench.ratio("RTS TraceKit / C dense 4x4", rts, over: cRTS)
    // The same fixes as coordinates: frames, conversions and re-anchoring included.
    let frame = LocalFrame(origin: truth.origin)
    let coordinates = (0..<m).map { frame.coordinate(at: EastNorth(east: east[$0], north: north[$0]))! }
    var track = TrackSmoother(configuration: configuration, capacity: m)
    _ = bench.measure("TrackSmoother coordinates in and out (RTS), 100k", items: m) {
        track.removeAll()
        for i in 0..<m { track.append(coordinates[i], time: times[i], accuracy: 9.9) }
        let summary = track.run(smoothing: true)
        var sum = 0.0
        for i in stride(from: 0, to: m, by: 1) { sum += track.coordinate(at: i)?.latitude ?? 0 }
        return sum + Double(summary.rejected)
    }
}

// MARK: Batch: 40 generated trips (the demo trips of Traces/trips, 14 ride, 13 dog-walk, 13
// third-party-pickup), replayed by BatchRunner with 1 worker and with 2; the ratio is the
// throughput gained on two cores (issue 7's target: at least 1.8×).
do {
    let traces = String(#filePath.dropLast("Benchmarks/TraceBench/main.swift".count)) + "Traces/trips/"
    let demo = ["ride/ride.scenario.json", "dog-walk/dog-walk.scenario.json", "third-party-pickup/third-party-pickup.scenario.json"]
    let n = 40
    let trips = (0..<n).map { i in BatchTrip(id: "\(i)/\(demo[i % 3])", path: traces + demo[i % 3], kind: .sidecar) }
    let options = {
        var o = ReplayOptions(); o.tracekitVersion = "bench"; return o
    }()
    func corpus(jobs: Int) -> Double {
        let results = BatchRunner(jobs: jobs).map(count: n) { i in
            (try? trips[i].replay(options: options)).map { r in r.energy.reduce(0.0) { $0 + $1.estimate.totalJoules } } ?? -1
        }
        precondition(!results.contains(-1), "a demo trip failed to replay")
        return results.reduce(0, +)
    }
    let one = bench.measure("batch, 40 demo trips, 1 job (per trip)", items: n) { corpus(jobs: 1) }
    let two = bench.measure("batch, 40 demo trips, 2 jobs (per trip)", items: n) { corpus(jobs: 2) }
    bench.ratio("batch 2 jobs / 1 job (time per trip)", two, over: one)
    if one != nil {
        // The machine is shared: time 1 job and 2 jobs alternately, so a neighbour's load hits
        // both alike, and take the median of the pairs' ratios.
        // The process's CPU time too: were 2 jobs' trips as cheap as 1 job's (no contention), the
        // CPU-time ratio would be 1 and any shortfall in throughput the neighbours' load.
        func cpu() -> Double { Double(Platform.processCPUNanoseconds()) }
        var ratios: [Double] = [], cpuRatios: [Double] = []
        for _ in 0..<max(bench.samples, 9) {
            var t0 = now(), c0 = cpu()
            sink += corpus(jobs: 1)
            let single = Double(now() - t0), singleCPU = cpu() - c0
            t0 = now()
            c0 = cpu()
            sink += corpus(jobs: 2)
            ratios.append(single / Double(now() - t0))
            cpuRatios.append((cpu() - c0) / singleCPU)
        }
        ratios.sort()
        cpuRatios.sort()
        print(
            "  throughput, 2 jobs over 1 job, paired: median \(fmt(ratios[ratios.count / 2], 2))× (pairs \(fmt(ratios.first!, 2))–\(fmt(ratios.last!, 2))×; \(BatchRunner.activeProcessors) processors available)"
        )
        print("  CPU time, 2 jobs over 1 job: median \(fmt(cpuRatios[cpuRatios.count / 2], 2))×")
    }
}

// MARK: Tune: the bundled corpus (Traces/, 12 trips) over the default space (En Route, At Pickup
// and In Task, 133 rows each), with 1 worker and with 2: the whole tune's time, candidate × fix
// evaluations per second, and the throughput gained on two cores (issue 21's targets: the tune
// under 10 s, 25 M candidate × fix a second on one core, 2 jobs at least 1.8×). The same-run
// baseline: the tune with every candidate replayed in full on every trip, every view sampled
// (`sharesReplays` and `samplesJudgedViewsOnly` off); and the tune sampling every view, for the
// share of the views no requirement reads.
do {
    let root = String(#filePath.dropLast("Benchmarks/TraceBench/main.swift".count))
    var trips = (try? TripDiscovery.trips(inputs: [root + "Traces/"])) ?? []
    trips.sort { $0.id < $1.id }
    var options = ReplayOptions()
    options.tracekitVersion = "bench"
    let requirements = ["enRoute.hirer.displayErrorP95<=150m", "atPickup.hirer.stalenessP95<=120s", "arrival.pickup.hirer<=30s"].map {
        try! Requirement(parsing: $0)
    }
    func tune(jobs: Int, shares: Bool = true, judgedViewsOnly: Bool = true, keep: Bool = true) -> TuneOutcome {
        var request = TuneRequest(
            trips: trips, options: options, requirements: requirements, judgement: .pooled,
            space: TuneSpace.defaults(for: .seed, emulation: false), jobs: jobs)
        request.sharesReplays = shares
        request.samplesJudgedViewsOnly = judgedViewsOnly
        if !keep { request.keep = nil }
        return try! Tuner.run(request)
    }
    let probe = tune(jobs: 2)
    let evaluations = probe.fixEvaluations
    print(
        "  tune of Traces/: \(trips.count) trips, \(probe.candidates) candidates in \(probe.rounds) rounds, \(probe.evaluations) trip evaluations, \(probe.replays) full replays (\(probe.sharedEvaluations) evaluations shared), \(evaluations) candidate × fix evaluations, \(probe.bytesInMemory) bytes of fixes and schedules held"
    )
    let full = bench.measure(
        "tune of Traces/ over the default space, 1 job, every candidate replayed in full (per candidate × fix)", items: evaluations
    ) {
        tune(jobs: 1, shares: false, judgedViewsOnly: false).chosenEvaluation.objective
    }
    let everyView = bench.measure(
        "tune of Traces/ over the default space, 1 job, every view sampled (per candidate × fix)", items: evaluations
    ) {
        tune(jobs: 1, judgedViewsOnly: false).chosenEvaluation.objective
    }
    // The tune without the kept figures (issue 34: every view figure and arrival no requirement
    // names kept within 10 %, 2 m, 2 s of the start's): the search of before, its own candidates.
    let unkept = tune(jobs: 2, keep: false)
    print(
        "  without the kept figures: \(unkept.candidates) candidates in \(unkept.rounds) rounds, \(unkept.replays) full replays, \(unkept.fixEvaluations) candidate × fix evaluations; kept: \(probe.kept.count) figures"
    )
    let nothingKept = bench.measure(
        "tune of Traces/ over the default space, 1 job, nothing kept (per candidate × fix)", items: unkept.fixEvaluations
    ) {
        tune(jobs: 1, keep: false).chosenEvaluation.objective
    }
    let one = bench.measure("tune of Traces/ over the default space, 1 job (per candidate × fix)", items: evaluations) {
        tune(jobs: 1).chosenEvaluation.objective
    }
    if let one {
        print(
            "  candidates × fixes, one core: \(fmt(1e9 / one.median / 1e6, 2)) M per second; the tune: \(fmt(one.median * Double(evaluations) / 1e9, 2)) s"
        )
    }
    let two = bench.measure("tune of Traces/ over the default space, 2 jobs (per candidate × fix)", items: evaluations) {
        tune(jobs: 2).chosenEvaluation.objective
    }
    if let two { print("  the tune on 2 jobs: \(fmt(two.median * Double(evaluations) / 1e9, 2)) s") }
    bench.ratio("tune 2 jobs / 1 job (time)", two, over: one)
    bench.ratio("tune 1 job, one replay per set of decisions / every candidate replayed (time)", one, over: full)
    bench.ratio("tune 1 job, the judged views sampled / every view sampled (time)", one, over: everyView)
    bench.ratio("tune 1 job, the figures kept / nothing kept (per candidate × fix)", one, over: nothingKept)
    if let one, let nothingKept {
        print(
            "  the tune on 1 job, the figures kept / nothing kept (time): \(fmt(one.median * Double(evaluations) / (nothingKept.median * Double(unkept.fixEvaluations)), 3))×"
        )
    }
}

if let jsonPath {
    let text = bench.json()
    do { try AtomicFile.write(jsonPath, text) } catch {
        printError("tracekit-bench: \(error)")
        Platform.exit(74)
    }
}
print("\n(sink \(sink == 0 ? "0" : "consumed"))")
