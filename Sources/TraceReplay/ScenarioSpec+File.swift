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
/// are relative to the sidecar's folder and, unless ``SidecarPaths/anywhere`` allows otherwise,
/// must stay inside it (``SidecarPaths``). `timeline` lists states by ``FulfilmentState/key`` (or
/// display name) with ISO 8601 times that carry a zone; it is replayed as given, so it must be in
/// time order and each state must be able to follow the previous one (Accepted is entered with the
/// first entry when not listed). `cancelledAt` is an ISO 8601 time or null. Unknown members are
/// errors: a typo must not be silently ignored.
extension ScenarioSpec {
    /// The schema this TraceKit reads.
    public static let sidecarSchema = "tracekit-scenario/1"

    /// Reads a sidecar's bytes; `file` names it in errors and anchors relative trace paths, which
    /// must lead where `paths` allows (by default inside `file`'s folder).
    /// - Throws: ``ScenarioFileError`` for a syntax error or an invalid member (line, column, path),
    ///   a trace path `paths` refuses included (the trace is not opened).
    public init(sidecarBytes bytes: [UInt8], file: String, paths: SidecarPaths = .sidecarFolder) throws(ScenarioFileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ScenarioFileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        self = try SidecarReader(file: file, paths: paths).spec(root)
    }

    /// The traces the sidecar `bytes` names (`traces.ROLE`, resolved against `file`'s folder),
    /// read without the sidecar's other checks, to list a command's inputs before it runs: none
    /// when the sidecar does not parse (its replay reports why).
    /// - Throws: ``ScenarioFileError``, as ``init(sidecarBytes:file:paths:)`` would, for a trace
    ///   path `paths` refuses; nothing is opened.
    public static func tracePaths(sidecarBytes bytes: [UInt8], file: String, paths: SidecarPaths) throws(ScenarioFileError) -> [String] {
        guard let root = try? JSONParser.parse(bytes), case .object(let members)? = root["traces"]?.kind else { return [] }
        let reader = SidecarReader(file: file, paths: paths)
        var found: [String] = []
        for m in members where Role(parsing: m.key) != nil {
            guard case .string(let path) = m.value.kind, !path.isEmpty else { continue }
            found.append(try reader.trace(path, m.value, "traces.\(m.key)"))
        }
        return found
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

    /// The folder of file `path` ("." when it names none).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Where the traces a scenario sidecar names (`traces.ROLE`) may lead.
///
/// A sidecar is a document that travels with a corpus: one that names `/etc/passwd`, or climbs out
/// with `../`, would make a replay open (and its error quote) a file nobody meant to give. By
/// default a trace path must be relative and, once ".", ".." and symbolic links are resolved (a
/// link inside the folder that points out of it is outside), inside the sidecar's folder and
/// inside each of the roots (a batch's corpus folder). The check uses `stat` and `realpath` on
/// the path's folders only: a refused trace is never opened.
public enum SidecarPaths: Hashable, Sendable {
    /// Relative, inside the sidecar's folder and inside each of `roots`.
    case confined(roots: [String])
    /// Anywhere: absolute paths, "..", links out of the folder (`--allow-outside-paths`).
    case anywhere

    /// Inside the sidecar's folder: the default.
    public static let sidecarFolder = SidecarPaths.confined(roots: [])

    /// The command-line option that allows any path, as the refusals name it.
    public static let allowOption = "--allow-outside-paths"

    /// Why the trace path `trace`, as sidecar `file` writes it, is refused (a clause for a
    /// message); nil when it may be read.
    public func refusal(of trace: String, sidecar file: String) -> String? {
        guard case .confined(let roots) = self else { return nil }
        return Self.refusal(of: trace, in: file, roots: roots, document: "sidecar", items: "traces")
    }

    /// Why `path`, written in the document `file` (a sidecar, a batch manifest) relative to its
    /// folder, is refused: absolute, climbing out with "..", or leading out of the folder or out of
    /// one of `roots` once links are resolved. A clause for a message (`document` names the kind
    /// of file, "sidecar", and `items` what it lists, "traces"; the path shown with JSON's
    /// escapes); nil when it stays inside. Only `stat` and `realpath` are used: nothing is opened.
    public static func refusal(of path: String, in file: String, roots: [String], document: String, items: String) -> String? {
        let shown = "'" + String(JSONWriter.quoted(path).dropFirst().dropLast()) + "'"
        let advice = "; a \(document)'s \(items) are relative paths inside its folder (\(allowOption) allows others)"
        if path.hasPrefix("/") { return "\(shown) is an absolute path" + advice }
        var depth = 0
        for part in path.split(separator: "/") where part != "." {
            depth += part == ".." ? -1 : 1
            if depth < 0 { return "\(shown) climbs out of the \(document)'s folder with '..'" + advice }
        }
        let place = FilePlace(ScenarioSpec.resolve(path, besides: file))
        if !place.isInside(FilePlace(ScenarioSpec.folder(of: file))) {
            return "\(shown) leads out of the \(document)'s folder through a symbolic link (to \(place.resolvedText))" + advice
        }
        for root in roots where !place.isInside(FilePlace(root)) {
            return "\(shown) leads to \(place.resolvedText), outside the corpus folder \(root)" + advice
        }
        return nil
    }
}

private struct SidecarReader: JSONFieldReading {
    let file: String
    let paths: SidecarPaths

    /// The trace path `path` of member `member` (value `v`), resolved against the sidecar's folder.
    /// - Throws: ``ScenarioFileError`` when ``paths`` refuses it.
    func trace(_ path: String, _ v: JSONValue, _ member: String) throws(ScenarioFileError) -> String {
        if let reason = paths.refusal(of: path, sidecar: file) { throw fail(v, member, reason) }
        return ScenarioSpec.resolve(path, besides: file)
    }

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
                spec.traces[Role(parsing: key)!] = Sourced(try trace(path, value, "traces.\(key)"), .sidecar, source)
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
