#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``XMLScanner/next()`` found.
enum XMLToken: Equatable {
    /// A start tag; `name` and the attributes describe it. `selfClosing` for `<x/>`.
    case start(selfClosing: Bool)
    /// An end tag (also reported right after a self-closing start tag); `name` is set.
    case end
    /// Character data (text, entity references and CDATA), in `text` when capturing.
    case text
    /// The end of the document.
    case endOfDocument
}

/// A streaming, non-validating XML 1.0 scanner for GPX: element structure, attributes, text,
/// CDATA, comments, processing instructions, the predefined and numeric character references,
/// a UTF-8 BOM, and documents declared ISO-8859-1 (transcoded to UTF-8).
///
/// Security: a DOCTYPE is skipped and never interpreted: no external entity or DTD is loaded and
/// no declared entity is expanded (a reference to one is an error), so entity expansion cannot
/// blow up. Bounded, each with its own error: nesting depth (``maximumDepth``), attributes per
/// element (``maximumAttributes``), the length of a name (``maximumNameLength``), captured text
/// (``maximumText``), and any other single token (a tag, an attribute value, a comment, a
/// processing instruction, a DOCTYPE: ``ByteSource/maximumWindow``); text that is not captured is
/// skipped as it streams. Well-formedness errors (mismatched tags, bad names, bytes after the
/// root) are fatal, with the file, line and column; a document that ends inside a construct is
/// reported where it ends, naming where the construct opened. Memory: the source's window plus
/// the current tag and captured text.
///
/// Speed: names and attribute values are not copied; they are ranges into the window, valid
/// until the next call of ``next()`` (only a refill moves the window, and refills happen only
/// there). Start and end tags of the common shape take a fast path; anything else, and every
/// error, goes through the general path, which scans the tag again from its start. A reader may
/// take a whole text-only element in one call (``simpleElement()``) instead of three tokens.
/// The scanner owns its scratch buffers (classes): it is not meant to be copied.
struct XMLScanner {
    static let maximumDepth = 256
    // Delimiters searched for, built once (not per call).
    static let gt: [UInt8] = [0x3E]
    static let commentEnd = Array("-->".utf8)
    static let cdataEnd = Array("]]>".utf8)
    static let piEnd = Array("?>".utf8)
    static let maximumAttributes = 256
    /// Longest captured text value, bytes.
    static let maximumText = 1 << 20
    /// Longest element or attribute name, bytes (GPX's are under 40).
    static let maximumNameLength = 1024

    let source: ByteSource
    private(set) var position = 0
    /// Where the current tag's qualified name is in the window.
    private var nameRange = 0..<0

