import TraceIO
import TraceJSON

/// Text from a file, or a file's name, as each output shows it: one function per kind of output,
/// each built on ``TraceJSON/ShownText``'s rule (control characters, and so every escape
/// sequence, and the bidirectional formatting characters shown as `\u{1b}`). Every renderer
/// passes the text it did not write itself (paths, trip names, a scenario's category, policy and
/// profile names, the readers' problem details, lines of a merged batch) through the function of
/// its format. README "Hardening: hostile input" has the rule per format.
///
/// | output | function | what it does beyond the rule |
/// |---|---|---|
/// | terminal: tables, summaries, stderr | ``terminal(_:)`` | nothing: one line, no control character |
/// | a whole output written to stdout or stderr | ``output(_:)`` | keeps its own line ends and tabs (the last line of defence in ``Output``) |
/// | Markdown text | ``markdown(_:)`` | escapes Markdown's metacharacters, no HTML, no link, no mention |
/// | Markdown code span | ``markdownCode(_:)`` | a fence longer than any run of backticks inside |
/// | HTML, SVG, JUnit XML | ``html(_:)`` | `&`, `<`, `>`, quotes as entities |
/// | CSV cell | ``csv(_:)`` | RFC 4180 quoting; a text cell that could start a formula gets `'` |
///
/// JSON needs none of these: ``TraceJSON/JSONWriter`` escapes every control character (`\u001b`).
enum Shown {
    /// Text for a terminal: ``TraceJSON/ShownText/escaped(_:)``, so one line with no control
    /// character and no bidirectional override (ESC as `\u{1b}`, a line break as `\u{a}`).
    static func terminal(_ text: String) -> String { ShownText.escaped(text) }

