#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The XML 1.0 `Char` production over raw bytes: which bytes of a document may appear at all.
///
/// XML allows tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD and U+10000–U+10FFFF, encoded (here) as
/// well-formed UTF-8, or as ISO-8859-1 bytes (every byte from 0x20 up is a character there). The
/// check runs over whole blocks, 64 then 16 bytes at a time while they are printable ASCII (the
/// common case; ``asciiPrefix(_:from:to:lines:)``), one code point at a time otherwise. It counts
/// the line feeds it passes on the way (the same compares), for ``ByteSource/noteLines(_:from:to:)``.
enum XMLCharacters {
    /// Why a byte sequence is not a character.
    enum Problem: Equatable {
        /// A complete code point that XML forbids (a control character, U+FFFE, U+FFFF).
        case forbidden(UInt32)
        /// Bytes that are not UTF-8 (the first offending byte).
        case malformed(UInt8)
        /// A UTF-8 sequence cut short by the end of the block.
        case truncated
    }

    /// The outcome of checking a block: every byte valid up to `valid`; when `valid` is short of
    /// the block's end, `problem` says why the character there fails. `lines` is the number of
    /// line feeds before `valid`.
    struct Scan: Equatable {
        var valid: Int
        var problem: Problem?
        var lines: Int
    }

    /// Checks `bytes[from..<to]`; `latin1` reads them as ISO-8859-1 instead of UTF-8. `blocks`
    /// off checks one character at a time throughout (tests compare the two).
    static func scan(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, latin1: Bool, blocks: Bool = true) -> Scan {
        var i = from
        var lines = 0
        while true {
            if blocks { i = asciiPrefix(bytes, from: i, to: to, lines: &lines) }
            guard i < to else { return Scan(valid: to, problem: nil, lines: lines) }
            // One character.
            let b = bytes[i]
            if b < 0x80 || latin1 {
                guard b >= 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else {
                    return Scan(valid: i, problem: .forbidden(UInt32(b)), lines: lines)
                }
                if b == 0x0A { lines += 1 }
                i += 1
                continue
            }
            let length: Int, low: UInt8, high: UInt8  // the sequence's length and its second byte's range
            switch b {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE, 0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)  // no surrogates
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)  // up to U+10FFFF
            default: return Scan(valid: i, problem: .malformed(b), lines: lines)
            }
            var scalar = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length {
                guard i + k < to else { return Scan(valid: i, problem: .truncated, lines: lines) }
                let c = bytes[i + k]
                guard k == 1 ? (c >= low && c <= high) : (c & 0xC0 == 0x80) else {
                    return Scan(valid: i, problem: .malformed(b), lines: lines)
                }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar == 0xFFFE || scalar == 0xFFFF { return Scan(valid: i, problem: .forbidden(scalar), lines: lines) }
            i += length
        }
    }

    /// The end of the run of whole 16-byte blocks from `from` (before `to`) that hold only ASCII
    /// characters XML allows (0x20–0x7F, tab, LF, CR): 64 bytes per step while they all are, then
    /// 16. Every byte before the result is such a character; the byte loop takes over from there.
    /// Adds the line feeds before the result to `lines`.
    @inline(__always)
    static func asciiPrefix(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, lines: inout Int) -> Int {
        var i = from
        #if arch(x86_64)
            // A byte is allowed when, as a signed byte, it is above 0x1F (0x20–0x7F), or it is LF, or
            // it is tab or CR (exactly the bytes whose value with bit 2 set is 0x0D). Seven SSE2
            // operations per 16 bytes, one test per 64. The LF compare also counts the line feeds:
            // each block's LF bytes (-1 each) are subtracted from byte counters, which are summed
            // before they can wrap (at most 4 per 64-byte step, 62 steps, then 3 16-byte steps).
            let c1F = _mm_set1_epi8(0x1F), lf = _mm_set1_epi8(0x0A), cr = _mm_set1_epi8(0x0D), bit2 = _mm_set1_epi8(0x04)
            @inline(__always) func classify(_ k: Int) -> (allowed: __m128i, lf: __m128i) {
                let v = _mm_loadu_si128(UnsafeRawPointer(bytes + k).assumingMemoryBound(to: __m128i.self))
                let printable = _mm_cmpgt_epi8(v, c1F)
                let lfs = _mm_cmpeq_epi8(v, lf)
                let spaces = _mm_or_si128(lfs, _mm_cmpeq_epi8(_mm_or_si128(v, bit2), cr))
                return (_mm_or_si128(printable, spaces), lfs)
            }
            @inline(__always) func sum(_ counters: __m128i) -> Int {
                let sums = _mm_sad_epu8(counters, _mm_setzero_si128())  // two 64-bit lanes of byte sums
                return Int(_mm_cvtsi128_si64(sums)) + Int(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)))
            }
            var counters = _mm_setzero_si128()
            var steps = 0
            while i + 64 <= to {
                let a = classify(i), b = classify(i + 16), c = classify(i + 32), d = classify(i + 48)
                let all = _mm_and_si128(_mm_and_si128(a.allowed, b.allowed), _mm_and_si128(c.allowed, d.allowed))
                if _mm_movemask_epi8(all) != 0xFFFF { break }
                counters = _mm_sub_epi8(counters, _mm_add_epi8(_mm_add_epi8(a.lf, b.lf), _mm_add_epi8(c.lf, d.lf)))
                i += 64
                steps += 1
                if steps == 62 {
                    lines += sum(counters)
                    counters = _mm_setzero_si128()
                    steps = 0
                }
            }
            while i + 16 <= to {
                let a = classify(i)
                if _mm_movemask_epi8(a.allowed) != 0xFFFF { break }
                counters = _mm_sub_epi8(counters, a.lf)
                i += 16
            }
            lines += sum(counters)
        #else
            i = asciiPrefixWords(bytes, from: i, to: to, lines: &lines)
        #endif
        return i
    }

    /// ``asciiPrefix(_:from:to:lines:)`` in portable code (the path on every architecture but
    /// x86-64; tests run it everywhere): the end of the run of whole 8-byte words from `from` that
    /// hold only allowed ASCII characters, adding their line feeds to `lines`. Each byte is
    /// classified exactly, with no carry between bytes: 0x20 and up from its low seven bits plus
    /// 0x60, LF and tab-or-CR as zero tests, and non-ASCII bytes cleared by the word's own high
    /// bits. (Generic `SIMD16` code compiles to scalar code here: about 12,000 instructions per
    /// GPX point.)
    @inline(__always)
    static func asciiPrefixWords(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, lines: inout Int) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func zeroBytes(_ t: UInt64) -> UInt64 { ~(((t & low7) &+ low7) | t) & high }
        var i = from
        while i + 8 <= to {
            let x = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self))
            let printable = ((x & low7) &+ 0x6060_6060_6060_6060) & high
            let lf = zeroBytes(x ^ 0x0A0A_0A0A_0A0A_0A0A)
            let tabOrCR = zeroBytes((x | 0x0404_0404_0404_0404) ^ 0x0D0D_0D0D_0D0D_0D0D)
            if (printable | lf | tabOrCR) & ~x & high != high { break }
            lines += lf.nonzeroBitCount
            i += 8
        }
        return i
    }

    /// A message for `problem`.
    static func message(_ problem: Problem) -> String {
        switch problem {
        case .forbidden(let v):
            let hex = String(v, radix: 16, uppercase: true)
            return "character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) is not allowed in XML"
        case .malformed(let b):
            return "not UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true))): declare the document's encoding if it is ISO-8859-1"
        case .truncated:
            return "not UTF-8 (the file ends inside a multi-byte character)"
        }
    }
}
