#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    var position = 0
    /// Where the current tag's qualified name is in the window.
    var nameRange = 0..<0

    /// An attribute of the current start tag: its name in the window; its value in the window,
    /// or in ``decodedValues`` when it had references or was transcoded from ISO-8859-1.
    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
        var decoded: Bool
    }
    /// The current start tag's attributes are `attributes[0..<attributeCount]` (storage reused).
    var attributes: [Attribute] = []
    var attributeCount = 0
    let decodedValues = ByteBuffer()
    let capturedText = ByteBuffer()

    /// Decoded text collected while `captureText` is set, across text and CDATA tokens, until
    /// ``clearText()``. Valid until the text changes.
    var text: UnsafeBufferPointer<UInt8> { capturedText.bytes }

    /// Empties ``text`` (keeping its storage).
    func clearText() { capturedText.removeAll() }
    /// Whether the next text is collected (the reader sets it inside elements whose value it needs).
    var captureText = false
    /// Whether the prolog declared ISO-8859-1.
    var latin1 = false
    /// Whether the prolog declared windows-1252 (a superset of ISO-8859-1 in 0x80–0x9F).
    var windows1252 = false
    /// The open elements' names, back to back; `openEnds[k]` is where name k ends.
    private let openNames = ByteBuffer()
    var openEnds: [Int] = []
    var pendingEnd = false
    var rootSeen = false
    var rootClosed = false
    private var started = false
    /// The window's bytes before this are checked characters (``validateWindow()``); checking
    /// starts once the encoding is known, after the XML declaration.
    private var validated = 0
    private var validating = false
    /// The error of an input that ends inside a multi-byte character, once the check found it:
    /// the input is taken to end before the character (``ByteSource/endInput(at:)``), and
    /// reaching that end is this error (category ``TraceReadError/Category/truncated``).
    private var cutCharacter: TraceReadError?

    /// `source.bytes.baseAddress`, cached: refreshed after every refill (the window may move).
    var base: UnsafeMutablePointer<UInt8>

    init(source: ByteSource) {
        self.source = source
        base = source.bytes.baseAddress!
    }

    /// The number of open elements (`openEnds.count`, kept apart: reading an array's count is a call
    /// in the readers' fused paths).
    private(set) var depth = 0

    /// The bytes of `r` in the window (valid until the next refill).
    @inline(__always) func window(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + r.lowerBound, count: r.count)
    }

    /// The current tag's qualified name (UTF-8), valid until the next call of ``next()``.
    var name: UnsafeBufferPointer<UInt8> { window(nameRange) }

    /// The local part of the current tag's name (after any prefix).
    var localName: UnsafeBufferPointer<UInt8> { XMLScanner.localPart(of: nameRange, in: base) }

    /// The part of the name at `r` after its last ':'.
    @inline(__always) static func localPart(of r: Range<Int>, in base: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
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
        return cutError("unexpected end of file in \(construct) (opened at \(l):\(c))", at: source.end)
    }

    /// An error for input that ends before the document does (category
    /// ``TraceReadError/Category/truncated``: a reader may keep what came before, ``endHere()``);
    /// when the input ends inside a multi-byte character, that error.
    func cutError(_ message: String, at p: Int? = nil) -> TraceReadError { cutCharacter ?? error(message, at: p).cut }

    /// After a ``cutError(_:at:)`` (the input has ended): the scanner stands at the end of the
    /// input with no element open, so ``next()`` gives ``XMLToken/endOfDocument`` and the
    /// whole-element paths (``elementWindow()``, ``plainElement(maximumChildren:where:)``,
    /// ``simpleElement()``) decline. Captured text stays until ``clearText()``.
    mutating func endHere() {
        position = source.end
        cutCharacter = nil
        openEnds.removeAll()
        openNames.removeAll(from: 0)
        depth = 0
        pendingEnd = false
        captureText = false
        rootClosed = true
    }

    /// The local name of the start tag at the current position, if the input ended inside it
    /// (`<trkpt lat="4`): what a reader's truncation problem names. Nil when the position is not
    /// at a start tag.
    var cutStartTag: String? {
        guard position + 1 < source.end, base[position] == UInt8(ascii: "<"), XMLScanner.isASCIINameStart(base[position + 1]) else {
            return nil
        }
        var i = position + 1
        while i < source.end && XMLScanner.isNameByte(base[i]) && i - position <= XMLScanner.maximumNameLength { i += 1 }
        return String(decoding: XMLScanner.localPart(of: (position + 1)..<i, in: base), as: UTF8.self)
    }

    /// The qualified name of the innermost open element, if any.
    var openElement: String? { depth > 0 ? String(decoding: topName, as: UTF8.self) : nil }

    /// The line of the current position (for diagnostics).
    var line: Int { source.location(of: position).line }

    // MARK: Window management

    /// Makes `bytes[position + n - 1]` available, keeping everything from `keep` on; shifts
    /// `keep` and `position`. Returns false at the end of input.
    @inline(__always) mutating func ensure(_ n: Int, keeping keep: inout Int) throws(TraceReadError) -> Bool {
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
        let e = error(XMLCharacters.message(problem), at: scan.valid)
        guard problem == .truncated else { throw e }
        // The input ends inside a character (cut off mid-write): it ends before the character,
        // and reaching that end is this error, as a cut (``cutError(_:at:)``).
        cutCharacter = e.cut
        source.endInput(at: scan.valid)
    }

    @inline(__always) func byte(_ i: Int) -> UInt8 { base[i] }

    /// Finds `needle` (1–3 bytes) at or after `position`, refilling as needed and keeping from
    /// `keep`; returns the index of its first byte, or nil at the end of input.
    mutating func find(_ needle: [UInt8], keeping keep: inout Int) throws(TraceReadError) -> Int? {
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
            if try ensure(6, keeping: &keep), window(position..<(position + 5)).elementsEqual("<?xml".utf8),
                XMLScanner.isSpace(byte(position + 5))
            {
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
                if let cutCharacter { throw cutCharacter }
                if !openEnds.isEmpty {
                    throw cutError("unexpected end of file: <\(String(decoding: topName, as: UTF8.self))> is not closed")
                }
                if !rootSeen { throw error("unexpected end of file: no root element") }
                return .endOfDocument
            }
            if byte(position) != UInt8(ascii: "<") {
                if try scanText() { return .text }
                continue
            }
            // Markup.
            guard try ensure(2, keeping: &keep) else { throw cutError("unexpected end of file after '<'", at: source.end) }
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

    var topName: UnsafeBufferPointer<UInt8> {
        let start = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        return openNames[start..<(openEnds.last ?? 0)]
    }

    /// Pushes the element named `r` (in the window) onto the open-element stack.
    mutating func pushOpen(_ r: Range<Int>) {
        openNames.append(base + r.lowerBound, count: r.count)
        openEnds.append(openNames.count)
        depth &+= 1
        rootSeen = true
    }

    mutating func popOpen() {
        openEnds.removeLast()
        depth &-= 1
        openNames.removeAll(from: openEnds.last ?? 0)
        if openEnds.isEmpty { rootClosed = true }
    }

    // MARK: The last plain element (``plainElement(maximumChildren:where:)``)

    /// A child found by ``plainElement(maximumChildren:where:)``: its name and text in the window.
    struct PlainChild {
        var name: Range<Int>
        var text: Range<Int>
    }
    var plainChildren: [PlainChild] = []
    /// How many children the last ``plainElement(maximumChildren:where:)`` found.
    var plainChildCount = 0

    /// Where the last successful ``plainElement(maximumChildren:where:)`` started.
    var plainOrigin = 0
}
