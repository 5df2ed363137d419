import Foundation
import TestSupport
import Testing
import TraceIO
import TracePlatform

/// Every file a command writes goes through ``AtomicFile``: a failure at any point (bad input
/// half-way, an invalid second input, a write error, a signal) leaves the previous file
/// byte-identical, with its mode, and no temporary file beside it.
@Suite("atomic output, end to end")
struct AtomicOutputTests {
    static let previous = Array("the previous file\n".utf8)
    static let ride = "Traces/trips/ride/ride.scenario.json"

    /// A fresh folder holding each of `targets` with ``previous`` as its bytes and mode 0640.
    static func folder(_ targets: [String]) throws -> String {
        let dir = scratchFolder.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for t in targets {
            try Data(previous).write(to: URL(fileURLWithPath: "\(dir)/\(t)"))
            chmod("\(dir)/\(t)", 0o640)
        }
        return dir
    }

    /// Each target is still ``previous`` with mode 0640, and the folder holds exactly `files`.
    static func expectUntouched(_ dir: String, _ targets: [String], files: [String], _ context: String) throws {
        for t in targets {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(t)"))) == previous, "\(context): \(t) changed")
            let mode = try Platform.status(ofPath: "\(dir)/\(t)").permissions
            #expect(mode == 0o640, "\(context): \(t) mode \(String(mode, radix: 8))")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == files.sorted(), "\(context): the folder holds \(left)")
    }

    /// A GPX of `good` timed track points, then one whose latitude is out of range.
    static func goesBad(after good: Int, in dir: String) throws -> String {
        var text = "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for i in 0..<good {
            text +=
                "<trkpt lat=\"\(47 + Double(i) * 1e-5)\" lon=\"8.5\"><time>2024-05-01T\(String(format: "%02d:%02d:%02d", i / 3600, i / 60 % 60, i % 60))Z</time></trkpt>\n"
        }
        text += "<trkpt lat=\"95\" lon=\"8.5\"><time>2024-05-02T00:00:00Z</time></trkpt>\n</trkseg></trk></gpx>\n"
        let path = "\(dir)/bad.gpx"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "input that goes bad after 3,000 points (more than one 64 KiB block written): exit 65, OUT as it was",
        arguments: [
            ["convert", "--on-problem", "fail"], ["convert", "--on-problem", "fail", "--to", "ndjson"], ["smooth", "--on-problem", "fail"],
        ])
    func inputGoesBad(command: [String]) throws {
        let dir = try Self.folder(["out.gpx"])
        let bad = try Self.goesBad(after: 3000, in: dir)
        let r = try Run(command + [bad, "\(dir)/out.gpx"])
        #expect(r.status == 65 && r.stderr.contains("bad.gpx"), "\(r.stderr)")
        try Self.expectUntouched(dir, ["out.gpx"], files: ["bad.gpx", "out.gpx"], "\(command)")
        // The same command on a good input replaces OUT and keeps its mode.
        let good = try Run(command + ["Traces/georust-garmin-activity.gpx", "\(dir)/out.gpx"])
        #expect(good.status == 0)
        let info = try Platform.status(ofPath: "\(dir)/out.gpx")
        #expect(info.permissions == 0o640 && info.size > 10_000)
    }

    @Test("replay: an invalid second input stops the replay; --geojson and --svg stay as they were")
    func replaySecondInput() throws {
        let dir = try Self.folder(["u.geojson", "p.svg"])
        let r = try Run([
            "replay", "Traces/trips/ride/helper.gpx", "--hirer", "\(dir)/missing.gpx", "--geojson", "\(dir)/u.geojson", "--svg",
            "\(dir)/p.svg",
        ])
        #expect(r.status == 66 && r.stdout.isEmpty, "\(r.stderr)")
        try Self.expectUntouched(dir, ["u.geojson", "p.svg"], files: ["u.geojson", "p.svg"], "replay")
        let bad = try Self.goesBad(after: 50, in: dir)
        let r2 = try Run([
            "replay", "Traces/trips/ride/helper.gpx", "--hirer", bad, "--on-problem", "fail", "--geojson", "\(dir)/u.geojson",
        ])
        #expect(r2.status == 65, "\(r2.stderr)")
        try Self.expectUntouched(dir, ["u.geojson", "p.svg"], files: ["u.geojson", "p.svg", "bad.gpx"], "replay, bad hirer")
    }

