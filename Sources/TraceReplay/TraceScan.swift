import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// A fix as the replay uses it: time in nanoseconds since 1970 (UTC), position, and the reported
/// horizontal accuracy (metres) and speed (m/s), NaN when absent. 40 bytes.
struct ReplayFix {
    var time: Int64
    var coordinate: Coordinate
    var accuracy: Double
    var speed: Double

    init(time: Int64, coordinate: Coordinate, accuracy: Double?, speed: Double?) {
        self.time = time
        self.coordinate = coordinate
        self.accuracy = accuracy ?? .nan
        self.speed = speed ?? .nan
    }
}

/// Fixes kept in memory as compact columns (standard input, small or unordered files), sorted by
/// time when needed.
struct FixColumns {
    var times: [Int64] = []
    var coordinates: [Coordinate] = []
    var accuracies: [Double] = []
    var speeds: [Double] = []

    var count: Int { times.count }

    mutating func append(_ f: ReplayFix) {
        times.append(f.time)
        coordinates.append(f.coordinate)
        accuracies.append(f.accuracy)
        speeds.append(f.speed)
    }

    subscript(i: Int) -> ReplayFix {
        var f = ReplayFix(time: times[i], coordinate: coordinates[i], accuracy: nil, speed: nil)
        f.accuracy = accuracies[i]
        f.speed = speeds[i]
        return f
    }

    /// Sorts by time, keeping the file order of equal times (a stable sort).
    mutating func sortByTime() {
        let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        times = order.map { times[$0] }
        coordinates = order.map { coordinates[$0] }
        accuracies = order.map { accuracies[$0] }
        speeds = order.map { speeds[$0] }
    }
}

/// A trace reader that says which role each track point belongs to: the CSV `role` column, else
/// the current GPX track's name when it is a role's key, else the file's default role.
///
/// The concrete reader is held by format (GPX and CSV unboxed, the rest as `any TraceReader`), so
/// the per-point call is a direct one, with no existential box to project or make unique.
struct RoleReader {
    private var gpx: GPXReader?
    private var csv: CSVReader?
    private var other: (any TraceReader)?
    let path: String
    let defaultRole: Role
    private var trackRole: Role
    private var trackNamed = false

    enum Item {
        /// A track point: its role, whether the content named the role, the fix.
        case point(Role, named: Bool, Fix)
        /// A waypoint.
        case waypoint(Fix)
    }

    /// A track point as the merge takes it: its role, whether the content named the role, whether
    /// it has a time, and the fix in the engine's compact form (time 0 when untimed).
    struct Point {
        var role: Role
        var named: Bool
        var timed: Bool
        var fix: ReplayFix
    }

    init(path: String, format: TraceFormat?, options: ReadOptions, defaultRole: Role) throws(TraceReadError) {
        let reader = try openTrace(path, format: format, options: options)
        if let g = reader as? GPXReader {
            gpx = g
        } else if let c = reader as? CSVReader {
            csv = c
        } else {
            other = reader
        }
        self.path = path
        self.defaultRole = defaultRole
        trackRole = defaultRole
    }

    /// The format being read.
    var format: TraceFormat { gpx?.format ?? csv?.format ?? other!.format }
    /// What the reader reported so far.
    var diagnostics: Diagnostics { gpx?.diagnostics ?? csv?.diagnostics ?? other!.diagnostics }

    @inline(__always)
    private mutating func nextItem() throws(ReplayError) -> TraceItem? {
        do {
            if gpx != nil { return try gpx!.next() }
            if csv != nil { return try csv!.next() }
            return try other!.next()
        } catch {
            throw .read(error)
        }
    }

    /// The role of a track point's fix.
    @inline(__always)
    private func role(of fix: Fix) throws(ReplayError) -> (Role, named: Bool) {
        guard let text = fix.role else { return (trackRole, trackNamed) }
        guard let role = Role(parsing: text.trimmingSpaces) else {
            throw .invalid("\(path): role '\(text)' is not one of \(Role.allCases.map(\.key).joined(separator: ", "))")
        }
        return (role, true)
    }

    /// Notes a track's start (its name may name the role of its points).
    private mutating func startTrack(_ name: String?) {
        let role = name.flatMap { Role(parsing: $0.trimmingSpaces) }
        trackRole = role ?? defaultRole
        trackNamed = role != nil
    }

