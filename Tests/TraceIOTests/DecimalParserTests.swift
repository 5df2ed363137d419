import TestSupport
import Testing

@testable import TraceIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `strtod` on `text`, which must be consumed in full; the white space `strtod` skips and its hex
/// form are outside our grammar, so those give `nil` too.
private func strtodReference(_ text: [UInt8]) -> Double? {
    if let first = text.first, first == 0x20 || (0x09...0x0D).contains(first) { return nil }
    if text.contains(where: { $0 | 0x20 == UInt8(ascii: "x") }) { return nil }
    var z = text.map { CChar(bitPattern: $0) }
    z.append(0)
    return z.withUnsafeBufferPointer { p -> Double? in
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(p.baseAddress!, &end)
        return end.map { $0 - UnsafeMutablePointer(mutating: p.baseAddress!) } == text.count ? value : nil
    }
}

private func parse(_ text: [UInt8]) -> Double? { text.withUnsafeBufferPointer { DecimalParser.parseDouble($0) } }

/// Compares the parser with `strtod` bit for bit; returns a description of the first few mismatches.
private struct Comparison {
    var checked = 0
    var mismatches: [String] = []

    mutating func check(_ text: [UInt8]) {
        checked += 1
        let got = parse(text)
        let want = strtodReference(text)
        checkPrefix(text, whole: got)
        guard got?.bitPattern != want?.bitPattern else { return }
        if mismatches.count < 10 {
            mismatches.append(
                "\(String(decoding: text, as: UTF8.self)): got \(got.map { "\($0)" } ?? "nil"), strtod \(want.map { "\($0)" } ?? "nil")")
        }
    }

    /// `parsePrefix` on `text` followed by a delimiter and more bytes, and on `text` alone: what
    /// it reads is exactly what `parseDouble` reads from the bytes it consumed, and a whole
    /// number followed by a delimiter is read whole.
    mutating func checkPrefix(_ text: [UInt8], whole: Double?) {
        guard !text.isEmpty else { return }
        for tail in [Array("\"".utf8), Array("</ele>12345678".utf8), Array("<\n123456789012345678901234".utf8), []] {
            let padded = text + tail
            let got = padded.withUnsafeBufferPointer { DecimalParser.parsePrefix($0.baseAddress!, limit: $0.count) }
            if let got {
                let again = parse(Array(padded[0..<got.length]))
                if again?.bitPattern != got.value.bitPattern && mismatches.count < 10 {
                    mismatches.append(
                        "prefix of \(String(decoding: padded, as: UTF8.self)): \(got.value) in \(got.length) bytes, whole read \(again.map { "\($0)" } ?? "nil")"
                    )
                }
            }
            if let whole, !tail.isEmpty, got?.length != text.count || got?.value.bitPattern != whole.bitPattern, mismatches.count < 10 {
                mismatches.append("prefix of \(String(decoding: padded, as: UTF8.self)): \(String(describing: got)), whole \(whole)")
            }
        }
    }

    mutating func check(_ text: String) { check(Array(text.utf8)) }
}

extension SplitMix64 {
    /// A uniform integer in `range` (modulo bias is negligible here).
    fileprivate mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    fileprivate mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }

    fileprivate mutating func digit() -> UInt8 { UInt8(ascii: "0") + UInt8(next() % 10) }

    fileprivate mutating func nonzeroDigit() -> UInt8 { UInt8(ascii: "1") + UInt8(next() % 9) }
}

private func appendInt(_ value: Int, to out: inout [UInt8]) { out.append(contentsOf: String(value).utf8) }

private func appendExponent(_ e: Int, to out: inout [UInt8], _ rng: inout SplitMix64) {
    out.append(rng.chance(0.5) ? UInt8(ascii: "e") : UInt8(ascii: "E"))
    if e < 0 { out.append(UInt8(ascii: "-")) } else if rng.chance(0.3) { out.append(UInt8(ascii: "+")) }
    for _ in 0..<rng.int(0...2) where rng.chance(0.2) { out.append(UInt8(ascii: "0")) }
    appendInt(abs(e), to: &out)
}

/// `digits` with a decimal point inserted at a random place (or none), so leading and trailing
/// `.` forms occur too.
private func appendWithPoint(_ digits: [UInt8], to out: inout [UInt8], _ rng: inout SplitMix64) {
    if rng.chance(0.15) {
        out.append(contentsOf: digits)
        return
    }
    let at = rng.int(0...digits.count)
    out.append(contentsOf: digits[0..<at])
    out.append(UInt8(ascii: "."))
    out.append(contentsOf: digits[at...])
}

/// Exact decimal digits of big naturals, for halfway cases (little-endian base-10⁹ limbs).
private struct BigDecimal {
    var limbs: [UInt64]

    init(_ value: UInt64) {
        limbs = [value % 1_000_000_000, value / 1_000_000_000 % 1_000_000_000, value / 1_000_000_000_000_000_000]
    }

