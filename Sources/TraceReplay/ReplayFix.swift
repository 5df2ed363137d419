import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// A fix as the replay uses it: time in nanoseconds since 1970 (UTC), position, and the reported
/// horizontal accuracy (metres), speed (m/s) and course (degrees clockwise from true north in
/// [0, 360): ``course(_:)``), NaN when absent. 48 bytes. The course is carried for the viewer's
/// extrapolation along the reported speed and course (issue 19).
struct ReplayFix {
    var time: Int64
    var coordinate: Coordinate
    var accuracy: Double
    var speed: Double
    var course: Double

    init(time: Int64, coordinate: Coordinate, accuracy: Double?, speed: Double?, course: Double? = nil) {
        self.time = time
        self.coordinate = coordinate
        self.accuracy = accuracy ?? .nan
        self.speed = speed ?? .nan
        self.course = course.map(Self.course) ?? .nan
    }

    /// A reported course as the replay keeps it: the readers accept [0, 360] (beyond is a
    /// per-point problem, not kept) and keep 360 as read; here 360, the same direction as 0, is 0.
    /// NaN (absent) stays NaN.
    @inline(__always)
    static func course(_ degrees: Double) -> Double { degrees == 360 ? 0 : degrees }
}

/// Fixes kept in memory as compact columns (standard input, small or unordered files, a trip held
/// in memory: ``LoadedTrip``), sorted by time when needed.
///
/// Bytes per fix: 24 (the time, 8, and the position, 16) plus 8 for each of the accuracy, the speed
/// and the course that some fix of the columns reports (``bytesPerFix``): a column whose fixes all
/// lack the value is kept empty and reads as NaN, exactly what a fix without it holds. So 24 to 48
/// bytes (24 for a GPX of positions and times, its `hdop` not being an accuracy; 32 for a CSV with
/// an accuracy column; 48 with accuracy, speed and course).
struct FixColumns {
    var times: [Int64] = []
    var coordinates: [Coordinate] = []
    /// Empty while every fix so far lacks the value (NaN); else one per fix.
    private(set) var accuracies: [Double] = []
    private(set) var speeds: [Double] = []
    private(set) var courses: [Double] = []

    var count: Int { times.count }

    /// The bytes a fix takes in these columns: 24, plus 8 per optional column held.
    var bytesPerFix: Int {
        24 + (accuracies.isEmpty ? 0 : 8) + (speeds.isEmpty ? 0 : 8) + (courses.isEmpty ? 0 : 8)
    }

    /// The bytes of the columns' fixes (``bytesPerFix`` × ``count``; capacity not counted).
    var bytes: Int { count * bytesPerFix }

    /// ``bytes`` once `f` is appended (a column that `f` is the first to report counts for every fix).
    @inline(__always)
    func bytes(appending f: ReplayFix) -> Int {
        let held = 24 + (accuracies.isEmpty && f.accuracy.isNaN ? 0 : 8) + (speeds.isEmpty && f.speed.isNaN ? 0 : 8)
        return (count + 1) * (held + (courses.isEmpty && f.course.isNaN ? 0 : 8))
    }

    @inline(__always)
    mutating func append(_ f: ReplayFix) {
        let n = times.count
        times.append(f.time)
        coordinates.append(f.coordinate)
        Self.append(f.accuracy, to: &accuracies, count: n)
        Self.append(f.speed, to: &speeds, count: n)
        Self.append(f.course, to: &courses, count: n)
    }

    /// Appends `value` to a column that holds `count` values, or none while all were NaN: a NaN to
    /// an empty column stays unwritten; the first other value fills the column with `count` NaNs.
    @inline(__always)
    private static func append(_ value: Double, to column: inout [Double], count: Int) {
        if column.isEmpty {
            guard !value.isNaN else { return }
            column = [Double](repeating: .nan, count: count)
        }
        column.append(value)
    }

    /// Empties the columns, keeping their capacity (a refilled window).
    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
        accuracies.removeAll(keepingCapacity: true)
        speeds.removeAll(keepingCapacity: true)
        courses.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    subscript(i: Int) -> ReplayFix {
        var f = ReplayFix(time: times[i], coordinate: coordinates[i], accuracy: nil, speed: nil)
        if !accuracies.isEmpty { f.accuracy = accuracies[i] }
        if !speeds.isEmpty { f.speed = speeds[i] }
        if !courses.isEmpty { f.course = courses[i] }
        return f
    }

    /// Sorts by time, keeping the file order of equal times (a stable sort).
    mutating func sortByTime() {
        let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        func sorted<T>(_ column: [T]) -> [T] { column.isEmpty ? [] : order.map { column[$0] } }
        times = sorted(times)
        coordinates = sorted(coordinates)
        accuracies = sorted(accuracies)
        speeds = sorted(speeds)
        courses = sorted(courses)
    }
}
