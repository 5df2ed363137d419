/// What a file's first bytes say it is (``TraceFormat/choose(name:head:file:)``): only the kinds whose
/// first bytes tell them apart from the text formats (CSV, PLT, REC), which the name decides.
enum SniffedContent: Equatable {
    /// XML: `<?xml`, a comment, a DOCTYPE or a start tag first. `root` is the local name of its
    /// root element when its start tag begins within the bytes looked at; `line` is its line.
    case xml(root: String?, line: Int)
    /// NMEA 0183 sentences: `$`, a two-letter talker and a three-letter type (`$GPGGA`), after
    /// any blank or `#` comment lines. The first sentence's address.
    case nmea(String)
    /// JSON: `{` then a key or `}`, or `[` then a value or `]`.
    case json
    /// Anything else: text (CSV and the other line formats), binary, nothing.
    case other

    /// Reads `head`, the first bytes of a file (``TraceFormat/sniffLength`` at most): a UTF-8
    /// byte order mark and white space are skipped.
    init(_ head: UnsafeBufferPointer<UInt8>) {
        var c = HeadCursor(head)
        if c.n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF { c.i = 3 }
        c.skipSpaces()
        guard c.i < c.n else {
            self = .other
            return
        }
        switch head[c.i] {
        case UInt8(ascii: "<"): self = Self.xml(&c)
        case UInt8(ascii: "$"), UInt8(ascii: "#"): self = Self.nmea(&c)
        case UInt8(ascii: "{"), UInt8(ascii: "["): self = Self.json(&c)
        default: self = .other
        }
    }

    /// XML from a `<`: the prolog (the declaration, processing instructions, comments, a
    /// DOCTYPE) skipped to the root's start tag, whose local name is the root.
    private static func xml(_ c: inout HeadCursor) -> SniffedContent {
        let head = c.head, n = c.n
        guard c.i + 1 < n else { return .xml(root: nil, line: c.line) }
        let next = head[c.i + 1]
        guard next == UInt8(ascii: "?") || next == UInt8(ascii: "!") || XMLScanner.isASCIINameStart(next) || next >= 0x80 else {
            return .other
        }
        while c.i + 1 < n && head[c.i] == UInt8(ascii: "<") {
            let after = head[c.i + 1]
            if after == UInt8(ascii: "?") {
                guard c.skip(past: Array("?>".utf8)) else { break }
            } else if head[c.i..<min(n, c.i + 4)].elementsEqual("<!--".utf8) {
                guard c.skip(past: Array("-->".utf8)) else { break }
            } else if after == UInt8(ascii: "!") {
                // A DOCTYPE: to its '>', past an internal subset's brackets.
                var brackets = 0
                while c.i < n && (head[c.i] != UInt8(ascii: ">") || brackets > 0) {
                    if head[c.i] == UInt8(ascii: "[") { brackets += 1 }
                    if head[c.i] == UInt8(ascii: "]") { brackets -= 1 }
                    if head[c.i] == 0x0A { c.line += 1 }
                    c.i += 1
                }
                guard c.i < n else { break }
                c.i += 1
            } else {
                var end = c.i + 1
                while end < n && XMLScanner.isNameByte(head[end]) { end += 1 }
                guard end < n, end > c.i + 1 else { break }
                var start = end
                while start > c.i + 1 && head[start - 1] != UInt8(ascii: ":") { start -= 1 }
                return .xml(root: String(decoding: head[start..<end], as: UTF8.self), line: c.line)
            }
            c.skipSpaces()
        }
        return .xml(root: nil, line: c.line)
    }

    /// NMEA from a `$` or `#`: comment lines first (a logger's banner), then the first
    /// sentence's address, `$` and five capitals.
    private static func nmea(_ c: inout HeadCursor) -> SniffedContent {
        let head = c.head, n = c.n
        while c.i < n && head[c.i] == UInt8(ascii: "#") {
            while c.i < n && head[c.i] != 0x0A { c.i += 1 }
            c.skipSpaces()
        }
        let address = c.i + 6 <= n ? head[c.i..<(c.i + 6)] : head[c.i..<c.i]
        guard address.count == 6, address.first == UInt8(ascii: "$"),
            address.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else { return .other }
        return .nmea(String(decoding: address, as: UTF8.self))
    }