    /// self *= factor, with factor < 2^32.
    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let p = limbs[i] * factor + carry
            limbs[i] = p % 1_000_000_000
            carry = p / 1_000_000_000
        }
        while carry > 0 {
            limbs.append(carry % 1_000_000_000)
            carry /= 1_000_000_000
        }
    }

    mutating func multiply(byPowerOf base: UInt64, _ count: Int) {
        let (step, stepCount): (UInt64, Int) = base == 2 ? (1 << 29, 29) : (1_220_703_125, 13)  // 5^13
        var left = count
        while left >= stepCount {
            multiply(by: step)
            left -= stepCount
        }
        var last: UInt64 = 1
        for _ in 0..<left { last *= base }
        multiply(by: last)
    }

    var digits: [UInt8] {
        var text = ""
        var top = limbs.count - 1
        while top > 0 && limbs[top] == 0 { top -= 1 }
        text += String(limbs[top])
        for i in stride(from: top - 1, through: 0, by: -1) {
            let s = String(limbs[i])
            text += String(repeating: "0", count: 9 - s.count) + s
        }
        return Array(text.utf8)
    }
}

/// The exact midpoint between `x` (finite, positive) and the next larger double (infinity's
/// "next" being 2^1024) as decimal digits D and scale k: midpoint = D · 10^-k.
private func midpoint(above x: Double) -> (digits: [UInt8], scale: Int) {
    let bits = x.bitPattern
    let biased = Int(bits >> 52)
    let fraction = bits & ((1 << 52) - 1)
    let (m, e2) = biased == 0 ? (fraction, -1074) : (fraction | (1 << 52), biased - 1075)
    // midpoint = (2m + 1) · 2^(e2 − 1)
    var big = BigDecimal(2 * m + 1)
    let k = e2 - 1
    if k >= 0 {
        big.multiply(byPowerOf: 2, k)
        return (big.digits, 0)
    }
    // (2m+1) · 2^k = (2m+1) · 5^-k / 10^-k
    big.multiply(byPowerOf: 5, -k)
    return (big.digits, -k)
}

/// D · 10^-k written as text, either `De-k` or `d.ddde…`.
private func appendScaled(_ digits: [UInt8], scale: Int, to out: inout [UInt8], _ rng: inout SplitMix64) {
    if rng.chance(0.5) {
        out.append(contentsOf: digits)
        appendExponent(-scale, to: &out, &rng)
    } else {
        out.append(digits[0])
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: digits[1...])
        appendExponent(digits.count - 1 - scale, to: &out, &rng)
    }
}

/// `x` (finite, ≥ 0) correctly rounded to `digits` significant decimal digits by glibc `printf`:
/// the digits and the decimal exponent of the last one.
private func scientific(_ x: Double, digits: Int) -> (digits: [UInt8], exp10: Int) {
    var buffer = [CChar](repeating: 0, count: 64)
    let n = withVaList([Int32(digits - 1), x]) { vsnprintf(&buffer, 64, "%.*e", $0) }
    let text = buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }
    let e = text.firstIndex(of: UInt8(ascii: "e"))!
    let mantissa = text[0..<e].filter { $0 != UInt8(ascii: ".") }
    let exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self))!
    return (Array(mantissa), exponent - (mantissa.count - 1))
}

/// Decimal digits plus one in the last place (may grow by a digit).
private func increment(_ digits: [UInt8]) -> [UInt8] {
    var d = digits
    var j = d.count - 1
    while j >= 0 && d[j] == UInt8(ascii: "9") {
        d[j] = UInt8(ascii: "0")
        j -= 1
    }
    if j < 0 { return [UInt8(ascii: "1")] + d }
    d[j] += 1
    return d
}

/// Decimal digits minus one in the last place (a leading zero is kept; all zeros stay zero).
private func decrement(_ digits: [UInt8]) -> [UInt8] {
    var d = digits
    var j = d.count - 1
    while j >= 0 && d[j] == UInt8(ascii: "0") {
        d[j] = UInt8(ascii: "9")
        j -= 1
    }
    if j < 0 { return digits }
    d[j] -= 1
    return d
}

