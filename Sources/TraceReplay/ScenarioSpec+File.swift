import TraceDomain
import TraceGeodesy
import TraceIO
public import TraceJSON
import TracePlatform
import TraceSharing

/// A scenario sidecar that could not be used: file, line, column, the member's path and why, on
/// one line (the same type as a policy file's error, so a command reports both alike).
public typealias ScenarioFileError = JSONFileError

/// Scenario sidecars: `trip.scenario.json` beside `trip.gpx` (found automatically) or
/// `--scenario FILE`.
///
/// ```json
/// {
///   "schema": "tracekit-scenario/1",
///   "category": "ride",
///   "pickupHandedOff": false,
///   "pickup": { "lat": 47.3769, "lon": 8.5417 },
///   "dropoff": { "lat": 47.3900, "lon": 8.5100 },
///   "traces": { "helper": "helper.gpx", "hirer": "hirer.gpx" },
///   "timeline": [
///     { "state": "accepted", "at": "2024-05-01T10:00:00Z" },
///     { "state": "enRoute", "at": "2024-05-01T10:01:00Z" }
///   ],
///   "cancelledAt": null
/// }
/// ```
///
/// Only `schema` is required. `category` is a name (``RequestCategory/init(named:)``: "ride",
/// "babysitting", "dog walking", "delivery"; any other name is a non-ride category), without
/// control characters (``TraceJSON/ShownText/isControl(_:)``, as a policy's name). Trace paths
/// are relative to the sidecar's folder. `timeline` lists states by ``FulfilmentState/key`` (or
/// display name) with ISO 8601 times that carry a zone; it is replayed as given, so it must be in
/// time order and each state must be able to follow the previous one (Accepted is entered with the
/// first entry when not listed). `cancelledAt` is an ISO 8601 time or null. Unknown members are
/// errors: a typo must not be silently ignored.
extension ScenarioSpec {
    /// The schema this TraceKit reads.
    public static let sidecarSchema = "tracekit-scenario/1"

    /// Reads a sidecar's bytes; `file` names it in errors and anchors relative trace paths.
    /// - Throws: ``ScenarioFileError`` for a syntax error or an invalid member (line, column, path).
    public init(sidecarBytes bytes: [UInt8], file: String) throws(ScenarioFileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ScenarioFileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        self = try SidecarReader(file: file).spec(root)
    }

    /// The largest sidecar read by ``init(sidecarFile:)``: 1 MiB (a sidecar is a few hundred bytes;
    /// the bound keeps a hostile one cheap).
    public static let sidecarLimit = 1 << 20

    /// Reads the sidecar at `path` (at most ``sidecarLimit`` bytes); relative trace paths resolve
    /// against its folder.
    /// - Throws: ``ScenarioFileError`` naming the file: it cannot be opened or read, is larger than
    ///   the limit, or is not a valid sidecar (line, column, member).
    public init(sidecarFile path: String) throws(ScenarioFileError) {
        func failure(_ message: String) -> ScenarioFileError {
            ScenarioFileError(file: path, line: 0, column: 0, field: "", message: message)
        }
        let fd: Int32
        do { fd = try Platform.openToRead(path) } catch { throw failure("cannot open: \(error)") }
        defer { try? Platform.close(fd) }
        if (try? Platform.status(ofDescriptor: fd))?.kind == .folder { throw failure("is a directory") }
        let bytes: [UInt8]
        do { bytes = try Platform.readAll(fd, limit: Self.sidecarLimit) } catch {
            switch error {
            case .tooLarge: throw failure("larger than \(Self.sidecarLimit) bytes")
            case .failed(let e): throw failure("read failed: \(e)")
            }
        }
        try self.init(sidecarBytes: bytes, file: path)
    }

    /// The folder part of `path` joined to `relative`, unless `relative` is absolute.
    static func resolve(_ relative: String, besides path: String) -> String {
        guard !relative.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return relative }
        return String(path[...slash]) + relative
    }
}

private struct SidecarReader: JSONFieldReading {
    let file: String

    func time(_ v: JSONValue, _ path: String) throws(ScenarioFileError) -> Timestamp {
        let text = try string(v, path)
        guard let (t, zoned) = Timestamp.parseISO8601(text), zoned else {
            throw fail(v, path, "expected an ISO 8601 time with a zone (e.g. 2024-05-01T10:00:00Z), got \"\(text)\"")
        }
        return t
    }

