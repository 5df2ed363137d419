import Foundation
import TestSupport
import Testing

/// The package's products as SwiftPM reads them (`swift package dump-package`): which targets
/// each one reaches, and whether a system library (PROJ, GEOS, libxml2, zlib) is among them.
struct PackageGraph {
    /// Each target's type ("regular", "system", "executable", "test") and the targets it uses.
    var targets: [String: (type: String, uses: [String])] = [:]
    /// The product's targets: those under Sources/ (no custom path), tests excluded.
    var sourceTargets: Set<String> = []
    var products: [String: [String]] = [:]

    init() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracekit-dump-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: `swift test` holds the lock of the package's .build.
        process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PackageGraphError.dumpFailed(process.terminationStatus)
        }
        for target in json["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
            // Each dependency is {"byName": [name, …]}, {"target": [name, …]} or {"product": [name, …]}.
            let uses = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { ($0.values.first as? [Any])?.first as? String }
            targets[name] = (type, uses)
            let path = target["path"] as? String
            if path == nil || path!.hasPrefix("Sources/"), type != "test" { sourceTargets.insert(name) }
        }
        for product in json["products"] as? [[String: Any]] ?? [] {
            if let name = product["name"] as? String { products[name] = product["targets"] as? [String] ?? [] }
        }
    }

    /// Every target `roots` reach, themselves included.
    func closure(_ roots: [String]) -> Set<String> {
        var seen = Set<String>()
        var stack = roots
        while let t = stack.popLast() {
            guard seen.insert(t).inserted else { continue }
            stack += targets[t]?.uses ?? []
        }
        return seen
    }

    /// The system-library targets (C libraries from Debian) among `targets`.
    func systemLibraries(in targets: Set<String>) -> [String] { targets.filter { self.targets[$0]?.type == "system" }.sorted() }
}

enum PackageGraphError: Error { case dumpFailed(Int32) }

/// The module graph as docs/architecture.md draws it ("Module graph"): in its first code block,
/// a line `NAME ─► A, B,` (any run of `─`, a space or not, then `►`) gives NAME's dependencies,
/// continued on the lines after it up to a blank line; the names on a line with no arrow that
/// continues nothing have none. Text in brackets is a note, never read; words that are not a
/// target's name (layers) are ignored. A module drawn twice is an error, not a merge.
enum DrawnGraph {
    struct Twice: Error, CustomStringConvertible {
        var module: String
        var description: String { "\(module) is drawn twice" }
    }

    static func parse(_ markdown: String, names: Set<String>) throws -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        guard let heading = markdown.range(of: "## Module graph"),
            let open = markdown.range(of: "```\n", range: heading.upperBound..<markdown.endIndex),
            let close = markdown.range(of: "\n```", range: open.upperBound..<markdown.endIndex)
        else { return [:] }
        /// The target names in `text`, outside brackets.
        func words(_ text: Substring) -> [String] {
            var plain = "", depth = 0
            for ch in text {
                if ch == "(" { depth += 1 } else if ch == ")" { depth = max(depth - 1, 0) } else if depth == 0 { plain.append(ch) }
            }
            return plain.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init).filter(names.contains)
        }
        func start(_ name: String) throws {
            guard graph[name] == nil else { throw Twice(module: name) }
            graph[name] = []
        }
        var current: String?
        for line in markdown[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                current = nil
            } else if let arrow = line.firstIndex(of: "►") {
                current = words(line[..<arrow]).last
                if let c = current {
                    try start(c)
                    graph[c]!.formUnion(words(line[line.index(after: arrow)...]))
                }
            } else if let c = current {
                graph[c]!.formUnion(words(line))
            } else {
                for name in words(line) { try start(name) }
            }
        }
        return graph
    }
}

@Suite("Package products: the core links no C library")
struct PackageProductsTests {
    @Test("docs/architecture.md's module graph is Package.swift's: every module, every direct dependency")
    func drawnGraphIsThePackage() throws {
        let graph = try PackageGraph()
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let drawn = try DrawnGraph.parse(doc, names: graph.sourceTargets)
        #expect(graph.sourceTargets.count >= 20)  // the dump was read
        #expect(Set(drawn.keys) == graph.sourceTargets, "drawn but not in the package, or the reverse")
        for name in graph.sourceTargets.sorted() {
            let declared = Set(graph.targets[name]?.uses ?? [])
            #expect(drawn[name] == declared, "\(name): drawn \(drawn[name]?.sorted() ?? []), declared \(declared.sorted())")
        }
    }

    @Test("the graph's reader: arrows, continued lines, leaves; notes in brackets ignored; a module drawn twice refused")
    func drawnGraphReader() throws {
        let doc = "x\n## Module graph\n\n```\nlayer  A ─► B, C,\n          D (a note: never E)\n\nmore   B ──── ► D\n\nC   D   E (F)\n```\n"
        let g = try DrawnGraph.parse(doc, names: ["A", "B", "C", "D", "E", "F"])
        #expect(g == ["A": ["B", "C", "D"], "B": ["D"], "C": [], "D": [], "E": []])
        let twice = "## Module graph\n```\nA ─► B\n\nA ─► C\n```\n"
        #expect(throws: DrawnGraph.Twice.self) { try DrawnGraph.parse(twice, names: ["A", "B", "C"]) }
    }

    @Test("TraceKitCore's closure reaches no system library; the wrappers' products reach only their own")
    func coreIsCFree() throws {
        let graph = try PackageGraph()
        let core = try #require(graph.products["TraceKitCore"])
        for module in ["TraceDomain", "TraceGeodesy", "TraceJSON", "TraceSharing", "TraceDevice", "TraceService", "TraceReplay"] {
            #expect(core.contains(module), "TraceKitCore lacks \(module)")
        }
        #expect(graph.systemLibraries(in: graph.closure(core)) == [], "the core product reaches a C library")
        #expect(graph.systemLibraries(in: graph.closure(try #require(graph.products["TraceKitProj"]))) == ["CProj"])
        #expect(graph.systemLibraries(in: graph.closure(try #require(graph.products["TraceKitGeometry"]))) == ["CGeos"])
        // The umbrella holds every library module; the command links PROJ only (no GEOS).
        let everything = Set(
            graph.targets.filter {
                $0.value.type == "regular" && $0.key.hasPrefix("Trace") && !["TraceCLI", "TracePlatform"].contains($0.key)
            }.keys)
        #expect(Set(try #require(graph.products["TraceKit"])) == everything)
        #expect(graph.systemLibraries(in: graph.closure(["tracekit"])) == ["CProj"])
    }
}
