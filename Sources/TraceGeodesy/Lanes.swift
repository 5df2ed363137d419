// Two-lane double-precision arithmetic for the batch kernels.
//
// Every kernel in TraceGeodesy is written once, on `SIMD2<Double>`: batch loops feed two elements
// per call and scalar functions broadcast one value to both lanes, so scalar and batch results are
// bit-identical by construction. On x86-64 the few operations Swift's SIMD types lower poorly
// (square root keeps C's errno check, one libm call per lane; min/max/abs follow IEEE NaN rules
// lane by lane, with branches) use SSE2 instructions through the compiler's own intrinsics module;
// SSE2 is part of the x86-64 baseline, so no target flag is needed. Elsewhere the portable forms
// are used; both give the same results for the finite inputs the kernels receive (square root is
// correctly rounded either way; min, max and abs differ only for NaN, which validated input
// never holds).
#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

@usableFromInline typealias _D2 = SIMD2<Double>

/// Lane-wise square root, correctly rounded.
@inline(__always)
func _sqrt2(_ x: _D2) -> _D2 {
    #if arch(x86_64)
        return _mm_sqrt_pd(x)
    #else
        return x.squareRoot()
    #endif
}

/// Lane-wise maximum (for non-NaN lanes).
@inline(__always)
func _max2(_ a: _D2, _ b: _D2) -> _D2 {
    #if arch(x86_64)
        return _mm_max_pd(a, b)
    #else
        return a.replacing(with: b, where: b .> a)
    #endif
}

/// Lane-wise minimum (for non-NaN lanes).
@inline(__always)
func _min2(_ a: _D2, _ b: _D2) -> _D2 {
    #if arch(x86_64)
        return _mm_min_pd(a, b)
    #else
        return a.replacing(with: b, where: b .< a)
    #endif
}

/// Lane-wise absolute value (for non-NaN lanes).
@inline(__always)
func _abs2(_ x: _D2) -> _D2 { _max2(x, -x) }

/// Loads two consecutive doubles (no alignment needed).
@inline(__always)
func _load2(_ p: UnsafePointer<Double>) -> _D2 {
    UnsafeRawPointer(p).loadUnaligned(as: _D2.self)
}

/// Stores two consecutive doubles (no alignment needed).
@inline(__always)
func _store2(_ v: _D2, _ p: UnsafeMutablePointer<Double>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: _D2.self)
}
