import TraceJSON

/// A streaming JSON scanner over a ``ByteSource`` window: the top level of a document is walked
/// token by token (an array's elements, an object's keys), and each element or member value is
/// either parsed whole into a ``JSONValue`` (by TraceJSON's ``JSONParser``, with its line and
/// column moved to the file's) or skipped without being kept.
///
/// Memory: the window plus one element. An element longer than ``elementCap`` bytes is an error
/// naming its line and column, never unbounded growth; a skipped value may be of any length (it
/// is scanned and discarded as it goes). Nesting inside an element is limited by
/// ``JSONParser/maximumDepth``. A UTF-8 byte order mark at the start is skipped.
struct JSONStream {
    /// The longest element (or member value) parsed whole, in bytes: 15 MiB, under the window's
    /// 16 MiB and TraceJSON's 16 MiB document limit.
    static let elementCap = 15 << 20

    let source: ByteSource
    /// The next byte to read, in `source.bytes`.
    private(set) var position = 0
    private var started = false

    init(source: ByteSource) { self.source = source }

    var name: String { source.name }

    /// A ``TraceReadError`` at `position` (default: the current one).
    func error(_ message: String, at p: Int? = nil) -> TraceReadError {
        let (l, c) = source.location(of: p ?? position)
        return TraceReadError(file: source.name, line: l, column: c, message: message)
    }

    /// An error for input that ends before the document does (category
    /// ``TraceReadError/Category/truncated``: a reader may keep what came before).
    func cutError(_ message: String, at p: Int? = nil) -> TraceReadError { error(message, at: p).cut }

    /// `bytes[lineMark]` is on line `markLine`: ``line`` counts forward from there, so asking
    /// for the line of each element costs the bytes since the last one, not the window.
    private var lineMark = 0
    private var markLine = 1

    /// Line of the current position.
    var line: Int {
        mutating get {
            if position < lineMark { return source.location(of: position).line }
            markLine += ByteMasks.count(0x0A, UnsafePointer(source.bytes.baseAddress!), from: lineMark, to: position)
            lineMark = position
            return markLine
        }
    }

    /// Reads more bytes keeping `bytes[keep...]`; shifts `position` and `keep`. False at the end.
    private mutating func more(keeping keep: inout Int) throws(TraceReadError) -> Bool {
        if source.atEOF { return false }
        if lineMark < keep {
            markLine += ByteMasks.count(0x0A, UnsafePointer(source.bytes.baseAddress!), from: lineMark, to: keep)
            lineMark = keep
        }
        let r = try source.refill(keeping: keep)
        keep -= r.shift
        position -= r.shift
        lineMark -= r.shift
        return true
    }

    /// The next byte that is not JSON whitespace, not consumed; nil at the end of the file.
    mutating func peek() throws(TraceReadError) -> UInt8? {
        if !started {
            started = true
            var keep = 0
            while source.end < 3, try more(keeping: &keep) {}
            if source.end >= 3 && source.bytes[0] == 0xEF && source.bytes[1] == 0xBB && source.bytes[2] == 0xBF { position = 3 }
        }
        while true {
            while position < source.end {
                let b = source.bytes[position]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 } else { return b }
            }
            var keep = position
            guard try more(keeping: &keep) else { return nil }
        }
    }

    /// Consumes the byte ``peek()`` returned.
    mutating func advance() { position += 1 }

    /// Consumes `byte` (after whitespace) or throws `message`.
    mutating func expect(_ byte: UInt8, _ message: @autoclosure () -> String) throws(TraceReadError) {
        guard let b = try peek() else { throw cutError("unexpected end of file: " + message()) }
        guard b == byte else { throw error(message()) }
        position += 1
    }

    /// After an element of an array or object: true at the closing `close` (consumed), false
    /// after a comma (consumed).
    mutating func endOfList(_ close: UInt8, _ what: String) throws(TraceReadError) -> Bool {
        switch try peek() {
        case UInt8(ascii: ","):
            position += 1
            return false
        case close?:
            position += 1
            return true
        case nil:
            throw cutError("unexpected end of file in \(what): expected ',' or '\(Character(Unicode.Scalar(close)))'")
        default:
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(what)")
        }
    }

    /// Consumes `[` and tells whether the array is empty (then its `]` is consumed too).
    mutating func beginArray() throws(TraceReadError) -> Bool {
        try expect(UInt8(ascii: "["), "expected '['")
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return true
        }
        return false
    }

    /// The end of the value starting at `start` (exclusive), refilling as needed; `start` is
    /// shifted with the window. With `keep`, the value's bytes stay in the window (capped);
    /// without, they are discarded as the scan passes them.
    private mutating func scanValue(from start: inout Int, keep: Bool) throws(TraceReadError) -> Int {
        var i = start
        var depth = 0
        var inString = false
        var scalar = false
        while true {
            if i >= source.end {
                if keep && i - start > JSONStream.elementCap { throw tooLong(at: start) }
                if !keep {
                    // Nothing before `i` is needed: keep only the line count right.
                    start = i
                    position = i
                }
                var k = start
                let offset = i - start
                guard try more(keeping: &k) else {
                    if scalar && !inString && depth == 0 { return k + offset }
                    throw cutError("unexpected end of file inside a JSON value", at: k)
                }
                start = k
                i = k + offset
                continue
            }
            let b = source.bytes[i]
            if inString {
                if b == 0x5C {
                    i += 2
                    continue
                }
                if b == 0x22 {
                    inString = false
                    if depth == 0 { return i + 1 }
                }
                i += 1
                continue
            }
            switch b {
            case 0x22:
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return i }
                depth -= 1
                if depth == 0 { return i + 1 }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return i }
            default:
                if depth == 0 { scalar = true }
            }
            i += 1
        }
    }

    private func tooLong(at start: Int) -> TraceReadError {
        error("a JSON element longer than \(JSONStream.elementCap >> 20) MiB (the per-element cap)", at: start)
    }

    /// The next value, parsed whole (at most ``elementCap`` bytes).
    /// - Throws: ``TraceReadError`` at the file's line and column for a syntax error, or past the cap.
    mutating func value() throws(TraceReadError) -> JSONValue {
        guard try peek() != nil else { throw cutError("unexpected end of file: expected a value") }
        var start = position
        let end = try scanValue(from: &start, keep: true)
        guard end - start <= JSONStream.elementCap else { throw tooLong(at: start) }
        position = end
        let bytes = Array(UnsafeBufferPointer(rebasing: source.bytes[start..<end]))
        do {
            return try JSONParser.parse(bytes)
        } catch {
            let (l, c) = source.location(of: start)
            throw TraceReadError(
                file: source.name, line: l + error.line - 1, column: error.line == 1 ? c + error.column - 1 : error.column,
                message: "JSON: \(error.message)")
        }
    }

    /// Skips the next value of any length without keeping it (its syntax is not checked beyond
    /// brackets and strings).
    mutating func skipValue() throws(TraceReadError) {
        guard try peek() != nil else { throw cutError("unexpected end of file: expected a value") }
        var start = position
        position = try scanValue(from: &start, keep: false)
    }

    /// The next object key and its `:` (after `{` or a comma).
    mutating func key() throws(TraceReadError) -> String {
        let b = try peek()
        guard b == 0x22 else { throw b == nil ? cutError("unexpected end of file: expected a string key") : error("expected a string key") }
        let v = try value()
        guard case .string(let s) = v.kind else { throw error("expected a string key") }
        try expect(UInt8(ascii: ":"), "expected ':' after the key")
        return s
    }
}
