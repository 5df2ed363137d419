import TracePlatform

/// Exact, allocation-free parsing of decimal numbers for the trace readers (GPX, CSV).
///
/// ## Grammar (``parseDouble(_:)-(UnsafeBufferPointer<UInt8>)``)
///
///     number   = [ "+" | "-" ] mantissa [ exponent ]
///     mantissa = digits [ "." [ digits ] ] | "." digits
///     exponent = ( "e" | "E" ) [ "+" | "-" ] digits
///     digits   = 1*( "0"…"9" )
///
/// So `5`, `-5.25`, `.5`, `5.`, `-.5`, `+1e-7` and `0e999` are accepted; the empty string, `-`, `.`,
/// `e5`, `1e`, `1e+`, `1.2.3`, surrounding spaces, `0x10`, `inf`, `nan` and `1,5` are not (the
/// parsers return `nil`). Nothing is skipped: the whole buffer must be the number.
///
/// ## Method
///
/// One pass over the bytes accumulates up to 19 significant digits into a `UInt64` (leading zeros
/// are skipped, digits beyond the 19th only move the decimal exponent, or mark the value as
/// truncated when they are not zero); where eight bytes can be read, a short integer part and
/// up to eight fraction digits at a time are taken with one unaligned load, a digit count and three
/// multiplications when they surely fit (the same state the byte loop reaches). ``parsePrefix(_:limit:)``
/// reads a number that ends where the grammar stops, for scanners that parse in place. Then Clinger's fast path: when no nonzero
/// digit was dropped, the significand `m` is ≤ 2⁵³ and the decimal exponent `e` is in −22…22, `m`
/// and `10^|e|` are both exact doubles, so `Double(m) * 10^e` (or `/ 10^−e`) is one correctly
/// rounded IEEE operation. The case 22 < e ≤ 37 is folded in when `m · 10^(e−22)` is still ≤ 2⁵³ (exact
/// integer times the exact `1e22`), and `e == 0` with any 64-bit significand is one correctly
/// rounded integer conversion. Otherwise, when no nonzero digit was dropped (so `m` < 10¹⁹ is
/// exact) and −342 ≤ e ≤ 308, the Eisel–Lemire algorithm (Lemire, "Number Parsing at a Gigabyte
/// per Second", 2021) multiplies the normalised `m` by a 128-bit truncated 5^e from a generated
/// table (`DecimalParser+PowersOfFive.swift`) and returns the correctly rounded normal double
/// whenever the truncation provably cannot change the rounding (almost always: this is what
/// 17-digit shortest-printed values take). With more than 19 significant digits the value lies
/// strictly between the first 19 digits and those plus one unit: when Eisel–Lemire rounds both
/// to the same double, that is the value's (rounding is monotonic; Lemire's and fast_float's
/// method for long inputs). Everything else (larger exponents, subnormals, overflow, the rare
/// undecided products and long inputs between two doubles) calls C `strtod` on a
/// NUL-terminated copy of the text (a stack buffer for short inputs, the heap for long ones), with
/// the "C" numeric locale in force for that call only.
///
/// ## Guarantee
///
/// For every accepted input the result is bit-identical to glibc `strtod` (which rounds
/// correctly) on the same text in the "C" locale under the default round-to-nearest mode: `-0`
/// gives `-0.0`, subnormals are rounded correctly, and out-of-range magnitudes give `±infinity`
/// or `±0.0` exactly as `strtod` does. **Callers that need finite values must reject
/// `!isFinite` themselves.**
///
/// ## Complexity
///
/// O(n) in the length of the text. The fast paths (typical GPS values such as `47.376887123`, up
/// to 19 significant digits with any ordinary exponent, and longer inputs not within a unit of
/// their 19th digit of a rounding boundary) do not allocate or call into C; the fallback costs one
/// copy and one `strtod` call.
///
/// The functions are public but not `@inlinable`: inlining would expose the internals (the
/// lookup tables, the `strtod` fallback) to other modules, and the call costs about a nanosecond.
public enum DecimalParser {
    /// Parses a decimal floating-point number that must fill `bytes` exactly (see the grammar
    /// above).
    ///
    /// - Returns: the value bit-identical to `strtod` on the same text (possibly `±infinity`, or
    ///   `±0.0` after underflow: check `isFinite` if it matters), or `nil` when `bytes` is not
    ///   exactly one number in the grammar.
    /// - Complexity: O(n); no allocation unless the `strtod` fallback is needed for a long input.
    public static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        return parse(base, bytes.count, whole: true)?.value
    }

    /// Parses the longest number in the grammar at `p` (at most `limit` bytes, at least one
    /// readable) and returns it with its length in bytes; the caller checks what follows it. The
    /// value is bit-identical to ``parseDouble(_:)-(UnsafeBufferPointer<UInt8>)`` on exactly
    /// those bytes. Returns nil when no number starts at `p`, or when the bytes after a valid
    /// number could continue it but do not complete it (`1e` followed by a letter, `1e+`): such
    /// text is never a number followed by a delimiter, so a caller that requires one loses nothing.
    /// - Complexity: O(length); no allocation unless the `strtod` fallback is needed.
    @inline(always)
    static func parsePrefix(_ p: UnsafePointer<UInt8>, limit: Int) -> (value: Double, length: Int)? {
        if let quick = parseCommonPrefix(p, limit: limit) { return quick }
        return parseGeneralPrefix(p, limit: limit)
    }

    /// ``parsePrefix(_:limit:)`` without its inlined quick path: for a caller that tried
    /// ``parseCommonPrefix(_:limit:)`` itself.
    @inline(never)
    static func parseGeneralPrefix(_ p: UnsafePointer<UInt8>, limit: Int) -> (value: Double, length: Int)? {
        parse(p, limit, whole: false)
    }

    /// ``parsePrefix(_:limit:)`` for the commonest shape, inlined into the caller: an optional
    /// '-', 1–7 integer digits, '.', 1–16 fraction digits (at most 19 digits in all), then a byte
    /// that is neither a digit nor 'e'/'E', with 25 bytes readable. Then the value is Clinger's
    /// one correctly rounded division for a significand ≤ 2⁵³, else the Eisel–Lemire step, exactly
    /// what the general parser computes for the same significand and exponent. Nil for anything
    /// else, or when Eisel–Lemire cannot decide (the general parser then decides). A number it
    /// returns is finite and ends with a digit, and the byte after it is readable (it is within
    /// the 25 bytes).
    @inline(always)
    static func parseCommonPrefix(_ p: UnsafePointer<UInt8>, limit: Int) -> (value: Double, length: Int)? {
        guard limit >= 25 else { return nil }
        // The loads do not wait for the sign: which of the 16 bytes at `p` are digits, and the
        // integer digits' word chosen between two loads.
        let mask = ByteMasks.digits(in: p)
        let atStart = load8(p), afterSign = load8(p + 1)
        let negative = UInt8(truncatingIfNeeded: atStart) == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        // The digits from the first digit on: the integer part's length, and the fraction's
        // (counted up to 8, as ``digitCount(_:)`` counts a word). The mask sees 15 - i - k0
        // bytes after the point: when they are all digits and fewer than 8 (a negative number
        // with seven integer digits), the fraction's word counts them.
        let digits = mask &>> UInt32(i)
        let k0 = (~digits).trailingZeroBitCount
        guard k0 > 0 && k0 < 8 && p[i &+ k0] == UInt8(ascii: ".") else { return nil }
        var k1 = min((~(digits &>> UInt32(k0 &+ 1))).trailingZeroBitCount, 8)
        if _slowPath(k1 < 8 && i &+ k0 &+ 1 &+ k1 == 16) { k1 = digitCount(load8(p + (i &+ k0 &+ 1))) }
        guard k1 > 0 else { return nil }
        let c0 = negative ? afterSign : atStart
        i &+= k0 &+ 1
        let c1 = load8(p + i)
        if k0 &+ k1 <= 8 {
            // At most eight digits (so k1 < 8: the fraction ends here), both parts in one word:
            // the integer digits of `c0`, then the fraction's bytes moved up over the point (one
            // conversion instead of two and a multiply). The significand is below 10⁸ < 2⁵³.
            let integerBytes = UInt64(8 &* k0)
            let merged = (c0 & ((1 &<< integerBytes) &- 1)) | (c1 &<< integerBytes)
            let end = i &+ k1
            guard p[end] | 0x20 != UInt8(ascii: "e") else { return nil }
            let scale = powerOfTen(k1)
            let value = Double(digitsValue(merged, count: k0 &+ k1)) / scale
            return (negative ? -value : value, end)
        }
        var m = digitsValue(c0, count: k0) &* tenTo(k1) &+ digitsValue(c1, count: k1)
        i &+= k1
        var fractionDigits = k1
        if k1 == 8 {
            let c2 = load8(p + i)
            let k2 = digitCount(c2)
            guard k0 &+ 8 &+ k2 <= 19 else { return nil }
            if k2 > 0 {
                m = m &* tenTo(k2) &+ digitsValue(c2, count: k2)
                i &+= k2
                fractionDigits &+= k2
                // Sixteen fraction digits (k0 ≤ 3 here): the number must end after them.
                guard k2 < 8 || p[i] &- UInt8(ascii: "0") > 9 else { return nil }
            }
        }
        guard p[i] | 0x20 != UInt8(ascii: "e") else { return nil }
        let value: Double
        if m <= 1 << 53 {
            value = Double(m) / powerOfTen(fractionDigits)
        } else {
            // 16–19 digits (shortest round-trip output often has 17): what the general parser
            // does for this significand and exponent (no digit dropped, so `m` is exact), without
            // reading the number again; an undecided product is left to it (and strtod).
            guard let v = eiselLemire(m, -fractionDigits) else { return nil }
            value = v
        }
        return (negative ? -value : value, i)
    }

    /// The parser behind both entry points: the number at `bytes[0...]`, of `n` bytes when `whole`
    /// (nil otherwise), or its longest prefix in the grammar. Everything it decides before the
    /// number's end depends only on the number's bytes (the eight-digit chunks read ahead, but
    /// only use chunks that are all digits, which the number would continue with anyway), so a
    /// prefix read gives exactly what a whole read of the same bytes gives.
    @inline(__always)
    private static func parse(_ bytes: UnsafePointer<UInt8>, _ n: Int, whole: Bool) -> (value: Double, length: Int)? {
        var i = 0
        var negative = false
        switch bytes[0] {
        case UInt8(ascii: "-"): negative = true; i = 1
        case UInt8(ascii: "+"): i = 1
        default: break
        }

        var significand: UInt64 = 0
        var significantDigits = 0  // digits held in `significand` (leading zeros excluded)
        var scale = 0  // decimal exponent of the last digit held in `significand`
        var sawDigit = false
        var truncated = false  // a nonzero digit did not fit in `significand`
        var saturated = false  // the exponent did not fit

        // Integer part: a chunk of eight bytes at once when it holds all of it (at most seven
        // digits), then byte by byte (which then stops at once, or reads a longer part).
        if n &- i >= 8 {
            let chunk = load8(bytes + i)
            let k = digitCount(chunk)
            if k > 0 && k < 8 {
                significand = digitsValue(chunk, count: k)
                significantDigits = significand == 0 ? 0 : k &- zeroCount(chunk)
                sawDigit = true
                i &+= k
            }
        }
        while i < n {
            let d = bytes[i] &- UInt8(ascii: "0")
            if d > 9 { break }
            sawDigit = true
            if significantDigits < 19 {
                if significand != 0 || d != 0 {
                    significand = significand &* 10 &+ UInt64(d)
                    significantDigits &+= 1
                }
            } else {
                scale &+= 1
                if d != 0 { truncated = true }
            }
            i &+= 1
        }
        // Fraction.
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i &+= 1
            // Up to eight digits at a time while they surely fit (the common GPS case: 6–17
            // decimals), keeping exactly the byte loop's state: leading zeros are not counted as
            // significant, and every digit moves the scale.
            while significantDigits <= 11 && n &- i >= 8 {
                let chunk = load8(bytes + i)
                let k = digitCount(chunk)
                if k == 0 { break }
                let v = digitsValue(chunk, count: k)
                if significand == 0 {
                    significantDigits = v == 0 ? 0 : k &- zeroCount(chunk)
                } else {
                    significantDigits &+= k
                }
                significand = significand &* tenTo(k) &+ v
                scale &-= k
                sawDigit = true
                i &+= k
                if k < 8 { break }
            }
            while i < n {
                let d = bytes[i] &- UInt8(ascii: "0")
                if d > 9 { break }
                sawDigit = true
                if significantDigits < 19 {
                    if significand != 0 || d != 0 {
                        significand = significand &* 10 &+ UInt64(d)
                        significantDigits &+= 1
                    }
                    scale &-= 1
                } else if d != 0 {
                    truncated = true
                }
                i &+= 1
            }
        }
        guard sawDigit else { return nil }
        // Exponent. Beyond 10⁸ it saturates and the fast path is skipped (a long run of digits
        // could otherwise offset it back into range), leaving the rest to strtod.
        var exponent = 0
        if i < n && bytes[i] | 0x20 == UInt8(ascii: "e") {
            i &+= 1
            var exponentNegative = false
            if i < n && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i &+= 1
            }
            let start = i
            while i < n {
                let d = bytes[i] &- UInt8(ascii: "0")
                if d > 9 { break }
                if exponent < 100_000_000 {
                    exponent = exponent &* 10 &+ Int(d)
                } else {
                    saturated = true
                }
                i &+= 1
            }
            guard i > start else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        if whole { guard i == n else { return nil } }
        let length = i

        if !truncated && !saturated {
            if significand == 0 { return (negative ? -0.0 : 0.0, length) }
            let e = scale &+ exponent
            if significand <= 1 << 53 {
                var value: Double?
                if e >= 0 {
                    if e <= 22 {
                        value = Double(significand) * powerOfTen(e)
                    } else if e <= 22 + 15 {
                        let (scaled, overflow) = significand.multipliedReportingOverflow(by: integerPowerOfTen(e &- 22))
                        if !overflow && scaled <= 1 << 53 { value = Double(scaled) * 1e22 }
                    }
                } else if e >= -22 {
                    value = Double(significand) / powerOfTen(-e)
                }
                if let value { return (negative ? -value : value, length) }
            } else if e == 0 {
                let value = Double(significand)  // one correctly rounded conversion
                return (negative ? -value : value, length)
            }
            if let value = eiselLemire(significand, e) { return (negative ? -value : value, length) }
        } else if !saturated {
            // More than 19 significant digits (Garmin Connect writes every coordinate's exact
            // binary expansion, about 30): the value lies strictly between the first 19 digits
            // and those plus one unit, so when both round to the same double, so does the value
            // (rounding is monotonic); otherwise strtod.
            let e = scale &+ exponent
            if let low = eiselLemire(significand, e), let high = eiselLemire(significand &+ 1, e), low == high {
                return (negative ? -low : low, length)
            }
        }
        return (viaStrtod(UnsafeBufferPointer(start: bytes, count: length)), length)
    }

    /// Parses a decimal number that must be the whole of `text` (see
    /// ``parseDouble(_:)-(UnsafeBufferPointer<UInt8>)``).
    public static func parseDouble(_ text: Substring) -> Double? {
        var text = text
        return text.withUTF8 { parseDouble($0) }
    }

    /// Parses a decimal number that must be the whole of `text` (see
    /// ``parseDouble(_:)-(UnsafeBufferPointer<UInt8>)``).
    public static func parseDouble(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parseDouble($0) }
    }

    /// Parses a decimal integer that must fill `bytes` exactly: an optional `+` or `-`, then one or
    /// more ASCII digits (leading zeros allowed).
    ///
    /// - Returns: the value, or `nil` for any other text or when it does not fit in `Int`
    ///   (`Int.min` itself is accepted).
    /// - Complexity: O(n), no allocation.
    public static func parseInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        switch bytes[0] {
        case UInt8(ascii: "-"): negative = true; i = 1
        case UInt8(ascii: "+"): i = 1
        default: break
        }
        guard i < n else { return nil }
        // Accumulate negatively so that Int.min is representable.
        var value = 0
        while i < n {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            value = next
            i &+= 1
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    // MARK: - Internals

    /// 10^e for 0 ≤ e ≤ 22, all exact doubles. (Compiles to a constant lookup table; a tuple or
    /// array property would be copied or bounds-checked on every call.)
    @inline(__always)
    private static func powerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// The eight bytes at `p`, the first in the low byte.
    @inline(__always)
    private static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// How many of the bytes of `chunk` (``load8(_:)``) are ASCII digits before the first that is
    /// not, 0…8 (SWAR, after Lemire).
    @inline(__always)
    static func digitCount(_ chunk: UInt64) -> Int {
        // After `^ 0x30` a byte is a digit iff it is 0…9, that is iff neither it nor it plus 0x76
        // has its top bit set. Adding 0x76 carries into the next byte only out of a byte ≥ 0x8A,
        // which is not a digit: the bytes before the first non-digit are judged exactly.
        let t = chunk ^ 0x3030_3030_3030_3030
        let bad = (t | (t &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
        return bad.trailingZeroBitCount &>> 3
    }

    /// How many of the bytes of `chunk` are '0' before the first that is not, 0…8.
    @inline(__always)
    private static func zeroCount(_ chunk: UInt64) -> Int {
        (chunk ^ 0x3030_3030_3030_3030).trailingZeroBitCount &>> 3
    }

    /// The value of the first `k` (1…8) bytes of `chunk`, all ASCII digits (SWAR: a shift and
    /// three multiplications; after Lemire).
    @inline(__always)
    static func digitsValue(_ chunk: UInt64, count k: Int) -> UInt64 {
        // The digits moved to the high bytes, zeros (digit value 0) below: an eight-digit number
        // with leading zeros.
        var v = (chunk &<< UInt64(64 &- 8 &* k)) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v &* (1 + 10 << 8)) >> 8  // pairs: 10·d0 + d1 in every other byte
        v = ((v & 0x00FF_00FF_00FF_00FF) &* (1 + 100 << 16)) >> 16  // quads
        return ((v & 0x0000_FFFF_0000_FFFF) &* (1 + 10_000 << 32)) >> 32
    }

    /// 10^k for 0 ≤ k ≤ 8 (a lookup table once compiled).
    @inline(__always)
    private static func tenTo(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// 10^e for 0 ≤ e ≤ 15.
    @inline(__always)
    private static func integerPowerOfTen(_ e: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<e { p &*= 10 }
        return p
    }

    /// The Eisel–Lemire step (Lemire, "Number Parsing at a Gigabyte per Second", Software: Practice
    /// and Experience 51(8), 2021): `w · 10^q` correctly rounded to a normal double, or `nil` when
    /// the truncated product cannot decide the rounding, or the result would be subnormal or
    /// overflow (the caller then asks `strtod`). `w` must be nonzero.
    ///
    /// With `w'` = `w` shifted left until its top bit is set, and `T` = ``powersOfFive``[q], the
    /// power of five scaled into [2¹²⁷, 2¹²⁸) and truncated, the exact product `X = w' · 5^q · 2^k`
    /// (in [2¹⁹⁰, 2¹⁹²)) satisfies `w'·T ≤ X < w'·T + 2⁶⁴` (equality when 0 ≤ q ≤ 55, where `T` is
    /// exact). The double needs the top 54 bits of `X` (53 significand bits and the rounding bit)
    /// and whether anything below them is nonzero. The high 128 bits `z` of `w' · T_high` come
    /// first: `X / 2⁶⁴` lies in `[z, z + 2⁶⁴ + 1)`, so unless the `s` bits of `z` just below the 54
    /// kept ones are all ones, no carry can reach the kept bits, and the discarded part of `X` is
    /// nonzero (`X` > `w'·T` when `T` is inexact; zero exactly when both products' lower parts are,
    /// when it is exact). Otherwise the full 192-bit `w'·T` is formed; an exact `T` then decides
    /// everything, and an inexact one still does unless the discarded bits of `w'·T` above its
    /// lowest word are all ones (a carry of `X − w'·T < 2⁶⁴` could ripple up: ambiguous, `nil`).
    @inline(__always)
    private static func eiselLemire(_ w: UInt64, _ q: Int) -> Double? {
        guard powerOfFiveRange.contains(q) else { return nil }
        let shift = w.leadingZeroBitCount
        let normalized = w &<< UInt64(shift)
        let (tHigh, tLow) = powersOfFive.withUnsafeBufferPointer { table in
            let k = (q &- powerOfFiveRange.lowerBound) &<< 1
            return (table[k], table[k &+ 1])
        }
        let exact = q >= 0 && q <= 55  // T is 5^q · 2^j exactly
        var (high, low) = normalized.multipliedFullWidth(by: tHigh)
        var upper = Int(high >> 63)  // X's top bit is 190 + upper
        var discard = UInt64(9 &+ upper)  // bits of `high` below the 54 kept ones
        var mask: UInt64 = (1 &<< discard) &- 1
        var restIsZero = low == 0 && tLow == 0  // (exact T only) bits of X below `high` are zero
        if high & mask == mask {
            let (carryHigh, lowest) = normalized.multipliedFullWidth(by: tLow)
            let (middle, carry) = low.addingReportingOverflow(carryHigh)
            if carry { high &+= 1 }  // w'·T < 2^192: no overflow
            low = middle
            upper = Int(high >> 63)
            discard = UInt64(9 &+ upper)
            mask = (1 &<< discard) &- 1
            if exact {
                restIsZero = low == 0 && lowest == 0
            } else if high & mask == mask && low == .max {
                return nil
            }
        }
        var kept = high >> discard  // 54 bits: significand and rounding bit
        // Exactly halfway (possible only with an exact T): ties to even.
        if exact && kept & 3 == 1 && high & mask == 0 && restIsZero { kept &-= 1 }
        // Biased exponent: X·2^(q + floor(log2 5^q) − 127 − shift) = kept·2^(128 + discard + that).
        var biased = 1086 &+ upper &+ ((q &* 152_170) >> 16) &+ q &- shift
        guard biased >= 1 else { return nil }  // subnormal: rounding at another bit
        var significand = (kept &+ (kept & 1)) >> 1
        if significand == 1 << 53 {
            significand = 1 << 52
            biased &+= 1
        }
        guard biased <= 2046 else { return nil }  // overflow
        return Double(bitPattern: UInt64(biased) << 52 | significand & ((1 << 52) - 1))
    }

    /// `strtod` on a NUL-terminated copy of `bytes` (already validated against the grammar, which
    /// `strtod` accepts in full), with the "C" numeric locale in force for this thread during the
    /// call so that a host's `setlocale` cannot change the decimal point.
    @inline(never)
    private static func viaStrtod(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        // Stack storage for short inputs, heap for long ones (the standard library decides).
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for k in 0..<bytes.count { buffer[k] = CChar(bitPattern: bytes[k]) }
            buffer[bytes.count] = 0
            return Platform.parseDouble(buffer.baseAddress!)
        }
    }
}
