/// How `compare` and `batch` write a figure that moved from A to B: the values, B − A with its
/// sign, and B − A in % of A.
enum ChangeText {
    /// `x` with `decimals` decimals, "—" when absent.
    static func number(_ x: Double?, _ decimals: Int) -> String { x.map { ReplayReport.fixed($0, decimals) } ?? "—" }

    /// `x` with its sign ("+3.0", "−0.4", "0.0" when it rounds to 0), "—" when absent.
    static func signed(_ x: Double?, _ decimals: Int) -> String {
        guard let x else { return "—" }
        let text = ReplayReport.fixed(abs(x), decimals)
        return x > 0 ? "+" + text : x < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "−" + text : text
    }

    /// B − A in % of A, one decimal: "+12.5 %", "0 %" when equal, "new" from 0, "—" when either
    /// is absent (and they differ).
    static func percent(_ a: Double?, _ b: Double?) -> String {
        guard a != nil || b != nil else { return "—" }
        if a == b { return "0 %" }
        guard let a, let b else { return "—" }
        guard a != 0 else { return "new" }
        return signed((b - a) / abs(a) * 100, 1) + " %"
    }

    /// "N unchanged row(s) left out", or nil when none was.
    static func leftOut(_ n: Int) -> String? {
        n == 0 ? nil : "\(n) unchanged row\(n == 1 ? "" : "s") left out"
    }
}
