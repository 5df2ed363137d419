import Testing
import TraceJSON

@Suite("JSON parser")
struct JSONParserTests {
    @Test("values, positions and escapes")
    func values() throws {
        let v = try JSONParser.parse("\u{FEFF}{\n  \"a\": [1, -2.5e3, true, null],\n  \"s\": \"x\\u00e9\\ud83d\\ude00\\n\"\n}")
        #expect(v["a"]?.kind == .array([JSONValue(.number(1)), JSONValue(.number(-2500)), JSONValue(.bool(true)), JSONValue(.null)]))
        #expect(v["a"]?.line == 2 && v["a"]?.column == 8)
        #expect(v["s"]?.kind == .string("xé😀\n"))
        #expect(v["missing"] == nil)
    }

    @Test(
        "errors name line and column",
        arguments: [
            ("{\"a\": 1,}", "1:9: expected a string key"),
            ("[1, 2", "1:6: unexpected end of file: expected ',' or ']' in an array"),
            ("{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\""),
            ("[01]", "1:2: a number may not have a leading zero"),
            ("[1e999]", "1:2: number 1e999 is out of range (beyond ±1.8e308)"),
            ("\"\\x\"", "1:4: invalid escape '\\x'"),
            ("\"a\nb\"", "1:3: control character in a string (escape it)"),
            ("[nul]", "1:2: expected 'null'"),
            ("{} x", "1:4: expected the end of the document after the value"),
            ("\"\\ud800\"", "1:8: unpaired surrogate in \\u escape"),
            ("", "1:1: unexpected end of file: expected a value"),
        ])
    func errors(text: String, message: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            (error as? JSONError)?.description == message
        }
    }

    @Test("nesting is bounded")
    func depth() throws {
        _ = try JSONParser.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64))
        #expect(throws: JSONError.self) { _ = try JSONParser.parse(String(repeating: "[", count: 100_000)) }
    }

    @Test("the writer's output parses back to the same value")
    func writerRoundTrip() throws {
        let v = JSONValue.object([
            ("n", .number(0.1)), ("i", .number(42)), ("s", .string("q\"\\\u{01}é")), ("a", .array([.null, .bool(false)])),
            ("o", .object([])),
        ])
        let back = try JSONParser.parse(JSONWriter.string(v))
        #expect(back["n"]?.kind == .number(0.1) && back["i"]?.kind == .number(42) && back["s"]?.kind == .string("q\"\\\u{01}é"))
        #expect(JSONWriter.string(v).contains("\"i\": 42,"))
    }
}
