/// Writes JSON text: pretty-printed with two-space indentation and keys in the order given, so
/// output is deterministic. Numbers use Swift's shortest round-trip form; integral values below
/// 10^15 in magnitude are written without a fraction.
public enum JSONWriter {
    /// The text of `value`, ending without a newline.
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out
    }

    private static func write(_ v: JSONValue, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch v.kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let x): out += number(x)
        case .string(let s): out += quoted(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy({ if case .array = $0.kind { false } else if case .object = $0.kind { false } else { true } }) {
                out += "[" + items.map { string($0) }.joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                write(item, indent: indent + 1, to: &out)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += pad + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, m) in members.enumerated() {
                out += inner + quoted(m.key) + ": "
                write(m.value, indent: indent + 1, to: &out)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += pad + "}"
        }
    }

    /// The text of `value` on one line, without spaces or newlines (JSON Lines, one value per
    /// line); keys in the order given, numbers as in ``string(_:)``.
    public static func compact(_ value: JSONValue) -> String {
        var out = ""
        writeCompact(value, to: &out)
        return out
    }

    private static func writeCompact(_ v: JSONValue, to out: inout String) {
        switch v.kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let x): out += number(x)
        case .string(let s): out += quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                writeCompact(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                out += quoted(m.key) + ":"
                writeCompact(m.value, to: &out)
            }
            out += "}"
        }
    }

    /// A finite number in JSON syntax.
    public static func number(_ x: Double) -> String {
        precondition(x.isFinite, "JSON has no representation for \(x)")
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return x.description
    }

    /// A string literal with the escapes JSON requires, and `\u` escapes for the other
    /// characters ``ShownText`` shows escaped (DEL, the C1 controls, the bidirectional formatting
    /// characters): the same string to a JSON reader, and no raw control character in the text.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if ShownText.isEscaped(u) {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    /// Convenience constructors for building documents in code.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        JSONValue(.object(members.map { (key: $0.0, value: $0.1) }))
    }
    public static func array(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items)) }
    public static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    public static func number(_ x: Double) -> JSONValue { JSONValue(.number(x)) }
    public static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    public static let null = JSONValue(.null)
}
