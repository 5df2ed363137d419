import Foundation
// The GPX reader against libxml2, as a function: used by the differential tests
// (Tests/TraceIOTests/DifferentialTests.swift) and by the differential fuzzer (Fuzz/GPXDiff).
import GPXOracle
import TraceDomain
import TraceGeodesy
public import TraceIO

/// One track point as libxml2's streaming reader sees it: lat and lon parsed with strtod
/// semantics (NaN when unreadable), and the text of `ele` and `time`.
public struct OraclePoint: Sendable {
    public var lat: Double
    public var lon: Double
    public var ele: String?
    public var time: String?
}

/// The track points of a GPX document as libxml2 (no network, no entity substitution, no DTD
/// loading) reads them; nil when libxml2 rejects the document.
public func libxml2TrackPoints(_ bytes: [UInt8]) -> [OraclePoint]? {
    var capacity = 1024
    while true {
        var points = [oracle_point](repeating: oracle_point(), count: capacity)
        let n = bytes.withUnsafeBufferPointer { b in
            b.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: b.count) { oracle_track_points($0, b.count, &points, points.count) }
            } ?? -1
        }
        guard n >= 0 else { return nil }
        if n > capacity { capacity = n; continue }
        func text<T>(_ t: T) -> String {
            withUnsafeBytes(of: t) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return points.prefix(n).map { p in
            let lat = text(p.lat).trimmingCharacters(in: .whitespacesAndNewlines)
            let lon = text(p.lon).trimmingCharacters(in: .whitespacesAndNewlines)
            return OraclePoint(
                lat: Double(lat) ?? .nan, lon: Double(lon) ?? .nan,
                ele: p.has_ele != 0 ? text(p.ele) : nil, time: p.has_time != 0 ? text(p.time) : nil)
        }
    }
}

/// How TraceKit's reading of a GPX document compares with libxml2's.
public enum GPXVerdict: Sendable {
    /// Both read it, with the same track points (coordinates bit for bit, elevations, times).
    case same(points: Int)
    /// Both reject it (TraceKit's error).
    case bothReject(TraceReadError)
    /// TraceKit declines, for a documented reason, a document libxml2 reads: a root element that
    /// is not `<gpx>` (libxml2 reads any XML), or an encoding TraceKit does not read (it reads
    /// UTF-8, ISO-8859-1 and windows-1252; libxml2 more, through iconv). Not a disagreement.
    case declined(TraceReadError)
    /// TraceKit keeps the points before the cut of a document that ends inside its root element
    /// (``TraceIO/ProblemKind/truncated``, under the default policy), which libxml2 rejects; under
    /// the `fail` policy TraceKit rejects it too. Not a disagreement.
    case truncated(points: Int)
    /// A disagreement: which, and where.
    case differ(String)
}

/// Reads `bytes` with ``GPXReader`` and with libxml2 and compares: the same verdict (both
/// reject) or the same track points. TraceKit drops points without a usable position (reported
/// as diagnostics), so only libxml2's points with a finite latitude in [-90, 90] and a finite
/// longitude within ±360° are compared; of repeated `<ele>` or `<time>` children, both read the first.
public func compareGPXWithLibxml2(_ bytes: [UInt8], name: String) -> GPXVerdict {
    let reference = libxml2TrackPoints(bytes)
    var reader = GPXReader(bytes: bytes, name: name)
    var ours: [Fix] = []
    do {
        while let item = try reader.next() { if case .trackPoint(let f) = item { ours.append(f) } }
    } catch {
        if reference == nil { return .bothReject(error) }
        if error.message.hasPrefix("unsupported encoding ") || error.message.hasPrefix("not a GPX document") { return .declined(error) }
        return .differ("\(name): TraceKit rejects (\(error)) but libxml2 accepts")
    }
    guard let reference else {
        if reader.diagnostics.counts[.truncated] != nil {
            // Under fail the cut (or a per-point problem before it) is an error.
            var strict = GPXReader(bytes: bytes, name: name, options: ReadOptions(policy: .fail))
            do {
                while try strict.next() != nil {}
            } catch {
                return .truncated(points: ours.count)
            }
            return .differ("\(name): TraceKit reads a cut document, and accepts it under the fail policy too")
        }
        return .differ("\(name): libxml2 rejects the document but TraceKit accepts it")
    }
    let usable = reference.filter { $0.lat.isFinite && $0.lon.isFinite && abs($0.lat) <= 90 && abs($0.lon) <= 360 }
    guard ours.count == usable.count else { return .differ("\(name): \(ours.count) points vs libxml2's \(usable.count)") }
    for (i, (a, b)) in zip(ours, usable).enumerated() {
        if a.coordinate.latitude != b.lat || a.coordinate.longitude != Coordinate.normalizedLongitude(b.lon) {
            return .differ("\(name): point \(i + 1): \(a.coordinate.latitude), \(a.coordinate.longitude) vs libxml2's \(b.lat), \(b.lon)")
        }
        let ele = b.ele.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.flatMap { $0.isFinite ? $0 : nil }
        if a.elevation != ele {
            return .differ(
                "\(name): point \(i + 1): elevation \(String(describing: a.elevation)) vs libxml2's \(String(describing: b.ele))")
        }
        let time = b.time.flatMap { t in
            Array(t.trimmingCharacters(in: .whitespacesAndNewlines).utf8).withUnsafeBufferPointer { Timestamp.parseISO8601($0)?.timestamp }
        }
        if a.time != time {
            return .differ("\(name): point \(i + 1): time \(String(describing: a.time)) vs libxml2's \(String(describing: b.time))")
        }
    }
    return .same(points: ours.count)
}
