import TraceDomain
import TraceGeodesy
import TraceIO
import TraceJSON

/// Scenario items given by hand (flags, sidecar, the traces' waypoints and state columns) that
/// contradict the recording, each a warning line (``ReplayResult/warnings``); the replay runs as
/// given all the same (README, "Replay: items that contradict the traces").
///
/// - A given pickup or dropoff farther than ``farPointMetres`` from the box the helper's fixes lie
///   in: the helper never reaches it. The line says how far (to the nearest point of the box, on
///   the mean-radius sphere) and, when the point read as LON,LAT (its two numbers swapped) lies
///   within ``farPointMetres`` of the box, that it looks swapped.
/// - Given timeline entries and a given cancellation more than
///   ``InferenceRules/recordingGapSeconds`` before the first fix or after the last (of any role):
///   one line listing them, each with how far outside it is.
///
/// Both are found after the replay, from the helper's finished scan and the recording's first and
/// last fix, so that one pass and two find the same.
enum ScenarioChecks {
    /// A given point farther than this from the box of the helper's fixes is warned about: 1 km is
    /// 20 geofence radii, far beyond any receiver's error or the box's approximation of the
    /// nearest fix, so the helper surely never came within the radius of it; and near enough that
    /// a point on the wrong side of a town is caught.
    static let farPointMetres = 1000.0

    /// The warnings for `scenario`, given the helper's scan (nil without a helper fix) and the
    /// recording's first and last fix times (nanoseconds).
    static func warnings(_ scenario: ResolvedScenario, helper: RoleScan?, recording: (first: Int64, last: Int64), rules: InferenceRules)
        -> [String]
    {
        var lines: [String] = []
        if let extent = helper?.extent {
            for (name, point) in [("pickup", scenario.pickup), ("dropoff", scenario.dropoff)] {
                guard let point, point.provenance != .inferred else { continue }
                if let line = farPoint(name, point, extent: extent, radius: rules.dwellRadiusMetres) { lines.append(line) }
            }
        }
        if let line = outsideRecording(scenario, recording: recording, tolerance: rules.recordingGapSeconds) { lines.append(line) }
        return lines
    }

    /// The line for a given point far from the helper's fixes, or nil when it is near them.
    static func farPoint(_ name: String, _ point: Sourced<Coordinate>, extent: BoundingBox, radius: Double) -> String? {
        let d = distance(point.value, to: extent)
        guard d > farPointMetres else { return nil }
        let p = point.value
        var line =
            "\(name) \(degrees(p)) (\(point.detail.isEmpty ? point.provenance.rawValue : point.detail)) is \(kilometres(d)) from the helper's fixes "
            + "(latitude \(DecimalText.fixed(extent.south, 6))…\(DecimalText.fixed(extent.north, 6)), "
            + "longitude \(DecimalText.fixed(extent.west, 6))…\(DecimalText.fixed(extent.east, 6))): "
            + "the helper never comes within \(fmt(radius)) m of it"
        if abs(p.longitude) <= 90, let swapped = try? Coordinate(latitude: p.longitude, longitude: p.latitude) {
            let s = distance(swapped, to: extent)
            if s <= farPointMetres {
                line +=
                    "; it looks swapped (LON,LAT): as \(degrees(swapped)) it would "
                    + (s == 0 ? "lie among them" : "be \(kilometres(s)) from them")
            }
        }
        return line
    }

    /// The one line listing the given times outside the recording by more than `tolerance`
    /// seconds, or nil when there is none.
    static func outsideRecording(_ scenario: ResolvedScenario, recording: (first: Int64, last: Int64), tolerance: Double) -> String? {
        var items: [(what: String, time: Timestamp)] = []
        var source = ""
        if let t = scenario.givenTimeline {
            source = t.detail.isEmpty ? t.provenance.rawValue : t.detail
            for e in t.value where e.provenance != .inferred { items.append((e.state.key, e.time)) }
        }
        if let c = scenario.cancelledAt {
            if source.isEmpty { source = c.detail.isEmpty ? c.provenance.rawValue : c.detail }
            items.append(("cancelledAt", c.value))
        }
        let first = Timestamp(nanoseconds: recording.first), last = Timestamp(nanoseconds: recording.last)
        var outside: [String] = []
        for item in items {
            let before = first.seconds(since: item.time), after = item.time.seconds(since: last)
            if before > tolerance {
                outside.append("\(item.what) at \(item.time.iso8601), \(span(before)) before the first fix")
            } else if after > tolerance {
                outside.append("\(item.what) at \(item.time.iso8601), \(span(after)) after the last fix")
            }
        }
        guard !outside.isEmpty else { return nil }
        let entries = outside.count == 1 ? "1 time" : "\(outside.count) times"
        return
            "timeline (\(source)): \(entries) outside the recording (\(first.iso8601) … \(last.iso8601)) by more than \(fmt(tolerance)) s: "
            + outside.joined(separator: "; ")
    }

    /// Metres from `p` to the nearest point of `box` (0 inside it): to the point with `p`'s
    /// latitude and longitude each clamped to the box's range (the nearer edge of longitude, across
    /// the antimeridian too), on the mean-radius sphere.
    static func distance(_ p: Coordinate, to box: BoundingBox) -> Double {
        let lat = min(max(p.latitude, box.south), box.north)
        var lon = p.longitude
        if !box.coversAllLongitudes, let onEdge = try? Coordinate(latitude: box.south, longitude: lon), !box.contains(onEdge) {
            let toWest = eastward(from: lon, to: box.west), fromEast = eastward(from: box.east, to: lon)
            lon = toWest <= fromEast ? box.west : box.east
        }
        guard let q = try? Coordinate(latitude: lat, longitude: lon) else { return 0 }
        return Haversine.distance(from: p, to: q)
    }

    private static func eastward(from a: Double, to b: Double) -> Double {
        let d = b - a
        return d < 0 ? d + 360 : d
    }

    private static func degrees(_ c: Coordinate) -> String {
        "\(DecimalText.fixed(c.latitude, 6)), \(DecimalText.fixed(c.longitude, 6))"
    }

    /// "0.4 km", "12 km", "5,834 km".
    static func kilometres(_ metres: Double) -> String {
        let km = metres / 1000
        guard km >= 10 else { return "\(DecimalText.fixed(km, 1)) km" }
        var digits = DecimalText.fixed(km, 0)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " km"
    }

    /// "45 s", "12.5 min", "3.2 h", "4.1 d".
    static func span(_ seconds: Double) -> String {
        if seconds < 120 { return "\(DecimalText.fixed(seconds, 0)) s" }
        if seconds < 7200 { return "\(DecimalText.fixed(seconds / 60, 1)) min" }
        return seconds < 172_800 ? "\(DecimalText.fixed(seconds / 3600, 1)) h" : "\(DecimalText.fixed(seconds / 86400, 1)) d"
    }
}
