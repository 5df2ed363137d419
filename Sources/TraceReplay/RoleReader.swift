import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// A trace reader that says which role each track point belongs to: the CSV `role` column, else
/// the current GPX track's name when it is a role's key, else the file's default role.
///
/// The concrete reader is held by format (GPX and CSV unboxed, the rest as `any TraceReader`), so
/// the per-point call is a direct one, with no existential box to project or make unique. GPX and
/// CSV are held inside the motion stage (``TraceIO/MotionStage``, which `openTrace` puts them in
/// under the `filter` and `skip` policies; a bare reader is put in one here, where it has nothing
/// to act on), whose reduced paths go straight to the reader's while nothing is held.
struct RoleReader {
    private var gpx: MotionStage<GPXReader>?
    private var csv: MotionStage<CSVReader>?
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
        if let g = reader as? MotionStage<GPXReader> {
            gpx = g
        } else if let g = reader as? GPXReader {
            gpx = MotionStage(g)
        } else if let c = reader as? MotionStage<CSVReader> {
            csv = c
        } else if let c = reader as? CSVReader {
            csv = MotionStage(c)
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
            if gpx != nil { return try gpx!.nextItem() }
            if csv != nil { return try csv!.nextItem() }
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

    /// The first pass's item: a track point in the merge's form with its state label (the CSV
    /// `state` column), or a waypoint.
    enum Scanned {
        case point(Point, state: String?)
        case waypoint(Fix)
    }

    /// The next track point or waypoint as ``next()`` gives them, the point in the merge's form: a
    /// GPX point of the common shape straight from the reader's fused path (``nextPoint()``'s
    /// way, no `Fix` or item made), anything else through ``next()``.
    @inline(__always)
    mutating func nextScanned() throws(ReplayError) -> Scanned? {
        while true {
            if gpx != nil {
                let lean: LeanItem?
                do {
                    lean = try gpx!.nextFusedLean()
                } catch {
                    throw .read(error)
                }
                if let lean {
                    // A fused item is a point without texts: a track point of the current track's
                    // role, or a route point or unnamed waypoint (which the first pass passes over).
                    guard case .trackPoint = lean.kind else { continue }
                    var fix = ReplayFix(time: lean.time, coordinate: lean.coordinate, accuracy: nil, speed: nil)
                    fix.accuracy = lean.horizontalAccuracy
                    fix.speed = lean.speed
                    fix.course = ReplayFix.course(lean.course)
                    return .point(Point(role: trackRole, named: trackNamed, timed: lean.hasTime, fix: fix), state: nil)
                }
            }
            switch try next() {
            case nil:
                return nil
            case .point(let role, let named, let f):
                let fix = ReplayFix(
                    time: f.time?.nanoseconds ?? 0, coordinate: f.coordinate, accuracy: f.horizontalAccuracy, speed: f.speed,
                    course: f.course)
                return .point(Point(role: role, named: named, timed: f.time != nil, fix: fix), state: f.state)
            case .waypoint(let f):
                return .waypoint(f)
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
                    item = try gpx!.nextLean(text: &text)
                } else if csv != nil {
                    item = try csv!.nextLean(text: &text)
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
                fix.course = ReplayFix.course(item.course)
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
