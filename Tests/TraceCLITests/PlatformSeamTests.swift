import Foundation
import TestSupport
import Testing

/// The platform seam (issue 37): only `Sources/TracePlatform` calls the C library's system
/// interface, so a second platform means porting one module. Every Swift file under Sources,
/// Tests, Benchmarks, Fuzz and Tools is read; outside `Sources/TracePlatform` none may qualify a
/// name with the C library's module (Glibc or Darwin, then a dot), nor call a system function
/// that moved into the seam. No file is exempt.
@Suite("platform seam")
struct PlatformSeamTests {
    /// The folders scanned, from the package root.
    static let folders = ["Sources", "Tests", "Benchmarks", "Fuzz", "Tools"]
    /// The one folder that may call the system.
    static let seam = "Sources/TracePlatform/"

    /// The system functions that go through the seam (`Platform.…`). Test-only process plumbing
    /// (`posix_spawn`, `waitpid`, `kill`, `chmod`, `mkfifo`), pure C-library functions that are
    /// spelt the same on every platform (math, `memchr`, `vsnprintf`, `strtod` as a test oracle)
    /// and `getpid`, `usleep`, `pthread_self` in tests are not on the list.
    static let moved: Set<String> = [
        // descriptors and files
        "open", "close", "read", "write", "pread", "pwrite", "lseek", "fsync", "ftruncate", "fchmod", "fchown", "isatty",
        "pipe", "fcntl", "rename", "unlink", "mkdir", "stat", "lstat", "fstat", "realpath", "access",
        "opendir", "readdir", "closedir",
        // standard I/O streams
        "tmpfile", "fopen", "fclose", "fputs", "fread", "fflush", "ferror",
        // threads, locks, semaphores
        "pthread_create", "pthread_join", "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock",
        "pthread_mutex_destroy", "sem_init", "sem_wait", "sem_trywait", "sem_post", "sem_destroy",
        // signals
        "signal", "sigaction", "sigprocmask", "pthread_sigmask", "raise",
        // the process, clocks, errors, environment, locale
        "exit", "sysconf", "geteuid", "getegid", "getrusage", "clock_gettime", "strerror", "getenv", "setenv",
        "newlocale", "uselocale",
    ]

    @Test("outside Sources/TracePlatform: no qualified C-library name, no call of a system function")
    func onlyTheSeamCallsTheSystem() throws {
        var files = 0
        var problems: [String] = []
        for folder in Self.folders {
            let root = packageRoot.appendingPathComponent(folder).path
            guard let walk = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walk where relative.hasSuffix(".swift") {
                let path = folder + "/" + relative
                guard !path.hasPrefix(Self.seam) else { continue }
                files += 1
                let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                problems += Self.problems(in: text).map { "\(path):\($0.line): \($0.what) in: \(lines[$0.line - 1].trimmingPrefix(" "))" }
            }
        }
        #expect(files > 300, "only \(files) Swift files found under \(Self.folders)")
        let list = problems.joined(separator: "\n")
        #expect(problems.isEmpty, "system calls outside \(Self.seam) (call Platform.… instead):\n\(list)")
    }

