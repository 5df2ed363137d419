import TraceDomain
import TraceGeodesy
import TraceJSON

/// What the JSON readers share between a parsed element and the items they hand out: the point
/// checks (``PointChecker``), the item queue, the open track and segment, and the readings of JSON
/// values as numbers, times and coordinate texts, with every unreadable value noted as a problem.
struct JSONPoints {
    package var checker: PointChecker
    var queue = ItemQueue()
    let zonelessOffset: Int?
    /// Whether a track (and a segment of it) is open for track points.
    private(set) var trackOpen = false
    private var routeOpen = false
    /// Counts for assumptions stated at the end: what was skipped, by reason.
    private var skipped: [(reason: String, count: Int)] = []

    init(file: String, options: ReadOptions) {
        checker = PointChecker(file: file, options: options)
        zonelessOffset = options.zonelessUTCOffset
    }

    // MARK: Structure

    mutating func startTrack(name: String?) throws(TraceReadError) {
        queue.push(.trackStart(name: name))
        trackOpen = true
        routeOpen = false
        try startSegment()
    }

    mutating func startSegment() throws(TraceReadError) {
        if !trackOpen {
            try startTrack(name: nil)
            return
        }
        queue.push(.segmentStart)
        try checker.startSegment()
    }

    mutating func startRoute(name: String?) throws(TraceReadError) {
        queue.push(.routeStart(name: name))
        routeOpen = true
        trackOpen = false
        try checker.startSegment()
    }

    /// Ends the open track (the next track point opens a new one).
    mutating func closeTrack() { trackOpen = false }

    /// Checks `fix` (nil: its problem was noted) as a point of the open track (one is opened when
    /// none is) and queues it when kept.
    mutating func trackPoint(_ fix: Fix?, line: Int) throws(TraceReadError) {
        guard let f = try checker.finish(fix, line: line, trackPoint: true) else { return }
        if !trackOpen { try startTrack(name: nil) }
        queue.push(.trackPoint(f))
    }

    mutating func routePoint(_ fix: Fix?, line: Int) throws(TraceReadError) {
        guard let f = try checker.finish(fix, line: line, trackPoint: false) else { return }
        if !routeOpen { try startRoute(name: nil) }
        queue.push(.routePoint(f))
    }

    mutating func waypoint(_ fix: Fix?, line: Int) throws(TraceReadError) {
        guard let f = try checker.finish(fix, line: line, ordered: false, trackPoint: false) else { return }
        queue.push(.waypoint(f))
    }

    /// Counts something skipped, stated at the end as "skipped N reason".
    mutating func skip(_ reason: String, _ n: Int = 1) {
        guard n > 0 else { return }
        if let i = skipped.firstIndex(where: { $0.reason == reason }) {
            skipped[i].count += n
        } else {
            skipped.append((reason, n))
        }
    }

    /// Decides the motion check's pending fixes and states the skipped counts (once, at the end).
    mutating func finish() throws(TraceReadError) {
        try checker.finishInput()
        for s in skipped { checker.diagnostics.assume("skipped \(s.count) \(s.reason)") }
        skipped.removeAll()
    }

    // MARK: Values

    /// A number (or a numeric string); nil for null; `.invalid` for anything else.
    enum Number {
        case absent, invalid, value(Double)
    }

    static func number(_ v: JSONValue?) -> Number {
        guard let v else { return .absent }
        switch v.kind {
        case .null: return .absent
        case .number(let x): return .value(x)
        case .string(let s):
            var s = s
            if let x = s.withUTF8({ TextValue.double(TextValue.trimmed($0)) }) { return .value(x) }
            return .invalid
        default: return .invalid
        }
    }

    /// A short text of `v` for messages.
    static func shown(_ v: JSONValue) -> String {
        switch v.kind {
        case .string(let s): return "'" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "'"
        case .number(let x): return "\(x)"
        default: return v.typeName
        }
    }

    /// A time: ISO 8601 text (also `2014-09-10 06:54:07+0200`, see ``TextTime``), or an epoch
    /// number (or numeric text) in seconds or milliseconds by magnitude (``TextTime/EpochUnit``),
    /// or in `unit` when the key names it. Notes an unreadable time; nil for null or absent.
    mutating func time(_ v: JSONValue?, key: String, line: Int, unit: TextTime.EpochUnit? = nil) throws(TraceReadError) -> Timestamp? {
        guard let v else { return nil }
        switch v.kind {
        case .null:
            return nil
        case .number(let x):
            if let t = JSONPoints.epoch(x, unit: unit) { return t }
        case .string(let s):
            var s = s
            if let t = s.withUTF8({ zonedTime(TextValue.trimmed($0), unit: unit) }) { return t }
        default:
            break
        }
        try checker.note(.invalidTime, line: line, "\(key) \(JSONPoints.shown(v))")
        return nil
    }

