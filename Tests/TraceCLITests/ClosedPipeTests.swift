import Foundation
import TestSupport
import Testing
import TracePlatform

/// `tracekit … | head`: when the reader of standard output goes away, SIGPIPE ends tracekit
/// quietly (ExitCode.swift, "Closed output"; README, "Limits").
@Suite("closed standard output, end to end")
struct ClosedPipeTests {
    static let trace = packageRoot.appendingPathComponent("Traces/georust-garmin-activity.gpx").path
    static let ride = packageRoot.appendingPathComponent("Traces/trips/ride/ride.scenario.json").path
    static let trips = packageRoot.appendingPathComponent("Traces/trips").path
    static let pairs = packageRoot.appendingPathComponent("Traces/distance-pairs.txt").path

    /// Every command that can print a lot, in each of its formats.
    static let commands: [[String]] = [
        ["info", trace], ["info", "--format", "json", trace, trace],
        ["convert", trace, "-", "--to", "csv"], ["convert", "--to", "gpx", "--input-format", "gpx", "-", "-"],
        ["smooth", trace, "-", "--to", "ndjson"],
        ["replay", "--scenario", ride], ["replay", "--scenario", ride, "--format", "json"],
        ["replay", "--scenario", ride, "--format", "csv"], ["replay", "--scenario", ride, "--format", "markdown"],
        ["compare", "--policy", "seed", "--policy", "seed", "--scenario", ride],
        ["distance", "--input", pairs], ["distance"],
        ["batch", trips, "--jsonl", "--jobs", "2"], ["batch", trips, "--jobs", "2"],
        ["policy", "show"], ["policy", "show", "--format", "json"], ["policy", "diff", "seed", "seed"],
        ["--help"], ["help", "replay"],
    ]

    @Test("the reader is gone before the first write: ended by SIGPIPE, nothing on stderr", arguments: commands)
    func closedBeforeWriting(arguments: [String]) throws {
        // As a parent that ignores SIGPIPE (this test process does, for Run): tracekit must not
        // inherit that, or it would fail with EPIPE and a message instead.
        Platform.ignore(.brokenPipe)
        let input = try Platform.openToRead(
            arguments.contains("-") ? Self.trace : (arguments == ["distance"] ? Self.pairs : "/dev/null"), closeOnExec: true)
        defer { try? Platform.close(input) }
        let out = Child.pipe(), err = Child.pipe()
        try Platform.close(out.read)
        let child = try Child(Run.binary.path, arguments, stdin: input, stdout: out.write, stderr: err.write)
        try Platform.close(out.write)
        try Platform.close(err.write)
        let stderr = Child.readAll(err.read)
        let r = child.wait()
        #expect(
            r.signal == SIGPIPE && r.exited == nil,
            "\(arguments): exit \(r.exited.map(String.init) ?? "-"), signal \(r.signal.map(String.init) ?? "-")")
        #expect(stderr.isEmpty, "\(arguments): \(stderr)")
    }

    @Test("| head -1 in a shell: the first line, status 141, no message, no hang on endless input")
    func head() throws {
        Platform.ignore(.brokenPipe)
        let script = """
            set -o pipefail
            yes '0 0 0 1' 2>/dev/null | "$0" distance | head -1; echo "distance ${PIPESTATUS[1]}"
            "$0" convert "$1" - --to csv | head -1; echo "convert ${PIPESTATUS[0]}"
            "$0" batch "$2" --jsonl --jobs 1 | head -c 10 > /dev/null; echo "batch ${PIPESTATUS[0]}"
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script, Run.binary.path, Self.trace, Self.trips]
        let output = Pipe(), errors = Pipe()
        p.standardOutput = output
        p.standardError = errors
        try p.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines[0].hasPrefix("111319.491 ") && lines[2].hasPrefix("track,segment,time,"), "\(out)")
        #expect(lines.filter { $0.hasSuffix(" 141") } == ["distance 141", "convert 141", "batch 141"], "\(out)")
        #expect(err.isEmpty, "\(err)")
    }

    @Test("--help documents it among the exit statuses")
    func documented() throws {
        let help = try Run(["--help"]).stdout
        #expect(help.contains("\n  141 ") && help.contains("ended by SIGPIPE"), "\(help)")
    }
}