    /// An attribute of the current start tag: its name in the window; its value in the window,
    /// or in ``decodedValues`` when it had references or was transcoded from ISO-8859-1.
    private struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
        var decoded: Bool
    }
    /// The current start tag's attributes are `attributes[0..<attributeCount]` (storage reused).
    private var attributes: [Attribute] = []
    private var attributeCount = 0
    private let decodedValues = ByteBuffer()
    private let capturedText = ByteBuffer()

    /// Decoded text collected while `captureText` is set, across text and CDATA tokens, until
    /// ``clearText()``. Valid until the text changes.
    var text: UnsafeBufferPointer<UInt8> { capturedText.bytes }

    /// Empties ``text`` (keeping its storage).
    func clearText() { capturedText.removeAll() }
    /// Whether the next text is collected (the reader sets it inside elements whose value it needs).
    var captureText = false
    /// Whether the prolog declared ISO-8859-1.
    private(set) var latin1 = false
    /// Whether the prolog declared windows-1252 (a superset of ISO-8859-1 in 0x80–0x9F).
    private var windows1252 = false
    /// The open elements' names, back to back; `openEnds[k]` is where name k ends.
    private let openNames = ByteBuffer()
    private var openEnds: [Int] = []
    private var pendingEnd = false
    private var rootSeen = false
    private var rootClosed = false
    private var started = false
    /// The window's bytes before this are checked characters (``validateWindow()``); checking
    /// starts once the encoding is known, after the XML declaration.
    private var validated = 0
    private var validating = false

    /// `source.bytes.baseAddress`, cached: refreshed after every refill (the window may move).
    private var base: UnsafeMutablePointer<UInt8>

    init(source: ByteSource) {
        self.source = source
        base = source.bytes.baseAddress!
    }

    /// The number of open elements (`openEnds.count`, kept apart: reading an array's count is a call
    /// in the readers' fused paths).
    private(set) var depth = 0

    /// The bytes of `r` in the window (valid until the next refill).
    @inline(__always) private func window(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + r.lowerBound, count: r.count)
    }

    /// The current tag's qualified name (UTF-8), valid until the next call of ``next()``.
    var name: UnsafeBufferPointer<UInt8> { window(nameRange) }

    /// The local part of the current tag's name (after any prefix).
    var localName: UnsafeBufferPointer<UInt8> { XMLScanner.localPart(of: nameRange, in: base) }

    /// The part of the name at `r` after its last ':'.
    @inline(__always) private static func localPart(of r: Range<Int>, in base: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var i = r.upperBound
        while i > r.lowerBound && base[i - 1] != UInt8(ascii: ":") { i -= 1 }
        return UnsafeBufferPointer(start: base + i, count: r.upperBound - i)
    }

    /// Whether `a` and `b` hold the same bytes (a loop: names are short, a call costs more).
    @inline(__always) static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }

    /// The (decoded) value of the attribute whose local name is `local`, if present; valid until
    /// the next call of ``next()``.
    func attribute(_ local: StaticString) -> UnsafeBufferPointer<UInt8>? {
        let key = UnsafeBufferPointer(start: local.utf8Start, count: local.utf8CodeUnitCount)
        for k in 0..<attributeCount {
            let a = attributes[k]
            // The local part equals `key` (which has no ':') when the name is `key`, or ends in
            // ":" + `key`: no need to look for the last ':' first.
            let n = a.name.count, m = key.count
            guard n == m || (n > m && base[a.name.upperBound - m - 1] == UInt8(ascii: ":")) else { continue }
            if XMLScanner.equal(window(a.name.upperBound - m..<a.name.upperBound), key) {
                return a.decoded ? decodedValues[a.value] : window(a.value)
            }
        }
        return nil
    }

    func error(_ message: String, at p: Int? = nil) -> TraceReadError {
        let (l, c) = source.location(of: p ?? position)
        return TraceReadError(file: source.name, line: l, column: c, message: message)
    }

    /// The error for a document that ends inside `construct`, which opened at `start` (in the
    /// window): reported where the input ends, naming where the construct opened.
    func unexpectedEnd(in construct: String, openedAt start: Int) -> TraceReadError {
        let (l, c) = source.location(of: start)
        return error("unexpected end of file in \(construct) (opened at \(l):\(c))", at: source.end)
    }

    /// The line of the current position (for diagnostics).
    var line: Int { source.location(of: position).line }

    // MARK: Window management

    /// Makes `bytes[position + n - 1]` available, keeping everything from `keep` on; shifts
    /// `keep` and `position`. Returns false at the end of input.
    @inline(__always) private mutating func ensure(_ n: Int, keeping keep: inout Int) throws(TraceReadError) -> Bool {
        position + n <= source.end ? true : try refill(toHold: n, keeping: &keep)
    }

    /// ``ensure(_:keeping:)`` when the window is short of the bytes.
    private mutating func refill(toHold n: Int, keeping keep: inout Int) throws(TraceReadError) -> Bool {
        while position + n > source.end {
            let (shift, grew) = try refillSource(keeping: keep)
            position -= shift
            keep -= shift
            if !grew && position + n > source.end { return false }
        }
        return true
    }

    /// Refills the window (``ByteSource/refill(keeping:)``) and checks the bytes that arrived.
    private mutating func refillSource(keeping keep: Int) throws(TraceReadError) -> (shift: Int, grew: Bool) {
        let (shift, grew) = try source.refill(keeping: keep)
        base = source.bytes.baseAddress!
        validated -= shift
        if validating { try validateWindow() }
        return (shift, grew)
    }

    /// Checks that the window's bytes from `validated` on are XML characters in the document's
    /// encoding (``XMLCharacters``), and hands the line feeds the check counted to the source
    /// (``ByteSource/noteLines(_:from:to:)``), which then need not count them. A character cut by
    /// the window's end is checked once the rest has arrived.
    private mutating func validateWindow() throws(TraceReadError) {
        let scan = XMLCharacters.scan(base, from: validated, to: source.end, latin1: latin1)
        source.noteLines(scan.lines, from: validated, to: scan.valid)
        validated = scan.valid
        guard let problem = scan.problem, problem != .truncated || source.atEOF else { return }
        throw error(XMLCharacters.message(problem), at: scan.valid)
    }

    @inline(__always) private func byte(_ i: Int) -> UInt8 { base[i] }

    /// Finds `needle` (1–3 bytes) at or after `position`, refilling as needed and keeping from
    /// `keep`; returns the index of its first byte, or nil at the end of input.
    private mutating func find(_ needle: [UInt8], keeping keep: inout Int) throws(TraceReadError) -> Int? {
        var from = position
        while true {
            let limit = source.end
            if from + needle.count <= limit {
                var p = from
                while p + needle.count <= limit {
                    guard let hit = memchr(source.bytes.baseAddress! + p, Int32(needle[0]), limit - p) else { p = limit; break }
                    let q = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - UnsafePointer(source.bytes.baseAddress!)
                    if q + needle.count > limit { p = q; break }
                    var ok = true
                    for k in 1..<needle.count where base[q + k] != needle[k] { ok = false; break }
                    if ok { return q }
                    p = q + 1
                }
                from = max(from, p)
            }
            let (shift, grew) = try refillSource(keeping: keep)
            position -= shift
            keep -= shift
            from -= shift
            if !grew { return nil }
        }
    }

    // MARK: Tokens

    /// The next token.
    mutating func next() throws(TraceReadError) -> XMLToken {
        if !started {
            started = true
            var keep = 0
            if try ensure(3, keeping: &keep), byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF {
                position = 3
            }
            // "<?xml" and a space: the XML declaration, which says how to read the bytes after it.
            keep = position
            if try ensure(6, keeping: &keep), window(position..<(position + 5)).elementsEqual("<?xml".utf8), XMLScanner.isSpace(byte(position + 5)) {
                try scanXMLDeclaration()
            }
            validated = position
            validating = true
            try validateWindow()
        }
        if pendingEnd {
            pendingEnd = false
            popOpen()
            return .end
        }
        while true {
            var keep = position
            guard try ensure(1, keeping: &keep) else {
                if !openEnds.isEmpty {
                    throw error("unexpected end of file: <\(String(decoding: topName, as: UTF8.self))> is not closed")
                }
                if !rootSeen { throw error("unexpected end of file: no root element") }
                return .endOfDocument
            }
            if byte(position) != UInt8(ascii: "<") {
                if try scanText() { return .text }
                continue
            }
            // Markup.
            guard try ensure(2, keeping: &keep) else { throw error("unexpected end of file after '<'", at: source.end) }
            switch byte(position + 1) {
            case UInt8(ascii: "/"):
                if !scanEndTagFast() { try scanEndTag() }
                return .end
            case UInt8(ascii: "?"):
                try scanProcessingInstruction()
            case UInt8(ascii: "!"):
                if try scanBang() { return .text }
            default:
                if let token = scanStartTagFast() { return token }
                return try scanStartTag()
            }
        }
    }

    private var topName: UnsafeBufferPointer<UInt8> {
        let start = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        return openNames[start..<(openEnds.last ?? 0)]
    }

    /// Pushes the element named `r` (in the window) onto the open-element stack.
    private mutating func pushOpen(_ r: Range<Int>) {
        openNames.append(base + r.lowerBound, count: r.count)
        openEnds.append(openNames.count)
        depth &+= 1
        rootSeen = true
    }

    private mutating func popOpen() {
        openEnds.removeLast()
        depth &-= 1
        openNames.removeAll(from: openEnds.last ?? 0)
        if openEnds.isEmpty { rootClosed = true }
    }

    /// Character data up to the next '<'. Returns true when it produced a text token (only while
    /// capturing; otherwise the text is checked and skipped).
    private mutating func scanText() throws(TraceReadError) -> Bool {
        var keep = position
        var sawNonSpace = false
        while true {
            let limit = source.end
            // Up to the next '<' or '&': a byte loop over the first bytes (most text in GPX is
            // short: values and indentation), then memchr for '<' and the first '&' before it.
            var p = position
            let short = min(limit, position + 32)
            while p < short && base[p] != 0x3C && base[p] != 0x26 { p += 1 }
            if p == short && p < limit {
                p = limit
                if let hit = memchr(base + short, 0x3C, limit - short) {
                    p = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                }
                if p > short, let amp = memchr(base + short, 0x26, p - short) {
                    p = UnsafeRawPointer(amp).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                }
            }
            // Only outside the root element does it matter whether the text is blank.
            if !sawNonSpace && (!rootSeen || rootClosed) {
                for i in position..<p where !XMLScanner.isSpace(base[i]) {
                    sawNonSpace = true
                    break
                }
            }
            if captureText {
                try appendText(position..<p)
            }
            position = p
            if p < limit && base[p] == UInt8(ascii: "<") { break }
            if p < limit {  // '&'
                try scanReference(keeping: &keep)
                sawNonSpace = true
                continue
            }
            keep = position  // text already consumed need not stay in the window
            var k = keep
            guard try ensure(1, keeping: &k) else { break }
            keep = k
        }
        if (!rootSeen || rootClosed) && sawNonSpace {
            throw error(rootSeen ? "text after the root element" : "text before the root element")
        }
        return captureText
    }

    private mutating func appendText(_ r: Range<Int>) throws(TraceReadError) {
        guard capturedText.count + r.count <= XMLScanner.maximumText else { throw error("text longer than \(XMLScanner.maximumText) bytes") }
        if latin1 {
            for i in r { appendLatin1(base[i], to: capturedText) }
        } else {
            capturedText.append(base + r.lowerBound, count: r.count)
        }
    }

    /// Windows-1252's characters for bytes 0x80–0x9F (0 where the code page leaves a byte
    /// undefined: it is then read as ISO-8859-1 reads it).
    private static let windows1252High: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Appends the UTF-8 of an ISO-8859-1 (or windows-1252) byte.
    private func appendLatin1(_ b: UInt8, to out: ByteBuffer) {
        if b < 0x80 {
            out.append(b)
            return
        }
        if windows1252 && b < 0xA0, case let u = XMLScanner.windows1252High[Int(b - 0x80)], u != 0 {
            // Every mapped character is in U+0100–U+FFFF: two or three UTF-8 bytes.
            if u < 0x800 {
                out.append(UInt8(0xC0 | (u >> 6)))
                out.append(UInt8(0x80 | (u & 0x3F)))
            } else {
                out.append(UInt8(0xE0 | (u >> 12)))
                out.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
                out.append(UInt8(0x80 | (u & 0x3F)))
            }
            return
        }
        out.append(0xC0 | (b >> 6))
        out.append(0x80 | (b & 0x3F))
    }

    /// A character or entity reference at `position` ('&'); appends its character when capturing.
    private mutating func scanReference(keeping keep: inout Int) throws(TraceReadError) {
        var k = min(keep, position)
        guard let semi = try findSemicolon(keeping: &k) else {
            // No ';' within 12 bytes is a malformed reference; fewer than 12 left, a truncated one.
            throw source.end - position > 12 ? error("unterminated character reference") : unexpectedEnd(in: "a character reference", openedAt: position)
        }
        keep = k
        let ref = Array(UnsafeBufferPointer(rebasing: source.bytes[(position + 1)..<semi]))
        let scalar = try decodeReference(ref, at: position)
        if captureText { appendScalar(scalar, to: capturedText) }
        position = semi + 1
    }

    private mutating func findSemicolon(keeping keep: inout Int) throws(TraceReadError) -> Int? {
        while true {
            var p = position + 1
            while p < source.end && p - position <= 12 {
                if base[p] == UInt8(ascii: ";") { return p }
                p += 1
            }
            if p - position > 12 { return nil }
            guard try ensure(p - position + 1, keeping: &keep) else { return nil }
        }
    }

    private func decodeReference(_ ref: [UInt8], at p: Int) throws(TraceReadError) -> Unicode.Scalar {
        switch ref {
        case Array("lt".utf8): return "<"
        case Array("gt".utf8): return ">"
        case Array("amp".utf8): return "&"
        case Array("apos".utf8): return "'"
        case Array("quot".utf8): return "\""
        default: break
        }
        if ref.first == UInt8(ascii: "#") {
            var value: UInt32 = 0
            let hex = ref.count > 1 && ref[1] == UInt8(ascii: "x")
            let digits = ref.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 8 else { throw error("invalid character reference", at: p) }
            for d in digits {
                let v: UInt32
                switch d {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(d - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: v = UInt32(d - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: v = UInt32(d - UInt8(ascii: "A") + 10)
                default: throw error("invalid character reference", at: p)
                }
                value = value * (hex ? 16 : 10) + v
            }
            guard let s = Unicode.Scalar(value), XMLScanner.isXMLChar(value) else {
                throw error("character reference to an invalid character", at: p)
            }
            return s
        }
        throw error("undefined entity '&\(String(decoding: ref, as: UTF8.self));' (only the five predefined entities and character references are read; DTD entities are never expanded)", at: p)
    }

    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }

    private func appendScalar(_ s: Unicode.Scalar, to out: ByteBuffer) {
        for b in String(Character(s)).utf8 { out.append(b) }
    }

    /// `<!--`, `<![CDATA[` or `<!DOCTYPE`. Returns true when CDATA produced a text token.
    private mutating func scanBang() throws(TraceReadError) -> Bool {
        var keep = position
        guard try ensure(4, keeping: &keep) else { throw unexpectedEnd(in: "markup", openedAt: position) }
        if byte(position + 2) == UInt8(ascii: "-") && byte(position + 3) == UInt8(ascii: "-") {
            position += 4
            guard let close = try find(XMLScanner.commentEnd, keeping: &keep) else { throw unexpectedEnd(in: "a comment", openedAt: keep) }
            position = close + 3
            return false
        }
        guard try ensure(9, keeping: &keep) else { throw unexpectedEnd(in: "markup", openedAt: position) }
        if UnsafeBufferPointer(rebasing: source.bytes[(position + 2)..<(position + 9)]).elementsEqual("[CDATA[".utf8) {
            guard rootSeen && !rootClosed else { throw error("CDATA outside the root element") }
            position += 9
            guard let close = try find(XMLScanner.cdataEnd, keeping: &keep) else { throw unexpectedEnd(in: "a CDATA section", openedAt: keep) }
            if captureText { try appendText((keep + 9)..<close) }  // `keep` is still the '<' of the section
            position = close + 3
            return captureText
        }
        if UnsafeBufferPointer(rebasing: source.bytes[(position + 2)..<(position + 9)]).elementsEqual("DOCTYPE".utf8) {
            guard !rootSeen else { throw error("DOCTYPE after the root element") }
            try skipDoctype(keeping: &keep)
            return false
        }
        throw error("unknown markup '<!'")
    }

    /// Skips a DOCTYPE declaration, internal subset included, without interpreting it. It is one
    /// token: longer than ``ByteSource/maximumWindow`` is an error (not a read of the whole input).
    private mutating func skipDoctype(keeping keep: inout Int) throws(TraceReadError) {
        var bracket = 0
        var quote: UInt8 = 0
        position += 9
        while true {
            guard try ensure(1, keeping: &keep) else { throw unexpectedEnd(in: "a DOCTYPE", openedAt: keep) }
            let b = byte(position)
            position += 1
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                bracket += 1
            } else if b == UInt8(ascii: "]") {
                bracket -= 1
            } else if b == UInt8(ascii: ">") && bracket <= 0 {
                return
            }
        }
    }

    /// `<?target ...?>`, a processing instruction: skipped. Its target is a name, and not `xml`
    /// in any case (the XML declaration is read only at the start, by ``scanXMLDeclaration()``).
    private mutating func scanProcessingInstruction() throws(TraceReadError) {
        var keep = position
        // The closing "?>" comes after the opening "<?": in "<?>" they overlap, and it is unterminated.
        position += 2
        guard let close = try find(XMLScanner.piEnd, keeping: &keep) else { throw unexpectedEnd(in: "a processing instruction", openedAt: keep) }
        var p = keep + 2
        while p < close && XMLScanner.isNameByte(byte(p)) { p += 1 }
        guard p > keep + 2 else { throw error("expected a processing instruction's target after '<?'", at: p) }
        guard p == close || XMLScanner.isSpace(byte(p)) else { throw error("expected white space after the processing instruction's target", at: p) }
        try validateName((keep + 2)..<p)
        let target = window((keep + 2)..<p)
        if target.count == 3 && target[0] | 0x20 == UInt8(ascii: "x") && target[1] | 0x20 == UInt8(ascii: "m") && target[2] | 0x20 == UInt8(ascii: "l") {
            throw error("the XML declaration is allowed only at the start of the document", at: keep)
        }
        position = close + 2
    }

    /// The XML declaration at the start of the document, `<?xml version="1.x" encoding="…"
    /// standalone="yes|no"?>`, checked against XML 1.0's grammar and read for its encoding:
    /// UTF-8 (or US-ASCII), ISO-8859-1 or windows-1252; any other encoding is an error.
    private mutating func scanXMLDeclaration() throws(TraceReadError) {
        var keep = position
        position += 2
        guard let close = try find(XMLScanner.piEnd, keeping: &keep) else { throw unexpectedEnd(in: "the XML declaration", openedAt: keep) }
        var p = keep + 5  // after "<?xml"
        func spaces() -> Bool {
            let from = p
            while p < close && XMLScanner.isSpace(byte(p)) { p += 1 }
            return p > from
        }
        /// ` name = "value"`: the value's range, or nil when the declaration does not go on with `name`.
        func pseudoAttribute(_ name: String) throws(TraceReadError) -> Range<Int>? {
            let mark = p
            guard spaces(), close - p >= name.utf8.count, window(p..<(p + name.utf8.count)).elementsEqual(name.utf8) else { p = mark; return nil }
            p += name.utf8.count
            _ = spaces()
            guard p < close, byte(p) == UInt8(ascii: "=") else { throw error("expected '=' after '\(name)' in the XML declaration", at: p) }
            p += 1
            _ = spaces()
            guard p < close, byte(p) == 0x22 || byte(p) == 0x27 else { throw error("expected a quoted value of '\(name)' in the XML declaration", at: p) }
            let quote = byte(p)
            let from = p + 1
            p = from
            while p < close && byte(p) != quote { p += 1 }
            guard p < close else { throw error("unterminated value of '\(name)' in the XML declaration", at: from) }
            p += 1
            return from..<(p - 1)
        }
        guard let version = try pseudoAttribute("version") else { throw error("the XML declaration has no version", at: p) }
        let v = window(version)
        guard v.count > 2, v[0] == UInt8(ascii: "1"), v[1] == UInt8(ascii: "."), v.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw error("unsupported XML version '\(String(decoding: v, as: UTF8.self))'", at: version.lowerBound)
        }
        if let encoding = try pseudoAttribute("encoding") {
            let e = window(encoding)
            let wellFormed = !e.isEmpty && XMLScanner.isASCIILetter(e[0])
                && e.allSatisfy { XMLScanner.isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            let name = String(decoding: e, as: UTF8.self)
            guard wellFormed else { throw error("invalid encoding name '\(name)' in the XML declaration", at: encoding.lowerBound) }
            switch name.lowercased() {
            case "utf-8", "utf8", "us-ascii", "ascii": break
            case "iso-8859-1", "iso8859-1", "latin1", "latin-1": latin1 = true
            case "windows-1252", "cp1252":
                latin1 = true
                windows1252 = true
            default: throw error("unsupported encoding '\(name)' (UTF-8 and ISO-8859-1 are read)", at: encoding.lowerBound)
            }
        }
        if let standalone = try pseudoAttribute("standalone") {
            let value = window(standalone)
            guard value.elementsEqual("yes".utf8) || value.elementsEqual("no".utf8) else {
                throw error("standalone must be 'yes' or 'no' in the XML declaration", at: standalone.lowerBound)
            }
        }
        _ = spaces()
        guard p == close else { throw error("unexpected characters in the XML declaration", at: p) }
        position = close + 2
    }

    @inline(__always) private static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// The common case of ``scanEndTag()``: `</name>` in the window closing the open element.
    /// Returns false (having changed nothing) for anything else.
    private mutating func scanEndTagFast() -> Bool {
        guard !openEnds.isEmpty else { return false }
        let top = topName
        let nameStart = position + 2
        let gt = nameStart + top.count
        guard gt < source.end, base[gt] == UInt8(ascii: ">"), XMLScanner.equal(window(nameStart..<gt), top) else { return false }
        nameRange = nameStart..<gt
        position = gt + 1
        popOpen()
        return true
    }

    private mutating func scanEndTag() throws(TraceReadError) {
        var keep = position
        guard let gt = try find(XMLScanner.gt, keeping: &keep) else { throw unexpectedEnd(in: "an end tag", openedAt: keep) }
        var p = keep + 2
        let nameStart = p
        while p < gt && !XMLScanner.isSpace(byte(p)) { p += 1 }
        guard p - nameStart <= XMLScanner.maximumNameLength else { throw error("a name longer than \(XMLScanner.maximumNameLength) bytes", at: nameStart) }
        nameRange = nameStart..<p
        while p < gt && XMLScanner.isSpace(byte(p)) { p += 1 }
        guard p == gt else { throw error("unexpected characters in end tag", at: p) }
        guard !openEnds.isEmpty else { throw error("end tag </\(String(decoding: name, as: UTF8.self))> with no open element", at: keep) }
        guard XMLScanner.equal(name, topName) else {
            throw error("end tag </\(String(decoding: name, as: UTF8.self))> does not match <\(String(decoding: topName, as: UTF8.self))>", at: keep)
        }
        position = gt + 1
        popOpen()
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// ``ByteMasks/skipSpaces(_:from:limit:)`` for bytes of the window from ``elementWindow()``,
    /// which passed the character check (``validateWindow()``): there the only bytes below 0x21
    /// are the four white-space characters (XML allows no other control character, and the bytes
    /// past the check, a multi-byte character cut by the window's end, are all 0x80 or above),
    /// so a byte is white space exactly when it is at most 0x20 (two SSE2 operations per 16
    /// bytes instead of seven).
    @inline(__always) static func skipCheckedSpaces(_ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        ByteMasks.skipAtMost(0x20, base, from: from, limit: limit)
    }

    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    /// Checks a name: ASCII names by byte class; others by XML 1.0's NameStartChar/NameChar.
    private func validateName(_ r: Range<Int>) throws(TraceReadError) {
        guard !r.isEmpty else { throw error("expected a name", at: r.lowerBound) }
        guard r.count <= XMLScanner.maximumNameLength else { throw error("a name longer than \(XMLScanner.maximumNameLength) bytes", at: r.lowerBound) }
        let first = byte(r.lowerBound)
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) {
            throw error("invalid name", at: r.lowerBound)
        }
        var ascii = true
        for i in r where byte(i) >= 0x80 { ascii = false; break }
        if ascii { return }
        // The name's characters: UTF-8, or one per byte in ISO-8859-1 (windows-1252 above 0x7F).
        var scalars: [UInt32] = []
        if latin1 {
            scalars = r.map { i in
                let b = byte(i)
                if windows1252 && b >= 0x80 && b < 0xA0, case let u = XMLScanner.windows1252High[Int(b - 0x80)], u != 0 { return UInt32(u) }
                return UInt32(b)
            }
        } else {
            guard let s = String(validating: UnsafeBufferPointer(rebasing: source.bytes[r]), as: UTF8.self) else {
                throw error("name is not valid UTF-8", at: r.lowerBound)
            }
            scalars = s.unicodeScalars.map(\.value)
        }
        for (i, v) in scalars.enumerated() where v >= 0x80 {
            var ok = (0xC0...0xD6).contains(v) || (0xD8...0xF6).contains(v) || (0xF8...0x2FF).contains(v) || (0x370...0x37D).contains(v)
                || (0x37F...0x1FFF).contains(v) || (0x200C...0x200D).contains(v) || (0x2070...0x218F).contains(v)
                || (0x2C00...0x2FEF).contains(v) || (0x3001...0xD7FF).contains(v) || (0xF900...0xFDCF).contains(v)
                || (0xFDF0...0xFFFD).contains(v) || (0x10000...0xEFFFF).contains(v)
            if i > 0 { ok = ok || v == 0xB7 || (0x300...0x36F).contains(v) || (0x203F...0x2040).contains(v) }
            if !ok { throw error("invalid character U+\(String(v, radix: 16, uppercase: true)) in a name", at: r.lowerBound) }
        }
    }

    /// Follows attribute quoting through `r` of a start tag: `quote` is the open quote (0 when
    /// none). A '<' is an error inside or outside quotes.
    private func trackQuotes(_ r: Range<Int>, _ quote: inout UInt8) throws(TraceReadError) {
        for i in r {
            let b = base[i]
            if quote != 0 {
                if b == quote { quote = 0 } else if b == 0x3C { throw error("'<' in an attribute value", at: i) }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == 0x3C {
                throw error("'<' inside a start tag", at: i)
            }
        }
    }

    /// An ASCII byte that may start a name (the general path's rule: a name byte, but not '-',
    /// '.' or a digit).
    @inline(__always) private static func isASCIINameStart(_ b: UInt8) -> Bool {
        b < 0x80 && isNameByte(b) && b != UInt8(ascii: "-") && b != UInt8(ascii: ".") && !(b >= 0x30 && b <= 0x39)
    }

    /// The end of the ASCII name bytes from `i` (at most `limit`), looking at most
    /// ``maximumNameLength`` bytes: a longer name ends on a name byte, so the fast paths refuse it
    /// and the general path reports it.
    @inline(__always) private func asciiNameEnd(from i: Int, limit: Int) -> Int {
        var i = i
        let limit = min(limit, i + XMLScanner.maximumNameLength)
        while i < limit && XMLScanner.isASCIINameByte(base[i]) { i += 1 }
        return i
    }

    // The ASCII name bytes (letters, digits, '_', ':', '-', '.') as a bitmap, two words.
    private static let nameBytesLow: UInt64 = (1 << 0x2D) | (1 << 0x2E) | (0x3FF << 0x30) | (1 << 0x3A)
    private static let nameBytesHigh: UInt64 = (0x3FF_FFFF << 1) | (1 << (0x5F - 64)) | (0x3FF_FFFF << (0x61 - 64))

    /// ``isNameByte(_:)`` for ASCII bytes (false for the others), from a bitmap.
    @inline(__always) static func isASCIINameByte(_ b: UInt8) -> Bool {
        let word = b < 64 ? nameBytesLow : b < 128 ? nameBytesHigh : 0
        return (word >> UInt64(b & 63)) & 1 != 0
    }

    /// The common case of ``scanStartTag()``: a tag wholly in the window, with ASCII names,
    /// `name="value"` attributes (either quote, single spaces or more between them) whose values
    /// have no reference or '<', in a UTF-8 document. Returns nil, having changed nothing the
    /// general path depends on, for anything else: that path then scans the tag again and reports
    /// any error exactly.
    private mutating func scanStartTagFast() -> XMLToken? {
        guard !latin1, !rootClosed, openEnds.count < XMLScanner.maximumDepth, let tag = plainStartTag(at: position) else { return nil }
        nameRange = tag.name
        pushOpen(nameRange)
        position = tag.end
        pendingEnd = tag.selfClosing
        return .start(selfClosing: tag.selfClosing)
    }

    /// A start tag of ``scanStartTagFast()``'s shape at `start`, wholly in the window: its name,
    /// where it ends (after its '>'), whether it closes itself; its attributes are recorded. Nil
    /// for anything else (the attributes recorded are then meaningless; the caller starts over).
    private mutating func plainStartTag(at start: Int) -> (name: Range<Int>, end: Int, selfClosing: Bool)? {
        let limit = source.end
        let nameStart = start + 1
        guard nameStart < limit, XMLScanner.isASCIINameStart(base[nameStart]) else { return nil }
        var i = asciiNameEnd(from: nameStart, limit: limit)
        let nameEnd = i
        attributeCount = 0
        var selfClosing = false
        while true {
            guard i < limit else { return nil }
            var c = base[i]
            let spaced = XMLScanner.isSpace(c)
            while XMLScanner.isSpace(c) {
                i += 1
                guard i < limit else { return nil }
                c = base[i]
            }
            if c == UInt8(ascii: ">") { break }
            if c == UInt8(ascii: "/") {
                guard i + 1 < limit, base[i + 1] == UInt8(ascii: ">") else { return nil }
                selfClosing = true
                i += 1
                break
            }
            guard spaced, XMLScanner.isASCIINameStart(c) else { return nil }
            let an = i
            i = asciiNameEnd(from: i, limit: limit)
            let attributeName = an..<i
            guard i + 1 < limit, base[i] == UInt8(ascii: "=") else { return nil }
            let quote = base[i + 1]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            i += 2
            let vs = i
            i = ByteMasks.firstOf(quote, UInt8(ascii: "<"), UInt8(ascii: "&"), base, from: i, limit: limit)
            guard i < limit, base[i] == quote else { return nil }
            guard attributeCount < XMLScanner.maximumAttributes, !isDuplicate(attributeName) else { return nil }
            record(Attribute(name: attributeName, value: vs..<i, decoded: false))
            i += 1
        }
        return (nameStart..<nameEnd, i + 1, selfClosing)
    }

    /// A child found by ``plainElement(maximumChildren:where:)``: its name and text in the window.
    private struct PlainChild {
        var name: Range<Int>
        var text: Range<Int>
    }
    private var plainChildren: [PlainChild] = []
    /// How many children the last ``plainElement(maximumChildren:where:)`` found.
    private(set) var plainChildCount = 0

    /// The local name and the text of child `k` of the last ``plainElement(maximumChildren:where:)``
    /// (in the window, valid until the next call of ``next()``).
    func plainChild(_ k: Int) -> (localName: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>) {
        let c = plainChildren[k]
        return (XMLScanner.localPart(of: c.name, in: base), window(c.text))
    }

    /// Where the last successful ``plainElement(maximumChildren:where:)`` started.
    private var plainOrigin = 0

    /// Takes back the last successful ``plainElement(maximumChildren:where:)`` (the window has
    /// not moved since), so that ``next()`` reads the element token by token.
    mutating func undoPlainElement() {
        position = plainOrigin
    }

    /// A whole element of the plainest shape in one call, after any whitespace: a start tag of
    /// ``scanStartTagFast()``'s shape (not self-closing) whose content is only whitespace and at
    /// most `maximumChildren` children of ``simpleElement()``'s shape (ASCII name, no attribute,
    /// short text without '&' or '<'), then its end tag, all in the window, in a UTF-8 document,
    /// inside the root element, while text is not captured. The GPX reader's points usually take
    /// this path: one pass, no open-element bookkeeping, no token per child. Afterwards ``name``
    /// and ``attribute(_:)`` describe the element, ``plainChild(_:)`` its children, and the
    /// scanner stands after its end tag, as if ``next()`` had returned all of its tokens
    /// (``undoPlainElement()`` takes that back). Returns false for anything else, or when
    /// `accept` refuses the element's local name, having changed nothing the other calls
    /// depend on.
    mutating func plainElement(maximumChildren: Int, where accept: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard !pendingEnd, !latin1, !captureText, depth > 0, depth + 1 < XMLScanner.maximumDepth else { return false }
        let limit = source.end
        let start = ByteMasks.skipSpaces(base, from: position, limit: limit)
        guard start < limit, base[start] == UInt8(ascii: "<"), let tag = plainStartTag(at: start), !tag.selfClosing,
              accept(XMLScanner.localPart(of: tag.name, in: base)) else { return false }
        plainChildCount = 0
        var i = tag.end
        while true {
            i = ByteMasks.skipSpaces(base, from: i, limit: limit)
            guard i + 1 < limit, base[i] == UInt8(ascii: "<") else { return false }
            if base[i + 1] == UInt8(ascii: "/") {
                let gt = i + 2 + tag.name.count
                guard gt < limit, base[gt] == UInt8(ascii: ">"), XMLScanner.equal(window(i + 2..<gt), window(tag.name)) else { return false }
                nameRange = tag.name
                plainOrigin = position
                position = gt + 1
                return true
            }
            let childStart = i + 1
            guard plainChildCount < maximumChildren, XMLScanner.isASCIINameStart(base[childStart]) else { return false }
            let childEnd = asciiNameEnd(from: childStart, limit: limit)
            guard childEnd < limit, base[childEnd] == UInt8(ascii: ">") else { return false }
            let textStart = childEnd + 1
            let textEnd = ByteMasks.firstOf(
                UInt8(ascii: "<"), UInt8(ascii: "&"), base, from: textStart,
                limit: min(limit, textStart + XMLScanner.maximumSimpleText + 1))
            let gt = textEnd + 2 + (childEnd - childStart)
            guard gt < limit, base[textEnd] == UInt8(ascii: "<"), base[textEnd + 1] == UInt8(ascii: "/"), base[gt] == UInt8(ascii: ">"),
                  XMLScanner.equal(window(textEnd + 2..<gt), window(childStart..<childEnd)) else { return false }
            let child = PlainChild(name: childStart..<childEnd, text: textStart..<textEnd)
            if plainChildCount < plainChildren.count { plainChildren[plainChildCount] = child } else { plainChildren.append(child) }
            plainChildCount += 1
            i = gt + 1
        }
    }

    /// The window, for a reader that reads one whole element of a shape it knows by itself (the
    /// GPX reader's fused points): the bytes from `position` up to `limit` are readable and passed
    /// the character check (but for a multi-byte character cut by the window's end; so
    /// ``skipCheckedSpaces(_:from:limit:)`` applies). Nil unless
    /// the scanner is where ``plainElement(maximumChildren:where:)`` may start: inside the root
    /// element, in a UTF-8 document, no end tag pending, text not captured, and room for two more
    /// levels of nesting. The reader must accept only well-formed XML that ``next()`` would read
    /// as one start tag, text and child elements of ``simpleElement()``'s shape (ASCII names, no
    /// references), and the matching end tag, then call ``consumeElement(endName:end:)``; or
    /// change nothing.
    func elementWindow() -> (base: UnsafePointer<UInt8>, position: Int, limit: Int)? {
        guard !pendingEnd, !latin1, !captureText, depth > 0, depth + 1 < XMLScanner.maximumDepth else { return nil }
        return (UnsafePointer(base), position, source.end)
    }

    /// Moves past an element a reader read by itself from ``elementWindow()``, leaving the
    /// scanner as ``next()`` would after its end tag: the open elements are as before (the
    /// element was opened and closed), ``name`` is the end tag's name (at `endName` in the
    /// window), the scanner stands at `end`. The attributes are forgotten.
    mutating func consumeElement(endName: Range<Int>, end: Int) {
        nameRange = endName
        attributeCount = 0
        position = end
    }

    /// Longest text ``simpleElement()`` takes; longer text goes through ``next()``.
    static let maximumSimpleText = 256

    /// A whole element that holds only short text, `<name>text</name>`, after any whitespace, in
    /// one call instead of three tokens: the name ASCII, no attributes, the text without '&' or
    /// '<' (at most ``maximumSimpleText`` bytes), and the matching end tag, all in the window, in a
    /// UTF-8 document, inside the root element, while text is not captured. Consumes what
    /// ``next()`` would return as its start, text and end tokens, leaving the scanner as they
    /// would; ``name`` is then the element's name, and the result is its text (in the window,
    /// valid until the next call of ``next()``). Returns nil for anything else, having consumed at
    /// most the whitespace (which ``next()`` would skip: it is not captured, and inside the root).
    mutating func simpleElement() -> UnsafeBufferPointer<UInt8>? {
        guard !pendingEnd, !latin1, !captureText, depth > 0, depth < XMLScanner.maximumDepth else { return nil }
        let limit = source.end
        var i = position
        while i < limit && XMLScanner.isSpace(base[i]) { i += 1 }
        position = i
        let nameStart = i + 1
        guard nameStart < limit, base[i] == UInt8(ascii: "<"), XMLScanner.isASCIINameStart(base[nameStart]) else { return nil }
        let nameEnd = asciiNameEnd(from: nameStart, limit: limit)
        guard nameEnd < limit, base[nameEnd] == UInt8(ascii: ">") else { return nil }
        let textStart = nameEnd + 1
        let textLimit = min(limit, textStart + XMLScanner.maximumSimpleText + 1)
        var textEnd = textStart
        while textEnd < textLimit && base[textEnd] != UInt8(ascii: "<") && base[textEnd] != UInt8(ascii: "&") { textEnd += 1 }
        let gt = textEnd + 2 + (nameEnd - nameStart)
        guard gt < limit, base[textEnd] == UInt8(ascii: "<"), base[textEnd + 1] == UInt8(ascii: "/"), base[gt] == UInt8(ascii: ">"),
              XMLScanner.equal(window(textEnd + 2..<gt), window(nameStart..<nameEnd)) else { return nil }
        nameRange = nameStart..<nameEnd
        attributeCount = 0
        position = gt + 1
        return window(textStart..<textEnd)
    }

    private mutating func scanStartTag() throws(TraceReadError) -> XMLToken {
        var keep = position
        // Find the closing '>' outside quotes: memchr for '>', then check that no quote is open
        // before it (values with '>' are rare; then search on).
        var p = position + 1
        var quote: UInt8 = 0
        var checked = p
        while true {
            let base = self.base
            let limit = source.end
            if p < limit, let hit = memchr(base + p, 0x3E, limit - p) {
                let gt = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                try trackQuotes(checked..<gt, &quote)
                checked = gt + 1
                if quote == 0 {
                    p = gt
                    break
                }
                p = gt + 1
                continue
            }
            // No '>' in the window yet: check what there is, then read more.
            try trackQuotes(checked..<limit, &quote)
            checked = limit
            let before = keep
            var k = keep
            guard try ensure(limit - position + 1, keeping: &k) else { throw unexpectedEnd(in: "a start tag", openedAt: k) }
            keep = k
            let shift = before - keep
            p = limit - shift
            checked -= shift
        }
        let gt = p
        let selfClosing = byte(gt - 1) == UInt8(ascii: "/") && gt - 1 > keep
        let tagEnd = selfClosing ? gt - 1 : gt
        // Name.
        var i = keep + 1
        let nameStart = i
        while i < tagEnd && XMLScanner.isNameByte(byte(i)) { i += 1 }
        try validateName(nameStart..<i)
        if i < tagEnd && !XMLScanner.isSpace(byte(i)) {
            throw error("invalid character in the name of a start tag", at: i)
        }
        nameRange = nameStart..<i
        if rootClosed { throw error("a second root element <\(String(decoding: name, as: UTF8.self))>", at: keep) }
        // Attributes.
        decodedValues.removeAll()
        attributeCount = 0
        while true {
            let before = i
            while i < tagEnd && XMLScanner.isSpace(byte(i)) { i += 1 }
            if i >= tagEnd { break }
            guard i > before else { throw error("expected whitespace before an attribute", at: i) }
            let an = i
            while i < tagEnd && XMLScanner.isNameByte(byte(i)) { i += 1 }
            try validateName(an..<i)
            let attributeName = an..<i
            while i < tagEnd && XMLScanner.isSpace(byte(i)) { i += 1 }
            guard i < tagEnd, byte(i) == UInt8(ascii: "=") else { throw error("expected '=' after an attribute name", at: i) }
            i += 1
            while i < tagEnd && XMLScanner.isSpace(byte(i)) { i += 1 }
            guard i < tagEnd, byte(i) == UInt8(ascii: "\"") || byte(i) == UInt8(ascii: "'") else {
                throw error("expected a quoted attribute value", at: i)
            }
            let q = byte(i)
            i += 1
            let vs = i
            while i < tagEnd && byte(i) != q { i += 1 }
            guard i < tagEnd else { throw error("unterminated attribute value", at: vs) }
            let ve = i
            i += 1
            guard attributeCount < XMLScanner.maximumAttributes else { throw error("more than \(XMLScanner.maximumAttributes) attributes", at: an) }
            if isDuplicate(attributeName) {
                throw error("duplicate attribute '\(String(decoding: window(attributeName), as: UTF8.self))'", at: an)
            }
            try addAttribute(name: attributeName, value: vs..<ve)
        }
        guard openEnds.count < XMLScanner.maximumDepth else { throw error("elements nested deeper than \(XMLScanner.maximumDepth)", at: keep) }
        pushOpen(nameRange)
        position = gt + 1
        if selfClosing { pendingEnd = true }
        return .start(selfClosing: selfClosing)
    }

    /// Whether the current tag already has an attribute named like `r` (in the window).
    private func isDuplicate(_ r: Range<Int>) -> Bool {
        for k in 0..<attributeCount where XMLScanner.equal(window(attributes[k].name), window(r)) { return true }
        return false
    }

    /// Records an attribute (its count and uniqueness already checked).
    @inline(__always) private mutating func record(_ a: Attribute) {
        if attributeCount < attributes.count { attributes[attributeCount] = a } else { attributes.append(a) }
        attributeCount += 1
    }

    /// Records an attribute of the general path, decoding its value (references, Latin-1) into
    /// ``decodedValues`` when it needs it.
    private mutating func addAttribute(name: Range<Int>, value r: Range<Int>) throws(TraceReadError) {
        if !latin1 && (r.isEmpty || memchr(base + r.lowerBound, 0x26, r.count) == nil) {
            record(Attribute(name: name, value: r, decoded: false))
            return
        }
        let start = decodedValues.count
        var i = r.lowerBound
        while i < r.upperBound {
            let b = byte(i)
            if b == UInt8(ascii: "&") {
                var j = i + 1
                while j < r.upperBound && byte(j) != UInt8(ascii: ";") && j - i <= 12 { j += 1 }
                guard j < r.upperBound, byte(j) == UInt8(ascii: ";") else { throw error("unterminated character reference", at: i) }
                let s = try decodeReference(Array(UnsafeBufferPointer(rebasing: source.bytes[(i + 1)..<j])), at: i)
                appendScalar(s, to: decodedValues)
                i = j + 1
            } else {
                if latin1 { appendLatin1(b, to: decodedValues) } else { decodedValues.append(b) }
                i += 1
            }
        }
        record(Attribute(name: name, value: start..<decodedValues.count, decoded: true))
    }
}

/// A growable byte buffer for the scanner's scratch storage (captured text, decoded attribute
/// values, the open elements' names): appends are a capacity check and a copy, with no
/// uniqueness check or generic collection code.
final class ByteBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The contents, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// Bytes `r` of the contents, valid until the next change.
    subscript(r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + r.lowerBound, count: r.count) }

    /// Keeps the first `n` bytes (storage is kept).
    func removeAll(from n: Int = 0) { count = n }

    func append(_ b: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = b
        count += 1
    }

    func append(_ p: UnsafePointer<UInt8>, count n: Int) {
        if count + n > capacity { grow(to: count + n) }
        (storage + count).initialize(from: p, count: n)
        count += n
    }

    private func grow(to needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = c
    }
}