    static func epoch(_ x: Double, unit: TextTime.EpochUnit?) -> Timestamp? {
        guard x.isFinite else { return nil }
        let u = unit ?? TextTime.EpochUnit(magnitude: x)
        if x == x.rounded(), abs(x) < 9e15 {
            let (ns, o) = Int64(x).multipliedReportingOverflow(by: u.nanosecondsPerUnit)
            return o ? nil : Timestamp(nanoseconds: ns)
        }
        let ns = (x * Double(u.nanosecondsPerUnit)).rounded()
        return abs(ns) < 9.2e18 ? Timestamp(nanoseconds: Int64(ns)) : nil
    }

    /// Text as a time; a zone-less one at ``ReadOptions/zonelessUTCOffset`` or as UTC (stated).
    private mutating func zonedTime(_ t: UnsafeBufferPointer<UInt8>, unit: TextTime.EpochUnit?) -> Timestamp? {
        guard !t.isEmpty else { return nil }
        if TextTime.isEpochNumber(t) { return TextTime.epoch(t, unit: unit)?.0 }
        var parsed = Timestamp.parseISO8601(t)
        if parsed == nil {
            var iso: [UInt8] = []
            if TextTime.appendDateTime(t, to: &iso) { parsed = TextTime.parse(iso) }
        }
        guard let (stamp, hadZone) = parsed else { return nil }
        if hadZone { return stamp }
        if let offset = zonelessOffset { return stamp.adding(seconds: -offset) }
        checker.diagnostics.assume("JSON times without a zone were read as UTC")
        return stamp
    }

    /// A measure: a number within `range` (nil when absent or equal to `unknown`); notes anything else.
    mutating func measure(
        _ v: JSONValue?, key: String, _ what: String, line: Int, unknown: Double? = nil,
        range: ClosedRange<Double> = 0...Double.infinity
    ) throws(TraceReadError) -> Double? {
        switch JSONPoints.number(v) {
        case .absent: return nil
        case .invalid:
            try checker.note(.invalidValue, line: line, "\(what) (\(key)) is \(JSONPoints.shown(v!)), not a number")
            return nil
        case .value(let x):
            if let unknown, x == unknown { return nil }
            guard range.contains(x) else {
                try checker.note(.invalidValue, line: line, "\(what) (\(key)) \(x) outside [\(range.lowerBound), \(range.upperBound)]")
                return nil
            }
            return x
        }
    }

    /// A fix at a raw position (checked; nil and noted when unusable).
    mutating func fix(latitude: Double?, longitude: Double?, line: Int) throws(TraceReadError) -> Fix? {
        guard let c = try checker.coordinate(latitude: latitude, longitude: longitude, line: line) else { return nil }
        return Fix(coordinate: c)
    }

    /// A position written as text: `"48.1°, 11.5°"` (Google Timeline), `"geo:48.1,11.5"` (RFC
    /// 5870, the iOS Timeline export), `"48.1,11.5"`; returns latitude and longitude.
    static func latLngText(_ s: String) -> (Double, Double)? {
        var text = Substring(s)
        if text.hasPrefix("geo:") { text = text.dropFirst(4) }
        if let semi = text.firstIndex(of: ";") { text = text[..<semi] }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func degrees(_ p: Substring) -> Double? {
            var t = String(p.filter { $0 != "°" && $0 != " " })
            return t.withUTF8 { TextValue.double($0) }
        }
        guard let lat = degrees(parts[0]), let lon = degrees(parts[1]) else { return nil }
        return (lat, lon)
    }

    /// A WKT point `POINT(lon lat)` (also `POINT Z (lon lat ele)`); returns longitude, latitude
    /// and the elevation when given.
    static func wktPoint(_ s: String) -> (lon: Double, lat: Double, ele: Double?)? {
        let upper = s.uppercased()
        guard upper.hasPrefix("POINT"), let open = s.firstIndex(of: "("), let close = s.lastIndex(of: ")"), open < close else {
            return nil
        }
        let numbers = s[s.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard numbers.count == 2 || numbers.count == 3 else { return nil }
        var values: [Double] = []
        for n in numbers {
            var t = String(n)
            guard let x = t.withUTF8({ TextValue.double($0) }) else { return nil }
            values.append(x)
        }
        return (values[0], values[1], values.count == 3 ? values[2] : nil)
    }
}

extension JSONValue {
    /// The members of an object (empty for anything else).
    var members: [(key: String, value: JSONValue)] {
        if case .object(let m) = kind { return m }
        return []
    }

    /// The items of an array, or nil.
    var items: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    /// The string, or nil.
    var text: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    var isObject: Bool {
        if case .object = kind { return true }
        return false
    }
}