    @Test("the scan flags qualified names and bare calls, not methods, declarations, comments or strings")
    func scanFindsWhatItMust() {
        let glibc = "Glibc" + "."  // spelt apart, so this file does not fail the scan itself
        let flagged = [
            "let n = \(glibc)write(fd, p, n)", "_ = write(fd, p, n)", "var info = stat()", "if stat(path, &info) == 0 {}",
            "x = \"\\(String(cString: strerror(errno)))\"", "defer { close(fd) }", "while sem_wait(s) != 0 {}",
            "let q = [read(fd, b, 1)]", "\(glibc)pipe(&fds)", "// see Darwin" + ".write",
        ]
        let clean = [
            "writer.write(item)", "try file.close()", "case .read(let e): e", "Platform.write(fd, bytes)", "let s = \"write(\"",
            "// close(fd) once done", "/* unlink(path) */", "func write(_ s: String) {}\nwrite(s)", "case open(String), close(String)",
            "func f(_ read: () -> Int) -> Int { read() }", "let stats = statistics(x)", "let x = #\"read(\"#", "overwrite(x)",
            "\"\"\"\n  exit(1) is documented\n  \"\"\"", "on Darwin. Then",
        ]
        for line in flagged { #expect(!Self.problems(in: line).isEmpty, "not flagged: \(line)") }
        for line in clean { #expect(Self.problems(in: line).isEmpty, "flagged: \(line): \(Self.problems(in: line))") }
    }

    /// The lines of `source` that qualify a name with Glibc or Darwin, or call a ``moved`` function
    /// the file does not declare itself (a function, variable, parameter or enum case of that name
    /// is its own: `try close(k)` in a type with a `close` method is no system call).
    static func problems(in source: String) -> [(line: Int, what: String)] {
        var found: [(line: Int, what: String)] = []
        let raw = Array(source.utf8)
        var line = 1
        for i in raw.indices {
            if raw[i] == newline { line += 1 }
            guard raw[i] == UInt8(ascii: "G") || raw[i] == UInt8(ascii: "D") else { continue }
            for module in modules where startsIdentifier(raw, i, module) {
                let dot = i + module.count
                if dot + 1 < raw.count && raw[dot] == UInt8(ascii: ".") && isIdentifierStart(raw[dot + 1]) {
                    found.append((line, String(decoding: module, as: UTF8.self) + "."))
                }
            }
        }
        let code = codeOnly(raw)
        let tokens = identifiers(code)
        var declared: Set<String> = []
        var firstOnLine: [Int: String] = [:]
        for t in tokens where firstOnLine[t.line] == nil { firstOnLine[t.line] = t.name }
        for (k, t) in tokens.enumerated() where k > 0 {
            let before = tokens[k - 1]
            let adjacent = code[before.end..<t.start].allSatisfy { $0 == space || $0 == newline }
            // func NAME, let NAME, var NAME; a parameter `_ NAME:`; case NAME(…) and, in an enum
            // case list, `, NAME(…)`.
            if adjacent && ["func", "let", "var"].contains(before.name) { declared.insert(t.name) }
            if adjacent && before.name == "_" && code[t.end...].first(where: { $0 != space }) == UInt8(ascii: ":") {
                declared.insert(t.name)
            }
            if t.isCall && ((adjacent && before.name == "case") || (t.afterComma && firstOnLine[t.line] == "case")) {
                declared.insert(t.name)
            }
        }
        for t in tokens where t.isCall && !t.afterDot && moved.contains(t.name) && !declared.contains(t.name) {
            found.append((t.line, "\(t.name)("))
        }
        return found.sorted { $0.line < $1.line }
    }

    static let modules = [Array("Glibc".utf8), Array("Darwin".utf8)]
    static let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")

    /// An identifier in code: where it is, whether a `(` follows it at once (a call) and whether a
    /// `.` (a member) or a `,` precedes it.
    struct Token {
        var name: String
        var start: Int
        var end: Int
        var line: Int
        var isCall: Bool
        var afterDot: Bool
        var afterComma: Bool
    }

    static func identifiers(_ code: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0, line = 1
        while i < code.count {
            if code[i] == newline { line += 1 }
            guard isIdentifierStart(code[i]), i == 0 || !isIdentifierPart(code[i - 1]) else {
                i += 1
                continue
            }
            var end = i
            while end < code.count && isIdentifierPart(code[end]) { end += 1 }
            var before = i - 1
            while before >= 0 && code[before] == space { before -= 1 }
            let previous = before >= 0 ? code[before] : newline
            tokens.append(
                Token(
                    name: String(decoding: code[i..<end], as: UTF8.self), start: i, end: end, line: line,
                    isCall: end < code.count && code[end] == UInt8(ascii: "("), afterDot: previous == UInt8(ascii: "."),
                    afterComma: previous == UInt8(ascii: ",")))
            i = end
        }
        return tokens
    }

    /// `source` with comments and the text of string literals blanked (line feeds kept, so lines
    /// keep their numbers); an interpolation `\(…)` is code and stays.
    static func codeOnly(_ s: [UInt8]) -> [UInt8] {
        enum Mode {
            case code(depth: Int)
            /// A string literal: the bytes that close it and those that start an escape.
            case string(close: [UInt8], escape: [UInt8])
        }
        let lineComment = Array("//".utf8), blockOpen = Array("/*".utf8), blockClose = Array("*/".utf8)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), threeQuotes = Array("\"\"\"".utf8)
        var out = s
        var modes: [Mode] = [.code(depth: 0)]
        var i = 0
        func blank(_ from: Int, _ to: Int) {
            for k in from..<min(to, s.count) where out[k] != newline { out[k] = space }
        }
        func starts(_ p: [UInt8], at k: Int) -> Bool {
            k + p.count <= s.count && s[k..<k + p.count].elementsEqual(p)
        }
        while i < s.count {
            switch modes[modes.count - 1] {
            case .code(let depth):
                if starts(lineComment, at: i) {
                    let end = s[i...].firstIndex(of: newline) ?? s.count
                    blank(i, end)
                    i = end
                } else if starts(blockOpen, at: i) {
                    var nesting = 0, j = i
                    repeat {
                        if starts(blockOpen, at: j) {
                            nesting += 1
                            j += 2
                        } else if starts(blockClose, at: j) {
                            nesting -= 1
                            j += 2
                        } else {
                            j += 1
                        }
                    } while nesting > 0 && j < s.count
                    blank(i, j)
                    i = j
                } else {
                    var hashes = 0
                    while i + hashes < s.count && s[i + hashes] == hash { hashes += 1 }
                    if i + hashes < s.count && s[i + hashes] == quote {
                        let opening = starts(threeQuotes, at: i + hashes) ? threeQuotes : [quote]
                        let pounds = [UInt8](repeating: hash, count: hashes)
                        blank(i, i + hashes + opening.count)
                        i += hashes + opening.count
                        modes.append(.string(close: opening + pounds, escape: [UInt8(ascii: "\\")] + pounds))
                        continue
                    }
                    if s[i] == UInt8(ascii: "(") {
                        modes[modes.count - 1] = .code(depth: depth + 1)
                    } else if s[i] == UInt8(ascii: ")") {
                        if depth == 0 && modes.count > 1 {  // the end of an interpolation
                            blank(i, i + 1)
                            modes.removeLast()
                        } else {
                            modes[modes.count - 1] = .code(depth: depth - 1)
                        }
                    }
                    i += 1
                }
            case .string(let close, let escape):
                if starts(close, at: i) {
                    blank(i, i + close.count)
                    i += close.count
                    modes.removeLast()
                } else if starts(escape, at: i) {
                    let k = i + escape.count
                    blank(i, k + 1)
                    i = k + 1
                    if k < s.count && s[k] == UInt8(ascii: "(") { modes.append(.code(depth: 0)) }
                } else {
                    blank(i, i + 1)
                    i += 1
                }
            }
        }
        return out
    }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || c == UInt8(ascii: "_")
    }

    static func isIdentifierPart(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    }

    /// Whether `name` starts a whole identifier at `i`.
    static func startsIdentifier(_ s: [UInt8], _ i: Int, _ name: [UInt8]) -> Bool {
        i + name.count <= s.count && s[i..<i + name.count].elementsEqual(name) && (i == 0 || !isIdentifierPart(s[i - 1]))
    }
}
