import Foundation
import Testing
import TraceIO

/// Minimised crashers that `make fuzz` found (README, "Hardening: fuzzing"), committed under
/// Fuzz/TARGET/ beside this file; `make fuzz` also seeds its corpus with them.
@Suite("Fuzz regressions: minimised crashers read to a clean error")
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fuzz")

    func bytes(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.folder.appendingPathComponent(target).appendingPathComponent(name)))
    }

    @Test("<?> (a processing instruction whose ?> overlaps its <?) is unterminated, not a trap")
    func processingInstructionCloseOverlapsOpen() throws {
        let input = try bytes("gpx", "pi-close-overlaps-open.gpx")
        #expect(input == Array("<?>".utf8))
        var reader = GPXReader(bytes: input)
        #expect(throws: TraceReadError.self) { while try reader.next() != nil {} }
        do {
            var r = GPXReader(bytes: input)
            while try r.next() != nil {}
        } catch {
            #expect(error.message.contains("unexpected end of file in a processing instruction"))
        }
        // A real instruction after it still reads: the search starts after "<?".
        var ok = GPXReader(bytes: Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8))
        var fixes = 0
        while let item = try ok.next() { if case .waypoint = item { fixes += 1 } }
        #expect(fixes == 1)
    }

    @Test("every committed GPX crasher reads to its end or a thrown error")
    func everyGPXInput() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("gpx").path)
        #expect(!names.isEmpty)
        for name in names {
            var reader = GPXReader(bytes: try bytes("gpx", name), name: name)
            do { while try reader.next() != nil {} } catch {}
        }
    }
}
