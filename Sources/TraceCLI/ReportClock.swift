import TraceDomain
import TraceIO
import TraceReplay

/// How reports print a time of day (UTC), by a rule on the trip's span: when the trip's first and
/// last times (``ReplayResult/start`` and ``ReplayResult/end``) fall on the same UTC day, a time
/// is "08:01:37"; when they do not (the trip crosses midnight UTC), every time carries its date,
/// "2024-05-01 23:58:10" … "2024-05-02 00:03:11", so a next-day time never reads as time going
/// backwards. Fractions of a second are cut, not rounded.
struct ReportClock: Hashable, Sendable {
    /// Whether times carry their date: the span crosses midnight UTC.
    let dated: Bool

    init(start: Timestamp, end: Timestamp) { dated = Self.day(start) != Self.day(end) }

    init(_ r: ReplayResult) { self.init(start: r.start, end: r.end) }

    /// The UTC day number of `t` (days since 1970-01-01, floored, so before 1970 too).
    static func day(_ t: Timestamp) -> Int64 {
        let perDay: Int64 = 86_400_000_000_000
        let (q, r) = t.nanoseconds.quotientAndRemainder(dividingBy: perDay)
        return r < 0 ? q - 1 : q
    }

    /// "08:01:37", or "2024-05-01 08:01:37" when the span crosses midnight.
    func text(_ t: Timestamp) -> String { dated ? Self.dateAndTime(t) : Self.timeOfDay(t) }

    /// "2024-05-01 08:01:37", whatever the span.
    static func dateAndTime(_ t: Timestamp) -> String {
        let iso = t.iso8601  // yyyy-mm-ddThh:mm:ss[.fff]Z
        guard let tIndex = iso.firstIndex(of: "T") else { return iso }
        return String(iso[..<tIndex]) + " " + timeOfDay(t)
    }

    /// "08:01:37", whatever the span.
    static func timeOfDay(_ t: Timestamp) -> String {
        let iso = t.iso8601
        guard let tIndex = iso.firstIndex(of: "T") else { return iso }
        return String(iso[iso.index(after: tIndex)...].prefix(8))
    }

    /// The span, the first time always dated: "2024-05-01 08:01:37 … 08:21:09 UTC" on one day,
    /// "2024-05-01 23:58:10 … 2024-05-02 00:03:11 UTC" across midnight.
    func span(_ start: Timestamp, _ end: Timestamp) -> String {
        "\(Self.dateAndTime(start)) … \(text(end)) UTC"
    }
}
