#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Where given bytes occur in 16 bytes, as bit masks (bit k set: byte k matches): the scanners'
/// way of finding delimiters, line ends and markup a block at a time instead of a byte at a
/// time. SSE2 on x86-64 (part of the baseline, so no target flags); a plain loop elsewhere,
/// with the same results.
enum ByteMasks {
    /// The masks of `a`, `b` and `c` in the 16 bytes at `p` (all readable).
    @inline(__always)
    static func find(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafePointer<UInt8>) -> (a: UInt32, b: UInt32, c: UInt32) {
        #if arch(x86_64)
            let block = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            func mask(_ x: UInt8) -> UInt32 {
                UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8(Int8(bitPattern: x)))))
            }
            return (mask(a), mask(b), mask(c))
        #else
            var ma: UInt32 = 0, mb: UInt32 = 0, mc: UInt32 = 0
            for k in 0..<16 {
                let x = p[k]
                if x == a { ma |= 1 << k }
                if x == b { mb |= 1 << k }
                if x == c { mc |= 1 << k }
            }
            return (ma, mb, mc)
        #endif
    }

    /// The mask of XML white space (space, tab, LF, CR) in the 16 bytes at `p`.
    @inline(__always)
    static func spaces(in p: UnsafePointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
            let block = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            let a = _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0A)))
            let b = _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(0x09)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0D)))
            return UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_or_si128(a, b)))
        #else
            var m: UInt32 = 0
            for k in 0..<16 where p[k] == 0x20 || p[k] == 0x0A || p[k] == 0x09 || p[k] == 0x0D { m |= 1 << k }
            return m
        #endif
    }

    /// The mask of the bytes at most `x` (unsigned) in the 16 bytes at `p`.
    @inline(__always)
    static func atMost(_ x: UInt8, in p: UnsafePointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
            let block = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            let low = _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(Int8(bitPattern: x))), block)
            return UInt32(truncatingIfNeeded: _mm_movemask_epi8(low))
        #else
            var m: UInt32 = 0
            for k in 0..<16 where p[k] <= x { m |= 1 << k }
            return m
        #endif
    }

    /// The mask of the ASCII digits in the 16 bytes at `p`.
    @inline(__always)
    static func digits(in p: UnsafePointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
            let block = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            let value = _mm_sub_epi8(block, _mm_set1_epi8(0x30))  // a digit's value; other bytes wrap
            let digit = _mm_cmpeq_epi8(_mm_min_epu8(value, _mm_set1_epi8(9)), value)
            return UInt32(truncatingIfNeeded: _mm_movemask_epi8(digit))
        #else
            return digitsByLoop(in: p)
        #endif
    }

    /// ``digits(in:)`` a byte at a time: the other architectures' way, and what the tests check
    /// the SSE2 one against.
    static func digitsByLoop(in p: UnsafePointer<UInt8>) -> UInt32 {
        var m: UInt32 = 0
        for k in 0..<16 where p[k] &- 0x30 <= 9 { m |= 1 << k }
        return m
    }

    /// The mask of the bytes of the 16 at `p` that equal those of `pattern` (its low word's bytes
    /// first, little-endian) at the same place.
    @inline(__always)
    static func matches(_ pattern: (low: UInt64, high: UInt64), in p: UnsafePointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
            let block = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            let expected = _mm_set_epi64x(Int64(bitPattern: pattern.high), Int64(bitPattern: pattern.low))
            return UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(block, expected)))
        #else
            return matchesByLoop(pattern, in: p)
        #endif
    }

    /// ``matches(_:in:)`` a byte at a time: the other architectures' way, and what the tests check
    /// the SSE2 one against.
    static func matchesByLoop(_ pattern: (low: UInt64, high: UInt64), in p: UnsafePointer<UInt8>) -> UInt32 {
        var m: UInt32 = 0
        for k in 0..<16 where p[k] == UInt8(truncatingIfNeeded: (k < 8 ? pattern.low : pattern.high) >> UInt64(8 * (k % 8))) { m |= 1 << k }
        return m
    }

    /// The index of the first byte above `x` at or after `from` and before `limit` (`limit` when
    /// there is none).
    @inline(__always)
    static func skipAtMost(_ x: UInt8, _ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        var i = from
        while i &+ 16 <= limit {  // indices in a buffer: no overflow
            let m = atMost(x, in: base + i)
            if m != 0xFFFF { return i &+ (m ^ 0xFFFF).trailingZeroBitCount }
            i &+= 16
        }
        while i < limit && base[i] <= x { i += 1 }
        return i
    }

    /// The index of the first byte at or after `from` and before `limit` that is not XML white
    /// space (`limit` when there is none).
    @inline(__always)
    static func skipSpaces(_ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        var i = from
        while i + 16 <= limit {
            let m = spaces(in: base + i)
            if m != 0xFFFF { return i + (~m).trailingZeroBitCount }
            i += 16
        }
        while i < limit && (base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x09 || base[i] == 0x0D) { i += 1 }
        return i
    }

    /// The index of the first `a` or `b` at or after `from` and before `limit` (`limit` when
    /// there is none).
    @inline(__always)
    static func firstOf(_ a: UInt8, _ b: UInt8, _ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        var i = from
        while i + 16 <= limit {
            let m = find(a, b, a, in: base + i)
            let any = m.a | m.b
            if any != 0 { return i + any.trailingZeroBitCount }
            i += 16
        }
        while i < limit && base[i] != a && base[i] != b { i += 1 }
        return i
    }

    /// The index of the first `a`, `b` or `c` at or after `from` and before `limit` (`limit`
    /// when there is none).
    @inline(__always)
    static func firstOf(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        var i = from
        while i + 16 <= limit {
            let m = find(a, b, c, in: base + i)
            let any = m.a | m.b | m.c
            if any != 0 { return i + any.trailingZeroBitCount }
            i += 16
        }
        while i < limit && base[i] != a && base[i] != b && base[i] != c { i += 1 }
        return i
    }

    /// How many bytes equal to `byte` there are in `base[from..<to]`. On x86-64, 16 bytes per step
    /// into byte counters (summed before they can wrap), with no branch per match: where matches
    /// are dense (a line every 30–40 bytes) a `memchr` call per match costs several times more.
    static func count(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        var total = 0
        #if arch(x86_64)
            let pattern = _mm_set1_epi8(Int8(bitPattern: byte))
            while i + 16 <= to {
                // At most 255 steps into the byte counters, then into `total`.
                var counters = _mm_setzero_si128()
                var steps = 0
                while steps < 255 && i + 16 <= to {
                    let block = _mm_loadu_si128(UnsafeRawPointer(base + i).assumingMemoryBound(to: __m128i.self))
                    counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(block, pattern))  // a match is -1
                    i += 16
                    steps += 1
                }
                let sums = _mm_sad_epu8(counters, _mm_setzero_si128())  // two 64-bit lanes of byte sums
                total += Int(_mm_cvtsi128_si64(sums)) + Int(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)))
            }
        #endif
        while i < to {
            if base[i] == byte { total += 1 }
            i += 1
        }
        return total
    }

    /// The index of the last `byte` in `base[from..<to]`, or nil (16 bytes per step, backwards).
    static func lastIndex(of byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var end = to
        while end - 16 >= from {
            let m = find(byte, byte, byte, in: base + end - 16).a
            if m != 0 { return end - 16 + (31 - m.leadingZeroBitCount) }
            end -= 16
        }
        while end > from {
            end -= 1
            if base[end] == byte { return end }
        }
        return nil
    }
}
