/// A strict JSON (RFC 8259) parser that records each value's line and column.
///
/// Limits, so hostile input cannot exhaust memory or the stack: nesting depth ≤ 64, input ≤ 16 MiB
/// (policy and scenario files are kilobytes; a caller that reads larger documents, a batch's
/// baseline, gives its own limit). Numbers must be finite doubles: any number of
/// digits is read to the nearest double (`1e-400` is 0); a magnitude beyond ±1.8e308 is an error.
/// Duplicate keys are an error. A UTF-8 byte order mark is skipped. O(n).
public enum JSONParser {
    /// Deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 64
    /// Largest input accepted, in bytes.
    public static let maximumSize = 16 << 20

    /// Parses one JSON document of at most `limit` bytes (``maximumSize`` unless given).
    /// - Throws: ``JSONError`` with the line, column and what was expected.
    public static func parse(_ bytes: [UInt8], limit: Int = maximumSize) throws(JSONError) -> JSONValue {
        guard bytes.count <= limit else {
            throw JSONError(line: 1, column: 1, message: "file is larger than \(limit) bytes")
        }
        var p = Parser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.index = 3 }
        p.skipWhitespace()
        let v = try p.value(depth: 0)
        p.skipWhitespace()
        guard p.index == bytes.count else { throw p.error("expected the end of the document after the value") }
        return v
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0

        var column: Int { index - lineStart + 1 }

        func error(_ message: String) -> JSONError { JSONError(line: line, column: column, message: message) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of file: expected a value") }
            let (l, c) = (line, column)
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
                index += 1
                var members: [(key: String, value: JSONValue)] = []
                var keys = Set<String>()
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return JSONValue(.object(members), line: l, column: c)
                }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                    let (kl, kc) = (line, column)
                    let key = try string()
                    guard keys.insert(key).inserted else {
                        throw JSONError(line: kl, column: kc, message: "duplicate key \"\(key)\"")
                    }
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"), "expected ':' after the key")
                    skipWhitespace()
                    members.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    if try separator(close: UInt8(ascii: "}"), "expected ',' or '}' in an object") { break }
                }
                return JSONValue(.object(members), line: l, column: c)
            case UInt8(ascii: "["):
                guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
                index += 1
                var items: [JSONValue] = []
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return JSONValue(.array(items), line: l, column: c)
                }
                while true {
                    skipWhitespace()
                    items.append(try value(depth: depth + 1))
                    skipWhitespace()
                    if try separator(close: UInt8(ascii: "]"), "expected ',' or ']' in an array") { break }
                }
                return JSONValue(.array(items), line: l, column: c)
            case UInt8(ascii: "\""):
                return JSONValue(.string(try string()), line: l, column: c)
            case UInt8(ascii: "t"):
                try literal("true")
                return JSONValue(.bool(true), line: l, column: c)
            case UInt8(ascii: "f"):
                try literal("false")
                return JSONValue(.bool(false), line: l, column: c)
            case UInt8(ascii: "n"):
                try literal("null")
                return JSONValue(.null, line: l, column: c)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONValue(.number(try number()), line: l, column: c)
            default:
                throw error("expected a value")
            }
        }

        /// True after the closing bracket, false after a comma.
        mutating func separator(close: UInt8, _ message: String) throws(JSONError) -> Bool {
            guard index < bytes.count else { throw error("unexpected end of file: " + message) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                return false
            }
            if bytes[index] == close {
                index += 1
                return true
            }
            throw error(message)
        }

        mutating func expect(_ byte: UInt8, _ message: String) throws(JSONError) {
            guard index < bytes.count, bytes[index] == byte else { throw error(message) }
            index += 1
        }

        mutating func literal(_ word: String) throws(JSONError) {
            let start = error("expected '\(word)'")  // reported at the literal's first character
            for b in word.utf8 {
                guard index < bytes.count, bytes[index] == b else { throw start }
                index += 1
            }
        }

        mutating func number() throws(JSONError) -> Double {
            let start = index
            let (l, c) = (line, column)
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ p: inout Parser) -> Int {
                let s = p.index
                while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
                return p.index - s
            }
            let intStart = index
            let n = digits(&self)
            guard n > 0 else { throw error("expected a digit") }
            if n > 1 && bytes[intStart] == UInt8(ascii: "0") {
                throw JSONError(line: l, column: c, message: "a number may not have a leading zero")
            }
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error("expected a digit after the decimal point") }
            }
            if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
                guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let v = Double(text), v.isFinite else {
                let shown = text.count > 40 ? text.prefix(40) + "… (\(text.count) characters)" : text
                throw JSONError(line: l, column: c, message: "number \(shown) is out of range (beyond ±1.8e308)")
            }
            return v
        }

        mutating func string() throws(JSONError) -> String {
            index += 1  // opening quote
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unexpected end of file inside a string") }
                let b = bytes[index]
                switch b {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                    return s
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw error("unexpected end of file in an escape") }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw error("unpaired surrogate in \\u escape")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                        out.append(contentsOf: Array(String(Character(u)).utf8))
                    default:
                        throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                    }
                case 0x00..<0x20:
                    throw error("control character in a string (escape it)")
                default:
                    out.append(b)
                    index += 1
                }
            }
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count, let d = hexDigit(bytes[index]) else { throw error("expected 4 hex digits after \\u") }
                v = v << 4 | d
                index += 1
            }
            return v
        }

        func hexDigit(_ b: UInt8) -> UInt32? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
    }
}

/// A JSON syntax error at a line and column.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// What was wrong or expected.
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}
