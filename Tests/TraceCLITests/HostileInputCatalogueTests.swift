import Foundation
import TestSupport
import Testing
import TracePlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hostile-input catalogue of issue 8, end to end: each case writes a file (or streams one
/// through a pipe), runs the built `tracekit`, and checks the exit status and the first line of
/// stderr (file, line, column, the problem). README.md's "Hardening: hostile input" lists the same cases.
///
/// Streams that would be 2 GB are written into a pipe by a writer that stops when the reader exits,
/// so nothing large touches the disk; the child's peak RSS (wait4's ru_maxrss) must stay under
/// ``HostileRun/peakRSSBound``.

/// One run of `tracekit` through `rss-probe` (which forks, execs it and reports its wait4
/// ru_maxrss: see Tests/Support/RSSProbe/main.c for why not straight from here), with standard input from
/// a file or a pipe fed by a bounded writer.
struct HostileRun {
    /// The probe, built beside `tracekit` (the test target depends on it).
    static let probe = Run.binary.deletingLastPathComponent().appendingPathComponent("rss-probe")

    /// The bound on the child's peak resident set, bytes (README: "Hardening: hostile input").
    static let peakRSSBound = 64 << 20
    /// A run still going after this long is killed (and the test fails): never a hang.
    static let deadline: TimeInterval = 120

    var status: Int32
    var stdout: String
    var stderr: String
    /// The child's peak resident set, bytes.
    var peakRSS: Int
    /// Bytes the writer got into the pipe before the child stopped reading.
    var written = 0

    var firstLine: String { stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? "" }

    /// Runs `tracekit arguments`, standard input from `stdinFile` (or /dev/null); or, when `head`
    /// or `total` is given, from a pipe into which `head` then `unit` repeated are written until
    /// `total` bytes have gone or the child stops reading.
    init(_ arguments: [String], stdinFile: String = "/dev/null", head: [UInt8] = [], unit: [UInt8] = [], total: Int = 0) throws {
        Platform.ignore(.brokenPipe)
        let id = UUID().uuidString
        let outPath = scratchFolder.appendingPathComponent("hostile-\(id).out").path
        let errPath = scratchFolder.appendingPathComponent("hostile-\(id).err").path
        let rssPath = scratchFolder.appendingPathComponent("hostile-\(id).rss").path
        defer {
            try? Platform.remove(outPath)
            try? Platform.remove(errPath)
            try? Platform.remove(rssPath)
        }
        let feeding = total > 0 || !head.isEmpty
        var fds: [Int32] = [-1, -1]
        if feeding {
            // Close-on-exec, so no child holds the write end open.
            guard let pipe = try? Platform.makePipe() else { throw POSIXError(.EIO) }
            fds = [pipe.read, pipe.write]
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if feeding {
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, stdinFile, O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Its own process group, so that the watchdog ends the probe and tracekit together.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([HostileRun.probe.path, rssPath, Run.binary.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, HostileRun.probe.path, &actions, &attributes, argv + [nil], environ)
        if feeding { try? Platform.close(fds[0]) }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        // The watchdog: a child that neither finishes nor stops reading is killed.
        let done = DispatchSemaphore(value: 0)
        let child = pid
        DispatchQueue.global().async {
            if done.wait(timeout: .now() + HostileRun.deadline) == .timedOut { kill(-child, SIGKILL) }
        }
        if feeding {
            written = HostileRun.feed(fds[1], head: head, unit: unit, total: total)
            try? Platform.close(fds[1])
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        done.signal()
        // WIFEXITED / WEXITSTATUS (macros Swift does not import); the probe passes tracekit's
        // status on, a signal as 128 + signal.
        status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        // ru_maxrss is in KiB on Linux (bytes on Darwin). No figure (the probe was killed) is
        // reported as unbounded.
        let figure = Int(HostileRun.text(rssPath).trimmingCharacters(in: .whitespacesAndNewlines))
        #if canImport(Darwin)
            peakRSS = figure ?? .max
        #else
            peakRSS = figure.map { $0 * 1024 } ?? .max
        #endif
        stdout = HostileRun.text(outPath)
        stderr = HostileRun.text(errPath)
    }

    /// The text of the file at `path` ("" when it cannot be opened), read with read(2): Foundation's
    /// `String(contentsOfFile:)` and `Data(contentsOf:)` leak their buffer for an empty file here
    /// (LeakSanitizer, `make test-sanitize`).
    static func text(_ path: String) -> String {
        guard let fd = try? Platform.openToRead(path) else { return "" }
        return Child.readAll(fd)
    }

    /// Writes `head`, then `unit` over and over, until `total` bytes or a failed write (the
    /// reader closed the pipe: EPIPE, SIGPIPE being ignored). Returns the bytes written.
    private static func feed(_ fd: Int32, head: [UInt8], unit: [UInt8], total: Int) -> Int {
        var sent = 0
        func put(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { try? Platform.write(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                guard let n, n > 0 else { return false }
                offset += n
                sent += n
            }
            return true
        }
        guard put(head) else { return sent }
        while sent < total && put(unit) {}
        return sent
    }
}

/// A file of the catalogue: its name (the extension picks the reader) and bytes.
struct HostileFile: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    /// The command before the file's path, e.g. `["info"]`.
    var command: [String]
    var status: Int32
    /// The first line of stderr, `FILE` standing for the path.
    var firstLine: String
    /// Text standard output must hold (for the cases that succeed), e.g. the diagnostic.
    var stdoutHolds: String?

    var testDescription: String { name }

    /// The file's name: `name` itself, or for a catalogue case ("GPX: …", "JSON policy: …")
    /// `case.` and the extension its prefix names.
    var fileName: String {
        guard let colon = name.range(of: ": ") else { return name }
        let kind = name[..<colon.lowerBound].lowercased()
        return "case." + (kind.hasPrefix("json") ? "json" : kind)
    }

    init(_ name: String, _ text: String, _ command: [String] = ["info"], status: Int32, _ firstLine: String, stdoutHolds: String? = nil) {
        self.init(name, Array(text.utf8), command, status: status, firstLine, stdoutHolds: stdoutHolds)
    }

    init(_ name: String, _ bytes: [UInt8], _ command: [String] = ["info"], status: Int32, _ firstLine: String, stdoutHolds: String? = nil) {
        self.name = name
        self.bytes = bytes
        self.command = command
        self.status = status
        self.firstLine = firstLine
        self.stdoutHolds = stdoutHolds
    }

    /// Writes the file into its own folder in the scratch folder and runs the command on it.
    func run() throws -> (HostileRun, path: String) {
        let folder = scratchFolder.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(fileName)
        try Data(bytes).write(to: url)
        return (try HostileRun(command + [url.path]), url.path)
    }
}

enum Hostile {
    static let gpxHead = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n<trk><trkseg>\n"
    static let gpxTail = "</trkseg></trk>\n</gpx>\n"
    /// A GPX with the given points (one per line, from line 4).
    static func gpx(_ points: String...) -> String { gpxHead + points.joined() + gpxTail }
    static func point(_ lat: String = "47", _ lon: String = "8", time: String? = "2020-01-01T00:00:00Z", _ extra: String = "") -> String {
        "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">" + (time.map { "<time>\($0)</time>" } ?? "") + extra + "</trkpt>\n"
    }
    /// A CSV with a header (line 1) and rows from line 2.
    static func csv(_ rows: String...) -> String { "lat,lon,time,ele\n" + rows.map { $0 + "\n" }.joined() }
    static let pltHeader = "OziExplorer Track Point File Version 2.1\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,t,0,0,0,0\n0\n"
    /// A PLT with points from line 7.
    static func plt(_ rows: String...) -> String { pltHeader + rows.map { $0 + "\n" }.joined() }
    static func rec(_ payloads: String...) -> String { payloads.map { "2020-01-01T00:00:00Z\t*\t\($0)\n" }.joined() }
    static let fail = ["info", "--on-problem", "fail"]
    static let validate = ["policy", "validate"]
    static let scenario = ["replay", "--scenario"]
    static let fourHundredDigits = "4" + String(repeating: "0", count: 399)
    static let outOfRange = "is out of range (beyond ±1.8e308)"
    static let policyHead = "{\"format\": \"tracekit-policy\", \"version\": 2, \"name\": "

    /// The catalogue of single files.
    static let files: [HostileFile] = [
        // XML security and bounds.
        HostileFile(
            "GPX: external entity (XXE) is never loaded",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<gpx><trk><name>&xxe;</name></trk></gpx>\n",
            status: 65,
            "tracekit: FILE:3:17: undefined entity '&xxe;' (only the five predefined entities and character references are read; DTD entities are never expanded)"
        ),
        HostileFile(
            "GPX: an external DTD is never fetched",
            gpx(point()).replacingOccurrences(of: "<gpx ", with: "<!DOCTYPE gpx SYSTEM \"http://127.0.0.1:9/evil.dtd\">\n<gpx "),
            status: 0, "", stdoutHolds: "1 / 1 / 1"),
        HostileFile(
            "GPX: billion laughs is refused at the first reference",
            "<!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>\n<gpx><trk><name>&c;</name></trk></gpx>",
            status: 65,
            "tracekit: FILE:2:17: undefined entity '&c;' (only the five predefined entities and character references are read; DTD entities are never expanded)"
        ),
        HostileFile(
            "GPX: 257 nested elements", "<gpx>" + String(repeating: "<e>", count: 256) + String(repeating: "</e>", count: 256) + "</gpx>",
            status: 65, "tracekit: FILE:1:771: elements nested deeper than 256"),
        HostileFile(
            "GPX: 257 attributes", "<gpx " + (0..<257).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>",
            status: 65, "tracekit: FILE:1:2200: more than 256 attributes"),
        HostileFile(
            "GPX: a 1025-byte element name", "<gpx>\n<" + String(repeating: "n", count: 1025) + "/></gpx>",
            status: 65, "tracekit: FILE:2:2: a name longer than 1024 bytes"),
        HostileFile(
            "GPX: a 1024-byte element name is read", "<gpx>\n<" + String(repeating: "n", count: 1024) + "/></gpx>",
            status: 0, "", stdoutHolds: "0 / 0 / 0"),
        HostileFile(
            "GPX: a 1025-byte name inside a point (the readers' fast paths)",
            gpx(
                point(
                    "47", "8", time: "2020-01-01T00:00:00Z",
                    "<" + String(repeating: "n", count: 1025) + ">1</" + String(repeating: "n", count: 1025) + ">")),
            status: 65, "tracekit: FILE:4:59: a name longer than 1024 bytes"),
        HostileFile(
            "GPX: a 1025-byte attribute name", "<gpx " + String(repeating: "a", count: 1025) + "=\"1\"/>",
            status: 65, "tracekit: FILE:1:6: a name longer than 1024 bytes"),
        HostileFile(
            "GPX: a 1025-byte end tag name", "<gpx></" + String(repeating: "g", count: 1025) + ">",
            status: 65, "tracekit: FILE:1:8: a name longer than 1024 bytes"),
        HostileFile(
            "GPX: 1 MiB + 1 of captured text", "<gpx><trk><name>" + String(repeating: "x", count: 1 << 20 + 1) + "</name></trk></gpx>",
            status: 65, "tracekit: FILE:1:1048577: text longer than 1048576 bytes"),
        // Empty and nearly empty files.
        HostileFile("GPX: empty", "", status: 65, "tracekit: FILE:1:1: unexpected end of file: no root element"),
        HostileFile("GPX: only a BOM", [0xEF, 0xBB, 0xBF], status: 65, "tracekit: FILE:1:4: unexpected end of file: no root element"),
        HostileFile("GPX: only whitespace", " \n\t\r\n", status: 65, "tracekit: FILE:3:1: unexpected end of file: no root element"),
        HostileFile(
            "GPX: only the XML declaration", "<?xml version=\"1.0\"?>\n", status: 65,
            "tracekit: FILE:2:1: unexpected end of file: no root element"),
        HostileFile(
            "CSV: empty", "", status: 65, "tracekit: FILE:1: empty file: expected a header line naming the latitude and longitude columns"),
        HostileFile(
            "CSV: only a BOM", [0xEF, 0xBB, 0xBF], status: 65,
            "tracekit: FILE:1: empty file: expected a header line naming the latitude and longitude columns"),
        HostileFile(
            "CSV: only whitespace", " \n\n\t\n", status: 65,
            "tracekit: FILE:1: empty file: expected a header line naming the latitude and longitude columns"),
        HostileFile("CSV: only a header", "lat,lon,time\n", status: 0, "", stdoutHolds: "0 / 0 / 0"),
        HostileFile("PLT: empty", "", status: 65, "tracekit: FILE:1: empty file: expected an OziExplorer track header"),
        HostileFile(
            "PLT: only a BOM", [0xEF, 0xBB, 0xBF], status: 65, "tracekit: FILE:1: empty file: expected an OziExplorer track header"),
        HostileFile(
            "PLT: only whitespace", "  \n\n", status: 65,
            "tracekit: FILE:1: not an OziExplorer track file: line 1 is not 'OziExplorer Track Point File Version 2.x'"),
        HostileFile("PLT: only the header", pltHeader, status: 0, "", stdoutHolds: "0 / 0 / 0"),
        HostileFile(
            "PLT: a truncated header", "OziExplorer Track Point File Version 2.1\nWGS 84\n", status: 65,
            "tracekit: FILE:3: truncated header: expected 6 header lines, found 2"),
        HostileFile("REC: empty (a stream with no records yet)", "", status: 0, "", stdoutHolds: "0 / 0 / 0"),
        HostileFile("REC: only a BOM", [0xEF, 0xBB, 0xBF], status: 0, "", stdoutHolds: "0 / 0 / 0"),
        HostileFile("JSON policy: empty", "", validate, status: 65, "tracekit: FILE:1:1: unexpected end of file: expected a value"),
        HostileFile(
            "JSON policy: only a BOM", [0xEF, 0xBB, 0xBF], validate, status: 65,
            "tracekit: FILE:1:4: unexpected end of file: expected a value"),
        HostileFile(
            "JSON policy: only whitespace", "\n \n", validate, status: 65, "tracekit: FILE:3:1: unexpected end of file: expected a value"),
        HostileFile("JSON scenario: empty", "", scenario, status: 65, "tracekit: FILE:1:1: unexpected end of file: expected a value"),

        // Values: NaN, infinities, exponents, 400 digits, out-of-range latitudes.
        HostileFile(
            "GPX: NaN latitude", gpx(point("NaN")), fail, status: 65, "tracekit: FILE:4: invalid coordinate: latitude 'NaN' is not a number"
        ),
        HostileFile(
            "GPX: infinite longitude", gpx(point("47", "-Infinity")), fail, status: 65,
            "tracekit: FILE:4: invalid coordinate: longitude '-Infinity' is not a number"),
        HostileFile(
            "GPX: inf elevation", gpx(point("47", "8", time: "2020-01-01T00:00:00Z", "<ele>inf</ele>")), fail, status: 65,
            "tracekit: FILE:4: unreadable value: elevation 'inf' is not a number"),
        HostileFile(
            "GPX: NaN elevation is counted, the point kept", gpx(point("47", "8", time: "2020-01-01T00:00:00Z", "<ele>NaN</ele>")),
            status: 0, "",
            stdoutHolds: "1 × unreadable value, first at line 4 (elevation 'NaN' is not a number)"),
        HostileFile(
            "GPX: exponents are numbers", gpx(point("4.7e1", "80e-1")), status: 0, "", stdoutHolds: "problems                    none"),
        HostileFile(
            "GPX: 1e400 latitude", gpx(point("1e400")), fail, status: 65,
            "tracekit: FILE:4: invalid coordinate: latitude '1e400' \(outOfRange)"),
        HostileFile(
            "GPX: 400-digit latitude", gpx(point(fourHundredDigits)), fail, status: 65,
            "tracekit: FILE:4: invalid coordinate: latitude '\(fourHundredDigits.prefix(40))…' \(outOfRange)"),
        HostileFile(
            "GPX: 400-digit elevation", gpx(point("47", "8", time: "2020-01-01T00:00:00Z", "<ele>\(fourHundredDigits)</ele>")), fail,
            status: 65,
            "tracekit: FILE:4: unreadable value: elevation '\(fourHundredDigits.prefix(40))…' \(outOfRange)"),
        HostileFile(
            "GPX: 400 decimals are read to the nearest double", gpx(point("47." + String(repeating: "1", count: 400))), status: 0, "",
            stdoutHolds: "problems                    none"),
        HostileFile("GPX: 1e-400 is zero", gpx(point("1e-400")), status: 0, "", stdoutHolds: "problems                    none"),
        HostileFile(
            "GPX: latitude 91", gpx(point("91")), fail, status: 65,
            "tracekit: FILE:4: invalid coordinate: latitude 91.0 is outside [-90, 90] degrees"),
        HostileFile(
            "GPX: longitude 400", gpx(point("47", "400")), fail, status: 65,
            "tracekit: FILE:4: invalid coordinate: longitude 400.0 is outside [-360, 360] degrees"),
        HostileFile(
            "CSV: NaN latitude (a placeholder: no value)", csv("NaN,8,2020-01-01T00:00:00Z,1"), fail, status: 65,
            "tracekit: FILE:2: missing coordinate: latitude"),
        HostileFile(
            "CSV: inf latitude", csv("inf,8,2020-01-01T00:00:00Z,1"), fail, status: 65,
            "tracekit: FILE:2: invalid coordinate: latitude 'inf' is not a number"),
        HostileFile(
            "CSV: 1e400 elevation", csv("47,8,2020-01-01T00:00:00Z,1e400"), fail, status: 65,
            "tracekit: FILE:2: unreadable value: elevation '1e400' \(outOfRange)"),
        HostileFile(
            "CSV: 400-digit latitude", csv("\(fourHundredDigits),8,2020-01-01T00:00:00Z,1"), fail, status: 65,
            "tracekit: FILE:2: invalid coordinate: latitude '\(fourHundredDigits.prefix(40))…' \(outOfRange)"),
        HostileFile(
            "CSV: latitude -91", csv("-91,8,2020-01-01T00:00:00Z,1"), fail, status: 65,
            "tracekit: FILE:2: invalid coordinate: latitude -91.0 is outside [-90, 90] degrees"),
        HostileFile(
            "PLT: NaN latitude", plt("NaN,8,0,100,43831.0,,"), fail, status: 65,
            "tracekit: FILE:7: invalid coordinate: latitude 'NaN' is not a number"),
        HostileFile(
            "PLT: 1e400 altitude", plt("47,8,0,1e400,43831.0,,"), fail, status: 65,
            "tracekit: FILE:7: unreadable value: altitude '1e400' \(outOfRange)"),
        HostileFile(
            "PLT: 400-digit longitude", plt("47,\(fourHundredDigits),0,100,43831.0,,"), fail, status: 65,
            "tracekit: FILE:7: invalid coordinate: longitude '\(fourHundredDigits.prefix(40))…' \(outOfRange)"),
        HostileFile(
            "PLT: latitude 91", plt("91,8,0,100,43831.0,,"), fail, status: 65,
            "tracekit: FILE:7: invalid coordinate: latitude 91.0 is outside [-90, 90] degrees"),
        HostileFile(
            "REC: latitude 91", rec("{\"_type\":\"location\",\"lat\":91,\"lon\":8,\"tst\":1577836800}"), fail, status: 65,
            "tracekit: FILE:1: invalid coordinate: latitude 91.0 is outside [-90, 90] degrees"),
        HostileFile(
            "REC: NaN in the first record (not JSON)", rec("{\"_type\":\"location\",\"lat\":NaN,\"lon\":8}"), status: 65,
            "tracekit: FILE:1:50: not an OwnTracks .rec file: JSON: expected a value (expected 'ISO-time <TAB> topic <TAB> JSON')"),
        HostileFile(
            "REC: 1e400 in a later record: a dropped point, counted at its line",
            rec("{\"_type\":\"location\",\"lat\":47,\"lon\":8,\"tst\":1577836800}", "{\"_type\":\"location\",\"lat\":1e400,\"lon\":8}"),
            status: 0, "",
            stdoutHolds: "1 × unreadable record (dropped), first at line 2 (JSON: number 1e400 \(outOfRange))"),
        HostileFile(
            "NDJSON: NaN, 1e400 and 0x1p3 in later lines: each a dropped point, counted at its line",
            "{\"lat\":47,\"lon\":8,\"time\":\"2020-01-01T00:00:00Z\"}\n{\"lat\":NaN,\"lon\":8}\n{\"lat\":1e400,\"lon\":8}\n{\"lat\":0x1p3,\"lon\":8}\n",
            status: 0, "", stdoutHolds: "3 × unreadable record (dropped), first at line 2 (JSON: expected a value)"),
        HostileFile(
            "JSON policy: a 400-digit number",
            policyHead + "\"x\", \"states\": {\"enRoute\": {\"distanceFilterMetres\": \(fourHundredDigits)}}}", validate, status: 65,
            "tracekit: FILE:1:105: number \(fourHundredDigits.prefix(40))… (400 characters) \(outOfRange)"),
        HostileFile(
            "JSON policy: NaN", policyHead + "\"x\", \"states\": {\"enRoute\": {\"distanceFilterMetres\": NaN}}}", validate, status: 65,
            "tracekit: FILE:1:105: expected a value"),
        HostileFile(
            "JSON policy: a huge exponent", policyHead + "\"x\", \"states\": {\"enRoute\": {\"distanceFilterMetres\": 1e999}}}", validate,
            status: 65,
            "tracekit: FILE:1:105: number 1e999 \(outOfRange)"),
        HostileFile(
            "JSON policy: 65 levels of nesting", String(repeating: "[", count: 65) + String(repeating: "]", count: 65), validate,
            status: 65,
            "tracekit: FILE:1:65: nesting deeper than 64"),
        HostileFile(
            "JSON policy: 1 MiB of numbers (the largest read; parsed in bounded memory)",
            "[" + String(repeating: "1,", count: 524_000) + "1]", validate, status: 65,
            "tracekit: FILE:1:1: expected an object, found an array"),
        HostileFile(
            "JSON policy: more than 1 MiB", "[" + String(repeating: "1,", count: 524_288) + "1]", validate, status: 65,
            "tracekit: FILE: larger than 1048576 bytes"),
        HostileFile(
            "JSON scenario: a 400-digit number",
            "{\"format\": \"tracekit-scenario\", \"version\": 1, \"pickup\": {\"lat\": \(fourHundredDigits), \"lon\": 0}}", scenario,
            status: 65,
            "tracekit: FILE:1:65: number \(fourHundredDigits.prefix(40))… (400 characters) \(outOfRange)"),
        HostileFile(
            "JSON scenario: 65 levels of nesting", "{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
            scenario, status: 65,
            "tracekit: FILE:1:69: nesting deeper than 64"),

        // Times: before 1970, after 2100, beyond what a timestamp holds, backwards, repeated.
        HostileFile(
            "GPX: a time before 1970", gpx(point(time: "1969-12-31T23:59:59Z")), fail, status: 65,
            "tracekit: FILE:4: time before 1970 or after 2100: 1969-12-31T23:59:59Z"),
        HostileFile(
            "GPX: a time in 2100", gpx(point(time: "2100-01-01T00:00:00Z")), fail, status: 65,
            "tracekit: FILE:4: time before 1970 or after 2100: 2100-01-01T00:00:00Z"),
        HostileFile(
            "GPX: a time before 1970 is kept and counted", gpx(point(time: "1901-12-13T20:45:52Z")), status: 0, "",
            stdoutHolds: "1 × time before 1970 or after 2100, first at line 4 (1901-12-13T20:45:52Z)"),
        HostileFile(
            "GPX: year 1 is unreadable (outside 1677–2262)", gpx(point(time: "0001-01-01T00:00:00Z")), fail, status: 65,
            "tracekit: FILE:4: unreadable time: '0001-01-01T00:00:00Z'"),
        HostileFile(
            "GPX: year 9999 is unreadable", gpx(point(time: "9999-12-31T23:59:59Z")), fail, status: 65,
            "tracekit: FILE:4: unreadable time: '9999-12-31T23:59:59Z'"),
        HostileFile(
            "GPX: the clock goes backwards", gpx(point(time: "2020-01-01T00:00:10Z"), point(time: "2020-01-01T00:00:00Z")), fail,
            status: 65,
            "tracekit: FILE:5: time goes backwards: 2020-01-01T00:00:00Z after 2020-01-01T00:00:10Z"),
        HostileFile(
            "GPX: a duplicate timestamp", gpx(point(), point("47.001")), fail, status: 65,
            "tracekit: FILE:5: duplicate time: 2020-01-01T00:00:00Z"),
        HostileFile(
            "CSV: a time before 1970", csv("47,8,1969-12-31T23:59:59Z,1"), fail, status: 65,
            "tracekit: FILE:2: time before 1970 or after 2100: 1969-12-31T23:59:59Z"),
        HostileFile(
            "CSV: the clock goes backwards",
            csv("47,8,2020-01-01T00:00:00Z,1", "47,8,2020-01-01T00:00:20Z,1", "47,8,2020-01-01T00:00:10Z,1", "47,8,2020-01-01T00:00:30Z,1"),
            fail,
            status: 65, "tracekit: FILE:4: time goes backwards: 2020-01-01T00:00:10Z after 2020-01-01T00:00:20Z"),
        HostileFile(
            "CSV: a duplicate timestamp", csv("47,8,2020-01-01T00:00:00Z,1", "47,8,2020-01-01T00:00:00Z,1"), fail, status: 65,
            "tracekit: FILE:3: duplicate time: 2020-01-01T00:00:00Z"),
        HostileFile(
            "PLT: a day number in 2100", plt("47,8,0,100,73051.0,,"), fail, status: 65,
            "tracekit: FILE:7: time before 1970 or after 2100: 2100-01-01T00:00:00Z"),
        HostileFile(
            "PLT: a day number beyond 2262", plt("47,8,0,100,1999999,,"), fail, status: 65,
            "tracekit: FILE:7: unreadable time: day number '1999999'"),
        HostileFile(
            "REC: tst before 1970", rec("{\"_type\":\"location\",\"lat\":47,\"lon\":8,\"tst\":-1}"), fail, status: 65,
            "tracekit: FILE:1: time before 1970 or after 2100: 1969-12-31T23:59:59Z"),
        HostileFile(
            "REC: tst 1e300", rec("{\"_type\":\"location\",\"lat\":47,\"lon\":8,\"tst\":1e300}"), fail, status: 65,
            "tracekit: FILE:1: unreadable time: tst a number"),
        HostileFile(
            "REC: a duplicate tst",
            rec(
                "{\"_type\":\"location\",\"lat\":47,\"lon\":8,\"tst\":1577836800}",
                "{\"_type\":\"location\",\"lat\":47,\"lon\":8,\"tst\":1577836800}"), fail,
            status: 65, "tracekit: FILE:2: duplicate time: 2020-01-01T00:00:00Z"),

        // Implausible motion (README, "Implausible motion: speed spikes and teleports").
        HostileFile(
            "GPX: a speed spike",
            gpx(
                point("47", time: "2020-01-01T00:00:00Z"), point("47.01", time: "2020-01-01T00:00:01Z"),
                point("47.0002", time: "2020-01-01T00:00:02Z")),
            status: 0, "",
            stdoutHolds: "1 × speed spike, first at line 5 (1.11 km in 1 s and 1.09 km back in 1 s, beyond the 100 m allowed at 100 m/s)"),
        HostileFile(
            "GPX: a speed spike under fail",
            gpx(
                point("47", time: "2020-01-01T00:00:00Z"), point("47.01", time: "2020-01-01T00:00:01Z"),
                point("47.0002", time: "2020-01-01T00:00:02Z")),
            fail, status: 65, "tracekit: FILE:5: speed spike: 1.11 km in 1 s and 1.09 km back in 1 s, beyond the 100 m allowed at 100 m/s"),
        HostileFile(
            "CSV: a teleport under fail",
            csv(
                "47,8,2020-01-01T00:00:00Z,1", "47.0001,8,2020-01-01T00:00:01Z,1", "48,8,2020-01-01T00:00:02Z,1",
                "48.0001,8,2020-01-01T00:00:03Z,1"),
            fail, status: 65, "tracekit: FILE:4: teleport: 111.18 km in 1 s, beyond the 100 m allowed at 100 m/s"),
        HostileFile(
            "CSV: 2.2 km within one second",
            csv((0..<200).map { "\(47 + Double($0) * 0.0001),8,2020-01-01T00:00:00Z,1" }.joined(separator: "\n")), status: 0, "",
            stdoutHolds: "22 × teleport, first at line 11 (100.1 m in 0 s, beyond the 100 m allowed at 100 m/s)"),

        // Zero-length segments.
        HostileFile("GPX: empty segments", "<gpx><trk><trkseg></trkseg><trkseg/></trk></gpx>", status: 0, "", stdoutHolds: "1 / 2 / 0"),
        HostileFile(
            "GPX: a segment of one point has length 0", gpx(point()), status: 0, "", stdoutHolds: "length                      0 km"),
        HostileFile(
            "GPX: a segment of repeated positions has length 0",
            gpx(point(time: "2020-01-01T00:00:00Z"), point(time: "2020-01-01T00:00:01Z")), status: 0, "",
            stdoutHolds: "length                      0 km"),

        // Text that would act on a terminal (issue 41): shown escaped, as `\u{1b}`, in every
        // message and report (Tests/TraceCLITests/HostileTextTests.swift runs every format).
        HostileFile(
            "CSV: an OSC sequence (set the terminal's title) in a time field", csv("47,8,\u{1B}]0;pwned\u{07},1"), fail, status: 65,
            "tracekit: FILE:2: unreadable time: '\\u{1b}]0;pwned\\u{7}'"),
        HostileFile(
            "CSV: the same, counted: the table shows it escaped", csv("47,8,\u{1B}]0;pwned\u{07},1"), status: 0, "",
            stdoutHolds: "1 × unreadable time, first at line 2 ('\\u{1b}]0;pwned\\u{7}')"),
        HostileFile(
            "NDJSON: a CSI sequence (clear the screen) in a time", "{\"lat\":47,\"lon\":8,\"time\":\"\\u001b[2J\"}\n", fail, status: 65,
            "tracekit: FILE:1: unreadable time: time '\\u{1b}[2J'"),
        HostileFile(
            "PLT: a C1 CSI in a coordinate", plt("47\u{9B}2J,8,0,100,43831.0,,"), fail, status: 65,
            "tracekit: FILE:7: invalid coordinate: latitude '47\\u{9b}2J' is not a number"),
        HostileFile(
            "GPX: a right-to-left override in a time", gpx(point(time: "2020\u{202E}-01-01T00:00:00Z")), fail, status: 65,
            "tracekit: FILE:4: unreadable time: '2020\\u{202e}-01-01T00:00:00Z'"),
        HostileFile(
            "JSON scenario: a control character in the category (refused, as in a policy's name)",
            "{\"schema\": \"tracekit-scenario/1\", \"category\": \"ride\\u001b[2J\"}", scenario, status: 65,
            "tracekit: FILE:1:47: category: must not contain control characters (line breaks, tabs)"),
        HostileFile(
            "JSON policy: a C1 control in the name", policyHead + "\"x\\u009b2J\"}", validate, status: 65,
            "tracekit: FILE:1:53: name: must not contain control characters (line breaks, tabs)"),

        // A sidecar that reaches out of its folder, and values below the policy's minima (issue
        // 41; Tests/TraceCLITests/PathSafetyTests.swift has links, FIFOs and batch corpora).
        HostileFile(
            "JSON scenario: a trace at an absolute path (never opened)",
            "{\"schema\": \"tracekit-scenario/1\", \"traces\": {\"helper\": \"/etc/passwd\"}}", scenario, status: 65,
            "tracekit: FILE:1:56: traces.helper: '/etc/passwd' is an absolute path; a sidecar's traces are relative paths inside its folder (--allow-outside-paths allows others)"
        ),
        HostileFile(
            "JSON scenario: a trace that climbs out with ..",
            "{\"schema\": \"tracekit-scenario/1\", \"traces\": {\"helper\": \"../x.gpx\"}}", scenario, status: 65,
            "tracekit: FILE:1:56: traces.helper: '../x.gpx' climbs out of the sidecar's folder with '..'; a sidecar's traces are relative paths inside its folder (--allow-outside-paths allows others)"
        ),
        HostileFile(
            "JSON policy: an interval of 1e-300 s",
            policyHead + "\"x\", \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"distanceOrTime\", \"intervalSeconds\": 1e-300}}}}",
            validate,
            status: 65,
            "tracekit: FILE:1:140: states.enRoute.delivery.intervalSeconds: must be at least 0.001 and at most 86400 seconds, got 1e-300"),
        HostileFile(
            "JSON policy: a frame of 5e-324 m", policyHead + "\"x\", \"states\": {\"enRoute\": {\"frameMetres\": 5e-324}}}", validate,
            status: 65, "tracekit: FILE:1:96: states.enRoute.frameMetres: must be at least 1 and at most 20000000 metres, got 5e-324"),
    ]
}

@Suite("Hostile input catalogue: tracekit's status and first line of stderr")
struct HostileInputCatalogueTests {
    @Test("each case: the documented status and error, or the documented diagnostic", arguments: Hostile.files)
    func catalogue(_ file: HostileFile) throws {
        let (r, path) = try file.run()
        #expect(r.status == file.status, "\(r.stderr)")
        #expect(r.firstLine == file.firstLine.replacingOccurrences(of: "FILE", with: path))
        if let text = file.stdoutHolds { #expect(r.stdout.contains(text), "\(r.stdout)") }
        #expect(r.peakRSS < HostileRun.peakRSSBound || sanitizer != nil)  // a sanitizer's shadow memory is not the program's
    }

    @Test("an external DTD file is never read: its entity stays undefined")
    func externalDTDNotRead() throws {
        let dtd = scratchFolder.appendingPathComponent("hostile-\(UUID().uuidString).dtd")
        try Data("<!ENTITY ext \"LOADED\">".utf8).write(to: dtd)
        defer { try? FileManager.default.removeItem(at: dtd) }
        let file = HostileFile(
            "doc.gpx", "<!DOCTYPE gpx SYSTEM \"\(dtd.path)\">\n<gpx><trk><name>&ext;</name></trk></gpx>", status: 65,
            "tracekit: FILE:2:17: undefined entity '&ext;' (only the five predefined entities and character references are read; DTD entities are never expanded)"
        )
        let (r, path) = try file.run()
        #expect(r.status == 65 && r.firstLine == file.firstLine.replacingOccurrences(of: "FILE", with: path))
        #expect(!r.stdout.contains("LOADED") && !r.stderr.contains("LOADED"))
    }

    /// A valid GPX exercising every construct a cut can fall inside.
    static let truncatable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE gpx>
        <gpx version="1.1" creator="t &amp; co">
        <!-- a comment -->
        <trk><name><![CDATA[a <b>]]> &#x41;</name><trkseg>
        <trkpt lat="47.0" lon="8.0"><ele>400</ele><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="47.001" lon="8.0"><time>2020-01-01T00:00:10Z</time></trkpt>
        </trkseg></trk>
        </gpx>

        """

    @Test("a GPX cut anywhere, under --on-problem fail: status 65 and an error at the line and column where it stops")
    func truncated() throws {
        let whole = Array(Self.truncatable.utf8)
        // Every cut point but those after the root element's end (only whitespace follows it).
        let rootEnd = whole.count - 1
        for cut in 1..<rootEnd {
            let prefix = Array(whole[0..<cut])
            let lines = prefix.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let (line, column) = (lines.count, lines.last!.count + 1)
            let file = HostileFile("cut-\(cut).gpx", prefix, Hostile.fail, status: 65, "")
            let (r, path) = try file.run()
            #expect(r.status == 65, "cut at \(cut): \(r.stderr)")
            #expect(r.firstLine.hasPrefix("tracekit: \(path):\(line):\(column): unexpected end of file"), "cut at \(cut): \(r.firstLine)")
        }
    }

    @Test(
        "seeded random bytes: status 65 and one error naming the file and line, never a crash",
        arguments: ["gpx", "csv", "plt", "rec", "json"])
    func binaryGarbage(_ ext: String) throws {
        var random = SplitMix64(seed: 0x8AB5_1A6E)
        for round in 0..<8 {
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
            let file = HostileFile("garbage-\(round).\(ext)", bytes, ext == "json" ? Hostile.validate : ["info"], status: 65, "")
            let (r, path) = try file.run()
            #expect(r.status == 65, "round \(round): \(r.stderr)")
            #expect(r.firstLine.hasPrefix("tracekit: \(path):"), "round \(round): \(r.firstLine)")
            #expect(r.stderr.split(separator: "\n").count <= 2, "round \(round): \(r.stderr)")  // the error, and at most a hint
        }
    }
}

/// The streams that would exhaust memory if read whole: fed through a pipe by a writer that stops
/// when `tracekit` exits, with the child's peak RSS checked.
@Suite("Hostile streams: bounded memory, prompt errors")
struct HostileStreamTests {
    struct Stream: CustomTestStringConvertible, Sendable {
        var name: String
        var head: String
        var unit: String
        var total: Int
        var firstLine: String
        var testDescription: String { name }

        /// `head`, then `unit` repeated up to `total` bytes (by default 1 MiB of `fill`, to 2 GB).
        init(_ name: String, head: String, fill: Character = "1", unit: String? = nil, total: Int = 2 << 30, _ firstLine: String) {
            self.name = name
            self.head = head
            self.unit = unit ?? String(repeating: fill, count: 1 << 20)
            self.total = total
            self.firstLine = firstLine
        }

        /// `tracekit info --input-format FORMAT -` for "FORMAT: …", `policy validate /dev/stdin` for JSON.
        var command: [String] {
            let kind = name.prefix { $0 != ":" }.lowercased()
            return kind.hasPrefix("json") ? ["policy", "validate", "/dev/stdin"] : ["info", "--input-format", kind, "-"]
        }
    }

    static let tokenTooLong = "a single token is longer than 16777216 bytes"

    static let streams: [Stream] = [
        Stream("CSV: a 2 GB single line", head: "lat,lon\n", "tracekit: <stdin>:2: a row longer than 1048576 bytes (is this a CSV file?)"),
        Stream("PLT: a 2 GB single line", head: "", "tracekit: <stdin>:1: a row longer than 1048576 bytes (is this a text file?)"),
        Stream("REC: a 2 GB single line", head: "", "tracekit: <stdin>:1: a row longer than 1048576 bytes (is this a text file?)"),
        Stream("GPX: a 2 GB attribute value on one line", head: "<gpx creator=\"", "tracekit: <stdin>:1:1: \(tokenTooLong)"),
        Stream(
            "GPX: a 2 GB track name on one line", head: "<gpx><trk><name>", "tracekit: <stdin>:1:1044497: text longer than 1048576 bytes"),
        Stream("GPX: a 2 GB element name", head: "<gpx><", fill: "n", "tracekit: <stdin>:1:6: \(tokenTooLong)"),
        Stream("GPX: a 2 GB comment", head: "<gpx><!--", fill: "c", "tracekit: <stdin>:1:6: \(tokenTooLong)"),
        Stream(
            "GPX: a 2 GB DOCTYPE", head: "<!DOCTYPE gpx [",
            unit: String(repeating: "<!ENTITY a \"" + String(repeating: "x", count: 1000) + "\">", count: 1000),
            "tracekit: <stdin>:1:1: \(tokenTooLong)"),
        Stream(
            "GPX: billion laughs",
            head: "<!DOCTYPE gpx [<!ENTITY lol \"lol\">"
                + (1...9).map { i in "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
                .joined()
                + "]>\n<gpx><trk><name>&lol9;</name></trk></gpx>\n", unit: "", total: 0,
            "tracekit: <stdin>:2:17: undefined entity '&lol9;' (only the five predefined entities and character references are read; DTD entities are never expanded)"
        ),
        Stream(
            "GPX: a million nested elements", head: "<gpx>", unit: String(repeating: "<a>", count: 1 << 18), total: 3 << 20,
            "tracekit: <stdin>:1:771: elements nested deeper than 256"),
        Stream(
            "JSON policy: a 2 GB file", head: "[", unit: String(repeating: "1,", count: 1 << 19),
            "tracekit: /dev/stdin: larger than 1048576 bytes"),
        Stream(
            "JSON policy: a million levels of nesting", head: "", fill: "[", total: 1 << 20,
            "tracekit: /dev/stdin:1:65: nesting deeper than 64"),
    ]

    @Test("each stream: the documented error, the writer stopped early, peak RSS under 64 MB", arguments: streams)
    func stream(_ s: Stream) throws {
        let r = try HostileRun(s.command, head: Array(s.head.utf8), unit: Array(s.unit.utf8), total: s.total)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.firstLine == s.firstLine)
        #expect(r.written < 64 << 20, "the reader took \(r.written) bytes")
        #expect(r.peakRSS < HostileRun.peakRSSBound || sanitizer != nil, "peak RSS \(r.peakRSS >> 20) MB")  // not under a sanitizer's shadow memory
        print("\(s.name): peak RSS \(r.peakRSS >> 10) KiB, \(r.written >> 20) MiB written")
    }
}
