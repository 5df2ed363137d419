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

/// Fixes kept in memory as compact columns (standard input, small or unordered files), sorted by
/// time when needed.
struct FixColumns {
    var times: [Int64] = []
    var coordinates: [Coordinate] = []
    var accuracies: [Double] = []
    var speeds: [Double] = []
    var courses: [Double] = []

    var count: Int { times.count }

    @inline(__always)
    mutating func append(_ f: ReplayFix) {
        times.append(f.time)
        coordinates.append(f.coordinate)
        accuracies.append(f.accuracy)
        speeds.append(f.speed)
        courses.append(f.course)
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
        f.accuracy = accuracies[i]
        f.speed = speeds[i]
        f.course = courses[i]
        return f
    }

    /// Sorts by time, keeping the file order of equal times (a stable sort).
    mutating func sortByTime() {
        let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        times = order.map { times[$0] }
        coordinates = order.map { coordinates[$0] }
        accuracies = order.map { accuracies[$0] }
        speeds = order.map { speeds[$0] }
        courses = order.map { courses[$0] }
    }
}
