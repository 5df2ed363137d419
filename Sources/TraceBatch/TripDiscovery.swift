import TraceJSON
import TraceReplay

/// Finds the trips of a batch: under folders, in manifests, or named one by one.
///
/// - **Folder**: walked recursively (names beginning with "." and links to folders are skipped).
///   A trip is a `*.scenario.json` sidecar whose `traces` member names its traces, or a trace file
///   (``traceExtensions``, any case: `.gpx`, `.csv`, `.plt`, `.rec`, `.nmea`, `.nma`, `.kml`,
///   `.geojson`, `.ndjson`, `.jsonl`, `.json`) that no sidecar in its folder claims (the sidecar
///   names it in `traces`). A sidecar without `traces` is the sidecar of the trace with its name
///   (`NAME.scenario.json` for `NAME.gpx`), which is then the trip; alone, it is a trip that
///   fails. Trips are named by their path relative to the folder and sorted by it (byte order),
///   so the order is the same on every machine.
/// - **Manifest**: one trip per line, a sidecar or a trace path relative to the manifest's folder
///   (to the working folder for standard input, `-`), or a folder to walk as above; blank lines
///   and lines starting with `#` are skipped. Trips keep the manifest's order and are named by the
///   line. A manifest file is a document that may come with a corpus, so its lines must be
///   relative and stay inside its folder (as a sidecar's traces must: ``SidecarPaths``); the
///   lines of standard input are the caller's own, as arguments are, and may lead anywhere.
///
/// Confinement: a trip found under a folder (given, or listed by a manifest) may read only
/// traces inside that folder, and a trip listed by a manifest file only traces inside the
/// manifest's folder (``BatchTrip/sidecarPaths``), besides its sidecar's own rule. With
/// `confined: false` (`--allow-outside-paths`) none of this applies.
/// - **A file named directly**: a sidecar (`*.scenario.json`) or a trace; any other file is read
///   as a manifest.
public enum TripDiscovery {
    /// The extensions of trace files a folder walk picks up (compared case-insensitively).
    /// A `.json` file is a trace unless it is one of TraceKit's own documents (``isTraceKitDocument(_:)``:
    /// a baseline, a policy, tolerances) or a `*.policy.json`.
    public static let traceExtensions: Set<String> = [
        "gpx", "csv", "plt", "rec", "nmea", "nma", "kml", "geojson", "ndjson", "jsonl", "json",
    ]
    /// The suffix of scenario sidecars.
    public static let sidecarSuffix = ".scenario.json"

    /// The trips of every input, in order: folders walked, manifests read, files taken as trips.
    /// `stdin` supplies the manifest named "-" (read at most once). `confined`: manifest lines and
    /// sidecars' traces must stay inside their folders (see the type's discussion).
    /// - Throws: ``BatchTripError``: `.cannotOpen` for an input that cannot be read, `.usage` when
    ///   two trips would have the same name, `.data` for a manifest line that leads out of its
    ///   folder.
    public static func trips(
        inputs: [String], stdin: (() throws(BatchTripError) -> [UInt8])? = nil, confined: Bool = true
    ) throws(BatchTripError) -> [BatchTrip] {
        var all: [BatchTrip] = []
        var usedStdin = false
        for input in inputs {
            if input == "-" {
                guard !usedStdin else { throw BatchTripError(.usage, "'-' (a manifest on standard input) given more than once") }
                usedStdin = true
                let bytes: [UInt8]
                if let stdin { bytes = try stdin() } else { bytes = try BatchFile.read("-") }
                all += try trips(manifest: bytes, name: "<stdin>", folder: nil, confined: false)
                continue
            }
            switch BatchFile.entry(input) {
            case .folder:
                all += try trips(under: input)
            case .file:
                if let trip = trip(file: input, id: input) {
                    all.append(trip)
                } else {
                    all += try trips(manifest: BatchFile.read(input), name: input, folder: folder(of: input), confined: confined)
                }
            case .other:
                _ = try BatchFile.read(input)  // throws the reason (missing, no permission)
                throw BatchTripError(.cannotOpen, "\(input): not a folder, a trace, a sidecar or a manifest")
            }
        }
        var seen = Set<String>()
        for t in all where !seen.insert(t.id).inserted {
            throw BatchTripError(.usage, "two trips are named '\(t.id)': give inputs whose trips have different relative paths")
        }
        if !confined {
            for i in all.indices { all[i].sidecarPaths = .anywhere }
        }
        return all
    }

