import Foundation
import TestSupport
import TraceDomain
import TraceIO
import TraceReplay
import TraceSharing

/// A fix of a crafted trace: metres north and east of 47° N 8° E, seconds after 2024-05-01T10:00:00Z.
struct P {
    var north: Double
    var east: Double
    var t: Int
}

/// Degrees per metre near 47° N (spherical approximation; the tests' tolerances allow for it).
let metresPerDegreeLat = 111_195.0
let metresPerDegreeLon = 111_195.0 * cos(47 * Double.pi / 180)

func time(_ t: Int) -> String {
    let h = 10 + t / 3600, m = (t / 60) % 60, s = t % 60
    return "2024-05-01T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)Z"
}

func lat(_ p: P) -> Double { 47 + p.north / metresPerDegreeLat }
func lon(_ p: P) -> Double { 8 + p.east / metresPerDegreeLon }

/// A GPX document with one track per (name, points), and waypoints.
func gpx(_ tracks: [(name: String?, points: [P])], waypoints: [(String, P)] = []) -> String {
    var s = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
    for (name, p) in waypoints { s += "<wpt lat=\"\(lat(p))\" lon=\"\(lon(p))\"><name>\(name)</name></wpt>\n" }
    for (name, points) in tracks {
        s += "<trk>" + (name.map { "<name>\($0)</name>" } ?? "") + "<trkseg>\n"
        for p in points { s += "<trkpt lat=\"\(lat(p))\" lon=\"\(lon(p))\"><time>\(time(p.t))</time></trkpt>\n" }
        s += "</trkseg></trk>\n"
    }
    return s + "</gpx>\n"
}

/// Writes `text` to a fresh temporary file with `ext` and returns its path.
func temp(_ text: String, ext: String = "gpx") throws -> String {
    let dir = scratchFolder.appendingPathComponent("replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("trip.\(ext)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Points along a straight line north: `count` fixes `step` metres and `dt` seconds apart.
func line(from start: P, count: Int, stepNorth: Double = 0, stepEast: Double = 0, dt: Int) -> [P] {
    (0..<count).map { P(north: start.north + Double($0) * stepNorth, east: start.east + Double($0) * stepEast, t: start.t + $0 * dt) }
}

/// `count` fixes at one place, `dt` seconds apart.
func stay(at p: P, count: Int, dt: Int) -> [P] { line(from: p, count: count, dt: dt) }

/// A timeline spec: each state at seconds after 10:00:00Z.
func timeline(_ entries: [(FulfilmentState, Int)]) throws -> Sourced<[TimelineEntry]> {
    let list = entries.map { TimelineEntry(state: $0.0, time: Timestamp.parseISO8601(time($0.1))!.timestamp, provenance: .flag) }
    return Sourced(try TimelineEntry.validated(list), .flag)
}

extension ReplayOptions {
    /// The ideal network (``NetworkModel/ideal``): the view TraceKit measured before the network
    /// model, for the tests that count it by hand.
    static var ideal: ReplayOptions {
        var o = ReplayOptions()
        o.network = .ideal
        return o
    }
}

func replay(_ path: String, spec: ScenarioSpec = ScenarioSpec(), hirer: String? = nil, options: ReplayOptions = ReplayOptions()) throws
    -> ReplayResult
{
    var spec = spec
    if let hirer { spec.traces[.hirer] = Sourced(hirer, .flag) }
    return try Replay.run([TraceInput(path: path)], scenario: spec, options: options)
}

extension ReplayResult {
    func cell(_ state: FulfilmentState, _ role: Role) -> StateRoleMetrics { states[state.rawValue][role]! }
    func entry(_ state: FulfilmentState) -> TimelineEntry? { scenario.timeline.first { $0.state == state } }
    func seconds(of state: FulfilmentState) -> Int? {
        entry(state).map { Int($0.time.seconds(since: Timestamp.parseISO8601(time(0))!.timestamp).rounded()) }
    }
}
