import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceJSON
import XMLSchemaOracle

@testable import TraceCLI

/// Issue 41, "nothing a file says reaches a terminal raw": hostile text put where a file can put
/// it (a CSV field, an NDJSON time, a PLT coordinate, a file's and a folder's name, a scenario's
/// category), run through every command and format that shows it. No output byte stream holds a
/// raw control character (but its own line ends), Markdown holds no HTML, link or broken code span,
/// and the XML reports parse. README "Hardening: hostile input" states the rule.
enum HostileText {
    /// The hostile strings: a name (the test's) and the text.
    static let strings: [(name: String, text: String)] = [
        ("OSC title set", "\u{1B}]0;pwned\u{07}"),
        ("CSI clear screen", "x\u{1B}[2Jy"),
        ("NUL", "a\u{0}b"),
        ("DEL", "a\u{7F}b"),
        ("C1 CSI", "a\u{9B}31mb"),
        ("C1 NEL", "a\u{85}b"),
        ("lone CR", "a\rb"),
        ("HTML", "<img src=x onerror=alert(1)>"),
        ("javascript link", "[l](javascript:alert(1))"),
        ("backticks", "a`b``c"),
        ("pipes", "a|b||c"),
        ("bidi override", "evil\u{202E}txt.exe"),
        ("autolinks and mentions", "https://evil.example www.evil.example a@b.example @someone #1"),
        ("GitHub references", "commit a5c3785ed8d6 GH-123"),
        ("very long", "long-" + String(repeating: "n", count: 190)),
    ]