    /// JSON from a `{` or `[`: what follows must be able to start a key or a value.
    private static func json(_ c: inout HeadCursor) -> SniffedContent {
        let open = c.head[c.i]
        c.i += 1
        c.skipSpaces()
        guard c.i < c.n else { return .json }
        let b = c.head[c.i]
        let value =
            open == UInt8(ascii: "{")
            ? b == UInt8(ascii: "\"") || b == UInt8(ascii: "}")
            : b == UInt8(ascii: "{") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "\"")
                || b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "t")
                || b == UInt8(ascii: "f") || b == UInt8(ascii: "n")
        return value ? .json : .other
    }

    /// The format this content is read as, given the format `named` by the file's name: GPX or
    /// KML by the root element (XML of another root: the name's, when it names GPX or KML), NMEA,
    /// or JSON (the name's flavour when it names one: GeoJSON, NDJSON). Nil for ``other``, or
    /// XML that is neither.
    func format(named: TraceFormat?) -> TraceFormat? {
        switch self {
        case .xml(let root, _):
            if root == "gpx" { return .gpx }
            if root == "kml" { return .kml }
            return named == .gpx || named == .kml ? named : nil
        case .nmea: return .nmea
        case .json: return named == .geojson || named == .ndjson || named == .json ? named : .json
        case .other: return nil
        }
    }

    /// The content, for an assumption: "GPX (root <gpx>)", "NMEA sentences ($GPGGA)", "JSON".
    var shown: String {
        switch self {
        case .xml(let root, _):
            let r = root.map { " (root <\($0)>)" } ?? ""
            return (root == "gpx" ? "GPX" : root == "kml" ? "KML" : "XML") + r
        case .nmea(let address): return "NMEA sentences (\(address))"
        case .json: return "JSON"
        case .other: return "text"
        }
    }
}

extension TraceFormat {
    /// How many first bytes of a file ``choose(name:head:file:)`` looks at.
    public static let sniffLength = 512

    /// The advice an unknown format's error ends with; a command line says how instead (the CLI
    /// names its `--input-format` option).
    public static let namingAdvice = "name it with the format option (\(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")))"

    /// The format's name for people: GPX, CSV, PLT, REC, GeoJSON, NDJSON, JSON, NMEA, KML.
    var shown: String { self == .geojson ? "GeoJSON" : self == .ndjson ? "NDJSON" : rawValue.uppercased() }

    /// The format to read a file with when none is named, and what was assumed: the content's
    /// first bytes (`head`, ``sniffLength`` of them: XML with a `<gpx>` or `<kml>` root, NMEA
    /// sentences, JSON) decide over the extension of `name` (nil for standard input, which has
    /// none); content of no such kind (text: CSV, PLT, REC) is read as the extension says. When
    /// the content decides against the name or without one, the assumption says so, to be
    /// stated in the diagnostics ("read as GPX: the content is GPX (root <gpx>), though the name
    /// says CSV"); nil when they agree. `file` names the file in errors. The one place a format
    /// is chosen from a file (every command, the replay and batch, through
    /// ``openTrace(_:format:options:)``): an explicit format is never second-guessed.
    /// - Throws: ``TraceReadError`` (``TraceReadError/Category/unknownFormat``) when neither tells,
    ///   naming what the content is (XML of another root, text) and ending in ``namingAdvice``.
    public static func choose(name: String?, head: UnsafeBufferPointer<UInt8>, file: String) throws(TraceReadError) -> (
        format: TraceFormat, assumption: String?
    ) {
        let named = name.flatMap { TraceFormat(pathExtension: $0) }
        let content = SniffedContent(head)
        let nameSays =
            name == nil ? "standard input has no name" : named.map { "though the name says \($0.shown)" } ?? "the name does not say"
        guard let format = content.format(named: named) ?? (content == .other ? named : nil) else {
            var line = 0
            let reason: String
            if case .xml(let root, let l) = content {
                line = root == nil ? 0 : l
                reason =
                    root.map { "the content is XML whose root element is <\($0)>, neither GPX (<gpx>) nor KML (<kml>)" }
                    ?? "the content is XML whose root element is not within its first \(TraceFormat.sniffLength) bytes"
            } else {
                reason = "\(nameSays), and the content is not GPX, KML, NMEA or JSON"
            }
            throw TraceReadError(
                file: file, line: line, column: 0, message: "unknown format: \(reason); \(TraceFormat.namingAdvice)",
                category: .unknownFormat)
        }
        return (format, format == named ? nil : "read as \(format.shown): the content is \(content.shown), \(nameSays)")
    }

    /// The format ``openTrace(_:format:options:)`` reads `path` as when none is named
    /// (``choose(name:head:file:)``): its content's first bytes, else its extension.
    /// - Throws: ``TraceReadError`` when the file cannot be opened or neither tells.
    public init(file path: String) throws(TraceReadError) {
        let source = try ByteSource(path: path)
        self = try TraceFormat.choose(name: path == "-" ? nil : path, head: try source.head(TraceFormat.sniffLength), file: source.name)
            .format
    }
}

/// A position in a file's first bytes, with the line it is on: what ``SniffedContent`` reads with.
private struct HeadCursor {
    let head: UnsafeBufferPointer<UInt8>
    var n: Int { head.count }
    var i = 0
    var line = 1

    init(_ head: UnsafeBufferPointer<UInt8>) { self.head = head }

    /// Moves past white space, counting lines.
    mutating func skipSpaces() {
        while i < n && XMLScanner.isSpace(head[i]) {
            if head[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    /// Moves past the next `terminator` (counting lines); false when the bytes end first.
    mutating func skip(past terminator: [UInt8]) -> Bool {
        while i + terminator.count <= n {
            if head[i] == 0x0A { line += 1 }
            if head[i] == terminator[0] && head[i..<(i + terminator.count)].elementsEqual(terminator) {
                i += terminator.count
                return true
            }
            i += 1
        }
        return false
    }
}
