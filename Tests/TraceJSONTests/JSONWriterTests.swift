import TestSupport
import Testing
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON writer: what the replay's, batch's and tune's JSON reports are written with.
@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("pretty: two spaces, keys in the order given, scalars' arrays on one line, empty containers inline")
    func pretty() {
        let doc = JSONValue.object([
            ("b", .number(1)), ("a", .array([.number(1.5), .string("x"), .null, .bool(true)])),
            ("nested", .object([("list", .array([.object([("k", .bool(false))])])), ("empty", .array([])), ("none", .object([]))])),
        ])
        #expect(
            JSONWriter.string(doc) == """
                {
                  "b": 1,
                  "a": [1.5, "x", null, true],
                  "nested": {
                    "list": [
                      {
                        "k": false
                      }
                    ],
                    "empty": [],
                    "none": {}
                  }
                }
                """)
        #expect(JSONWriter.compact(doc) == #"{"b":1,"a":[1.5,"x",null,true],"nested":{"list":[{"k":false}],"empty":[],"none":{}}}"#)
    }

    @Test("numbers: integral ones without a fraction below 1e15, the rest in Swift's shortest round-trip form")
    func numbers() {
        #expect(JSONWriter.number(0) == "0" && JSONWriter.number(-0.0) == "0" && JSONWriter.number(-42) == "-42")
        #expect(JSONWriter.number(999_999_999_999_999) == "999999999999999")
        #expect(
            JSONWriter.number(1e15) == "1000000000000000.0" && JSONWriter.number(0.1) == "0.1" && JSONWriter.number(-2.5e-8) == "-2.5e-08")
        #expect(JSONWriter.number(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
        #expect(JSONWriter.number(.leastNonzeroMagnitude) == "5e-324")
    }

    @Test("strings: JSON's escapes, and \\u escapes for every character shown escaped; the parser reads back the same string")
    func strings() throws {
        #expect(JSONWriter.quoted("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
        #expect(JSONWriter.quoted("\u{0}\u{1B}\u{7F}\u{9B}\u{202E}") == #""\u0000\u001b\u007f\u009b\u202e""#)
        #expect(JSONWriter.quoted("é 🚲 /") == "\"é 🚲 /\"")  // other characters as they are
        for text in ["", "plain", "\u{1B}]0;pwned\u{7}", "line\nbreak", "tab\t\"q\"", "\u{2028}\u{2029}", "مرحبا\u{200F}", "🚲\u{0}"] {
            let parsed = try JSONParser.parse(Array(JSONWriter.quoted(text).utf8))
            #expect(parsed.kind == .string(text), "\(text.debugDescription)")
        }
    }

    @Test("documents read back as written: 2,000 seeded random values, pretty and compact")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 7)
        func value(_ depth: Int) -> JSONValue {
            switch rng.next() % (depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(rng.next() % 2 == 0)
            case 2:
                let x = Double(bitPattern: rng.next())
                return .number(x.isFinite ? x : Double(Int64(bitPattern: rng.next() >> 12)))
            case 3:
                return .string(
                    String(String.UnicodeScalarView((0..<rng.next() % 8).compactMap { _ in Unicode.Scalar(UInt32(rng.next() % 0x3000)) })))
            case 4: return .array((0..<rng.next() % 5).map { _ in value(depth + 1) })
            default: return .object((0..<rng.next() % 5).map { i in ("k\(i)", value(depth + 1)) })
            }
        }
        for _ in 0..<2_000 {
            let v = value(0)
            #expect(try JSONParser.parse(Array(JSONWriter.string(v).utf8)) == v)
            #expect(try JSONParser.parse(Array(JSONWriter.compact(v).utf8)) == v)
        }
    }
}

@Suite("DecimalText")
struct DecimalTextTests {
    @Test("fixed: exactly the decimals asked for, half away from zero, no minus on a zero")
    func fixed() {
        #expect(DecimalText.fixed(3.14159, 2) == "3.14" && DecimalText.fixed(2.5, 0) == "3" && DecimalText.fixed(-2.5, 0) == "-3")
        #expect(DecimalText.fixed(0.125, 2) == "0.13" && DecimalText.fixed(-0.125, 2) == "-0.13")
        #expect(DecimalText.fixed(7, 3) == "7.000" && DecimalText.fixed(0.05, 1) == "0.1" && DecimalText.fixed(0.0001, 2) == "0.00")
        #expect(DecimalText.fixed(-0.001, 2) == "0.00" && DecimalText.fixed(-0.0, 1) == "0.0")
        #expect(DecimalText.fixed(1.5, 15) == "1.500000000000000")
        // What no fixed form holds: Swift's own text.
        #expect(DecimalText.fixed(.nan, 2) == "nan" && DecimalText.fixed(-.infinity, 1) == "-inf" && DecimalText.fixed(1e20, 0) == "1e+20")
        // A negative count of decimals is none; more than 18 is 18 (no trap, no long loop).
        #expect(DecimalText.fixed(12.6, -1) == "13")
        #expect(DecimalText.fixed(1e-5, 19) == "0.000010000000000000" && DecimalText.fixed(0, Int.max) == "0.000000000000000000")
    }

    @Test("fixed agrees with C's %.*f on 20,000 seeded values (ties aside: %.*f rounds the binary value, so do we)")
    func fixedAgreesWithPrintf() {
        var rng = SplitMix64(seed: 11)
        var compared = 0
        for _ in 0..<20_000 {
            let x = rng.uniform(-1e6, 1e6)
            let d = Int(rng.next() % 6)
            let ours = DecimalText.fixed(x, d)
            let c = String(format: d, x)
            if ours != c { Issue.record("\(x) with \(d): \(ours) against \(c)") }
            compared += 1
        }
        #expect(compared == 20_000)
    }

    @Test("grouped: the whole part in threes, the sign and the fraction kept; text that is not a number left alone")
    func grouped() {
        #expect(DecimalText.grouped("0") == "0" && DecimalText.grouped("999") == "999" && DecimalText.grouped("1000") == "1,000")
        #expect(DecimalText.grouped("-12345.67") == "-12,345.67" && DecimalText.grouped("1234567.891") == "1,234,567.891")
        #expect(DecimalText.grouped("nan") == "nan" && DecimalText.grouped("-inf") == "-inf" && DecimalText.grouped("1e+20") == "1e+20")
    }
}

extension String {
    /// C's `%.*f` of `x` with `decimals` digits, through `snprintf` (the test's oracle).
    fileprivate init(format decimals: Int, _ x: Double) {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([Int32(decimals), x]) { vsnprintf(&buffer, 64, "%.*f", $0) }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