    /// The next point or waypoint; route points and structure markers are consumed here.
    mutating func next() throws(ReplayError) -> Item? {
        while true {
            guard let item = try nextItem() else { return nil }
            switch item {
            case .trackStart(let name):
                startTrack(name)
            case .trackPoint(let fix):
                let (role, named) = try role(of: fix)
                return .point(role, named: named, fix)
            case .waypoint(let fix):
                return .waypoint(fix)
            case .segmentStart, .routeStart, .routePoint:
                continue
            }
        }
    }

    /// The next track point, straight in the merge's form; waypoints, route points and structure
    /// markers are consumed here (the same points, in the same order, as ``next()`` gives).
    @inline(__always)
    mutating func nextPoint() throws(ReplayError) -> Point? {
        while true {
            let item: LeanItem
            var text: String?
            do {
                if gpx != nil {
                    item = try gpx!.nextLean()
                    if item.hasRole || item.isTrackStart { text = gpx!.leanText }
                } else if csv != nil {
                    item = try csv!.nextLean()
                    if item.hasRole || item.isTrackStart { text = csv!.leanText }
                } else {
                    item = try other!.nextLean(text: &text)
                }
            } catch {
                throw .read(error)
            }
            switch item.kind {
            case .end:
                return nil
            case .trackStart:
                startTrack(text)
            case .trackPoint:
                var role = trackRole, named = trackNamed
                if item.hasRole, let text {
                    guard let r = Role(parsing: text.trimmingSpaces) else {
                        throw .invalid("\(path): role '\(text)' is not one of \(Role.allCases.map(\.key).joined(separator: ", "))")
                    }
                    role = r
                    named = true
                }
                var fix = ReplayFix(time: item.time, coordinate: item.coordinate, accuracy: nil, speed: nil)
                fix.accuracy = item.horizontalAccuracy
                fix.speed = item.speed
                return Point(role: role, named: named, timed: item.hasTime, fix: fix)
            case .other:
                continue
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
        return String(s)
    }
}

/// A place the helper stayed: within ``InferenceRules/dwellRadiusMetres`` of the first fix of the
/// stay (the anchor) for at least ``InferenceRules/dwellSeconds``.
struct Dwell: Hashable, Sendable {
    /// The anchor fix's time and the last fix's time within the radius.
    var start: Timestamp
    var end: Timestamp
    /// The mean position of the stay's fixes.
    var centre: Coordinate
    /// Fixes in the stay.
    var fixes: Int
}

/// What the first pass learns about one role's fixes, in time order: first and last fix, when the
/// role first went farther than the dwell radius from its start, and its dwells.
struct RoleScan {
    var first: (time: Int64, coordinate: Coordinate)?
    var last: (time: Int64, coordinate: Coordinate)?
    /// The first fix farther than the radius from the first fix.
    var departure: Int64?
    var dwells: [Dwell] = []
    /// The stay still open at the end, whatever its length: every fix after its anchor is within
    /// the radius of the anchor.
    var finalStay: Dwell?
    /// Dwells found beyond ``RoleScanner/maximumDwells`` (only the latest is kept, in place of the last).
    var dwellsDropped = 0
}

/// Finds dwells by anchor-based stay-point detection, in O(1) memory per fix: a fix within the
/// radius of the anchor extends the stay; the first fix beyond it closes the stay (a dwell when it
/// lasted at least the minimum time) and becomes the next anchor.
struct RoleScanner {
    static let maximumDwells = 100_000
    let radius: Double
    let minimumNanoseconds: Int64
    private(set) var scan = RoleScan()
    private var anchor: (time: Int64, coordinate: Coordinate)?
    private var lastInside: Int64 = 0
    private var count = 0
    private var sumLat = 0.0, sumLon = 0.0

    init(rules: InferenceRules) {
        radius = rules.dwellRadiusMetres
        minimumNanoseconds = Int64((rules.dwellSeconds * 1e9).rounded())
    }

    /// Within `radius` of each other? Beyond 2 km the answer is no without an exact distance.
    ///
    /// Pre-check, exact: the tangent plane's north offset is at least 110,000 m per degree of
    /// latitude (the meridional radius gives 110,574 at the equator, more elsewhere), and its
    /// east offset at least 19,000 m per degree of longitude wherever it answers at all
    /// (|φ| ≤ 80°: N·cos 80°·π/180 ≥ 19,330), and the distance is at least either offset; so a
    /// latitude or longitude difference beyond those bounds is outside without computing the
    /// distance (the margins, ≥ 0.5 %, dwarf the rounding). Only for radii of at least 1e-6 m, so
    /// that no product underflows.
    @inline(__always)
    static func within(_ a: Coordinate, _ b: Coordinate, _ radius: Double) -> Bool {
        if radius >= 1e-6 {
            if abs(b.latitude - a.latitude) * 110_000 > radius { return false }
            var dLon = abs(b.longitude - a.longitude)
            if dLon > 180 { dLon = 360 - dLon }
            if dLon * 19_000 > radius { return false }
        }
        return withinByDistance(a, b, radius)
    }

    /// ``within(_:_:_:)`` without the pre-check, for pairs usually near each other (a stay's
    /// anchor and the next fix).
    @inline(__always)
    static func withinByDistance(_ a: Coordinate, _ b: Coordinate, _ radius: Double) -> Bool {
        guard let d = TangentPlane.distanceIfNear(from: a, to: b) else { return false }
        return d <= radius
    }

    /// Feeds the next fix (times non-decreasing). Returns whether the fix began a new stay (it is
    /// the new anchor), and the dwell the previous stay turned out to be, if it was one.
    @discardableResult
    mutating func add(time: Int64, _ c: Coordinate) -> (started: Bool, closed: Dwell?) {
        if scan.first == nil { scan.first = (time, c) }
        scan.last = (time, c)
        if scan.departure == nil, let first = scan.first, !Self.within(first.coordinate, c, radius) { scan.departure = time }
        guard let a = anchor else {
            start(time, c)
            return (true, nil)
        }
        if Self.withinByDistance(a.coordinate, c, radius) {
            count += 1
            sumLat += c.latitude - a.coordinate.latitude
            var dLon = c.longitude - a.coordinate.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            sumLon += dLon
            lastInside = time
            return (false, nil)
        }
        let closed = close()
        start(time, c)
        return (true, closed)
    }

    private mutating func start(_ time: Int64, _ c: Coordinate) {
        anchor = (time, c)
        lastInside = time
        count = 1
        sumLat = 0
        sumLon = 0
    }

    @discardableResult
    private mutating func close() -> Dwell? {
        guard let a = anchor, lastInside - a.time >= minimumNanoseconds else { return nil }
        let dwell = currentStay(a)
        if scan.dwells.count < Self.maximumDwells {
            scan.dwells.append(dwell)
        } else {
            scan.dwells[scan.dwells.count - 1] = dwell
            scan.dwellsDropped += 1
        }
        return dwell
    }

    private func currentStay(_ a: (time: Int64, coordinate: Coordinate)) -> Dwell {
        let n = Double(count)
        let lat = min(max(a.coordinate.latitude + sumLat / n, -90), 90)
        let lon = Coordinate.normalizedLongitude(a.coordinate.longitude + sumLon / n)
        let centre = (try? Coordinate(latitude: lat, longitude: lon)) ?? a.coordinate
        return Dwell(start: Timestamp(nanoseconds: a.time), end: Timestamp(nanoseconds: lastInside), centre: centre, fixes: count)
    }

    /// The scan, with the stay still open at the end closed.
    mutating func finish() -> RoleScan {
        if let a = anchor { scan.finalStay = currentStay(a) }
        close()
        anchor = nil
        return scan
    }
}

/// Pass one's record of one role in one file.
struct StreamRecord {
    let path: String
    let role: Role
    let defaultRole: Role
    var named = false
    /// Timed fixes.
    var fixes = 0
    /// Track points without a time (they cannot be placed on the clock: not replayed).
    var untimed = 0
    /// Whether any fix's time is before the previous one's.
    var unordered = false
    var lastTime = Int64.min
    /// The fixes, while there are at most the buffer limit; nil once over it.
    var buffer: FixColumns? = FixColumns()
    var scanner: RoleScanner
    /// The CSV `state` column's changes, in file order.
    var stateChanges: [(state: String, time: Int64)] = []
    var lastStateLabel: String?

    init(path: String, role: Role, defaultRole: Role, rules: InferenceRules) {
        self.path = path
        self.role = role
        self.defaultRole = defaultRole
        scanner = RoleScanner(rules: rules)
    }
}
