import TestSupport
import Testing
import TraceGeodesy

@testable import TraceIO

#if canImport(Glibc)
    import Glibc
#endif

/// The row scanner reads plain rows 16 bytes at a time and everything else byte by byte; both
/// paths must give the same items and diagnostics on every input.
@Suite("CSV row paths")
struct CSVRowPathTests {
    /// A seeded CSV with the quirks the paths must agree on: padding, CR line ends, tabs, empty
    /// fields, blank and space-only rows, quoted fields with delimiters and line breaks, long and
    /// short rows, rows ending at and near the end of the input.
    static func quirkyCSV(seed: UInt64, delimiter: Character) -> String {
        var rng = SplitMix64(seed: seed)
        let d = String(delimiter)
        var text = ["lat", "lon", "time", "accuracy", "name"].joined(separator: d) + (rng.next() % 2 == 0 ? "\r\n" : "\n")
        for i in 0..<400 {
            let pads = delimiter == "\t" ? ["", " ", "  ", "\r"] : ["", " ", "  ", "\t"]
            let pad = { (r: inout SplitMix64) -> String in pads[Int(r.next() % 4)] }
            switch rng.next() % 10 {
            case 0: text += ["", " ", "  \t ", "\r"][Int(rng.next() % 4)] + "\n"
            default:
                var fields = [
                    String(format2(47 + rng.uniform(-1, 1))), String(format2(8 + rng.uniform(-1, 1))),
                    "2024-05-01T00:\(10 + i / 60):\(i % 60 < 10 ? "0" : "")\(i % 60)Z", String(format2(rng.uniform(1, 40))),
                ]
                switch rng.next() % 6 {
                case 0: fields.append("\"a \(d) quoted\"\"name\"")
                case 1: fields.append("\"two\nlines\"")
                case 2: fields.append("")
                case 3: fields.append(String(repeating: "x", count: Int(rng.next() % 40)))
                default: break
                }
                if rng.next() % 7 == 0 { fields[3] = "" }
                text += fields.map { pad(&rng) + $0 + pad(&rng) }.joined(separator: d)
                text += rng.next() % 3 == 0 ? "\r\n" : "\n"
            }
        }
        return text + "47.5" + d + "8.5" + d + "2024-05-02T00:00:00Z"  // no final line end
    }

    static func format2(_ x: Double) -> String { String((x * 1e6).rounded() / 1e6) }

    @Test("plain rows read the same by blocks and byte by byte", arguments: [Character(","), ";", "\t"])
    func pathsAgree(delimiter: Character) throws {
        for seed in UInt64(1)...20 {
            let bytes = Array(Self.quirkyCSV(seed: seed, delimiter: delimiter).utf8)
            let fast = CSVReader(bytes: bytes)
            let slow = CSVReader(bytes: bytes, paths: .fused)
            let a = try readTrace(fast), b = try readTrace(slow)
            #expect(a.points.count > 300, "\(a.diagnostics)")
            #expect(a.items == b.items, "seed \(seed)")
            #expect(a.diagnostics == b.diagnostics, "seed \(seed)")
        }
    }

    /// A decimal text for `x` in one of the shapes files use: plain, signed, leading point,
    /// many digits, an exponent.
    static func text(_ x: Double, _ rng: inout SplitMix64) -> String {
        switch rng.next() % 6 {
        case 0: return String(x)
        case 1: return x >= 0 ? "+" + String(x) : String(x)
        case 2:
            let digits = Int(rng.next() % 20) + 1
            var t = String(Int(x.rounded(.towardZero))) + "."
            var f = abs(x - x.rounded(.towardZero))
            for _ in 0..<digits { f *= 10; let d = Int(f); t += String(d); f -= Double(d) }
            return x < 0 && !t.hasPrefix("-") ? "-" + t : t
        case 3: return String(format2(x / 10)) + "e1"
        case 4 where abs(x) < 1: return x < 0 ? "-" + String(String(-x).dropFirst()) : String(String(x).dropFirst())  // ".25"
        default: return String(format2(x))
        }
    }

    @Test("plain numbers in coordinate and measure columns read exactly as strtod reads them")
    func plainNumbersAreExact() throws {
        var rng = SplitMix64(seed: 99)
        var csv = "lat,lon,accuracy\n"
        var expected: [(Double, Double, Double)] = []
        var texts: [(String, String, String)] = []
        for _ in 0..<2_000 {
            let la = Self.text(rng.uniform(-90, 90), &rng), lo = Self.text(rng.uniform(-180, 180), &rng),
                acc = Self.text(rng.uniform(0, 60), &rng)
            texts.append((la, lo, acc))
            expected.append((strtod(la, nil), strtod(lo, nil), strtod(acc, nil)))
            csv += "\(la),\(lo),\(acc)\n"
        }
        let points = try readCSV(csv).points
        try #require(points.count == expected.count)
        for (k, p) in points.enumerated() {
            let e = expected[k]
            #expect(p.coordinate.latitude.bitPattern == e.0.bitPattern, "\(texts[k].0)")
            #expect(p.coordinate.longitude.bitPattern == Coordinate.normalizedLongitude(e.1).bitPattern, "\(texts[k].1)")
            #expect(p.horizontalAccuracy?.bitPattern == e.2.bitPattern, "\(texts[k].2)")
        }
    }
}
