import Foundation

/// One line of Karney's GeodTest file (WGS84; degrees and metres).
public struct GeodTestRow: Sendable {
    public var line: Int
    public var lat1, lon1, azi1, lat2, lon2, azi2, s12, m12: Double
}

/// Locates the reference files: the committed slice, and the full file in `../shared` when present.
/// Shared by the exact solvers' tests (TraceProjTests for PROJ's, TraceGeodesyTests for the
/// pure-Swift one).
public enum GeodTestData {
    /// `Tests/TraceProjTests/Data/GeodTest-slice.dat`: 500 rows, always present.
    public static let slice: [GeodTestRow] = load(
        packageRoot.appendingPathComponent("Tests/TraceProjTests/Data/GeodTest-slice.dat"))!

    /// `../shared/geodesy/GeodTest-short.dat` (10,000 rows) or nil when `../shared` is absent.
    /// `TRACEKIT_SHARED` overrides the location of the shared folder.
    public static let full: [GeodTestRow]? = load(sharedFolder.appendingPathComponent("geodesy/GeodTest-short.dat"))

    public static var fullIsPresent: Bool { full != nil }

    /// Every row to test: the full file when present, else the slice.
    public static var rows: [GeodTestRow] { full ?? slice }

    private static func load(_ url: URL) -> [GeodTestRow]? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        var rows: [GeodTestRow] = []
        for (i, line) in text.split(separator: "\n").enumerated() {
            let f = line.split(separator: " ").map { Double(String($0))! }
            precondition(f.count == 10, "\(url.path):\(i + 1): expected 10 numbers")
            rows.append(
                GeodTestRow(line: i + 1, lat1: f[0], lon1: f[1], azi1: f[2], lat2: f[3], lon2: f[4], azi2: f[5], s12: f[6], m12: f[8]))
        }
        return rows
    }
}

/// Smallest difference between two angles in degrees, modulo 360.
public func angleDifference(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).remainder(dividingBy: 360)
    return abs(d)
}
