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
}