@Suite("Decimal parser")
struct DecimalParserTests {
    /// Known hard or boundary inputs (collected from the literature on correctly rounded decimal
    /// conversion: Paxson, Clinger, glibc and Rust bug reports, Lemire's tests).
    static let hardCases: [String] = [
        "0", "-0", "+0", "0.0", "-0.0", "-.0", "0.", "0e0", "0e999", "-0e-999", "0e+99999999999999999999",
        ".5", "5.", "-.5", "+.5e1", "00000.00000", "000001", "-000.000100e+0002",
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "9007199254740993.0", "9007199254740993.00000000000000000001", "900719925474099300000e-5",
        "18014398509481985", "18014398509481986", "18446744073709551615", "18446744073709551616",
        "9223372036854775807", "9223372036854775808", "1234567890123456789", "12345678901234567890",
        "1e22", "1e23", "1e-22", "1e-23", "9007199254740992e22", "9007199254740992e23", "1e37", "1e38",
        "123456789e30", "900719925474099e22", "9007199254740991e-22", "4503599627370497.5",
        "0.1", "0.2", "0.3", "0.7", "1.1", "3.14159265358979323846264338327950288",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "2.2250738585072009e-308", "4.9406564584124654e-324", "4.9406564584124654e-325",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272088e-324",
        "5e-324", "3e-324", "2e-324", "1e-324", "7e-324", "1e-400", "-1e-400", "1e-99999999999",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1.797693134862315807e308", "1.7976931348623158079e308", "179769313486231580793728971405301e276",
        "1e308", "1e309", "-1e309", "1e310", "1e99999999999", "-1e99999999999",
        "7.038531e-26", "9214843084008499", "8.10109172351e-10", "62.5364939768271845828",
        "0.500000000000000166533453693773481063544750213623046875",
        "3.518437208883201171875e13", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "1.0000000000000002220446049250313080847263336181640625",
        "4.4501477170144023e-308", "4.4501477170144022721148195934182639518696390927032912960468522194e-308",
        "2.22507385850720113605740979670913197593481954635164564e-308",
        "6.631236846766476e-316", "3.2378839133029012e+138", "6.9294956446009195e15", "5.721418e-34",
        "1448997445238699", "6929495644600919e-11", "43.39870071411133", "1.8254370599970384e-308",
        "1090544144181609348835077142190", "5708990770823839524233143877797980545530986496",
        "2.9802322387695312500e-8", "89255.0e-22", "1e-300", "1e-310", "123456e-320",
        "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
        "-33.868820", "151.209296", "47.376887123", "8.541694", "-122.41941550000001", "0.000001",
        "33.868820000000000000000000000000000000000000000000000000000000000000001",
        // Eisel–Lemire: 16–19 digits, exact halfway cases with q ≠ 0, boundaries.
        "47.37688712345679", "147.37688712345679", "-122.41941550000001", "0.30000000000000004",
        "9007199254740993e1", "9007199254740995e1", "90071992547409930e-1", "90071992547409950e-1",
        "9007199254740993e5", "18014398509481986e3", "9223372036854775808e4", "1844674407370955161.5e1",
        "9999999999999999999", "9999999999999999999e-342", "9999999999999999999e308", "1e-342", "1000000000000000000e-361",
        "2.225073858507201e-308", "2.2250738585072013e-308", "2.225073858507200889e-308", "2.225073858507201383e-308",
        "1.797693134862315708e308", "1.797693134862315807e308", "1.797693134862315808e308",
        "8.988465674311579e307", "4.940656458412465442e-324", "9.881312916824930884e-324",
    ]

    @Test("known hard cases match strtod bit for bit")
    func hardCasesMatch() {
        var c = Comparison()
        for text in Self.hardCases { c.check(text) }
        // Long runs of zeros that offset the exponent.
        let zeros = String(repeating: "0", count: 1000)
        for text in [
            "0.\(zeros)1e1010", "-0.\(zeros)123e1003", "1\(zeros)e-1000", "1\(zeros)e-1022", "1\(zeros).\(zeros)",
            "\(zeros)9007199254740993\(zeros)e-1000", "0.\(zeros)\(zeros)5e2000", "0.\(zeros)1e-9999",
        ] {
            c.check(text)
        }
        #expect(c.mismatches == [])
        #expect(c.checked == Self.hardCases.count + 8)
    }

    /// Every byte value at every position of typical values (this covers the eight-digit chunk
    /// test, and sixteen fraction digits after one to three integer digits, which the inline
    /// common path reads, and after four, which it leaves to the general parser): accepted exactly
    /// when `strtod` consumes the whole text, with the same bits.
    @Test("every byte at every position")
    func everyByte() {
        var c = Comparison()
        for base in [
            "47.376887123", "-0.1234567890123", "1.234567890123456789e-5", "123456789012.12345678",
            "8.1234567890123456", "-123.1234567890123456", "1234.1234567890123456",
        ] {
            let original = Array(base.utf8)
            for position in original.indices {
                for byte in UInt8.min...UInt8.max {
                    var text = original
                    text[position] = byte
                    c.check(text)
                }
            }
        }
        #expect(c.mismatches == [])
    }

    /// The inline common path takes the shape it states, signed or not (the other tests see only
    /// values, which the general parser gives as well when the common path declines).
    @Test("the common path takes its shape, with or without a minus sign")
    func commonPathTakesItsShape() {
        var rng = SplitMix64(seed: 25)
        var taken = 0
        for k in 0..<2_000 {
            var text: [UInt8] = k % 2 == 0 ? [] : [UInt8(ascii: "-")]
            let integer = 1 + k / 2 % 7, fraction = 1 + k / 14 % 16
            guard integer + fraction <= 19 else { continue }
            for _ in 0..<integer { text.append(UInt8(ascii: "0") + UInt8(rng.next() % 10)) }
            text.append(UInt8(ascii: "."))
            for _ in 0..<fraction { text.append(UInt8(ascii: "0") + UInt8(rng.next() % 10)) }
            let padded = text + Array("\"/>                         ".utf8)
            let got = padded.withUnsafeBufferPointer { DecimalParser.parseCommonPrefix($0.baseAddress!, limit: $0.count) }
            let want = strtodReference(text)
            // Eisel–Lemire may leave a rare 17–19-digit value undecided (nil): never a wrong one.
            if let got {
                taken += 1
                #expect(got.length == text.count && got.value.bitPattern == want?.bitPattern, "\(String(decoding: text, as: UTF8.self))")
            } else {
                #expect(integer + fraction >= 16, "\(String(decoding: text, as: UTF8.self)) declined")
            }
        }
        #expect(taken > 1_500, "\(taken)")
    }