    /// The characters no output may hold raw (the test's own list, not the code's): C0 but LF (and
    /// CR before LF where `crlf`, tab where `tabs`), DEL, C1, the bidirectional formatting
    /// characters and the line and paragraph separators. Returns the first found, described.
    static func raw(_ text: String, crlf: Bool = false, tabs: Bool = false) -> String? {
        let scalars = Array(text.unicodeScalars)
        for (i, u) in scalars.enumerated() {
            let v = u.value
            if u == "\n" || (tabs && u == "\t") || (crlf && u == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n") { continue }
            let bad =
                v < 0x20 || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            if bad {
                let around = String(String.UnicodeScalarView(scalars[max(0, i - 30)..<min(scalars.count, i + 10)]))
                return "U+\(String(v, radix: 16)) near \(around.debugDescription)"
            }
        }
        return nil
    }

    /// What is wrong with a Markdown document: per line (outside fenced code blocks), the text
    /// outside code spans (CommonMark: a run of n backticks opens a span that the next run of
    /// exactly n closes; a backslash escapes the character after it) holds `<img`, `<a `,
    /// `<script`, `](javascript:` or `https://`, or a run of backticks that no run closes (a
    /// broken code span).
    static func markdownProblems(_ md: String) -> [String] {
        var problems: [String] = []
        var fenced = false
        for line in md.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```" {
                fenced.toggle()
                continue
            }
            if fenced { continue }
            let c = Array(line)
            var outside = "", i = 0
            while i < c.count {
                if c[i] == "\\", i + 1 < c.count, c[i + 1].isASCII, c[i + 1].isPunctuation || c[i + 1].isSymbol {
                    outside.append(" ")
                    i += 2
                    continue
                }
                guard c[i] == "`" else {
                    outside.append(c[i])
                    i += 1
                    continue
                }
                var n = 0
                while i + n < c.count && c[i + n] == "`" { n += 1 }
                var j = i + n, closed: Int?
                while j < c.count {
                    guard c[j] == "`" else {
                        j += 1
                        continue
                    }
                    var m = 0
                    while j + m < c.count && c[j + m] == "`" { m += 1 }
                    if m == n {
                        closed = j + m
                        break
                    }
                    j += m
                }
                guard let closed else {
                    problems.append("an unbalanced code span: \(String(line).debugDescription)")
                    break
                }
                outside.append(" ")
                i = closed
            }
            for bad in ["<img", "<a ", "<script", "](javascript:", "https://"] where outside.contains(bad) {
                problems.append("\(bad) outside code: \(String(line).debugDescription)")
            }
        }
        return problems
    }

    /// `cmark-gfm`, GitHub's Markdown renderer (Debian's package: `make deps` installs it), or nil.
    static let cmark: String? = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `md` as GitHub renders it: cmark-gfm with GitHub's extensions (autolinks, tables,
    /// strikethrough, the tag filter), raw HTML let through so that any HTML from the input would
    /// show.
    static func rendered(_ md: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: cmark!)
        p.arguments = ["--unsafe", "-e", "autolink", "-e", "table", "-e", "strikethrough", "-e", "tagfilter"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data(md.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: out, as: UTF8.self)
    }

    /// The elements TraceKit's own Markdown renders to; any other (an `img`, an `a`) came from a file.
    static let ownElements: Set<String> = [
        "p", "code", "strong", "em", "h1", "h2", "h3", "h4", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "details",
        "summary", "pre",
    ]

    /// The elements in rendered HTML that TraceKit's Markdown does not write.
    static func foreignElements(_ html: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(html)
        while let lt = rest.firstIndex(of: "<") {
            let name = rest[rest.index(after: lt)...].drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
            if !name.isEmpty && !ownElements.contains(String(name).lowercased()) { found.insert(String(name)) }
            rest = rest[rest.index(after: lt)...]
        }
        return found
    }

    /// Whether `document` is well-formed XML 1.0 (libxml2, no network): NUL or ESC in it is not.
    static func wellFormedXML(_ document: String) -> Bool {
        var schema = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"/>", doc = document
        let result = schema.withUTF8 { s in
            doc.withUTF8 { d in
                s.withMemoryRebound(to: CChar.self) { s in
                    d.withMemoryRebound(to: CChar.self) { d in xsd_oracle_validate(s.baseAddress, s.count, d.baseAddress, d.count) }
                }
            }
        }
        return result == 0 || result == 1  // valid, or well-formed but not valid against the empty schema
    }

    /// The text without the characters a file's name cannot hold (NUL, `/`).
    static func fileSafe(_ s: String) -> String { s.filter { $0 != "\0" && $0 != "/" } }

    /// A category for the sidecar: the text, without its control characters (those the reader
    /// refuses: ``HostileTextTests/categoryRefused(_:)``).
    static func category(_ s: String) -> String {
        let kept = String(String.UnicodeScalarView(s.unicodeScalars.filter { !ShownText.isControl($0) }))
        return kept == s ? s : "cat " + kept
    }

    /// A GPX track of `n` fixes one second and about 22 m apart, northwards from `lat`.
    static func gpx(_ lat: Double, _ n: Int = 120) -> String {
        var s = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for i in 0..<n {
            s +=
                "<trkpt lat=\"\(lat + Double(i) * 0.0002)\" lon=\"8.54\"><time>2024-05-01T08:\(i / 60 < 10 ? "0" : "")\(i / 60):\(i % 60 < 10 ? "0" : "")\(i % 60)Z</time></trkpt>\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// The same fixes as CSV, with one more row whose time field is `hostile` (quoted, doubled
    /// quotes: RFC 4180).
    static func csv(_ lat: Double, hostile: String, _ n: Int = 120) -> String {
        var s = "lat,lon,time\n"
        for i in 0..<n {
            s += "\(lat + Double(i) * 0.0002),8.54,2024-05-01T08:\(i / 60 < 10 ? "0" : "")\(i / 60):\(i % 60 < 10 ? "0" : "")\(i % 60)Z\n"
        }
        return s + "47.5,8.54,\"\(hostile.replacingOccurrences(of: "\"", with: "\"\""))\"\n"
    }

    /// A trip in `folder` for hostile string `index`: a folder named after it holding the helper's
    /// trace (a CSV named after it, with the hostile time field), the hirer's GPX and a sidecar
    /// whose category is the text (``category(_:)``). Returns the sidecar's path.
    static func trip(_ index: Int, in folder: String) throws -> String {
        let text = strings[index].text, safe = fileSafe(text)
        let dir = "\(folder)/t\(index)-\(safe)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let helper = "h-\(safe).csv"
        try Data(csv(47.37, hostile: text).utf8).write(to: URL(fileURLWithPath: "\(dir)/\(helper)"))
        try Data(gpx(47.38).utf8).write(to: URL(fileURLWithPath: "\(dir)/hirer.gpx"))
        let sidecar = JSONValue.object([
            ("schema", .string("tracekit-scenario/1")), ("category", .string(category(text))),
            ("traces", .object([("helper", .string(helper)), ("hirer", .string("hirer.gpx"))])),
        ])
        try Data(JSONWriter.string(sidecar).utf8).write(to: URL(fileURLWithPath: "\(dir)/trip.scenario.json"))
        return "\(dir)/trip.scenario.json"
    }

    /// The corpus of every hostile trip, made once per test process.
    static let corpus: String = {
        let dir = scratchFolder.appendingPathComponent("hostile-text-corpus").path
        for i in strings.indices { _ = try? trip(i, in: dir) }
        return dir
    }()

    /// Runs `arguments` and checks every output: standard output and error, and each file in
    /// `files` (by its extension: `.md` Markdown, `.svg` and `.xml` XML, `.html`, `.json`, `.csv`).
    /// `stdoutKind` is the format standard output is in. Returns the run.
    @discardableResult
    static func check(_ what: String, _ arguments: [String], stdoutKind: String = "table", files: [String] = []) throws -> Run {
        for f in files { try? FileManager.default.removeItem(atPath: f) }
        let r = try Run(arguments)
        expectClean("\(what): stdout", r.stdout, kind: stdoutKind)
        expectClean("\(what): stderr", r.stderr, kind: "table")
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("tracekit: ") }, "\(what): \(r.stderr)")
        for f in files {
            guard let text = try? String(contentsOfFile: f, encoding: .utf8) else {
                Issue.record("\(what): \(f) was not written: \(r.stderr)")
                continue
            }
            expectClean("\(what): \((f as NSString).lastPathComponent)", text, kind: (f as NSString).pathExtension)
        }
        return r
    }

    /// The checks of one output of kind `kind` (`table`, `markdown`/`md`, `csv`, `json`, `svg`,
    /// `xml`, `html`).
    static func expectClean(_ what: String, _ text: String, kind: String) {
        #expect(raw(text, crlf: kind == "csv") == nil, "\(what): a raw control character: \(raw(text, crlf: kind == "csv") ?? "")")
        switch kind {
        case "markdown", "md":
            let problems = markdownProblems(text)
            #expect(problems.isEmpty, "\(what): \(problems)")
            if cmark != nil, let html = try? rendered(text) {
                #expect(foreignElements(html).isEmpty, "\(what): renders \(foreignElements(html))")
            }
        case "svg", "xml":
            #expect(wellFormedXML(text), "\(what): not well-formed XML")
        case "html":
            #expect(!text.contains("<img") && !text.contains("<a ") && !text.contains("href="), "\(what): HTML from the input")
        case "json":
            let parsed =
                (try? JSONParser.parse(Array(text.utf8))) != nil
                || text.split(separator: "\n").allSatisfy { (try? JSONParser.parse(Array($0.utf8))) != nil }
            #expect(parsed, "\(what): not JSON (a document, or one per line)")
        default: break
        }
    }
}

