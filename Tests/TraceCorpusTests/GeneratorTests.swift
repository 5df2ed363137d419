import Foundation
import TestSupport
import Testing

@Suite("trip-generator: deterministic, and the committed trips are its output")
struct GeneratorTests {
    @Test("the same seed twice gives byte-identical folders, equal to Traces/trips; another seed differs")
    func deterministic() throws {
        let a = try temporaryFolder(), b = try temporaryFolder(), c = try temporaryFolder()
        defer { for u in [a, b, c] { try? FileManager.default.removeItem(at: u) } }
        for (folder, seed) in [(a, corpusSeed), (b, corpusSeed), (c, "7")] {
            let r = try runGenerator(["--out", folder.path, "--seed", seed])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        }
        let committed = tracesFolder.appendingPathComponent("trips")
        let names = files(below: a)
        #expect(names.count == 10, "\(names)")
        #expect(names == files(below: b))
        #expect(names == files(below: committed), "Traces/trips holds files the generator does not write, or lacks some")
        var differsWithOtherSeed = 0
        for name in names {
            let bytes = try Data(contentsOf: a.appendingPathComponent(name))
            #expect(bytes == (try Data(contentsOf: b.appendingPathComponent(name))), "\(name) differs between two runs")
            #expect(
                bytes == (try Data(contentsOf: committed.appendingPathComponent(name))),
                "Traces/trips/\(name) is not what `swift run trip-generator --out Traces/trips --seed \(corpusSeed)` writes")
            if bytes != (try Data(contentsOf: c.appendingPathComponent(name))) { differsWithOtherSeed += 1 }
        }
        // Every GPX depends on the seed; the sidecars of a handful of trips could only coincide by chance.
        #expect(differsWithOtherSeed == names.count)
    }

    @Test(
        "a write that fails (file size limit; killed by SIGXFSZ, or EFBIG with it ignored) leaves the previous trips and no temporary file",
        .disabled(if: sanitizer == "thread", "TSan's runtime faults (SIGBUS in its shadow memory) in a process under a file size limit"),
        arguments: ["exec env --default-signal=XFSZ", "trap '' XFSZ; exec"])
    func atomicWrites(start: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try runGenerator(["--out", folder.path, "--seed", "7"]).status == 0)
        let names = files(below: folder)
        let before = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", "ulimit -f 1; \(start) \"$0\" --out \"$1\" --seed 6 > /dev/null 2>&1", generatorBinary.path, folder.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus != 0)
        #expect(files(below: folder) == names)
        for (name, bytes) in zip(names, before) {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == bytes, "\(name) changed")
        }
    }

    @Test(
        "usage errors exit 64 with a one-line reason; --help exits 0",
        arguments: [
            (["--seed", "x", "--out", "/tmp/x"], "--seed: 'x' is not an unsigned 64-bit integer"),
            (["--seed", "6"], "--out FOLDER is required"),
            (["--out"], "--out needs a folder"),
            (["--out", "/tmp/x", "--speed", "2"], "unexpected argument '--speed'"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let r = try runGenerator(arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("trip-generator: " + message), "\(r.stderr)")
    }

    @Test("--help documents the usage and the committed corpus's command")
    func help() throws {
        let r = try runGenerator(["--help"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("USAGE: trip-generator --out FOLDER [--seed N]"))
        #expect(r.stdout.contains("swift run trip-generator --out Traces/trips --seed \(corpusSeed)"))
    }
}
