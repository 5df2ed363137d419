// Whole elements in one call: plain elements (a point and its children), simple text-only
// elements, and the window a reader scans an element in by itself.
extension XMLScanner {
    /// The local name and the text of child `k` of the last ``plainElement(maximumChildren:where:)``
    /// (in the window, valid until the next call of ``next()``).
    func plainChild(_ k: Int) -> (localName: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>) {
        let c = plainChildren[k]
        return (XMLScanner.localPart(of: c.name, in: base), window(c.text))
    }

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
            accept(XMLScanner.localPart(of: tag.name, in: base))
        else { return false }
        plainChildCount = 0
        var i = tag.end
        while true {
            i = ByteMasks.skipSpaces(base, from: i, limit: limit)
            guard i + 1 < limit, base[i] == UInt8(ascii: "<") else { return false }
            if base[i + 1] == UInt8(ascii: "/") {
                let gt = i + 2 + tag.name.count
                guard gt < limit, base[gt] == UInt8(ascii: ">"), XMLScanner.equal(window(i + 2..<gt), window(tag.name)) else {
                    return false
                }
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
                XMLScanner.equal(window(textEnd + 2..<gt), window(childStart..<childEnd))
            else { return false }
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
            XMLScanner.equal(window(textEnd + 2..<gt), window(nameStart..<nameEnd))
        else { return nil }
        nameRange = nameStart..<nameEnd
        attributeCount = 0
        position = gt + 1
        return window(textStart..<textEnd)
    }
}
