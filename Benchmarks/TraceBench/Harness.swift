import TracePlatform

#if canImport(Glibc)
    import Glibc  // vsnprintf
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds.
func now() -> UInt64 { Platform.monotonicNanoseconds() }

/// Results are added here so the optimiser cannot drop the work being timed.
nonisolated(unsafe) var sink: Double = 0

/// One measured case: nanoseconds per item over several samples.
struct Measurement {
    var name: String
    var items: Int
    var samples: [Double]  // ns per item, one per sample

    var median: Double { samples.sorted()[samples.count / 2] }
    var minimum: Double { samples.min()! }
    var maximum: Double { samples.max()! }
    /// Median absolute deviation, relative to the median.
    var relativeSpread: Double {
        let m = median
        let d = samples.map { abs($0 - m) }.sorted()
        return d[d.count / 2] / m
    }
}

struct Bench {
    var samples = 7
    var filter: String? = nil
    var results: [Measurement] = []
    var ratios: [(String, String, String, Double)] = []  // (label, case, baseline, case/baseline)

    /// Runs `body` once to warm up, then `samples` times, timing each; `body` returns a value that
    /// is consumed. Prints one line.
    mutating func measure(_ name: String, items: Int, _ body: () -> Double) -> Measurement? {
        if let filter, !name.contains(filter) { return nil }
        sink += body()
        var m = Measurement(name: name, items: items, samples: [])
        for _ in 0..<samples {
            let t0 = now()
            sink += body()
            let t1 = now()
            m.samples.append(Double(t1 - t0) / Double(items))
        }
        results.append(m)
        print(
            pad(name, 46) + pad(fmt(m.median, 2) + " ns", 13) + "min " + pad(fmt(m.minimum, 2), 9)
                + "max " + pad(fmt(m.maximum, 2), 9) + "spread ±" + fmt(m.relativeSpread * 100, 1) + " %")
        return m
    }

    /// Records and prints `a`'s median time over `b`'s.
    mutating func ratio(_ label: String, _ a: Measurement?, over b: Measurement?) {
        guard let a, let b else { return }
        let r = a.median / b.median
        ratios.append((label, a.name, b.name, r))
        print("  ratio " + label + ": " + fmt(r, 3) + "×")
    }

    func json() -> String {
        var s = "{\n  \"schema\": \"tracekit-bench/1\",\n  \"unit\": \"ns per item\",\n  \"samples\": \(samples),\n  \"cases\": [\n"
        s += results.map {
            "    {\"name\": \"\($0.name)\", \"items\": \($0.items), \"median\": \(fmt($0.median, 3)), \"min\": \(fmt($0.minimum, 3)), \"max\": \(fmt($0.maximum, 3)), \"relative_spread\": \(fmt($0.relativeSpread, 4))}"
        }.joined(separator: ",\n")
        s += "\n  ],\n  \"ratios\": [\n"
        s += ratios.map { "    {\"label\": \"\($0.0)\", \"case\": \"\($0.1)\", \"baseline\": \"\($0.2)\", \"ratio\": \(fmt($0.3, 4))}" }
            .joined(separator: ",\n")
        return s + "\n  ]\n}\n"
    }
}

func fmt(_ x: Double, _ decimals: Int) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buf in
        let n = withVaList([Int32(decimals), x]) { vsnprintf(buf.baseAddress!, 64, "%.*f", $0) }
        return String(decoding: UnsafeRawBufferPointer(start: buf.baseAddress!, count: Int(min(n, 63))), as: UTF8.self)
    }
}

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

/// Writes one line to standard error.
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { try? Platform.write(Platform.standardError, $0) }
}