    /// Runs tracekit with a file size limit of `kilobytes`: with SIGXFSZ's default action the
    /// write that crosses it kills the process; with SIGXFSZ ignored it fails with EFBIG.
    static func limited(_ arguments: [String], kilobytes: Int, killed: Bool) throws -> (signalled: Bool, status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        let start = killed ? "exec env --default-signal=XFSZ" : "trap '' XFSZ; exec"
        p.arguments = ["-c", "ulimit -f \(kilobytes); \(start) \"$0\" \"$@\" > /dev/null", Run.binary.path] + arguments
        p.currentDirectoryURL = packageRoot
        let errors = Pipe()
        p.standardError = errors
        try p.run()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationReason == .uncaughtSignal, p.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    /// Each writing command and the file it writes (more than 1 KiB each).
    static let writers: [(arguments: [String], target: String)] = [
        (["convert", "Traces/georust-garmin-activity.gpx"], "out.gpx"),
        (["smooth", "--to", "csv", "Traces/georust-garmin-activity.gpx"], "out.csv"),
        (["replay", "--scenario", ride, "--svg"], "p.svg"),
        (["replay", "--scenario", ride, "--geojson"], "u.geojson"),
        (["batch", "Traces/trips/ride", "--jobs", "1", "--write-baseline"], "b.json"),
        (["batch", "Traces/trips/ride", "--jobs", "1", "--baseline", "Traces/baseline.json", "--junit"], "j.xml"),  // with a gate: 5 KB
        (["batch", "Traces/trips/ride", "--jobs", "1", "--markdown"], "m.md"),
        (["batch", "Traces/trips/ride", "--jobs", "1", "--html"], "h.html"),
    ]

    @Test(
        "a write that fails half-way (file size limit): the previous file stays, the temporary file goes",
        .disabled(if: sanitizer == "thread", "TSan's runtime faults (SIGBUS in its shadow memory) in a process under a file size limit"),
        arguments: [false, true])
    func writeFails(killed: Bool) throws {
        for (arguments, target) in Self.writers {
            let dir = try Self.folder([target])
            let r = try Self.limited(arguments + ["\(dir)/\(target)"], kilobytes: 1, killed: killed)
            if killed {
                // Killed by SIGXFSZ, which first removes the temporary file (AtomicFile's handler).
                #expect(r.signalled && r.status == SIGXFSZ, "\(arguments): \(r)")
            } else {
                #expect(!r.signalled && r.status == 74 && r.stderr.contains("\(dir)/\(target)"), "\(arguments): \(r)")
            }
            try Self.expectUntouched(dir, [target], files: [target], "\(arguments), killed: \(killed)")
        }
    }

    @Test("the target is a folder: exit 74, the folder as it was, no temporary file")
    func targetIsFolder() throws {
        let dir = try Self.folder([])
        try FileManager.default.createDirectory(atPath: "\(dir)/out.csv", withIntermediateDirectories: true)
        let r = try Run(["convert", "Traces/georust-garmin-activity.gpx", "\(dir)/out.csv"])
        #expect(r.status == 74 && r.stderr.hasPrefix("tracekit: \(dir)/out.csv: cannot rename into place: "), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out.csv").isEmpty)
    }

    @Test("a named pipe (or a device such as /dev/null) is written through, not replaced by a file")
    func targetIsPipe() throws {
        let dir = try Self.folder([])
        let fifo = "\(dir)/report.html"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader drains the pipe while tracekit writes into it.
        nonisolated(unsafe) var read = Data()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if let h = FileHandle(forReadingAtPath: fifo) { read = h.readDataToEndOfFile() }
            done.signal()
        }
        let r = try Run(["replay", "--scenario", Self.ride, "--html", fifo])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect((try? Platform.status(ofLink: fifo))?.kind == .fifo, "the pipe was replaced")
        #expect(String(decoding: read, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["report.html"])  // no temporary file
        // /dev/null stays the device it is.
        #expect(try Run(["replay", "--scenario", Self.ride, "--svg", "/dev/null"]).status == 0)
        #expect((try? Platform.status(ofPath: "/dev/null"))?.kind == .characterDevice)
    }

    @Test("AtomicFile: abandon and deinit remove the temporary file; commit keeps the target's mode, a new file gets 0666 less the umask")
    func atomicFile() throws {
        let dir = try Self.folder(["kept"])
        do {
            let f = try AtomicFile(path: "\(dir)/kept")
            try f.write("half")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 2)
            f.abandon()
        }
        do {
            let f = try AtomicFile(path: "\(dir)/kept")
            try f.write("half")
        }
        try Self.expectUntouched(dir, ["kept"], files: ["kept"], "abandoned")
        try AtomicFile.write("\(dir)/kept", "new\n")
        try AtomicFile.write("\(dir)/fresh", "new\n")
        #expect(try String(contentsOfFile: "\(dir)/kept", encoding: .utf8) == "new\n")
        // The umask, without setting it (other tests run at the same time).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let mask = UInt32(status.split(separator: "\n").first { $0.hasPrefix("Umask:") }!.split(separator: "\t").last!, radix: 8)!
        #expect(try Platform.status(ofPath: "\(dir)/kept").permissions == 0o640)
        #expect(try Platform.status(ofPath: "\(dir)/fresh").permissions == 0o666 & ~mask)
        #expect(throws: TraceWriteError.self) { try AtomicFile.write("\(dir)/no-such-folder/x", "x") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["fresh", "kept"])
    }
}
