import Foundation
import TestSupport
import Testing

/// The package's products as SwiftPM reads them (`swift package dump-package`): which targets
/// each one reaches, and whether a system library (PROJ, GEOS, libxml2, zlib) is among them.
struct PackageGraph {
    /// Each target's type ("regular", "system", "executable", "test") and the targets it uses.
    var targets: [String: (type: String, uses: [String])] = [:]
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

@Suite("Package products: the core links no C library")
struct PackageProductsTests {
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