    /// A whole output (a report, an error line) as written to standard output or error: every
    /// character ``terminal(_:)`` escapes is escaped, except the output's own line ends (LF, and
    /// CR before LF as the CSV report writes) and tabs. ``Output`` passes everything through it,
    /// so that text a renderer missed still reaches no terminal raw.
    static func output(_ text: String) -> String {
        guard
            text.unicodeScalars.contains(where: { ShownText.isEscaped($0) && $0 != "\n" && $0 != "\t" && $0 != "\r" })
                || text.utf8.contains(UInt8(ascii: "\r"))
        else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        let scalars = Array(text.unicodeScalars)
        for (i, u) in scalars.enumerated() {
            let kept = u == "\n" || u == "\t" || (u == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n")
            if ShownText.isEscaped(u) && !kept { out += ShownText.escape(u) } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// Text for Markdown (GitHub-flavoured, as a pull-request comment renders it): ``terminal(_:)``,
    /// then nothing in it can be markup, HTML or a link, so it renders as the text it is:
    ///
    /// - `\`, `` ` ``, `*`, `_`, `~`, `!`, `$` are escaped with a backslash (no code span,
    ///   emphasis, strikethrough, image or math can start);
    /// - `<`, `>`, `&`, `[`, `]` and `|` are written as entities (`&lt;`, `&gt;`, `&amp;`,
    ///   `&#91;`, `&#93;`, `&#124;`): no raw HTML, no `<scheme:…>` autolink, no link (an entity is
    ///   text, never a bracket: not even the characters `](` are left), no entity from the input,
    ///   no table cell ends;
    /// - autolinks are broken: a `:` before `/` is escaped (`https\://`), a `.` after `www` too
    ///   (`www\.`), and `@` and `#` are followed by a zero-width space (`&#8203;`), so that neither
    ///   a URL, an e-mail address (`mailto:` included) nor GitHub's `@mention` and `#123` reference
    ///   links (a `javascript:` link needs `[…](…)` or `<…>`, whose brackets are escaped above);
    /// - GitHub's other references are broken the same way: a zero-width space after the first
    ///   character of a word of 7 to 40 hexadecimal digits with a letter among them (a commit SHA;
    ///   a number of digits alone, a seed or a date, is left whole: it can be copied, and names a
    ///   commit of the same repository at most) and after the `GH` of `GH-123` (any case);
    /// - at the start, a `-` or `+`, and the `.` or `)` after leading digits before a space
    ///   (`1. `), are escaped, so that the text cannot start a list or a rule where it begins a
    ///   line or a list item (a `#` cannot start a heading: a zero-width space follows it).
    ///
    /// The result is inline Markdown without a line break; ``TextTable/markdown(header:rows:)``
    /// may hold it in a cell.
    static func markdown(_ text: String) -> String {
        let t = Array(terminal(text))
        let breaks = githubReferenceBreaks(t)
        var out = ""
        var leadingDigits = true
        for (i, ch) in t.enumerated() {
            if i > 0 && breaks.contains(i) { out += "&#8203;" }
            if let entity = markdownEntities[ch] {
                out += entity
                continue
            }
            switch ch {
            case "\\", "`", "*", "_", "~", "!", "$": out += "\\" + String(ch)
            case "@", "#": out += String(ch) + "&#8203;"
            case ":" where i + 1 < t.count && t[i + 1] == "/": out += "\\:"
            case "." where i >= 3 && String(t[(i - 3)..<i]).lowercased() == "www": out += "\\."
            case "-" where i == 0, "+" where i == 0: out += "\\" + String(ch)
            case "." where leadingDigits && i > 0 && (i + 1 == t.count || t[i + 1] == " "),
                ")" where leadingDigits && i > 0 && (i + 1 == t.count || t[i + 1] == " "):
                out += "\\" + String(ch)
            default: out.append(ch)
            }
            leadingDigits = leadingDigits && ch.isASCII && ch.isNumber
        }
        return out
    }

    /// Where ``markdown(_:)`` puts a zero-width space so that GitHub links no commit or issue:
    /// after the first character of each word (a maximal run of characters whose first scalar is
    /// an ASCII letter or digit: a digit with a combining mark or a joiner after it still counts,
    /// as GitHub's linker reads the digit) of 7 to 40 hexadecimal digits, not all of them decimal
    /// digits, and after the `GH` of a
    /// word `GH` followed by `-` and a digit. Breaking a word GitHub would not link is harmless.
    static func githubReferenceBreaks(_ t: [Character]) -> Set<Int> {
        /// The character's first scalar, when it is an ASCII letter or digit.
        func ascii(_ c: Character) -> Character? {
            guard let u = c.unicodeScalars.first, u.isASCII else { return nil }
            let first = Character(u)
            return first.isLetter || first.isNumber ? first : nil
        }
        var breaks: Set<Int> = []
        var i = 0
        while i < t.count {
            guard ascii(t[i]) != nil else {
                i += 1
                continue
            }
            var end = i
            while end < t.count, ascii(t[end]) != nil { end += 1 }
            let word = t[i..<end].compactMap(ascii)
            if (7...40).contains(word.count), word.allSatisfy(\.isHexDigit), word.contains(where: \.isLetter) { breaks.insert(i + 1) }
            if word.count == 2, String(word).lowercased() == "gh", end + 1 < t.count, t[end] == "-", ascii(t[end + 1])?.isNumber == true {
                breaks.insert(end)
            }
            i = end
        }
        return breaks
    }

    /// The characters ``markdown(_:)`` writes as entities.
    static let markdownEntities: [Character: String] = [
        "<": "&lt;", ">": "&gt;", "&": "&amp;", "[": "&#91;", "]": "&#93;", "|": "&#124;",
    ]

    /// Text as one Markdown code span: ``terminal(_:)``, between fences of one backtick more than
    /// the longest run of backticks inside (CommonMark), with a space inside each fence when the
    /// text starts or ends with a backtick or a space (the one space each side that CommonMark
    /// strips). Nothing inside a code span is markup, HTML or a link. In a table, its `|` are
    /// escaped by ``TextTable/markdown(header:rows:)`` (GitHub reads `\|` inside a code span in a
    /// cell as `|`).
    static func markdownCode(_ text: String) -> String {
        let t = terminal(text)
        var longest = 0, run = 0
        for ch in t {
            run = ch == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = t.isEmpty || t.first == "`" || t.last == "`" || t.first == " " || t.last == " "
        return padded ? fence + " " + t + " " + fence : fence + t + fence
    }

    /// Text for HTML, SVG and JUnit XML: ``terminal(_:)``, then `&`, `<`, `>`, `"` and `'` as
    /// entities (``TraceIO/xmlEscaped(_:dropped:)``). After the rule no character XML 1.0 forbids
    /// is left (NUL and ESC are shown as `\u{0}`, `\u{1b}`), so an XML parser reads every report.
    static func html(_ text: String) -> String {
        var dropped = 0
        return xmlEscaped(terminal(text), dropped: &dropped)
    }

    /// One CSV cell: ``terminal(_:)`` (no control character in a cell: CR and LF only end rows),
    /// quoted as RFC 4180 requires when it holds a comma or a quote (quotes doubled). A cell that
    /// is not a number and starts with `=`, `+`, `-` or `@` gets a leading `'`, so that a
    /// spreadsheet does not run it as a formula (OWASP's "CSV injection"); numbers, negative ones
    /// included, are written as they are.
    static func csv(_ text: String) -> String {
        var t = terminal(text)
        if let first = t.first, "=+-@".contains(first), Double(t) == nil { t = "'" + t }
        guard t.contains(where: { $0 == "," || $0 == "\"" }) else { return t }
        var out = "\""
        for ch in t {
            if ch == "\"" { out.append("\"") }
            out.append(ch)
        }
        return out + "\""
    }
}