@Suite("Hostile text from files: shown escaped in every output (issue 41)", .serialized)
struct HostileTextTests {
    static var indices: [Int] { Array(HostileText.strings.indices) }

    @Test("the rule: every control and bidi character escaped, the rest as it is, idempotent", arguments: indices)
    func rule(_ i: Int) {
        let s = HostileText.strings[i].text
        let shown = Shown.terminal(s)
        #expect(HostileText.raw(shown) == nil)
        #expect(Shown.terminal(shown) == shown)
        #expect(ShownText.escaped(s) == shown)
        // Text without a character to escape is untouched.
        let plain = String(String.UnicodeScalarView(s.unicodeScalars.filter { !ShownText.isEscaped($0) }))
        #expect(Shown.terminal(plain) == plain)
    }

    @Test("the escapes' spelling: \\u{1b}, lower-case hexadecimal; bidi overrides and C1 too")
    func spelling() throws {
        #expect(Shown.terminal("\u{1B}]0;pwned\u{07}") == "\\u{1b}]0;pwned\\u{7}")
        #expect(Shown.terminal("a\u{0}b\u{7F}c\u{9B}d\u{85}e\rf\ng\th") == "a\\u{0}b\\u{7f}c\\u{9b}d\\u{85}e\\u{d}f\\u{a}g\\u{9}h")
        #expect(Shown.terminal("evil\u{202E}txt.exe \u{2066}x\u{2069} \u{200F}") == "evil\\u{202e}txt.exe \\u{2066}x\\u{2069} \\u{200f}")
        #expect(Shown.terminal("Zürich → «ride» 東京 σ …") == "Zürich → «ride» 東京 σ …")
        // A whole output keeps its line ends and tabs, and CR only before LF.
        #expect(Shown.output("a\tb\r\nc\n\u{1B}[2J\rd") == "a\tb\r\nc\n\\u{1b}[2J\\u{d}d")
        // JSON: the same string to a reader, no raw control or bidi character in the text.
        let json = JSONWriter.quoted("a\u{1B}\u{7F}\u{9B}\u{202E}b")
        #expect(json == "\"a\\u001b\\u007f\\u009b\\u202eb\"")
        #expect(try JSONParser.parse(Array(json.utf8)).kind == .string("a\u{1B}\u{7F}\u{9B}\u{202E}b"))
    }

