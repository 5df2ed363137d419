/// Text that came from a file (a value, a name, a file's own name) as every TraceKit output shows
/// it: the one rule, shared by the readers' messages and every report (the command line's
/// `Shown` builds each output format's escaping on ``escaped(_:)``).
///
/// The characters that could act on a terminal or reorder what it shows are written as visible
/// escapes, `\u{` and the scalar's hexadecimal value in lower case, and `}`, Swift's spelling:
/// ESC (U+001B) is `\u{1b}`, so the terminal title sequence `ESC ] 0 ; t BEL` is shown as
/// `\u{1b}]0;t\u{7}`. Those characters (``isEscaped(_:)``):
///
/// - the C0 controls U+0000–U+001F (NUL, BEL, BS, TAB, LF, CR, ESC …), DEL (U+007F) and the C1
///   controls U+0080–U+009F (CSI U+009B, OSC U+009D, NEL U+0085 …): ``isControl(_:)``. Every
///   escape sequence starts with ESC or a C1 control, so no sequence survives;
/// - the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069), which reorder the text around them ("Trojan Source": a file named
///   `evil\u{202e}txt.exe` would show as `evilexe.txt`), and the line and paragraph separators
///   U+2028 and U+2029.
///
/// A backslash is left as it is: the escapes make text safe to show, they are not an encoding to
/// decode (a file named `\u{1b}` with a real backslash shows the same as one with ESC in it).
/// Escaping is idempotent: escaped text has nothing left to escape.
public enum ShownText {
    /// Whether `u` is a control character: C0 (U+0000–U+001F), DEL (U+007F) or C1
    /// (U+0080–U+009F). A name (a policy's, a scenario's category) must not hold one.
    @inline(__always) public static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value)
    }

    /// Whether `u` is shown escaped: a control character (``isControl(_:)``), a bidirectional
    /// formatting character, or the line or paragraph separator.
    @inline(__always) public static func isEscaped(_ u: Unicode.Scalar) -> Bool {
        if isControl(u) { return true }
        switch u.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// `u` as its visible escape: `\u{1b}`.
    public static func escape(_ u: Unicode.Scalar) -> String { "\\u{" + String(u.value, radix: 16) + "}" }

    /// `text` with every character of ``isEscaped(_:)`` written as its escape (`\u{1b}`); the
    /// rest as it is. A line break is escaped too: the result is always one line.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for u in text.unicodeScalars {
            if isEscaped(u) { out += escape(u) } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