    /// The trip a file is when named directly: a sidecar or a trace; nil for anything else.
    public static func trip(file path: String, id: String) -> BatchTrip? {
        if path.hasSuffix(sidecarSuffix) { return BatchTrip(id: id, path: path, kind: .sidecar) }
        if isTrace(path) && !isTraceKitDocument(path) { return BatchTrip(id: id, path: path, kind: .trace) }
        return nil
    }

    /// Whether `path` is a JSON file of TraceKit's own, not a trace: a `*.policy.json`, or a
    /// `.json`, `.ndjson` or `.jsonl` whose first 4 KiB name a `"tracekit-…"` schema or format
    /// (baselines, policies, tolerances, energy profiles, `batch --jsonl` output).
    public static func isTraceKitDocument(_ path: String) -> Bool {
        let lower = path.lowercased()
        guard lower.hasSuffix(".json") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") else { return false }
        if path.hasSuffix(".policy.json") { return true }
        guard let bytes = BatchFile.prefix(path, count: 4096) else { return false }
        let text = String(decoding: bytes, as: UTF8.self).filter { $0 != " " && $0 != "\n" && $0 != "\r" && $0 != "\t" }
        return text.contains(#""schema":"tracekit-"#) || text.contains(#""format":"tracekit-"#)
    }

    /// Whether the name has a trace extension.
    public static func isTrace(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return false }
        return traceExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The trips under folder `root`, named relative to it, sorted by name; their sidecars'
    /// traces must stay inside `root`.
    /// - Throws: ``BatchTripError`` `.cannotOpen` when a folder cannot be listed.
    public static func trips(under root: String) throws(BatchTripError) -> [BatchTrip] {
        var found: [BatchTrip] = []
        try walk(root: root, relative: "", into: &found)
        for i in found.indices { found[i].sidecarPaths = .confined(roots: [root]) }
        return found.sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
    }

    private static func walk(root: String, relative: String, into found: inout [BatchTrip]) throws(BatchTripError) {
        let dir = relative.isEmpty ? root : join(root, relative)
        let names = try BatchFile.names(in: dir).filter { !$0.hasPrefix(".") }
        var sidecars: [String] = [], traces: [String] = []
        for name in names {
            let path = join(dir, name)
            switch BatchFile.entry(path) {
            case .folder:
                if !BatchFile.isLink(path) { try walk(root: root, relative: relative.isEmpty ? name : join(relative, name), into: &found) }
            case .file:
                if name.hasSuffix(sidecarSuffix) {
                    sidecars.append(name)
                } else if isTrace(name) && !isTraceKitDocument(path) {
                    traces.append(name)
                }
            case .other:
                break
            }
        }
        var claimed = Set<String>()
        for name in sidecars {
            let listed = claims(sidecar: join(dir, name))
            if listed.isEmpty {
                // The sidecar of NAME.ext beside it: that trace is the trip, if it exists.
                let stem = String(name.dropLast(sidecarSuffix.count))
                if traces.contains(where: { stemOf($0) == stem }) { continue }
            }
            claimed.formUnion(listed)
            found.append(BatchTrip(id: relative.isEmpty ? name : join(relative, name), path: join(dir, name), kind: .sidecar))
        }
        for name in traces where !claimed.contains(name) {
            found.append(BatchTrip(id: relative.isEmpty ? name : join(relative, name), path: join(dir, name), kind: .trace))
        }
    }

    /// The trace names in the sidecar's folder that its `traces` member lists (empty when it
    /// lists none or cannot be read: the replay reports a bad sidecar).
    static func claims(sidecar path: String) -> Set<String> {
        guard let bytes = try? BatchFile.read(path, limit: 16 << 20), let root = try? JSONParser.parse(bytes),
            case .object(let members)? = root["traces"]?.kind
        else { return [] }
        var names = Set<String>()
        for m in members {
            guard case .string(let s) = m.value.kind else { continue }
            let normal = normalized(s)
            if !normal.contains("/") { names.insert(normal) }
        }
        return names
    }

    /// Reads a manifest's lines: each a trip (sidecar or trace) or a folder, relative to `folder`
    /// (nil: the working folder). `name` names the manifest in errors and, with `confined`, is
    /// its file: each line must then be a relative path that stays inside the file's folder
    /// (checked before anything it names is looked at), and so must the traces of the sidecars
    /// it lists. Standard input's lines are read with `confined` false.
    /// - Throws: ``BatchTripError`` `.cannotOpen` for a listed path that is missing or unreadable
    ///   (naming the manifest's line), `.data` for a line that is neither, or that leads out of
    ///   the manifest's folder.
    public static func trips(manifest bytes: [UInt8], name: String, folder: String?, confined: Bool) throws(BatchTripError)
        -> [BatchTrip]
    {
        var found: [BatchTrip] = []
        var lineNumber = 0
        let roots = confined ? [Self.folder(of: name) ?? "."] : []
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = trimmed(String(decoding: raw, as: UTF8.self))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if confined,
                let reason = SidecarPaths.refusal(of: line, in: name, roots: [], document: "manifest", items: "lines")
            {
                throw BatchTripError(.data, "\(name):\(lineNumber): \(reason)")
            }
            let path = line.hasPrefix("/") || folder == nil ? line : join(folder!, line)
            switch BatchFile.entry(path) {
            case .folder:
                found += try trips(under: path).map {
                    BatchTrip(id: join(line, $0.id), path: $0.path, kind: $0.kind, sidecarPaths: .confined(roots: roots + [path]))
                }
            case .file:
                guard var trip = trip(file: path, id: line) else {
                    throw BatchTripError(
                        .data,
                        "\(name):\(lineNumber): '\(line)' is not a sidecar (*.scenario.json), a trace (\(traceExtensions.sorted().map { "." + $0 }.joined(separator: ", "))) or a folder"
                    )
                }
                trip.sidecarPaths = .confined(roots: roots)
                found.append(trip)
            case .other:
                // A listed trip that is missing is that trip's failure, reported with the rest.
                if var trip = trip(file: path, id: line) {
                    trip.sidecarPaths = .confined(roots: roots)
                    found.append(trip)
                } else {
                    throw BatchTripError(.cannotOpen, "\(name):\(lineNumber): '\(line)': no such trip, trace or folder")
                }
            }
        }
        return found
    }

    static func join(_ a: String, _ b: String) -> String { a.hasSuffix("/") ? a + b : a + "/" + b }

    static func folder(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func stemOf(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `p` without "./" steps and with "x/.." pairs removed (textually).
    static func normalized(_ p: String) -> String {
        var parts: [Substring] = []
        for part in p.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (p.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    static func trimmed(_ s: String) -> String {
        var u = Substring(s)
        while let f = u.first, f == " " || f == "\t" || f == "\r" { u = u.dropFirst() }
        while let l = u.last, l == " " || l == "\t" || l == "\r" { u = u.dropLast() }
        return String(u)
    }
}

/// `--shard I/N`: the trips whose index in the batch's order (the sorted walk, then the
/// manifest's order, inputs in the order given) is I modulo N, so N machines that each take one
/// shard of the same inputs replay every trip exactly once.
public struct Shard: Hashable, Sendable {
    public var index: Int
    public var count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses "I/N" (0 ≤ I < N).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: i, count: n)
    }

    /// The trips of this shard, in order.
    public func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }
}
