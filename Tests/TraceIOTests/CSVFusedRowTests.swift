import Foundation
import TestSupport
import Testing

@testable import TraceIO

/// The CSV reader scans and parses rows of the commonest shape in one pass (the fused row path)
/// and leaves everything else to the row scanner; the paths must give the same items and
/// diagnostics (or the same error) on every input.
@Suite("CSV fused rows")
struct CSVFusedRowTests {
    /// The columns a generated file may have, as header names.
    static let headers = ["lat", "lon", "time", "accuracy", "ele", "speed", "course", "hdop", "vdop", "pdop", "vacc", "id", "note"]

    /// A value for column `name`: mostly what the fused path reads, sometimes a quirk it must
    /// leave to the row scanner (padding, a sign, a unit, a placeholder, an exponent, a value out
    /// of range, a time without a zone or with an offset, an epoch time, a quote, nothing).
    static func value(_ name: String, row: Int, _ rng: inout SplitMix64) -> String {
        let quirk = rng.next() % 12 == 0
        func number(_ x: Double) -> String {
            guard quirk else { return rng.next() % 2 == 0 ? String(x) : String((x * 1e6).rounded() / 1e6) }
            switch rng.next() % 10 {
            case 0: return " \(x)"
            case 1: return "\(x) "
            case 2: return "+\(abs(x))"
            case 3: return "\((x * 100).rounded() / 100)e0"
            case 4: return "\(x.rounded())."
            case 5: return ["-", "NaN", "null", "n/a", "none", ""][Int(rng.next() % 6)]
            case 6: return "\(x) m"
            case 7: return "-\(abs(x))"
            case 8: return "\"\(x)\""
            default: return "0x1F"
            }
        }
        switch name {
        case "lat":
            if quirk && rng.next() % 3 == 0 { return ["90", "-90", "90.0000001", "-91", "1e400", "45N"][Int(rng.next() % 6)] }
            return number(47 + rng.uniform(-1, 1))
        case "lon":
            if quirk && rng.next() % 3 == 0 { return ["180", "-180", "-0.0", "359.5", "-360.5", "8E"][Int(rng.next() % 6)] }
            return number(8 + rng.uniform(-1, 1))
        case "time":
            let s = row % 60, m = (row / 60) % 60
            let base = "2024-05-01T10:\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)"
            guard quirk else { return base + "Z" }
            switch rng.next() % 10 {
            case 0: return base
            case 1: return base + ".250Z"
            case 2: return base + "+02:00"
            case 3: return " " + base + "Z"
            case 4: return String(1_714_557_600 + row)
            case 5: return "2024-05-01 10:00:00Z"
            case 6: return "1960-01-01T00:00:00Z"
            case 7: return "2024-02-30T00:00:00Z"
            case 8: return "2024-05-01T09:00:00Z"  // earlier than its neighbours: backwards
            default: return ""
            }
        case "course":
            if quirk && rng.next() % 2 == 0 { return ["360", "360.5", "-1", "0"][Int(rng.next() % 4)] }
            return number(rng.uniform(0, 360))
        case "ele": return number(rng.uniform(-50, 3000))
        case "id": return quirk ? "\"a, \"\"quoted\"\" id\"" : String(row)
        case "note": return quirk ? ["", "x\ry", "two\" quotes\"", "\"multi\nline\""][Int(rng.next() % 4)] : "n\(row)"
        default: return number(rng.uniform(0, 40))
        }
    }

    /// A seeded file: latitude, longitude and a random subset of the other columns in a random
    /// order, LF or CRLF line ends, with occasional blank rows, short rows, extra columns and no
    /// line end at the end.
    static func fusedCSV(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        var names = headers.filter { $0 == "lat" || $0 == "lon" || rng.next() % 2 == 0 }
        for k in stride(from: names.count - 1, to: 0, by: -1) { names.swapAt(k, Int(rng.next() % UInt64(k + 1))) }
        let crlf = rng.next() % 3 == 0
        var text = names.joined(separator: ",") + (crlf ? "\r\n" : "\n")
        for row in 0..<300 {
            switch rng.next() % 40 {
            case 0: text += crlf ? "\r\n" : "\n"
            case 1: text += names.prefix(1).map { value($0, row: row, &rng) }.joined(separator: ",") + "\n"
            default:
                var fields = names.map { value($0, row: row, &rng) }
                if rng.next() % 25 == 0 { fields.append("extra") }
                if rng.next() % 25 == 0 { fields.append("") }
                text += fields.joined(separator: ",") + (crlf ? "\r\n" : "\n")
            }
        }
        return text + names.map { value($0, row: 300, &rng) }.joined(separator: ",")
    }

