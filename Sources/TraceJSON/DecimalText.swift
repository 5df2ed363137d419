/// Numbers for people: a fixed number of decimals, deterministic (no locale, no `printf`), shared
/// by the replay's and the batch's reports.
public enum DecimalText {
    /// `x` with exactly `decimals` digits after the point (none when `decimals` is 0 or less, 18
    /// when it is more: a 64-bit integer holds 10^18),
    /// `x` times 10^decimals rounded half away from zero; "0.00", never "-0.00"; a non-finite
    /// value, or one whose digits pass 9e15, in Swift's own form ("nan", "1e+20").
    public static func fixed(_ x: Double, _ decimals: Int) -> String {
        guard x.isFinite else { return "\(x)" }
        let decimals = min(max(decimals, 0), 18)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        guard scaled < 9e15 else { return "\(x)" }
        let n = Int(scaled)
        let p = Int(scale)
        let whole = n / p
        var text = (x < 0 && n != 0 ? "-" : "") + "\(whole)"
        if decimals > 0 {
            let frac = String(n % p)
            text += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        return text
    }

    /// A number's text with its whole part in groups of three, "3,500" or "-12,345.67" (the text
    /// as ``fixed(_:_:)`` writes it); text whose whole part is not all digits ("nan", "1e+20") as
    /// it is.
    public static func grouped(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let whole = Array((negative ? text.dropFirst() : text[...]).prefix { $0 != "." })
        guard !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
        var out = negative ? "-" : ""
        for (i, c) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out + text.drop { $0 != "." }
    }
}