    func point(_ v: JSONValue, _ path: String) throws(ScenarioFileError) -> Coordinate {
        _ = try members(v, path, allowed: ["lat", "lon"])
        guard let lat = v["lat"] else { throw fail(v, "\(path).lat", "missing") }
        guard let lon = v["lon"] else { throw fail(v, "\(path).lon", "missing") }
        guard case .number(let y) = lat.kind else { throw fail(lat, "\(path).lat", "expected a number of degrees, found \(lat.typeName)") }
        guard case .number(let x) = lon.kind else { throw fail(lon, "\(path).lon", "expected a number of degrees, found \(lon.typeName)") }
        do {
            return try Coordinate(latitude: y, longitude: x)
        } catch {
            throw fail(abs(y) > 90 ? lat : lon, path, "\(error)")
        }
    }

    func spec(_ root: JSONValue) throws(ScenarioFileError) -> ScenarioSpec {
        let allowed = ["schema", "category", "pickupHandedOff", "pickup", "dropoff", "traces", "timeline", "cancelledAt"]
        _ = try members(root, "", allowed: allowed)
        guard let schema = root["schema"] else {
            throw fail(root, "schema", "missing; a scenario file starts with \"schema\": \"\(ScenarioSpec.sidecarSchema)\"")
        }
        let name = try string(schema, "schema")
        guard name == ScenarioSpec.sidecarSchema else {
            throw fail(schema, "schema", "unsupported schema \"\(name)\"; this TraceKit reads \"\(ScenarioSpec.sidecarSchema)\"")
        }
        var spec = ScenarioSpec()
        let source = "sidecar \(file)"
        if let c = root["category"] {
            let text = try string(c, "category")
            guard !text.isEmpty else { throw fail(c, "category", "must not be empty") }
            // As a policy's name: reports show the category, so it holds no control character.
            guard !text.unicodeScalars.contains(where: ShownText.isControl) else {
                throw fail(c, "category", "must not contain control characters (line breaks, tabs)")
            }
            spec.category = Sourced(RequestCategory(named: text), .sidecar, source)
        }
        if let h = root["pickupHandedOff"] {
            guard case .bool(let b) = h.kind else { throw fail(h, "pickupHandedOff", "expected true or false, found \(h.typeName)") }
            spec.pickupHandedOff = Sourced(b, .sidecar, source)
        }
        if let p = root["pickup"], p.kind != .null { spec.pickup = Sourced(try point(p, "pickup"), .sidecar, source) }
        if let p = root["dropoff"], p.kind != .null { spec.dropoff = Sourced(try point(p, "dropoff"), .sidecar, source) }
        if let t = root["traces"] {
            for (key, value) in try members(t, "traces", allowed: Role.allCases.map(\.key)) {
                let path = try string(value, "traces.\(key)")
                guard !path.isEmpty else { throw fail(value, "traces.\(key)", "must not be empty") }
                spec.traces[Role(parsing: key)!] = Sourced(ScenarioSpec.resolve(path, besides: file), .sidecar, source)
            }
        }
        if let c = root["cancelledAt"], c.kind != .null { spec.cancelledAt = Sourced(try time(c, "cancelledAt"), .sidecar, source) }
        if let t = root["timeline"], t.kind != .null {
            guard case .array(let items) = t.kind else {
                throw fail(t, "timeline", "expected an array of {\"state\", \"at\"}, found \(t.typeName)")
            }
            var entries: [TimelineEntry] = []
            for (i, item) in items.enumerated() {
                let p = "timeline[\(i)]"
                _ = try members(item, p, allowed: ["state", "at"])
                guard let s = item["state"] else { throw fail(item, "\(p).state", "missing") }
                guard let a = item["at"] else { throw fail(item, "\(p).at", "missing") }
                let key = try string(s, "\(p).state")
                guard let state = FulfilmentState(parsing: key) else {
                    throw fail(
                        s, "\(p).state",
                        "unknown state \"\(key)\"; expected one of \(FulfilmentState.allCases.map(\.key).joined(separator: ", "))")
                }
                entries.append(TimelineEntry(state: state, time: try time(a, "\(p).at"), provenance: .sidecar, detail: source))
            }
            do {
                spec.timeline = Sourced(try TimelineEntry.validated(entries), .sidecar, source)
            } catch {
                throw fail(items[error.index], "timeline[\(error.index)]", error.message)
            }
        }
        return spec
    }
}
