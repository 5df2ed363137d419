#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Start and end tags: the fast paths of the common shape, the general paths, attributes.
extension XMLScanner {
    /// The common case of ``scanEndTag()``: `</name>` in the window closing the open element.
    /// Returns false (having changed nothing) for anything else.
    mutating func scanEndTagFast() -> Bool {
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

    mutating func scanEndTag() throws(TraceReadError) {
        var keep = position
        guard let gt = try find(XMLScanner.gt, keeping: &keep) else { throw unexpectedEnd(in: "an end tag", openedAt: keep) }
        var p = keep + 2
        let nameStart = p
        while p < gt && !XMLScanner.isSpace(byte(p)) { p += 1 }
        guard p - nameStart <= XMLScanner.maximumNameLength else {
            throw error("a name longer than \(XMLScanner.maximumNameLength) bytes", at: nameStart)
        }
        nameRange = nameStart..<p
        while p < gt && XMLScanner.isSpace(byte(p)) { p += 1 }
        guard p == gt else { throw error("unexpected characters in end tag", at: p) }
        guard !openEnds.isEmpty else { throw error("end tag </\(String(decoding: name, as: UTF8.self))> with no open element", at: keep) }
        guard XMLScanner.equal(name, topName) else {
            throw error(
                "end tag </\(String(decoding: name, as: UTF8.self))> does not match <\(String(decoding: topName, as: UTF8.self))>", at: keep
            )
        }
        position = gt + 1
        popOpen()
    }

    /// The common case of ``scanStartTag()``: a tag wholly in the window, with ASCII names,
    /// `name="value"` attributes (either quote, single spaces or more between them) whose values
    /// have no reference or '<', in a UTF-8 document. Returns nil, having changed nothing the
    /// general path depends on, for anything else: that path then scans the tag again and reports
    /// any error exactly.
    mutating func scanStartTagFast() -> XMLToken? {
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
    mutating func plainStartTag(at start: Int) -> (name: Range<Int>, end: Int, selfClosing: Bool)? {
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

    mutating func scanStartTag() throws(TraceReadError) -> XMLToken {
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
            guard attributeCount < XMLScanner.maximumAttributes else {
                throw error("more than \(XMLScanner.maximumAttributes) attributes", at: an)
            }
            if isDuplicate(attributeName) {
                throw error("duplicate attribute '\(String(decoding: window(attributeName), as: UTF8.self))'", at: an)
            }
            try addAttribute(name: attributeName, value: vs..<ve)
        }
        guard openEnds.count < XMLScanner.maximumDepth else {
            throw error("elements nested deeper than \(XMLScanner.maximumDepth)", at: keep)
        }
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
