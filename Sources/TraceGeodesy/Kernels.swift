// Branch-free polynomial kernels shared by the distance functions, on two lanes (see Lanes.swift).
//
// Method: each kernel is a polynomial fitted by Tools/fit_polynomials.py (least squares on
// Chebyshev nodes in 60-digit arithmetic, weighted for relative error), evaluated by Horner's rule
// with separate multiply and add (no FMA: on the baseline x86-64 target Swift would lower
// `addingProduct` to a libm call). The kernels contain no calls and no branches, only selects.
// Error figures below are the fit's maximum over its domain; the tests check the kernels and the
// composed formulas against libm.

/// sin(x) for x in [-π/2, π/2]; relative error ≤ 2.4e-17 in the fit (≈ 1 ulp after rounding).
@inline(__always)
func _sinKernel(_ x: _D2) -> _D2 {
    let t = x * x
    var p = _D2(repeating: 2.7215821926997076e-15)
    p = p * t + -7.643027273612204e-13
    p = p * t + 1.6058940907182887e-10
    p = p * t + -2.5052106891168703e-08
    p = p * t + 2.755731921123654e-06
    p = p * t + -0.0001984126984120872
    p = p * t + 0.008333333333333186
    p = p * t + -0.16666666666666666
    return x + x * (t * p)
}

/// sin(x) for |x| ≤ π/12; relative error ≤ 6.4e-20 in the fit. Cheaper than ``_sinKernel``.
@inline(__always)
func _sinSmallKernel(_ x: _D2) -> _D2 {
    let t = x * x
    var p = _D2(repeating: -2.5019108723477484e-08)
    p = p * t + 2.7557293784420913e-06
    p = p * t + -0.00019841269832229883
    p = p * t + 0.008333333333331881
    p = p * t + -0.16666666666666666
    return x + x * (t * p)
}

/// asin(h) / h as a function of t = h², for h in [0, 1/4]; relative error ≤ 3.4e-18 in the fit.
/// Cheaper than ``_asinOverX``.
@inline(__always)
func _asinOverXSmall(_ t: _D2) -> _D2 {
    var p = _D2(repeating: 0.014733877761763685)
    p = p * t + 0.013573906735622495
    p = p * t + 0.017378058745320276
    p = p * t + 0.022371214177153265
    p = p * t + 0.030381965082411498
    p = p * t + 0.04464285689033437
    p = p * t + 0.07500000000154518
    p = p * t + 0.16666666666666302
    return 1 + t * p
}

/// asin(h) / h as a function of t = h², for h in [0, 1/2]; relative error ≤ 2.7e-17 in the fit.
@inline(__always)
func _asinOverX(_ t: _D2) -> _D2 {
    var p = _D2(repeating: 0.032011340323281685)
    p = p * t + -0.016384436448802192
    p = p * t + 0.01964239671205795
    p = p * t + 0.006480855348779324
    p = p * t + 0.0121816790888421
    p = p * t + 0.013883027829435166
    p = p * t + 0.017359969965541983
    p = p * t + 0.02237173660319574
    p = p * t + 0.03038196027149515
    p = p * t + 0.044642856791215726
    p = p * t + 0.07500000000404858
    p = p * t + 0.1666666666666484
    return 1 + t * p
}

/// 2·asin(√a) for a in [0, 1]: for √a ≤ 1/2 the polynomial directly; above,
/// asin(h) = π/2 − 2·asin(√((1 − h)/2)), whose argument is again ≤ 1/2.
@inline(__always)
func _twoAsinOfSqrt(_ a: _D2) -> _D2 {
    let h = _sqrt2(a)
    let upper = h .> 0.5
    let w = (1 - h) * 0.5  // exact for h in [1/2, 1] (Sterbenz)
    let t = a.replacing(with: w, where: upper)
    let x = h.replacing(with: _sqrt2(w), where: upper)
    let p = x * _asinOverX(t)
    return (2 * p).replacing(with: Double.pi - 4 * p, where: upper)
}

/// WGS84 metres per degree of latitude, M(φ)·π/180, as a polynomial in u = (φ/90)², φ in degrees.
/// Relative error ≤ 8.4e-10 over [-90°, 90°] (0.8 µm per km).
@inline(__always)
func _metresPerDegreeLatitude(_ u: _D2) -> _D2 {
    var p = _D2(repeating: 2.9860351383663564)
    p = p * u + -9.264979065473645
    p = p * u + -67.06417644481361
    p = p * u + 650.2415537268339
    p = p * u + -2196.8561813879355
    p = p * u + 2739.661666858066
    return p * u + 110574.2757285634
}

/// WGS84 metres per degree of longitude, N(φ)·cos φ·π/180, as a polynomial in u = (φ/90)².
/// Absolute error ≤ 5.1e-7 m per degree over [-90°, 90°] (relative ≤ 2.6e-11 for |φ| ≤ 80°).
@inline(__always)
func _metresPerDegreeLongitude(_ u: _D2) -> _D2 {
    var p = _D2(repeating: 0.22086283058657183)
    p = p * u + -0.4228402029864141
    p = p * u + -11.469608986201898
    p = p * u + 108.86502546112983
    p = p * u + -420.23324530738006
    p = p * u + -940.2707041639267
    p = p * u + 26359.364548355745
    p = p * u + -136415.54483028938
    return p * u + 111319.49079277269
}

/// Longitude difference lon2 − lon1 in degrees, wrapped to [-180, 180]; inputs in (-180, 180].
@inlinable @inline(__always)
func _wrappedLongitudeDifference(_ lon1: _D2, _ lon2: _D2) -> _D2 {
    let d = lon2 - lon1
    let zero = _D2(repeating: 0)
    return d - zero.replacing(with: 360, where: d .> 180) + zero.replacing(with: 360, where: d .< -180)
}

/// The scalar form of ``_wrappedLongitudeDifference(_:_:)-(_D2,_D2)``: lane 0 of the broadcast.
@inlinable @inline(__always)
func _wrappedLongitudeDifference(_ lon1: Double, _ lon2: Double) -> Double {
    _wrappedLongitudeDifference(_D2(repeating: lon1), _D2(repeating: lon2))[0]
}
