/// Elementary functions written with IEEE 754 arithmetic only (+, −, ×, ÷, square root), so
/// that the simulation produces bit-identical numbers on every platform: libm's `log`, `exp`,
/// `sin` and `cos` are not correctly rounded and differ between C libraries in the last bit.
///
/// Accuracy: a few ulps, ample for noise and motion generation; these are not general-purpose
/// replacements for libm (no special handling of subnormals).
package enum DeterministicMath {
    private static let ln2Hi = 6.931_471_803_691_238_164_90e-01  // fdlibm's split of ln 2
    private static let ln2Lo = 1.908_214_929_270_587_700_02e-10

    /// Natural logarithm of `x` > 0 (normal numbers). Method: x = m·2^e with m in [√½, √2),
    /// then ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its series to s²³
    /// (truncation below 1e-19 relative).
    package static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log of a non-positive or non-finite number")
        var e = Int(x.exponent)
        var m = x.significand  // [1, 2)
        if m > 1.414_213_562_373_095 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // 2·(s + s³/3 + s⁵/5 + … + s²³/23), Horner in s².
        var p = 1.0 / 23
        var k = 21.0
        while k >= 1 {
            p = p * s2 + 1 / k
            k -= 2
        }
        return Double(e) * ln2Hi + (2 * s * p + Double(e) * ln2Lo)
    }

    /// e^x for x ≤ 0 down to −700 (the simulation needs only decays). Method: x = k·ln 2 + r,
    /// |r| ≤ ln 2 / 2, Taylor series of e^r to r¹⁴, scaled by 2^k.
    package static func exp(_ x: Double) -> Double {
        precondition(x <= 0 && x >= -700, "exp outside [-700, 0]")
        let k = (x / 0.693_147_180_559_945_3).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        var p = 1.0
        var n = 14.0
        while n >= 1 {
            p = 1 + p * r / n
            n -= 1
        }
        return p * Double(sign: .plus, exponent: Int(k), significand: 1)
    }

    /// Sine and cosine of `x` for |x| ≤ π/2 (the simulation rotates headings by small angles).
    /// Taylor series to x²¹ / x²⁰ (truncation below 1e-17).
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        precondition(abs(x) <= 1.5708, "sinCos outside [-π/2, π/2]")
        let x2 = x * x
        var s = 1.0, c = 1.0
        var n = 20.0
        while n >= 2 {
            // s accumulates sin(x)/x = 1 − x²/(2·3)(1 − x²/(4·5)(…)); c = 1 − x²/(1·2)(1 − x²/(3·4)(…)).
            s = 1 - s * x2 / (n * (n + 1))
            c = 1 - c * x2 / ((n - 1) * n)
            n -= 2
        }
        return (x * s, c)
    }
}
