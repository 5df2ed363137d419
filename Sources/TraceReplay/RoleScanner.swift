import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// A place the helper stayed: within ``InferenceRules/dwellRadiusMetres`` of the first fix of the
/// stay (the anchor) for at least ``InferenceRules/dwellSeconds``, with no recording gap (longer
/// than ``InferenceRules/recordingGapSeconds``) between two of its fixes.
struct Dwell: Hashable, Sendable {
    /// The anchor fix's time and the last fix's time within the radius.
    var start: Timestamp
    var end: Timestamp
    /// The mean position of the stay's fixes.
    var centre: Coordinate
    /// Fixes in the stay.
    var fixes: Int
}

/// What the first pass learns about one role's fixes, in time order: first and last fix, the
/// latitudes and longitudes they cover, when the role first went farther than the dwell radius
/// from its start, and its dwells.
struct RoleScan {
    var first: (time: Int64, coordinate: Coordinate)?
    var last: (time: Int64, coordinate: Coordinate)?
    /// The box the fixes lie in (``BoundingBox/extend(toInclude:)``, fix by fix).
    var extent: BoundingBox?
    /// The first fix farther than the radius from the first fix.
    var departure: Int64?
    var dwells: [Dwell] = []
    /// The stay still open at the end, whatever its length: every fix after its anchor is within
    /// the radius of the anchor.
    var finalStay: Dwell?
    /// Dwells found beyond ``RoleScanner/maximumDwells`` (only the latest is kept, in place of the last).
    var dwellsDropped = 0
}

extension RoleScan {
    /// Two files' scans of one role as one: the earlier first fix, the later last fix, a box
    /// holding both extents, the earlier departure, the dwells of both in start order.
    func combined(with b: RoleScan) -> RoleScan {
        var c = self
        if let f = b.first, c.first.map({ f.time < $0.time }) ?? true { c.first = f }
        if let l = b.last, c.last.map({ l.time > $0.time }) ?? true { c.last = l }
        if let e = b.extent { c.extent = c.extent.map { $0.including(e) } ?? e }
        if let d = b.departure { c.departure = min(c.departure ?? d, d) }
        c.dwells = (dwells + b.dwells).sorted { $0.start < $1.start }
        c.dwellsDropped += b.dwellsDropped
        return c
    }
}

extension BoundingBox {
    /// This box grown to include `other`'s four corners: a box holding both, except where the
    /// two together span more than half the circle of longitude (``extend(toInclude:)`` then takes
    /// the shorter way round) or `other` covers all longitudes.
    func including(_ other: BoundingBox) -> BoundingBox {
        var b = self
        for lat in [other.south, other.north] {
            for lon in [other.west, other.east] {
                if let c = try? Coordinate(latitude: lat, longitude: lon) { b.extend(toInclude: c) }
            }
        }
        return b
    }
}

/// Finds dwells by anchor-based stay-point detection, in O(1) memory per fix: a fix within the
/// radius of the anchor extends the stay; the first fix beyond it, or the first after a recording
/// gap (more than ``InferenceRules/recordingGapSeconds`` after the previous fix), closes the stay
/// (a dwell when it lasted at least the minimum time) and becomes the next anchor. So a phone that
/// stopped recording and started again nearby is not read as having stayed there meanwhile.
struct RoleScanner {
    static let maximumDwells = 100_000
    let radius: Double
    let minimumNanoseconds: Int64
    /// A gap between consecutive fixes longer than this ends the stay.
    let gapNanoseconds: Int64
    private(set) var scan = RoleScan()
    private var anchor: (time: Int64, coordinate: Coordinate)?
    private var lastInside: Int64 = 0
    private var count = 0
    private var sumLat = 0.0, sumLon = 0.0

    init(rules: InferenceRules) {
        radius = rules.dwellRadiusMetres
        minimumNanoseconds = Int64((rules.dwellSeconds * 1e9).rounded())
        let gap = rules.recordingGapSeconds * 1e9
        gapNanoseconds = gap.isFinite && gap < 9e18 ? Int64(max(gap, 0).rounded()) : .max
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
        if scan.first == nil {
            scan.first = (time, c)
            scan.extent = BoundingBox(c)
        } else {
            scan.extent!.extend(toInclude: c)
        }
        scan.last = (time, c)
        if scan.departure == nil, let first = scan.first, !Self.within(first.coordinate, c, radius) { scan.departure = time }
        guard let a = anchor else {
            start(time, c)
            return (true, nil)
        }
        // Every fix since the anchor is within the radius, so the previous fix is `lastInside`.
        if time - lastInside <= gapNanoseconds, Self.withinByDistance(a.coordinate, c, radius) {
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