    @Test("Markdown: metacharacters escaped, no HTML, no link, no mention; code spans fenced past every backtick run")
    func markdownText() {
        #expect(Shown.markdown("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;")
        #expect(Shown.markdown("[l](javascript:alert(1))") == "&#91;l&#93;(javascript:alert(1))")
        #expect(Shown.markdown("a*b_c~d`e\\f|g&h!i$j") == "a\\*b\\_c\\~d\\`e\\\\f&#124;g&amp;h\\!i\\$j")
        #expect(
            Shown.markdown("https://x.example www.x.example a@b.example #12")
                == "https\\://x.example www\\.x.example a@&#8203;b.example #&#8203;12")
        // GitHub's commit and issue references: a SHA of 7 to 40 hex digits as a word, GH-N.
        #expect(
            Shown.markdown("a5c3785 a5c3785ed8d6a35868bc169f07e40e889087fd2e gh-7 deadbeef ride-20261207 seed 20240501")
                == "a&#8203;5c3785 a&#8203;5c3785ed8d6a35868bc169f07e40e889087fd2e gh&#8203;-7 d&#8203;eadbeef ride-20261207 seed 20240501")
        // A digit with a joiner or a combining mark after it is still the digit to GitHub's linker.
        #expect(
            Shown.markdown("a5c3785\u{200D} x") == "a&#8203;5c3785\u{200D} x" && Shown.markdown("GH\u{301}-12") == "GH\u{301}&#8203;-12")
        #expect(
            Shown.markdown("a5c378 deadbeefs GH-x abcdef0123456789abcdef0123456789abcdef0123")
                == "a5c378 deadbeefs GH-x abcdef0123456789abcdef0123456789abcdef0123")
        #expect(Shown.markdown("- item") == "\\- item" && Shown.markdown("1. item") == "1\\. item" && Shown.markdown("12.5 m") == "12.5 m")
        #expect(
            Shown.markdown("ride") == "ride"
                && Shown.markdown("Traces/trips/ride/helper.gpx:3:12: x") == "Traces/trips/ride/helper.gpx:3:12: x")
        #expect(Shown.markdownCode("helper.gpx") == "`helper.gpx`")
        #expect(Shown.markdownCode("a`b``c") == "```a`b``c```")
        #expect(Shown.markdownCode("`x`") == "`` `x` ``")
        #expect(Shown.markdownCode("\u{1B}[2J") == "`\\u{1b}[2J`")
    }

    @Test(
        "Markdown as GitHub renders it (cmark-gfm): text renders as itself, a code span as one span, in a table too",
        .enabled(if: HostileText.cmark != nil, "cmark-gfm not found (make deps installs Debian's cmark-gfm)"), arguments: indices)
    func markdownRendered(_ i: Int) throws {
        let s = HostileText.strings[i].text
        func html(_ t: String) -> String {
            t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;"
            )
            .replacingOccurrences(of: "\"", with: "&quot;")
        }
        let visible = Shown.terminal(s)
        let zwsp = visible.replacingOccurrences(of: "@", with: "@\u{200B}").replacingOccurrences(of: "#", with: "#\u{200B}")
            .replacingOccurrences(of: "a5c3785", with: "a\u{200B}5c3785").replacingOccurrences(of: "GH-", with: "GH\u{200B}-")
        #expect(try HostileText.rendered("x " + Shown.markdown(s) + " y\n") == "<p>x \(html(zwsp)) y</p>\n")
        #expect(try HostileText.rendered("x " + Shown.markdownCode(s) + " y\n") == "<p>x <code>\(html(visible))</code> y</p>\n")
        let table = TextTable.markdown(header: ["text", "code"], rows: [[Shown.markdown(s), Shown.markdownCode(s)]])
        let rendered = try HostileText.rendered(table)
        #expect(rendered.contains("<td>\(html(zwsp))</td>\n<td><code>\(html(visible))</code></td>"), "\(table)\n\(rendered)")
    }

    @Test("CSV: no control character in a cell; a text that could start a formula gets a quote; numbers stay numbers")
    func csvCells() {
        #expect(Shown.csv("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(Shown.csv("+1 555") == "'+1 555" && Shown.csv("@sum") == "'@sum" && Shown.csv("-x") == "'-x")
        #expect(Shown.csv("-3.5") == "-3.5" && Shown.csv("12") == "12" && Shown.csv("enRoute") == "enRoute")
        #expect(Shown.csv("a\r\nb,\u{1B}") == "\"a\\u{d}\\u{a}b,\\u{1b}\"")
    }

    @Test("HTML and SVG: control characters shown, not dropped, then XML-escaped: every report parses")
    func htmlText() {
        #expect(Shown.html("<b>\u{0}\u{1B}&'\"") == "&lt;b&gt;\\u{0}\\u{1b}&amp;&apos;&quot;")
        #expect(HostileText.wellFormedXML("<svg><text>\(Shown.html("a\u{0}\u{1B}\u{FFFE}<"))</text></svg>"))
        #expect(!HostileText.wellFormedXML("<svg><text>a\u{1B}</text></svg>"))  // the check itself: ESC is not XML
    }

    @Test("a category with a control character is refused as a policy's name is: one line, file, line, column, member, status 65")
    func categoryRefused() throws {
        for s in HostileText.strings.map(\.text) where s.unicodeScalars.contains(where: ShownText.isControl) {
            let sidecar = JSONWriter.string(.object([("schema", .string("tracekit-scenario/1")), ("category", .string(s))]))
            let path = try scratchFile("refused.scenario.json", sidecar)
            let r = try Run(["replay", "--scenario", path, "Traces/trips/ride/helper.gpx"])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(
                r.stderr == "tracekit: \(path):3:15: category: must not contain control characters (line breaks, tabs)\n",
                "\(r.stderr.debugDescription)")
        }
        // And a policy's name with a C1 control (refused before only C0 and DEL).
        let policy = try scratchFile("c1.json", "{\"format\": \"tracekit-policy\", \"version\": 3, \"name\": \"a\\u009b2Jb\"}")
        let p = try Run(["policy", "validate", policy])
        #expect(p.status == 65 && p.stderr.contains(": name: must not contain control characters"), "\(p.stderr)")
    }

    @Test("info: a CSV field, an NDJSON time, a PLT coordinate and a file's name, table and JSON, and under fail", arguments: indices)
    func info(_ i: Int) throws {
        let s = HostileText.strings[i].text, safe = HostileText.fileSafe(s)
        let dir = scratchFolder.appendingPathComponent("hostile-info-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let csv = "\(dir)/c-\(safe).csv", ndjson = "\(dir)/n.ndjson", plt = "\(dir)/p.plt"
        try Data(HostileText.csv(47, hostile: s, 3).utf8).write(to: URL(fileURLWithPath: csv))
        try Data(("{\"lat\":47,\"lon\":8,\"time\":\(JSONWriter.quoted(s))}\n").utf8).write(to: URL(fileURLWithPath: ndjson))
        try Data((Hostile.pltHeader + "47\(s.filter { $0 != "," && $0 != "\r" }),8,0,100,43831.0,,\n").utf8).write(
            to: URL(fileURLWithPath: plt))
        for file in [csv, ndjson, plt] {
            let table = try HostileText.check("info \(file)", ["info", file])
            #expect(table.status == 0 && table.stdout.contains("problems"), "\(table.stderr)")
            let json = try HostileText.check("info json", ["info", "--format", "json", file], stdoutKind: "json")
            // JSON keeps the name exact (escaped as JSON escapes it).
            let files = try JSONParser.parse(Array(json.stdout.utf8))["files"]
            if case .array(let list)? = files?.kind, case .string(let name)? = list.first?["file"]?.kind { #expect(name == file) }
            let fail = try HostileText.check("info fail", ["info", "--on-problem", "fail", file])
            #expect(fail.status == 65 && fail.stderr.hasPrefix("tracekit: \(Shown.terminal(file)):"), "\(fail.stderr.debugDescription)")
        }
        // The file's name, escaped, heads its block.
        #expect(try Run(["info", csv]).stdout.hasPrefix(Shown.terminal(csv) + "\n"))
    }

    @Test("replay: table, Markdown, CSV, JSON, SVG and HTML of a trip named by the text, with its category", arguments: indices)
    func replay(_ i: Int) throws {
        let sidecar = try HostileText.trip(i, in: scratchFolder.appendingPathComponent("hostile-replay-\(UUID().uuidString)").path)
        let svg = sidecar + ".svg", html = sidecar + ".html"
        for format in ["table", "markdown", "csv", "json"] {
            let r = try HostileText.check(
                "replay \(format)", ["replay", "--scenario", sidecar, "--format", format, "--svg", svg, "--html", html], stdoutKind: format,
                files: [svg, html])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let table = try Run(["replay", "--scenario", sidecar])
        let category = Shown.terminal(RequestCategory(named: HostileText.category(HostileText.strings[i].text)).name)
        #expect(table.stdout.contains("  category   \(category) (not a ride)   [sidecar \(Shown.terminal(sidecar))]"), "\(table.stdout)")
        let split = try HostileText.check(
            "replay --split", ["replay", "--scenario", sidecar, "--split", "--format", "markdown"], stdoutKind: "md")
        #expect(split.status == 0, "\(split.stderr)")
    }

    @Test("compare: table, Markdown and JSON", arguments: indices)
    func compare(_ i: Int) throws {
        let sidecar = try HostileText.trip(i, in: scratchFolder.appendingPathComponent("hostile-compare-\(UUID().uuidString)").path)
        for format in ["table", "markdown", "json"] {
            let r = try HostileText.check(
                "compare \(format)", ["compare", "--policy", "seed", "--policy", "seed", "--scenario", sidecar, "--format", format],
                stdoutKind: format)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    @Test("split and convert: the summary and the problems on stderr", arguments: indices)
    func splitAndConvert(_ i: Int) throws {
        let s = HostileText.strings[i].text
        let dir = scratchFolder.appendingPathComponent("hostile-split-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let csv = "\(dir)/s-\(HostileText.fileSafe(s)).csv"
        try Data(HostileText.csv(47, hostile: s).utf8).write(to: URL(fileURLWithPath: csv))
        #expect(try HostileText.check("split", ["split", csv, "\(dir)/out"]).status == 0)
        #expect(try HostileText.check("convert", ["convert", csv, "\(dir)/c.gpx"]).status == 0)
        // A point's name, written back as CSV to standard output and to a file: its control
        // characters escaped, the cell one line.
        let named = "\(dir)/named.csv"
        let quoted = "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try Data("lat,lon,time,name\n47.37,8.54,2024-05-01T08:00:00Z,\(quoted)\n47.38,8.54,2024-05-01T08:01:00Z,plain\n".utf8).write(
            to: URL(fileURLWithPath: named))
        let out = try HostileText.check("convert to stdout", ["convert", "--to", "csv", named, "-"], stdoutKind: "csv")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.split(separator: "\n").count == 3, "\(out.stdout)")  // the header and two points: one line each
        #expect(try HostileText.check("convert to a file", ["convert", named, "\(dir)/back.csv"], files: ["\(dir)/back.csv"]).status == 0)
    }

    @Test("batch and merge over a corpus of every hostile trip: table, Markdown, JUnit, HTML, JSON lines, the gate")
    func batchAndMerge() throws {
        try BatchCommandTests.scratch { dir in
            let corpus = HostileText.corpus
            let reports = ["md", "xml", "html"].map { "\(dir)/b.\($0)" }
            let b = try HostileText.check(
                "batch",
                [
                    "batch", corpus, "--jobs", "2", "--write-baseline", "\(dir)/base.json", "--markdown", reports[0], "--junit", reports[1],
                    "--html", reports[2],
                ],
                files: reports)
            #expect(b.status == 0, "\(b.stderr)")
            #expect(JUnitSchema.validates(try BatchCommandTests.read(reports[1])))
            for (i, s) in HostileText.strings.enumerated() {
                #expect(b.stdout.contains(Shown.terminal("t\(i)-\(HostileText.fileSafe(s.text))/trip.scenario.json")), "\(s.name)")
            }
            // The gate, failing: every trip's figures against a baseline with a chattier policy.
            let gated = ["md", "xml", "html"].map { "\(dir)/g.\($0)" }
            let g = try HostileText.check(
                "batch gate",
                [
                    "batch", corpus, "--jobs", "2", "--baseline", "\(dir)/base.json", "--policy", try BatchCommandTests.chattyPolicy(dir),
                    "--markdown", gated[0], "--junit", gated[1], "--html", gated[2],
                ],
                files: gated)
            #expect(g.status == 0 || g.status == 1, "\(g.stderr)")
            let lines = try HostileText.check("batch jsonl", ["batch", corpus, "--jobs", "2", "--jsonl"], stdoutKind: "json")
            try Data(lines.stdout.utf8).write(to: URL(fileURLWithPath: "\(dir)/lines.jsonl"))
            let merged = ["md", "xml", "html"].map { "\(dir)/m.\($0)" }
            let m = try HostileText.check(
                "merge",
                [
                    "merge", "\(dir)/lines.jsonl", "--baseline", "\(dir)/base.json", "--markdown", merged[0], "--junit", merged[1],
                    "--html", merged[2],
                ],
                files: merged)
            #expect(m.status == 0, "\(m.stderr)")
            // A merge writes what the batch wrote.
            #expect(try BatchCommandTests.read(merged[0]).count > 0)
            // A summary of the chattier policy's lines lists every trip, each failing the gate, by its name.
            let chatty = try Run(["batch", corpus, "--jobs", "2", "--policy", try BatchCommandTests.chattyPolicy(dir), "--jsonl"])
            try Data(chatty.stdout.utf8).write(to: URL(fileURLWithPath: "\(dir)/chatty.jsonl"))
            let summary = ["md", "xml"].map { "\(dir)/s.\($0)" }
            let s = try HostileText.check(
                "merge --summary",
                [
                    "merge", "--summary", "\(dir)/chatty.jsonl", "--baseline", "\(dir)/base.json", "--markdown", summary[0], "--junit",
                    summary[1],
                ],
                files: summary)
            #expect(s.status == 1, "\(s.stderr)")
            #expect(JUnitSchema.validates(try BatchCommandTests.read(summary[1])))
            for (i, t) in HostileText.strings.enumerated() {
                #expect(
                    s.stdout.contains("\n  " + Shown.terminal("t\(i)-\(HostileText.fileSafe(t.text))/trip.scenario.json") + ": "),
                    "\(t.name)")
            }
        }
    }

    @Test("tune: the trips it names, in the table, Markdown, JSON, HTML and SVG")
    func tune() throws {
        try BatchCommandTests.scratch { dir in
            for format in ["table", "markdown", "json"] {
                let files = ["\(dir)/t.html", "\(dir)/t.svg"]
                let r = try HostileText.check(
                    "tune \(format)",
                    [
                        "tune", HostileText.corpus, "--require", "enRoute.hirer.displayErrorP95<=1m", "--rounds", "1", "--format", format,
                        "--html", files[0], "--svg", files[1],
                    ],
                    stdoutKind: format, files: files)
                #expect(r.status == 1 && r.stderr.contains("tracekit: tune: no candidate meets"), "\(r.stderr)")
            }
        }
    }

    @Test(
        "the hostile HTML in a real browser: no element from the input, no request, the names shown escaped",
        .enabled(if: Chromium.unavailable == nil, "\(Chromium.unavailable ?? "")"))
    func browser() throws {
        let sidecar = try HostileText.trip(7, in: scratchFolder.appendingPathComponent("hostile-browser-\(UUID().uuidString)").path)
        let html = sidecar + ".html"
        #expect(try Run(["replay", "--scenario", sidecar, "--html", html]).status == 0)
        let load = try Chromium.load(URL(fileURLWithPath: html), width: 1440, height: 900)
        #expect(load.console.isEmpty && load.requests.isEmpty, "\(load.console) \(load.requests)")
        #expect(!load.dom.contains("<img") && load.dom.contains("&lt;img src=x onerror=alert(1)&gt;"), "\(load.dom)")
    }
}
