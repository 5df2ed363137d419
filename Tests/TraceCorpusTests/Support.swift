import Foundation
import TestSupport
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceJSON
import TraceSharing

/// The folder of the demo and regression corpus.
let tracesFolder = packageRoot.appendingPathComponent("Traces")

/// The seed of the committed trips (`trip-generator`'s default; Traces/README.md).
let corpusSeed = "6"

/// The built `trip-generator` (the test target depends on it, so `swift test` builds it).
let generatorBinary: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trip-generator")
    return FileManager.default.isExecutableFile(atPath: beside.path)
        ? beside : packageRoot.appendingPathComponent(".build/debug/trip-generator")
}()

/// Runs the built `trip-generator`.
func runGenerator(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let p = Process()
    p.executableURL = generatorBinary
    p.arguments = arguments
    let output = Pipe(), errors = Pipe()
    p.standardOutput = output
    p.standardError = errors
    try p.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
    let url = scratchFolder.appendingPathComponent("tracekit-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Every regular file below `folder`, as paths relative to it, sorted.
func files(below folder: URL) -> [String] {
    let base = folder.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
    return walker.compactMap { $0 as? String }
        .filter {
            var isDir: ObjCBool = false;
            return FileManager.default.fileExists(atPath: base + "/" + $0, isDirectory: &isDir) && !isDir.boolValue
        }
        .sorted()
}

/// Every scenario sidecar in Traces/, relative to it.
let sidecars: [String] = files(below: tracesFolder).filter { $0.hasSuffix(".scenario.json") }

/// A sidecar read with TraceJSON and checked field by field against `tracekit-scenario/1`;
/// `problems` lists what does not conform (empty for a good sidecar).
struct Scenario {
    var category = ""
    var pickupHandedOff = false
    var pickup: Coordinate?
    var dropoff: Coordinate?
    var traces: [(role: Role, file: URL)] = []
    var timeline: [(state: FulfilmentState, at: Timestamp)]?
    var problems: [String] = []

    init(_ relative: String) throws {
        let url = tracesFolder.appendingPathComponent(relative)
        let json = try JSONParser.parse(Array(try Data(contentsOf: url)))
        guard case .object(let members) = json.kind else {
            problems.append("not an object")
            return
        }
        let known: Set = ["schema", "category", "pickupHandedOff", "pickup", "dropoff", "traces", "timeline"]
        for m in members where !known.contains(m.key) { problems.append("unknown member '\(m.key)'") }
        if json["schema"]?.kind != .string("tracekit-scenario/1") { problems.append("schema is not \"tracekit-scenario/1\"") }
        if case .string(let c)? = json["category"]?.kind, !c.isEmpty { category = c } else { problems.append("category is not a name") }
        if case .bool(let b)? = json["pickupHandedOff"]?.kind {
            pickupHandedOff = b
        } else {
            problems.append("pickupHandedOff is not a boolean")
        }
        pickup = Self.point(json["pickup"])
        dropoff = Self.point(json["dropoff"])
        if pickup == nil { problems.append("pickup is not {lat, lon}") }
        if dropoff == nil { problems.append("dropoff is not {lat, lon}") }
        if case .object(let entries)? = json["traces"]?.kind, !entries.isEmpty {
            for e in entries {
                guard let role = Role(parsing: e.key), case .string(let path) = e.value.kind else {
                    problems.append("traces: '\(e.key)' is not a role with a file name")
                    continue
                }
                traces.append((role, url.deletingLastPathComponent().appendingPathComponent(path)))
            }
        } else {
            problems.append("traces is not a non-empty object")
        }
        if let t = json["timeline"] {
            guard case .array(let items) = t.kind, !items.isEmpty else {
                problems.append("timeline is not a non-empty array")
                return
            }
            var steps: [(FulfilmentState, Timestamp)] = []
            for item in items {
                guard case .string(let s)? = item["state"]?.kind, let state = FulfilmentState(parsing: s), s == state.key,
                    case .string(let at)? = item["at"]?.kind, let time = Timestamp.parseISO8601(at), time.hadZone
                else {
                    problems.append(
                        "timeline entry at line \(item.line) is not {state: a FulfilmentState key, at: an ISO 8601 time with zone}")
                    continue
                }
                steps.append((state, time.timestamp))
            }
            timeline = steps
        }
    }

    private static func point(_ v: JSONValue?) -> Coordinate? {
        guard case .number(let lat)? = v?["lat"]?.kind, case .number(let lon)? = v?["lon"]?.kind,
            v.map({ if case .object(let m) = $0.kind { m.count == 2 } else { false } }) == true
        else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    /// The fixes of `role`'s trace.
    func fixes(of role: Role) throws -> [Fix] {
        guard let file = traces.first(where: { $0.role == role })?.file else { return [] }
        return try readFixes(file)
    }
}

/// Every track point of a trace file, read with TraceIO (problems are reported, not fatal).
func readFixes(_ url: URL) throws -> [Fix] {
    var reader = try openTrace(url.path)
    var out: [Fix] = []
    while let item = try reader.next() {
        if case .trackPoint(let f) = item { out.append(f) }
    }
    return out
}

/// The fix of `fixes` (in time order) nearest in time to `t`.
func fix(_ fixes: [Fix], nearest t: Timestamp) -> Fix {
    fixes.min { abs($0.time!.seconds(since: t)) < abs($1.time!.seconds(since: t)) }!
}

/// Path length of the fixes taken from `start` to `end`, metres.
func pathLength(_ fixes: [Fix], from start: Timestamp, to end: Timestamp) -> Double {
    let inside = fixes.filter { $0.time! >= start && $0.time! <= end }
    return zip(inside, inside.dropFirst()).reduce(0) { $0 + Haversine.distance(from: $1.0.coordinate, to: $1.1.coordinate) }
}
