import Foundation
import PNGPixels
import TestSupport
import TraceJSON

/// Debian's `chromium`, headless, driven by its command line: the browser checks of the HTML
/// reports (README, "HTML reports"). No Node, no Python, no DevTools protocol: each check is one
/// run of the browser on a file, reading what it prints.
///
/// - The rendered DOM: `--dump-dom` after the page has loaded.
/// - Console messages: `--enable-logging=stderr` prints every console message of the page as an
///   `INFO:CONSOLE` line; any such line is a finding (the reports have no script, so any message
///   is an error: a blocked resource, a parse error).
/// - Network requests: `--log-net-log` records every request the network stack starts, with the
///   site that made it; a request made for the page carries the page's site (`file://`) in its
///   network isolation key, the browser's own background requests (update checks, the clock)
///   do not. A proxy at a closed loopback port keeps every request on this machine.
/// - Screenshots: `--screenshot` at a window size, decoded by ``PNGImage``.
///
/// Root (as in CI containers) needs `--no-sandbox`. The browser's own noise on stderr (D-Bus,
/// GPU probing) is ignored; only the page's console lines count.
struct Chromium {
    /// The browser: `TRACEKIT_CHROMIUM` when set (nil when that is not an executable), else
    /// Debian's binary behind its wrapper script (the wrapper adds API keys and flags that make
    /// the browser call Google's services).
    static let executable: String? = {
        let given = ProcessInfo.processInfo.environment["TRACEKIT_CHROMIUM"]
        let candidates = given.map { [$0] } ?? ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Why the browser checks cannot run here, or nil when they can.
    static var unavailable: String? {
        executable == nil ? "chromium not found (make browser installs Debian's chromium; TRACEKIT_CHROMIUM names another)" : nil
    }

    /// What one load of a page showed.
    struct Load {
        /// The DOM after the load (`--dump-dom`), or the empty string for a screenshot run.
        var dom: String
        /// The page's console messages, one line each.
        var console: [String]
        /// The URLs the network stack started for the page.
        var requests: [String]
        /// The screenshot, for a screenshot run.
        var screenshot: PNGImage?
    }

    /// The flags of every run: headless, no first-run work, no background services, a fresh
    /// profile, every request through a proxy at a closed port.
    static func flags(profile: URL) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-color-profile=srgb", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
            "--disable-extensions", "--disable-breakpad", "--disable-domain-reliability", "--no-pings", "--metrics-recording-only",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "--enable-logging=stderr", "--v=0",
        ]
    }

    /// Loads `page` in a `width` × `height` window: the DOM, or (with `screenshot`) a PNG written
    /// there and decoded; the console lines and the page's requests either way.
    static func load(_ page: URL, width: Int, height: Int, screenshot: URL? = nil) throws -> Load {
        guard let executable else { throw ChromiumError.unavailable }
        let work = scratchFolder.appendingPathComponent("chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let netLog = work.appendingPathComponent("net.json")
        var arguments = flags(profile: work.appendingPathComponent("profile"))
        arguments += ["--window-size=\(width),\(height)", "--log-net-log=\(netLog.path)"]
        if let screenshot {
            try? FileManager.default.removeItem(at: screenshot)
            arguments.append("--screenshot=\(screenshot.path)")
        } else {
            arguments.append("--dump-dom")
        }
        arguments.append(page.absoluteString)
        let run = try run(executable, arguments, timeout: 90)
        guard run.status == 0 else { throw ChromiumError.failed(run.status, run.stderr.suffix(2000).description) }
        let console = run.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        var image: PNGImage?
        if let screenshot {
            let bytes = try [UInt8](Data(contentsOf: screenshot))
            image = try PNGImage(bytes: bytes)
        }
        return Load(dom: screenshot == nil ? run.stdout : "", console: console, requests: try pageRequests(netLog), screenshot: image)
    }

    /// The URLs of the requests the network stack started for a `file://` page, from a net log.
    static func pageRequests(_ netLog: URL) throws -> [String] {
        let log = try JSONParser.parse([UInt8](Data(contentsOf: netLog)))
        guard case .object(let types)? = log["constants"]?["logEventTypes"]?.kind, case .array(let events)? = log["events"]?.kind
        else { throw ChromiumError.netLog("no constants or events") }
        guard case .number(let start)? = types.first(where: { $0.key == "URL_REQUEST_START_JOB" })?.value.kind else {
            throw ChromiumError.netLog("no URL_REQUEST_START_JOB type")
        }
        var urls: [String] = []
        for e in events {
            guard case .number(let t)? = e["type"]?.kind, t == start, let params = e["params"],
                case .string(let url)? = params["url"]?.kind, case .string(let key)? = params["network_isolation_key"]?.kind
            else { continue }
            if key.hasPrefix("file://") { urls.append(url) }
        }
        return urls
    }

    enum ChromiumError: Error, CustomStringConvertible {
        case unavailable, failed(Int32, String), timedOut, netLog(String)
        var description: String {
            switch self {
            case .unavailable: "chromium not found"
            case .failed(let status, let stderr): "chromium exited with \(status): \(stderr)"
            case .timedOut: "chromium did not finish within its time limit"
            case .netLog(let why): "unreadable net log: \(why)"
            }
        }
    }

    /// Runs `executable` with `arguments`, killing it after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        // Both pipes are drained at once, so neither can fill and stall the browser.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        killer.cancel()
        if p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL { throw ChromiumError.timedOut }
        return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// A page that shows the HTML page `html` in a frame `width` px wide (its `srcdoc`, so the
    /// page's own viewport is that wide: headless Chromium's window is never narrower than
    /// 500 px) and, once loaded, writes the framed document's scroll width into its body's
    /// `data-scroll-width`: its DOM then says whether the page is wider than its viewport. The
    /// report itself has no script; the probe lives in the frame's parent.
    static func measuringCopy(of html: String, width: Int, in folder: URL) throws -> URL {
        var escaped = ""
        for c in html {
            switch c {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            default: escaped.append(c)
            }
        }
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
            <iframe id="report" style="width:\(width)px;height:900px;border:0" srcdoc="\(escaped)"></iframe>
            <script>window.addEventListener('load', function () {
            document.body.setAttribute('data-scroll-width', String(document.getElementById('report').contentDocument.documentElement.scrollWidth));
            });</script></body></html>
            """
        let copy = folder.appendingPathComponent("measure-\(width).html")
        try Data(page.utf8).write(to: copy)
        return copy
    }

    /// The document's scroll width that ``measuringCopy(of:in:)`` wrote into `dom`.
    static func scrollWidth(_ dom: String) -> Int? {
        guard let r = dom.range(of: "data-scroll-width=\"") else { return nil }
        return Int(dom[r.upperBound...].prefix { $0.isNumber })
    }
}

extension PNGImage {
    typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)

    /// Whether the pixel at `i` (byte index) is within `tolerance` per channel of `hex`.
    private func matches(_ i: Int, _ rgb: (Int, Int, Int), _ tolerance: Int) -> Bool {
        abs(Int(rgba[i]) - rgb.0) <= tolerance && abs(Int(rgba[i + 1]) - rgb.1) <= tolerance && abs(Int(rgba[i + 2]) - rgb.2) <= tolerance
    }

    private static func rgb(_ hex: String) -> (Int, Int, Int) {
        let v = Int(hex.dropFirst(), radix: 16)!
        return (v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF)
    }

    /// Pixels within `tolerance` (per channel) of the colour `hex` ("#0072b2"), in `box`
    /// (inclusive; all of the image when nil).
    func count(_ hex: String, tolerance: Int = 24, in box: Box? = nil) -> Int {
        let rgb = Self.rgb(hex)
        let b = box ?? (0, 0, width - 1, height - 1)
        var n = 0
        for y in b.y0...b.y1 {
            for x in b.x0...b.x1 where matches((y * width + x) * 4, rgb, tolerance) { n += 1 }
        }
        return n
    }

    /// The smallest box holding every pixel of colour `hex` (within `tolerance`), or nil.
    func box(of hex: String, tolerance: Int = 0) -> Box? {
        let rgb = Self.rgb(hex)
        var b: Box?
        for y in 0..<height {
            for x in 0..<width where matches((y * width + x) * 4, rgb, tolerance) {
                b = b.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x), max($0.y1, y)) } ?? (x, y, x, y)
            }
        }
        return b
    }
}
