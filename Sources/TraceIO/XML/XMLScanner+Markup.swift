// Markup other than elements: comments, CDATA sections, the document type declaration,
// processing instructions and the XML declaration.
extension XMLScanner {
    /// `<!--`, `<![CDATA[` or `<!DOCTYPE`. Returns true when CDATA produced a text token.
    mutating func scanBang() throws(TraceReadError) -> Bool {
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
            guard let close = try find(XMLScanner.cdataEnd, keeping: &keep) else {
                throw unexpectedEnd(in: "a CDATA section", openedAt: keep)
            }
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
    mutating func scanProcessingInstruction() throws(TraceReadError) {
        var keep = position
        // The closing "?>" comes after the opening "<?": in "<?>" they overlap, and it is unterminated.
        position += 2
        guard let close = try find(XMLScanner.piEnd, keeping: &keep) else {
            throw unexpectedEnd(in: "a processing instruction", openedAt: keep)
        }
        var p = keep + 2
        while p < close && XMLScanner.isNameByte(byte(p)) { p += 1 }
        guard p > keep + 2 else { throw error("expected a processing instruction's target after '<?'", at: p) }
        guard p == close || XMLScanner.isSpace(byte(p)) else {
            throw error("expected white space after the processing instruction's target", at: p)
        }
        try validateName((keep + 2)..<p)
        let target = window((keep + 2)..<p)
        if target.count == 3 && target[0] | 0x20 == UInt8(ascii: "x") && target[1] | 0x20 == UInt8(ascii: "m")
            && target[2] | 0x20 == UInt8(ascii: "l")
        {
            throw error("the XML declaration is allowed only at the start of the document", at: keep)
        }
        position = close + 2
    }

    /// The XML declaration at the start of the document, `<?xml version="1.x" encoding="…"
    /// standalone="yes|no"?>`, checked against XML 1.0's grammar and read for its encoding:
    /// UTF-8 (or US-ASCII), ISO-8859-1 or windows-1252; any other encoding is an error.
    mutating func scanXMLDeclaration() throws(TraceReadError) {
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
            guard spaces(), close - p >= name.utf8.count, window(p..<(p + name.utf8.count)).elementsEqual(name.utf8) else {
                p = mark; return nil
            }
            p += name.utf8.count
            _ = spaces()
            guard p < close, byte(p) == UInt8(ascii: "=") else { throw error("expected '=' after '\(name)' in the XML declaration", at: p) }
            p += 1
            _ = spaces()
            guard p < close, byte(p) == 0x22 || byte(p) == 0x27 else {
                throw error("expected a quoted value of '\(name)' in the XML declaration", at: p)
            }
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
        guard v.count > 2, v[0] == UInt8(ascii: "1"), v[1] == UInt8(ascii: "."), v.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else {
            throw error("unsupported XML version '\(String(decoding: v, as: UTF8.self))'", at: version.lowerBound)
        }
        if let encoding = try pseudoAttribute("encoding") {
            let e = window(encoding)
            let wellFormed =
                !e.isEmpty && XMLScanner.isASCIILetter(e[0])
                && e.allSatisfy {
                    XMLScanner.isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
                        || $0 == UInt8(ascii: "-")
                }
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
}