    /// The eight-byte digit count behind the fast paths: every byte value at every position
    /// after a run of digits, with digits and arbitrary bytes after it.
    @Test("digit count of eight bytes: every byte after every run of digits")
    func digitCount() {
        var rng = SplitMix64(seed: 8)
        for run in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                for tail in 0..<4 {
                    var bytes = (0..<8).map { _ in UInt8(ascii: "0") + UInt8(rng.next() % 10) }
                    bytes[run] = byte
                    for k in (run + 1)..<8 where tail > 0 { bytes[k] = tail == 1 ? UInt8(rng.next() & 0xFF) : tail == 2 ? 0xFF : 0x39 }
                    let expected = bytes.firstIndex { !(0x30...0x39).contains($0) } ?? 8
                    let chunk = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    #expect(DecimalParser.digitCount(chunk) == expected, "\(bytes)")
                }
            }
        }
    }

    @Test("signed zeros, subnormals and overflow")
    func specialValues() {
        #expect(DecimalParser.parseDouble("-0")?.bitPattern == (-0.0).bitPattern)
        #expect(DecimalParser.parseDouble("-0e999")?.bitPattern == (-0.0).bitPattern)
        #expect(DecimalParser.parseDouble("0e999")?.bitPattern == (0.0).bitPattern)
        #expect(DecimalParser.parseDouble("-1e-400")?.bitPattern == (-0.0).bitPattern)
        #expect(DecimalParser.parseDouble("5e-324") == .leastNonzeroMagnitude)
        #expect(DecimalParser.parseDouble("1e309") == .infinity)
        #expect(DecimalParser.parseDouble("-1e309") == -.infinity)
        #expect(DecimalParser.parseDouble(".5") == 0.5)
        #expect(DecimalParser.parseDouble("5.") == 5)
        #expect(DecimalParser.parseDouble("-.5") == -0.5)
        #expect(DecimalParser.parseDouble("-33.868820") == -33.86882)
        #expect(DecimalParser.parseDouble("9007199254740993") == 9_007_199_254_740_992)
        #expect(DecimalParser.parseDouble("1.5E+3"[...]) == 1500)
        #expect(DecimalParser.parseDouble("x12.5y".dropFirst().dropLast()) == 12.5)
        #expect(DecimalParser.parseDouble("1\u{0}") == nil)
        #expect(DecimalParser.parseDouble("\u{0}") == nil)
    }

    @Test(
        "rejects anything outside the grammar",
        arguments: [
            "", "-", "+", ".", "-.", "+.", "e5", ".e5", "1e", "1e+", "1e-", "1E", "1.2.3", " 1", "1 ", "0x10",
            "inf", "-inf", "infinity", "nan", "NaN", "1,5", "1e5.5", "1e5e5", "--1", "+-1", "1-", "1_000",
            "١", "1d", "1f", "0b1", "e", "E", "..5", "5..", "1e 5", "+ 1",
        ])
    func rejects(text: String) {
        #expect(DecimalParser.parseDouble(text) == nil)
    }

    @Test("parseInt")
    func parseInt() {
        func p(_ s: String) -> Int? { Array(s.utf8).withUnsafeBufferPointer { DecimalParser.parseInt($0) } }
        #expect(p("0") == 0)
        #expect(p("-0") == 0)
        #expect(p("+42") == 42)
        #expect(p("007") == 7)
        #expect(p("-123456789") == -123_456_789)
        #expect(p("9223372036854775807") == .max)
        #expect(p("-9223372036854775808") == .min)
        #expect(p("00000000000000000000009223372036854775807") == .max)
        for bad in [
            "", "-", "+", "9223372036854775808", "-9223372036854775809", "99999999999999999999", "1.0",
            " 1", "1 ", "1e3", "0x1", "--1", "1-",
        ] {
            #expect(p(bad) == nil, "\(bad)")
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let v = Int(bitPattern: UInt(rng.next())) >> rng.int(0...63)
            #expect(p(String(v)) == v)
        }
    }

    /// 1,000,000+ seeded random inputs of many shapes, each compared with `strtod` bit for bit.
    @Test(
        "random inputs match strtod bit for bit",
        arguments: [
            "gps", "long", "exponent", "fast-path edges", "shortest round trip", "huge", "halfway",
        ])
    func randomMatchesStrtod(shape: String) {
        var rng = SplitMix64(seed: shape.utf8.reduce(0x5EED) { $0 &* 31 &+ UInt64($1) })
        var c = Comparison()
        var text: [UInt8] = []
        var digits: [UInt8] = []
        func sign() {
            let r = rng.int(0...9)
            if r < 4 { text.append(UInt8(ascii: "-")) } else if r == 4 { text.append(UInt8(ascii: "+")) }
        }
        switch shape {
        case "gps":  // -33.868820: 1–3 integer digits, 6–15 decimals
            for _ in 0..<300_000 {
                text.removeAll(keepingCapacity: true)
                sign()
                let intDigits = rng.int(1...3)
                text.append(intDigits == 1 ? rng.digit() : rng.nonzeroDigit())
                for _ in 1..<intDigits { text.append(rng.digit()) }
                text.append(UInt8(ascii: "."))
                for _ in 0..<rng.int(6...15) { text.append(rng.digit()) }
                c.check(text)
            }
        case "long":  // 17–40 significant digits, leading zeros, small exponents
            for _ in 0..<200_000 {
                text.removeAll(keepingCapacity: true)
                digits.removeAll(keepingCapacity: true)
                sign()
                for _ in 0..<rng.int(0...6) where rng.chance(0.4) { digits.append(UInt8(ascii: "0")) }
                digits.append(rng.nonzeroDigit())
                for _ in 1..<rng.int(17...40) { digits.append(rng.chance(0.1) ? UInt8(ascii: "0") : rng.digit()) }
                for _ in 0..<rng.int(0...8) where rng.chance(0.3) { digits.append(UInt8(ascii: "0")) }
                appendWithPoint(digits, to: &text, &rng)
                if rng.chance(0.3) { appendExponent(rng.int(-30...30), to: &text, &rng) }
                c.check(text)
            }
        case "exponent":  // 1–20 digits, exponents e-330…e+310: subnormals, underflow, overflow
            for _ in 0..<250_000 {
                text.removeAll(keepingCapacity: true)
                digits.removeAll(keepingCapacity: true)
                sign()
                for _ in 0..<rng.int(1...20) { digits.append(rng.digit()) }
                appendWithPoint(digits, to: &text, &rng)
                appendExponent(rng.int(-330...310), to: &text, &rng)
                c.check(text)
            }
        case "fast-path edges":  // significands around 2^53, exponents around ±22 and 22 + 15
            for _ in 0..<200_000 {
                text.removeAll(keepingCapacity: true)
                sign()
                let m: UInt64
                switch rng.int(0...3) {
                case 0: m = (1 << 53) &+ UInt64(bitPattern: Int64(rng.int(-50...50)))
                case 1: m = rng.next() >> rng.int(0...63)
                case 2: m = UInt64(rng.int(1...99_999)) * [1, 10, 100, 1000, 10_000][rng.int(0...4)]
                default: m = rng.next() % (1 << 54)
                }
                digits = Array(String(m).utf8)
                appendWithPoint(digits, to: &text, &rng)
                let pointShift = text.firstIndex(of: UInt8(ascii: ".")).map { text.count - 1 - $0 } ?? 0
                appendExponent(rng.int(-26...40) + pointShift, to: &text, &rng)
                c.check(text)
            }
        case "shortest round trip":  // what writers print: Swift's shortest representation
            for _ in 0..<100_000 {
                let x: Double
                if rng.chance(0.5) {
                    x = Double(bitPattern: rng.next())
                } else {
                    x = rng.uniform(-180, 180) * (rng.chance(0.2) ? 1e-5 : 1)
                }
                guard x.isFinite else { continue }
                c.check(x.description)
                #expect(parse(Array(x.description.utf8)) == x)
            }
        case "huge":  // 300–500 digits, up to hundreds of leading zeros
            for _ in 0..<10_000 {
                text.removeAll(keepingCapacity: true)
                digits.removeAll(keepingCapacity: true)
                sign()
                if rng.chance(0.2) { for _ in 0..<rng.int(1...300) { digits.append(UInt8(ascii: "0")) } }
                let count = rng.int(300...500)
                let zeroRun = rng.chance(0.3)  // "1000…0001"-like
                for k in 0..<count {
                    digits.append(zeroRun && k > 0 && k < count - 1 ? UInt8(ascii: "0") : rng.digit())
                }
                appendWithPoint(digits, to: &text, &rng)
                if rng.chance(0.5) { appendExponent(rng.int(-700...300), to: &text, &rng) }
                c.check(text)
            }
        case "halfway":  // exact midpoints between adjacent doubles, and just below and above
            var bases: [Double] = [
                .greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude,
                Double.leastNormalMagnitude.nextDown, 9_007_199_254_740_992, 1, 0.1,
            ]
            for _ in 0..<20_000 {
                let x: Double
                switch rng.int(0...2) {
                case 0: x = Double(bitPattern: rng.next() % 0x7FF0_0000_0000_0000)
                case 1: x = Double(bitPattern: rng.next() % (1 << 52))  // subnormal
                default: x = Double(rng.next() % (1 << 60)) * [1, 0.001, 1e-10, 1e20][rng.int(0...3)]
                }
                if x > 0 && x.isFinite { bases.append(x) }
            }
            for x in bases {
                let (d, k) = midpoint(above: x)
                text.removeAll(keepingCapacity: true)
                appendScaled(d, scale: k, to: &text, &rng)
                c.check(text)
                #expect(parse(text) == (x.significandBitPattern & 1 == 0 ? x : x.nextUp), "ties to even")
                // Just below: D·10^m − 1 at scale k + m.
                let m = rng.int(1...20)
                var below = d + [UInt8](repeating: UInt8(ascii: "0"), count: m)
                var j = below.count - 1
                while below[j] == UInt8(ascii: "0") {
                    below[j] = UInt8(ascii: "9")
                    j -= 1
                }
                below[j] -= 1
                text.removeAll(keepingCapacity: true)
                appendScaled(below, scale: k + m, to: &text, &rng)
                c.check(text)
                #expect(parse(text) == x)
                // Just above: D·10^m + 1 at scale k + m.
                let above = d + [UInt8](repeating: UInt8(ascii: "0"), count: m - 1) + [UInt8(ascii: "1")]
                text.removeAll(keepingCapacity: true)
                appendScaled(above, scale: k + m, to: &text, &rng)
                c.check(text)
                #expect(parse(text) == x.nextUp)
            }
        default:
            Issue.record("unknown shape \(shape)")
        }
        #expect(c.mismatches == [])
        #expect(c.checked >= 10_000)
    }

    /// The generated table against Swift integer arithmetic: exact entries for 0 ≤ q ≤ 55, the
    /// defining inequality for −27 ≤ q ≤ −1, and 5^(q+1) = ⌊5 · 5^q / 2^d⌋ (+1 at most, from the
    /// truncation of 5^q; exactly while 5^q is exact) with d the exponent step of the parser's
    /// ⌊log2 5^q⌋ formula, over the whole range.
    @Test("powers-of-five table")
    func powersOfFiveTable() {
        let table = DecimalParser.powersOfFive
        let range = DecimalParser.powerOfFiveRange
        #expect(range == -342...308)
        #expect(table.count == 2 * range.count)
        func entry(_ q: Int) -> UInt128 {
            let k = 2 * (q - range.lowerBound)
            return UInt128(table[k]) << 64 | UInt128(table[k + 1])
        }
        func floorLog2Pow5(_ q: Int) -> Int { (q * 152_170) >> 16 }
        var power: UInt128 = 1
        for q in 0...55 {
            #expect(floorLog2Pow5(q) == 127 - power.leadingZeroBitCount, "q = \(q)")
            #expect(entry(q) == power << power.leadingZeroBitCount, "q = \(q)")
            if q < 55 { power *= 5 }
        }
        var divisor: UInt64 = 1
        for n in 1...27 {
            divisor *= 5
            let bits = 64 - divisor.leadingZeroBitCount  // ⌈log2 5^n⌉
            #expect(floorLog2Pow5(-n) == -bits, "q = \(-n)")
            // T = ⌊2^(127 + bits) / 5^n⌋: T·5^n < 2^(127 + bits) ≤ (T + 1)·5^n, as 256-bit products.
            let t = entry(-n)
            let below = t.multipliedFullWidth(by: UInt128(divisor))
            let above = (t + 1).multipliedFullWidth(by: UInt128(divisor))
            #expect(below.high < UInt128(1) << (bits - 1), "q = \(-n)")
            #expect(above.high >= UInt128(1) << (bits - 1), "q = \(-n)")
        }
        var failures: [Int] = []
        for q in range.lowerBound..<range.upperBound {
            let t = entry(q)
            let d = floorLog2Pow5(q + 1) - floorLog2Pow5(q)
            let times5 = t.multipliedFullWidth(by: 5)
            let scaled = times5.high << (128 - d) | times5.low >> d
            let next = entry(q + 1)
            let ok =
                (d == 2 || d == 3) && times5.high >> d == 0 && next >= scaled
                && next - scaled <= (q >= 0 && q < 55 ? 0 : 1) && next >> 127 == 1
            if !ok { failures.append(q) }
        }
        #expect(failures == [])
    }

    /// 1,000,000+ seeded inputs with 16–19 significant digits across the whole exponent range
    /// (the Eisel–Lemire path), compared with `strtod` bit for bit.
    @Test(
        "16–19 significant digits match strtod bit for bit",
        arguments: [
            "uniform", "printed doubles", "powers of two and boundaries", "near halfway", "exact ties",
        ])
    func longSignificandsMatchStrtod(shape: String) {
        var rng = SplitMix64(seed: shape.utf8.reduce(0xE15E1) { $0 &* 31 &+ UInt64($1) })
        var c = Comparison()
        var text: [UInt8] = []
        /// `digits` · 10^`exp10` in a random layout (point anywhere, exponent adjusted, signs,
        /// leading zeros).
        func emit(_ digits: [UInt8], _ exp10: Int) {
            text.removeAll(keepingCapacity: true)
            let r = rng.int(0...9)
            if r < 4 { text.append(UInt8(ascii: "-")) } else if r == 4 { text.append(UInt8(ascii: "+")) }
            if rng.chance(0.1) { text.append(UInt8(ascii: "0")) }
            let point = rng.chance(0.15) ? digits.count : rng.int(0...digits.count)
            text.append(contentsOf: digits[0..<point])
            if point < digits.count || rng.chance(0.1) { text.append(UInt8(ascii: ".")) }
            text.append(contentsOf: digits[point...])
            let e = exp10 + digits.count - point
            if e != 0 || rng.chance(0.5) { appendExponent(e, to: &text, &rng) }
            c.check(text)
        }
        /// Emits `digits` · 10^`exp10`, and with `neighbours` also the values one unit in the last
        /// digit below and above.
        func emitAround(_ digits: [UInt8], _ exp10: Int, neighbours: Bool = true) {
            emit(digits, exp10)
            guard neighbours else { return }
            emit(decrement(digits), exp10)
            emit(increment(digits), exp10)
        }
        switch shape {
        case "uniform":  // random 16–19 digit significands, first digit's exponent −345…309
            var digits: [UInt8] = []
            for _ in 0..<250_000 {
                digits.removeAll(keepingCapacity: true)
                let count = rng.int(16...19)
                digits.append(rng.nonzeroDigit())
                for _ in 1..<count { digits.append(rng.chance(0.05) ? UInt8(ascii: rng.chance(0.5) ? "0" : "9") : rng.digit()) }
                let lead = rng.chance(0.1) ? [-345, -324, -308, 0, 22, 308][rng.int(0...5)] + rng.int(-3...3) : rng.int(-345...309)
                emit(digits, lead - (count - 1))
            }
        case "printed doubles":  // any finite double, printed with 16–19 digits, ± 1 in the last one
            for _ in 0..<85_000 {
                var x = Double(bitPattern: rng.next() & 0x7FFF_FFFF_FFFF_FFFF)
                if !x.isFinite { x = .greatestFiniteMagnitude }
                let (digits, exp10) = scientific(x, digits: rng.int(16...19))
                emitAround(digits, exp10)
            }
            for _ in 0..<20_000 {
                let x = rng.uniform(-180, 180)
                c.check(Array(x.description.utf8))
                let (digits, exp10) = scientific(x, digits: 17)
                emit(digits, exp10)
            }
        case "powers of two and boundaries":  // 2^k and its neighbours, min normal, subnormals, max
            var bases: [Double] = []
            for k in -1074...1023 {
                let x = Double(sign: .plus, exponent: k, significand: 1)
                bases += [x, x.nextUp, x.nextDown]
            }
            var x = Double.leastNormalMagnitude
            var y = Double.leastNormalMagnitude
            var z = Double.greatestFiniteMagnitude
            for k in 0..<2_000 {
                bases += [x, y, z, Double.leastNonzeroMagnitude * Double(k + 1)]
                x = x.nextUp
                y = y.nextDown
                z = z.nextDown
            }
            for _ in 0..<20_000 {
                bases.append(Double(bitPattern: rng.next() % 0x0020_0000_0000_0000))  // < 2·min normal
            }
            var count = 0
            while count < 210_000 {
                for b in bases where count < 210_000 {
                    let (digits, exp10) = scientific(b, digits: rng.int(16...19))
                    emitAround(digits, exp10)
                    count += 3
                }
            }
        case "near halfway":  // exact midpoints cut to 16–19 digits, and the next decimal up
            var bases: [Double] = [.greatestFiniteMagnitude, .leastNormalMagnitude, Double.leastNormalMagnitude.nextDown]
            for _ in 0..<80_000 {
                let x: Double
                switch rng.int(0...3) {
                case 0: x = Double(bitPattern: rng.next() % 0x7FF0_0000_0000_0000)
                case 1: x = Double(bitPattern: rng.next() % (1 << 53))  // subnormal or smallest normals
                case 2: x = Double(bitPattern: 0x7FE0_0000_0000_0000 | rng.next() % (1 << 52))  // largest binade
                default: x = rng.uniform(-180, 180).magnitude
                }
                if x > 0 && x.isFinite { bases.append(x) }
            }
            for x in bases {
                let (d, k) = midpoint(above: x)
                var end = d.count
                while end > 1 && d[end - 1] == UInt8(ascii: "0") { end -= 1 }
                let significant = Array(d[0..<end])
                if significant.count <= 19 { emit(significant, d.count - end - k) }
                let n = min(rng.int(16...19), significant.count)
                let cut = Array(significant[0..<n])
                let exp10 = significant.count - n + d.count - end - k
                emit(cut, exp10)
                emit(increment(cut), exp10)
            }
        case "exact ties":  // t·2^j with t odd of 54 bits written as w·10^q, −4 ≤ q ≤ 23: halfway
            for _ in 0..<55_000 {
                let q = rng.int(-4...23)
                var w: UInt64
                if q >= 0 {
                    // t = 5^q·r with r odd; w = r·2^(j−q) for some j ≥ q.
                    let p5 = (0..<q).reduce(UInt64(1)) { r, _ in r * 5 }
                    let lo = ((1 << 53) + p5 - 1) / p5
                    let hi = ((1 << 54) - 1) / p5
                    guard lo <= hi else { continue }
                    var r = lo + rng.next() % (hi - lo + 1)
                    if r & 1 == 0 { r = r == hi ? r - 1 : r + 1 }
                    w = r
                    let room = w.leadingZeroBitCount - 1
                    if room > 0 { w <<= UInt64(rng.int(0...min(room, 10))) }
                    if w >= 10_000_000_000_000_000_000 { continue }
                } else {
                    // w = t·2^(j+n)·5^n with n = −q.
                    let n = -q
                    let p5 = (0..<n).reduce(UInt64(1)) { r, _ in r * 5 }
                    var t = (1 << 53) | rng.next() % (1 << 53) | 1
                    t = t * p5
                    w = t << UInt64(rng.int(0...max(0, t.leadingZeroBitCount - 1 - 1)))
                    if w >= 10_000_000_000_000_000_000 { continue }
                }
                emitAround(Array(String(w).utf8), q)
            }
        default:
            Issue.record("unknown shape \(shape)")
        }
        #expect(c.mismatches == [])
        #expect(c.checked >= 150_000)  // 1,078,911 in all
    }

    /// The exact decimal expansion of `x`, every digit (as Garmin Connect writes coordinates).
    static func exactExpansion(_ x: Double) -> String {
        let k = max(0, 52 - Int(x.exponent))
        // Exact: |x| is a multiple of its ulp, 2^-k.
        return expansion(UInt64(abs(x) * Double(sign: .plus, exponent: k, significand: 1)), over: k, negative: x < 0)
    }

    /// The exact decimal expansion of `m · 2^-k`: `m · 5^k · 10^-k`, worked out in base-10⁹ limbs.
    static func expansion(_ m: UInt64, over k: Int, negative: Bool) -> String {
        var limbs: [UInt64] = [m % 1_000_000_000, m / 1_000_000_000 % 1_000_000_000, m / 1_000_000_000_000_000_000]
        for _ in 0..<k {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let v = limbs[i] * 5 + carry
                limbs[i] = v % 1_000_000_000
                carry = v / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        var digits = String(limbs.last!)
        for limb in limbs.dropLast().reversed() { digits += String(repeating: "0", count: 9 - String(limb).count) + String(limb) }
        if digits.count <= k { digits = String(repeating: "0", count: k - digits.count + 1) + digits }
        let point = digits.index(digits.endIndex, offsetBy: -k)
        var fraction = digits[point...]
        while fraction.last == "0" { fraction = fraction.dropLast() }  // m may be even
        let text = fraction.isEmpty ? digits[..<point] : digits[..<point] + "." + fraction
        return (negative ? "-" : "") + text
    }

    /// More than 19 significant digits: the value between its first 19 digits and those plus one
    /// unit is read without strtod when both round alike; every value must still be strtod's.
    @Test("more than 19 significant digits (exact binary expansions, long random digits, near halfway) match strtod bit for bit")
    func longInputs() {
        #expect(Self.exactExpansion(0.5) == "0.5" && Self.exactExpansion(-1.25) == "-1.25" && Self.exactExpansion(3) == "3")
        #expect(Self.expansion(3, over: 53, negative: false) == "0.00000000000000033306690738754696212708950042724609375")
        #expect(Self.exactExpansion(35.7804112695157527923583984375) == "35.7804112695157527923583984375")
        var rng = SplitMix64(seed: 0x10A6)
        var c = Comparison()
        var text: [UInt8] = []
        for k in 0..<60_000 {
            text.removeAll(keepingCapacity: true)
            switch k % 3 {
            case 0:
                // A coordinate or an elevation written exactly.
                let x = [rng.uniform(-90, 90), rng.uniform(-180, 180), rng.uniform(0, 9_000)][k / 3 % 3]
                text.append(contentsOf: Self.exactExpansion(x).utf8)
            case 1:
                // 20–40 random significant digits around a random point, some with an exponent.
                if rng.chance(0.5) { text.append(UInt8(ascii: "-")) }
                let digits = rng.int(20...40), integer = rng.int(1...digits)
                text.append(rng.nonzeroDigit())
                for i in 1..<digits {
                    if i == integer { text.append(UInt8(ascii: ".")) }
                    text.append(rng.digit())
                }
                if rng.chance(0.2) { text.append(contentsOf: "e\(rng.int(-300...300))".utf8) }
            default:
                // Just above or below the midpoint of two neighbouring doubles: its exact
                // expansion with a digit added, or its last digit lowered.
                let m = UInt64(rng.uniform(1, 2) * 0x1p52)  // x = m · 2^-52 in [1, 2)
                var mid = Self.expansion(2 * m + 1, over: 53, negative: false)  // (x + x.nextUp) / 2
                if rng.chance(0.5) {
                    mid += "\(rng.int(1...9))"
                } else if let last = mid.last, let d = last.wholeNumberValue, d > 0 {
                    mid = String(mid.dropLast()) + "\(d - 1)" + "9999"
                }
                text.append(contentsOf: mid.utf8)
            }
            c.check(text)
        }
        #expect(c.mismatches == [])
    }

    /// An exponent too long to hold, offset back into range by a run of 10⁸ zeros: strtod's
    /// answer (infinity, zero), not the fast path's (the exponent stops counting at 10⁸).
    @Test("a saturated exponent offset by 10^8 zeros is strtod's")
    func saturatedExponent() {
        let zeros = [UInt8](repeating: UInt8(ascii: "0"), count: 100_000_000)
        let up = Array("0.".utf8) + zeros + Array("1e100000000000".utf8)
        let down = Array("1".utf8) + zeros + Array("e-1000000000000".utf8)
        #expect(parse(up) == .infinity && strtodReference(up) == .infinity)
        #expect(parse(down)?.bitPattern == 0 && strtodReference(down)?.bitPattern == 0)
    }

    /// The in-place common path (`parsePrefix` with 25 bytes readable) takes 16–19-digit
    /// coordinates and measures straight to Eisel–Lemire; every value must still be strtod's.
    @Test("coordinates with 16–19 significant digits read in place match strtod bit for bit")
    func longCoordinatesInPlace() {
        var rng = SplitMix64(seed: 0x6E0)
        var c = Comparison()
        var text: [UInt8] = []
        for k in 0..<200_000 {
            text.removeAll(keepingCapacity: true)
            if k % 2 == 0 {
                // Shortest round-trip output of doubles in GPS ranges (mostly 16–17 digits).
                let x = [rng.uniform(-90, 90), rng.uniform(-180, 180), rng.uniform(0, 9_000), rng.uniform(-1, 1)][k / 2 % 4]
                text.append(contentsOf: String(x).utf8)
            } else {
                // 1–7 integer digits and enough fraction digits for 16–19 in all.
                if rng.chance(0.5) { text.append(UInt8(ascii: "-")) }
                let integer = rng.int(1...7)
                text.append(rng.nonzeroDigit())
                for _ in 1..<integer { text.append(rng.digit()) }
                text.append(UInt8(ascii: "."))
                for _ in 0..<min(15, rng.int(16...19) - integer) { text.append(rng.digit()) }
            }
            c.check(text)
        }
        #expect(c.mismatches == [])
    }
}