    /// Reads `bytes` with the fused path on and off (and the block scanner off): the results, or
    /// the errors' descriptions.
    static func compare(_ bytes: [UInt8], options: ReadOptions = ReadOptions(), name: String) -> Int {
        func read(fused: Bool, plain: Bool) -> (result: Result<ReadResult, TraceReadError>, fusedCount: Int) {
            var reader = CSVReader(bytes: bytes, options: options, paths: ReadPaths(plain: plain, fused: fused))
            var items: [TraceItem] = []
            do {
                while let item = try reader.next() { items.append(item) }
            } catch {
                return (.failure(error), reader.fusedCount)
            }
            return (.success(ReadResult(items: items, diagnostics: reader.diagnostics)), reader.fusedCount)
        }
        let fused = read(fused: true, plain: true), plain = read(fused: false, plain: true), general = read(fused: false, plain: false)
        #expect(plain.fusedCount == 0 && general.fusedCount == 0)
        for other in [plain.result, general.result] {
            switch (fused.result, other) {
            case (.success(let a), .success(let b)):
                #expect(a.items == b.items, "\(name): items differ")
                #expect(a.diagnostics == b.diagnostics, "\(name): diagnostics differ")
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(name)")
            default:
                Issue.record("\(name): one path failed, the other did not: \(fused.result) vs \(other)")
            }
        }
        return fused.fusedCount
    }

    @Test("generated files read the same with the fused path as without", arguments: ProblemPolicy.allCases)
    func generatedFilesAgree(policy: ProblemPolicy) {
        var taken = 0
        for seed in UInt64(1)...60 {
            taken += Self.compare(
                Array(Self.fusedCSV(seed: seed).utf8), options: ReadOptions(policy: policy), name: "seed \(seed), \(policy)")
        }
        // Under `fail` a file stops at its first problem.
        #expect(policy == .fail || taken > 5_000, "the fused path read \(taken) rows")
    }

    @Test(
        "after every batch the row scanner is where the row scanner's own path leaves it (position, lines, the last row's text), LF and CRLF"
    )
    func scannerStateAfterRuns() throws {
        var runs = 0
        for seed in UInt64(1)...40 {
            let bytes = Array(Self.fusedCSV(seed: seed).utf8)
            for size in [1, 3, 64] {
                var fused = CSVReader(bytes: bytes), general = CSVReader(bytes: bytes, paths: .plain)
                var a = FixBatch(), b = FixBatch()
                while true {
                    let before = fused.fusedCount
                    let n = try fused.read(into: &a, limit: size), m = try general.read(into: &b, limit: size)
                    #expect(n == m, "seed \(seed), batches of \(size)")
                    if fused.fusedCount > before { runs += 1 }
                    let x = fused.scanner, y = general.scanner
                    #expect(
                        x.position == y.position && x.nextLine == y.nextLine && x.line == y.line
                            && x.rowStart == y.rowStart && x.rowEnd == y.rowEnd,
                        "seed \(seed), batches of \(size): \((x.position, x.nextLine, x.line, x.rowStart, x.rowEnd)) vs \((y.position, y.nextLine, y.line, y.rowStart, y.rowEnd))"
                    )
                    if n == 0 || n != m { break }
                }
            }
        }
        #expect(runs > 1_000, "\(runs) batches read fused rows")
    }

    @Test("a plain lat,lon,time,accuracy file is read by the fused path, row for row")
    func plainFileTakesTheFusedPath() throws {
        var text = "lat,lon,time,accuracy\n"
        var rng = SplitMix64(seed: 5)
        for row in 0..<500 {
            let s = row % 60, m = row / 60
            text +=
                "\(47 + rng.uniform(-1, 1)),\(8 + rng.uniform(-1, 1)),2024-05-01T10:0\(m):\(s < 10 ? "0" : "")\(s)Z,\((rng.uniform(3, 30) * 10).rounded() / 10)\n"
        }
        let bytes = Array(text.utf8)
        // The first rows are read while the order is unknown (look-ahead), the rest fused.
        #expect(Self.compare(bytes, name: "plain") >= 495)
        var reader = CSVReader(bytes: bytes)
        let result = try readTrace(reader)
        #expect(result.points.count == 500)
        reader = CSVReader(bytes: bytes, paths: .plain)
        #expect(try readTrace(reader).items == result.items)
    }

    /// The CSV and TSV files under `folder`, in path order.
    static func csvFiles(under folder: URL) -> [URL] {
        guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in e where ["csv", "tsv"].contains(url.pathExtension.lowercased()) { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    static func expectAllAgree(_ files: [URL]) throws {
        for url in files {
            let bytes = Array(try Data(contentsOf: url))
            for policy in ProblemPolicy.allCases {
                _ = Self.compare(bytes, options: ReadOptions(policy: policy), name: "\(url.lastPathComponent), \(policy)")
            }
        }
    }

    @Test("the CSV files of the repository (Traces/) read the same with the fused path as without")
    func repositoryAgrees() throws {
        let files = Self.csvFiles(under: packageRoot.appendingPathComponent("Traces"))
        // Traces/real/trackintel-google_location_history.csv.
        #expect(files.map(\.lastPathComponent) == ["trackintel-google_location_history.csv"])
        try Self.expectAllAgree(files)
    }

    @Test(
        "the CSV files of ../shared/traces read the same with the fused path as without",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces").path),
            "../shared/traces not found: the shared CSV files are not compared"))
    func sharedAgrees() throws {
        let files = Self.csvFiles(under: sharedFolder.appendingPathComponent("traces"))
        // The shared corpus holds 6 CSV files (4 in csv/, 2 in malformed/).
        #expect(files.count >= 6, "\(files.count) files")
        try Self.expectAllAgree(files)
    }
}
