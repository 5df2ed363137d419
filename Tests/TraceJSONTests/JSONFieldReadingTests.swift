import Testing
import TraceJSON

/// The member-by-member reading every file format shares: errors name the file, line, column and
/// path, and stay on one line whatever the file holds.
@Suite("JSON field reading")
struct JSONFieldReadingTests {
    struct Reader: JSONFieldReading { let file = "f.json" }

    func error(_ body: () throws(JSONFileError) -> Void) -> JSONFileError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("an unknown member is named with JSON's escapes, on one line, at its value's place")
    func unknownMember() throws {
        let doc = try JSONParser.parse("{\n  \"ok\": 1,\n  \"bad\\nkey\": 2\n}")
        let e = try #require(error { () throws(JSONFileError) in _ = try Reader().members(doc, "states", allowed: ["ok"]) })
        #expect(e.description == "f.json:3:15: states.bad\\nkey: unknown member; expected one of ok")
        #expect(!e.description.contains("\n"))
    }

    @Test("kinds and ranges: each refusal says what was expected and what was found")
    func kindsAndRanges() throws {
        let doc = try JSONParser.parse("[\"x\", 0, true, 7]")
        guard case .array(let v) = doc.kind else { Issue.record("not an array"); return }
        let r = Reader()
        #expect(error { () throws(JSONFileError) in _ = try r.string(v[1], "s") }?.message == "expected a string, found a number")
        #expect(error { () throws(JSONFileError) in _ = try r.bool(v[0], "b") }?.message == "expected true or false, found a string")
        #expect(
            error { () throws(JSONFileError) in _ = try r.number(v[1], "n", in: 0...5, lowerOpen: true, unit: "m") }?.message
                == "must be greater than 0 and at most 5 m, got 0")
        #expect(
            error { () throws(JSONFileError) in _ = try r.number(v[3], "n", in: 0...5, unit: "m") }?.message
                == "must be at least 0 and at most 5 m, got 7")
        #expect(try r.number(v[3], "n", in: 0...10, unit: "m") == 7)
        #expect(try r.string(v[0], "s") == "x" && r.bool(v[2], "b"))
        #expect(r.fail(nil, "missing", "required").description == "f.json: missing: required")
    }
}
