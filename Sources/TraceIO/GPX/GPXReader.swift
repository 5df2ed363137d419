import TraceGeodesy

/// Reads GPX 1.0 and 1.1: tracks, segments and track points; routes and route points;
/// waypoints. Any namespace prefix is accepted (`gpx:trkpt`); elements are matched by local name.
///
/// Per point: `lat`/`lon` attributes (in any order, either quote style); `<ele>`, `<time>`,
/// `<hdop>`, `<vdop>`, `<pdop>`, `<sat>`, `<fix>`, `<name>`, and GPX 1.0's `<speed>`/`<course>`;
/// in `<extensions>`, at any depth and under any prefix, `speed` and `course` (Garmin
/// TrackPointExtension, Apple's un-namespaced children), `hAcc`/`vAcc` (Apple) and
/// `accuracy_horizontal`/`accuracy_vertical` (OpenTracks), in metres, and `role`/`state` (as
/// ``GPXWriter`` writes them). Unknown elements are skipped; an empty element is no value. Times: ISO 8601 with `Z`, numeric offsets, any number of fractional digits; a time
/// without a zone is read as UTC and reported as an assumption.
///
/// Problems: malformed XML or a root other than `<gpx>` is a ``TraceReadError``; per-point
/// problems go through the shared checks (``Diagnostics``). Memory: the XML scanner's window
/// (1 MiB, growing only for a longer token) plus one point.
public struct GPXReader: TraceReader {
    public let format = TraceFormat.gpx
    private var scanner: XMLScanner
    private var checker: PointChecker
    private var queue = ItemQueue()
    private var rootChecked = false
    /// The text of the last item ``nextLean()`` reduced (a track's name, a point's role), if any.
    package var leanText: String?

    /// Where the reader is in the GPX structure.
    private var trackDepth = 0, segmentDepth = 0, routeDepth = 0
    private var pendingStart: PendingStart?
    /// The point being read, while `pointDepth` (its element's depth) is not 0. Built in place
    /// and handed out once, straight from ``next()``.
    private var point = PartialPoint()
    private var pointDepth = 0
    private var field: Field?
    private var fieldDepth = 0
    private var zoneAssumed = false
    /// Whether plain points are read whole (tests turn it off to compare both paths).
    var plainPoints = true
    /// Whether points of the commonest shape are scanned and parsed in one pass
    /// (``fusedPoint(into:)``) before ``plainPoint()`` is tried (tests turn it off to compare the paths).
    var fusedPoints = true
    /// Set by ``nextLean()`` when ``fusedPoint(into:)`` declined the element: ``next()`` then starts
    /// at ``plainPoint()``, as it would have after the same answer.
    private var skipFusedOnce = false
    /// The fields whose repetition in a point was stated (``repeated(_:)``).
    private var repeatsStated = 0
    /// Whether a point inside a point was stated.
    private var nestedPointStated = false
    /// How many points ``fusedPoint(into:)`` read (tests check that it is taken).
    private(set) var fusedCount = 0
    /// `ReadOptions.zonelessUTCOffset`: the offset of times written without a zone.
    private let zonelessOffset: Int?
    /// The date of the last common time the fused path read (``Timestamp/parseCommonUTC(_:day:)``).
    private var utcDay = Timestamp.CommonUTCDay()
    /// The lengths of the white space the fused path last found before a point (the low byte of
    /// `pointGap`), and inside one (a byte of `childGaps` each, by place: before the first child,
    /// the second, …, the eighth and later): what it expects next time
    /// (``skipPredictedSpaces(_:from:limit:gaps:place:)``).
    private var pointGap: UInt64 = 0, childGaps: UInt64 = 0

    private enum PendingStart { case track(String?), route(String?) }
    private enum PointKind { case track, route, waypoint }

    private struct PartialPoint {
        var kind = PointKind.track
        var latitude: Double?, longitude: Double?
        /// An unreadable lat/lon was already noted (so it is not counted again as missing).
        var coordinateNoted = false
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        /// The fields given so far (bit ``Field/rawValue``): a repeat is not read.
        var given = 0
    }

    private enum Field: Int, CustomStringConvertible {
        case elevation, time, hdop, vdop, pdop, satellites, fixType, name, speed, course
        case horizontalAccuracy, verticalAccuracy, role, state, containerName

        /// The field's bit in a set of fields.
        var bit: Int { 1 << rawValue }

        var description: String {
            switch self {
            case .elevation: "elevation"
            case .time: "time"
            case .hdop: "hdop"
            case .vdop: "vdop"
            case .pdop: "pdop"
            case .satellites: "satellite count"
            case .fixType: "fix type"
            case .name: "name"
            case .speed: "speed"
            case .course: "course"
            case .horizontalAccuracy: "horizontal accuracy"
            case .verticalAccuracy: "vertical accuracy"
            case .role: "role"
            case .state: "state"
            case .containerName: "name"
            }
        }

        /// The number it stores, for the fields that hold one.
        var measure: Fix.Measure? {
            switch self {
            case .elevation: .elevation
            case .hdop: .hdop
            case .vdop: .vdop
            case .pdop: .pdop
            case .speed: .speed
            case .course: .course
            case .horizontalAccuracy: .horizontalAccuracy
            case .verticalAccuracy: .verticalAccuracy
            case .time, .satellites, .fixType, .name, .role, .state, .containerName: nil
            }
        }
    }

    public var diagnostics: Diagnostics { checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = XMLScanner(source: source)
        checker = PointChecker(file: source.name, policy: options.policy)
        zonelessOffset = options.zonelessUTCOffset
    }

    /// Reads GPX from memory (tests).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    @inline(__always) public mutating func next() throws(TraceReadError) -> TraceItem? {
        var skipFused = skipFusedOnce
        skipFusedOnce = false
        while true {
            // Queued items go first; so the queue is empty whenever a token is handled, and a
            // point (the only item an end tag produces) can be returned directly, in file order.
            if let item = queue.pop() { return item }
            // A whole plain point in one call.
            if plainPoints && pointDepth == 0 && field == nil && pendingStart == nil {
                if fusedPoints && !skipFused {
                    var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
                    switch try fusedPoint(into: &fix) {
                    case .point(let kind): return GPXReader.item(kind, Fix(fix))
                    case .dropped: continue
                    case .notPlain: break
                    }
                }
                skipFused = false
                switch try plainPoint() {
                case .item(let item): return item
                case .dropped: continue
                case .notPlain: break
                }
            }
            // Inside a point, a child with only text (`<ele>442.1</ele>`) is read in one call.
            if pointDepth > 0 && field == nil, let text = scanner.simpleElement() {
                try simplePointChild(text: text)
                continue
            }
            switch try scanner.next() {
            case .endOfDocument:
                return nil
            case .start:
                try startElement()
            case .end:
                if let item = try endElement() { return item }
            case .text:
                break  // collected in scanner.text while a field is open
            }
        }
    }

    /// ``next()`` reduced for a replay (``LeanItem``, its text in ``leanText``). A fused point
    /// (the common case) is reduced straight from the fused path's result, so no
    /// `Optional<TraceItem>` is made and destroyed (that goes through value witnesses); any other
    /// item comes from ``next()``. The same items in the same order either way.
    package mutating func nextLean() throws(TraceReadError) -> LeanItem {
        while queue.isEmpty && plainPoints && fusedPoints && pointDepth == 0 && field == nil && pendingStart == nil {
            var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
            switch try fusedPoint(into: &fix) {
            case .point(let kind): return LeanItem(GPXReader.item(kind, Fix(fix)), text: &leanText)
            case .dropped: continue
            case .notPlain: skipFusedOnce = true  // next() goes on where the fused path declined
            }
            break
        }
        return LeanItem(try next(), text: &leanText)
    }

    /// Reads up to `limit` items into `batch` (``TraceReader/read(into:limit:)``): a point of the
    /// fused path's shape goes from ``fusedPoint(into:)`` straight into the columns (as ``nextLean()``
    /// takes it); anything else through ``next()``. The same items and diagnostics as ``next()``.
    public mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
        batch.removeAll()
        var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))  // fusedPoint(into:) starts it afresh
        while batch.count < limit {
            if !skipFusedOnce && queue.isEmpty && plainPoints && fusedPoints && pointDepth == 0 && field == nil && pendingStart == nil {
                // A run of fused points: fusedPoint(into:) changes none of the conditions above
                // unless it declines.
                while true {
                    switch try fusedPoint(into: &fix) {
                    case .point(let kind):
                        batch.appendOwned(kind, fix)  // the batch is this call's since removeAll()
                        if batch.count < limit { continue }
                        return batch.count
                    case .dropped: continue
                    case .notPlain: skipFusedOnce = true  // next() goes on where the fused path declined
                    }
                    break
                }
            }
            guard let item = try next() else { break }
            batch.append(item)
        }
        return batch.count
    }

    @inline(__always) private static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        XMLScanner.equal(a, UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    /// The field a point child element carries: by local name, direct children only for the GPX
    /// elements, any depth (extensions) for speed, course, accuracies, role and state.
    private static func pointField(_ local: UnsafeBufferPointer<UInt8>, direct: Bool) -> Field? {
        guard let first = local.first else { return nil }
        switch (local.count, first) {
        case (3, UInt8(ascii: "e")): return direct && equals(local, "ele") ? .elevation : nil
        case (3, UInt8(ascii: "s")): return direct && equals(local, "sat") ? .satellites : nil
        case (3, UInt8(ascii: "f")): return direct && equals(local, "fix") ? .fixType : nil
        case (4, UInt8(ascii: "t")): return direct && equals(local, "time") ? .time : nil
        case (4, UInt8(ascii: "h")):
            if direct && equals(local, "hdop") { return .hdop }
            return equals(local, "hAcc") ? .horizontalAccuracy : nil
        case (4, UInt8(ascii: "v")):
            if direct && equals(local, "vdop") { return .vdop }
            return equals(local, "vAcc") ? .verticalAccuracy : nil
        case (4, UInt8(ascii: "p")): return direct && equals(local, "pdop") ? .pdop : nil
        case (4, UInt8(ascii: "n")): return direct && equals(local, "name") ? .name : nil
        case (4, UInt8(ascii: "r")): return !direct && equals(local, "role") ? .role : nil
        case (5, UInt8(ascii: "s")):
            if equals(local, "speed") { return .speed }
            return !direct && equals(local, "state") ? .state : nil
        case (6, UInt8(ascii: "c")): return equals(local, "course") ? .course : nil
        case (19, UInt8(ascii: "a")): return equals(local, "accuracy_horizontal") ? .horizontalAccuracy : nil
        case (17, UInt8(ascii: "a")): return equals(local, "accuracy_vertical") ? .verticalAccuracy : nil
        default: return nil
        }
    }

    private mutating func flushPendingStart() {
        switch pendingStart {
        case .track(let name): queue.push(.trackStart(name: name))
        case .route(let name): queue.push(.routeStart(name: name))
        case nil: break
        }
        pendingStart = nil
    }

    private mutating func startElement() throws(TraceReadError) {
        let local = scanner.localName
        let depth = scanner.depth
        if !rootChecked {
            rootChecked = true
            guard GPXReader.equals(local, "gpx") else {
                throw scanner.error("not a GPX document: the root element is <\(String(decoding: scanner.name, as: UTF8.self))>, expected <gpx>")
            }
            return
        }
        if pointDepth > 0 {
            // Inside a point: pick the fields we read; everything else is skipped, but a point
            // nested in a point (not GPX) is said to be skipped.
            let direct = depth == pointDepth + 1
            let f = GPXReader.pointField(local, direct: direct)
            if let f, field == nil {
                beginField(f, depth: depth)
            } else if f == nil && !nestedPointStated && (GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt")) {
                nestedPointStated = true
                checker.diagnostics.assume("points inside another point are not read (first at line \(scanner.line))")
            }
            return
        }
        if GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt") {
            let kind: PointKind = GPXReader.equals(local, "wpt") ? .waypoint : GPXReader.equals(local, "rtept") ? .route : .track
            if kind == .track && trackDepth > 0 && segmentDepth == 0 {
                // A point directly in <trk>: an implicit segment.
                flushPendingStart()
                queue.push(.segmentStart)
                checker.startSegment()
                segmentDepth = -1
            }
            if kind != .waypoint { flushPendingStart() }
            point = PartialPoint(kind: kind)
            pointDepth = depth
            let lat = scanner.attribute("lat"), lon = scanner.attribute("lon")
            point.latitude = try number(lat, what: "latitude", required: true)
            point.longitude = try number(lon, what: "longitude", required: true)
            point.coordinateNoted = (lat != nil && point.latitude == nil) || (lon != nil && point.longitude == nil)
            return
        }
        if GPXReader.equals(local, "trk") && depth == 2 {
            trackDepth = depth
            pendingStart = .track(nil)
        } else if GPXReader.equals(local, "rte") && depth == 2 {
            routeDepth = depth
            pendingStart = .route(nil)
        } else if GPXReader.equals(local, "trkseg") && trackDepth > 0 && depth == trackDepth + 1 {
            flushPendingStart()
            segmentDepth = depth
            queue.push(.segmentStart)
            checker.startSegment()
        } else if GPXReader.equals(local, "name") && pendingStart != nil && depth == max(trackDepth, routeDepth) + 1 {
            beginField(.containerName, depth: depth)
        }
    }

    private mutating func beginField(_ f: Field, depth: Int) {
        field = f
        fieldDepth = depth
        scanner.clearText()
        scanner.captureText = true
    }

    /// Handles a whole text-only element inside a point (``XMLScanner/simpleElement()``), as
    /// its start tag, text and end tag would be.
    private mutating func simplePointChild(text: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        let depth = scanner.depth + 1
        if let f = GPXReader.pointField(scanner.localName, direct: depth == pointDepth + 1) {
            try finishField(f, text: text)
        }
    }

    /// Handles an end tag; returns the point it completes, if any.
    private mutating func endElement() throws(TraceReadError) -> TraceItem? {
        let closedDepth = scanner.depth + 1  // the scanner has already popped the closed element
        if let f = field, closedDepth == fieldDepth {
            field = nil
            scanner.captureText = false
            try finishField(f, text: scanner.text)
            return nil
        }
        if pointDepth > 0 && closedDepth == pointDepth {
            return try finishPoint()
        }
        if segmentDepth > 0 && closedDepth == segmentDepth { segmentDepth = 0 }
        if trackDepth > 0 && closedDepth == trackDepth {
            flushPendingStart()
            trackDepth = 0
            segmentDepth = 0
        }
        if routeDepth > 0 && closedDepth == routeDepth {
            flushPendingStart()
            routeDepth = 0
        }
        return nil
    }

    /// `bytes` without leading and trailing XML whitespace.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = bytes.count
        while lo < hi && XMLScanner.isSpace(bytes[lo]) { lo += 1 }
        while hi > lo && XMLScanner.isSpace(bytes[hi - 1]) { hi -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lo..<hi])
    }

    /// Parses a decimal number; notes an unreadable one. `required` values note a missing coordinate.
    private mutating func number(_ text: UnsafeBufferPointer<UInt8>?, what: String, required: Bool = false) throws(TraceReadError) -> Double? {
        guard let text else { return nil }
        let v = DecimalParser.parseDouble(GPXReader.trimmed(text))
        if let v, v.isFinite { return v }
        try checker.note(required ? .invalidCoordinate : .invalidValue, line: scanner.line, "\(what) \(TextValue.notANumber(text))")
        return nil
    }

    /// A point field's text, read: the value to store, or the problem to report.
    private enum FieldValue {
        /// An empty element (`<fix/>`, `<ele></ele>`): no value, nothing to report.
        case none
        case number(Double)
        case time(Timestamp, hadZone: Bool)
        case count(Int)
        case fix(FixType)
        case text(String)
        case problem(ProblemKind, String)
    }

    /// Reads field `f` from its element's text, without side effects (the value rules, in one
    /// place for both paths).
    private static func read(_ f: Field, _ raw: UnsafeBufferPointer<UInt8>) -> FieldValue {
        let text = GPXReader.trimmed(raw)
        if text.isEmpty { return .none }
        func shown() -> String { String(decoding: text.prefix(40), as: UTF8.self) }
        func number(_ what: String, nonNegative: Bool = false) -> FieldValue {
            guard let v = DecimalParser.parseDouble(text), v.isFinite else { return .problem(.invalidValue, "\(what) \(TextValue.notANumber(text))") }
            if nonNegative && v < 0 { return .problem(.invalidValue, "\(what) \(v) is negative") }
            return .number(v)
        }
        switch f {
        case .elevation: return number("elevation")
        case .time:
            guard let parsed = Timestamp.parseISO8601(text) else { return .problem(.invalidTime, "'\(shown())'") }
            return .time(parsed.timestamp, hadZone: parsed.hadZone)
        case .hdop: return number("hdop", nonNegative: true)
        case .vdop: return number("vdop", nonNegative: true)
        case .pdop: return number("pdop", nonNegative: true)
        case .speed: return number("speed", nonNegative: true)
        case .horizontalAccuracy: return number("horizontal accuracy", nonNegative: true)
        case .verticalAccuracy: return number("vertical accuracy", nonNegative: true)
        case .satellites:
            guard case .number(let v) = number("satellites") else { return number("satellites") }
            return v >= 0 && v == v.rounded() && v < 1000 ? .count(Int(v)) : .problem(.invalidValue, "satellites \(v)")
        case .course:
            guard case .number(let v) = number("course") else { return number("course") }
            return v >= 0 && v <= 360 ? .number(v) : .problem(.invalidValue, "course \(v) outside [0, 360]")
        case .fixType:
            let s = String(decoding: text, as: UTF8.self)
            if let t = FixType(rawValue: s) { return .fix(t) }
            return .problem(.invalidValue, "fix '\(s.prefix(40))' (expected none, 2d, 3d, dgps or pps)")
        case .name, .role, .state, .containerName: return .text(String(decoding: text, as: UTF8.self))
        }
    }

    /// The time a field value stores, shifted by the zone-less offset when it has no zone; nil
    /// when the shift leaves the representable range.
    private func storedTime(_ t: Timestamp, hadZone: Bool) -> Timestamp? {
        guard !hadZone, let offset = zonelessOffset else { return t }
        return t.adding(seconds: -offset)
    }

    /// States that a point gave field `f` more than once (two `<time>` elements, or `<speed>` and
    /// an extension's speed): the first is read, the repeats are not.
    private mutating func repeated(_ f: Field) {
        guard repeatsStated & f.bit == 0 else { return }  // once per field, however many points
        repeatsStated |= f.bit
        checker.diagnostics.assume("a point gives its \(f) more than once (first at line \(scanner.line)): the first is read")
    }

    /// Stores (or reports) the value of field `f` in the current point.
    private mutating func apply(_ f: Field, _ value: FieldValue) throws(TraceReadError) {
        switch value {
        case .none: return
        case .problem(let kind, let detail): try checker.note(kind, line: scanner.line, detail)
        case .time(let t, let hadZone):
            point.values.time = storedTime(t, hadZone: hadZone)
            if point.values.time == nil {
                try checker.note(.invalidTime, line: scanner.line, "the time shifted by the UTC offset leaves 1677–2262")
            } else if !hadZone {
                assumeZoneless()
            }
        default: GPXReader.store(f, value, in: &point.values)
        }
    }

    /// States, once, that times without a zone were read as UTC (unless an offset was given).
    private mutating func assumeZoneless() {
        if zonelessOffset == nil && !zoneAssumed {
            zoneAssumed = true
            checker.diagnostics.assume("times without a zone were read as UTC")
        }
    }

    /// Stores a readable value (a number, count, fix type or text) of field `f` in `values`.
    private static func store(_ f: Field, _ value: FieldValue, in values: inout Fix) {
        switch value {
        case .number(let v):
            if let m = f.measure { values.set(m, v) }
        case .count(let n): values.satellites = n
        case .fix(let t): values.fixType = t
        case .text(let s):
            switch f {
            case .name: values.name = s
            case .role: values.role = s
            case .state: values.state = s
            default: break
            }
        case .none, .problem, .time: break
        }
    }

    /// Reads the value of field `f` from its element's text.
    private mutating func finishField(_ f: Field, text raw: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        if f == .containerName {
            let name = String(decoding: GPXReader.trimmed(raw), as: UTF8.self)
            switch pendingStart {
            case .track: pendingStart = .track(name)
            case .route: pendingStart = .route(name)
            case nil: break
            }
            return
        }
        guard pointDepth > 0 else { return }
        guard point.given & f.bit == 0 else { return repeated(f) }
        point.given |= f.bit
        try apply(f, GPXReader.read(f, raw))
    }

    /// What ``plainPoint()`` did.
    private enum PlainPoint {
        /// The next element is not a plain point, or one with a problem to report: read it token
        /// by token (so every report names the line the general path names).
        case notPlain
        /// A point read whole and dropped by the checks.
        case dropped
        case item(TraceItem)
    }

    /// The next point, when it is plain (``XMLScanner/plainElement(maximumChildren:where:)``):
    /// a `trkpt` in an explicit segment, an `rtept` in a route, or a `wpt`, with a readable
    /// `lat` and `lon`, and children that are point fields, all readable, or elements the reader
    /// skips anyway. It yields exactly what the token-by-token path yields for it.
    private mutating func plainPoint() throws(TraceReadError) -> PlainPoint {
        var kind = PointKind.track
        let inSegment = trackDepth > 0 && segmentDepth > 0 && scanner.depth == segmentDepth
        let inRoute = routeDepth > 0 && scanner.depth == routeDepth
        guard scanner.plainElement(maximumChildren: 32, where: { local in
            if GPXReader.equals(local, "trkpt") { kind = .track; return inSegment }
            if GPXReader.equals(local, "rtept") { kind = .route; return inRoute }
            if GPXReader.equals(local, "wpt") { kind = .waypoint; return true }
            return false
        }) else { return .notPlain }
        guard let latText = scanner.attribute("lat"), let lonText = scanner.attribute("lon"),
              let latitude = DecimalParser.parseDouble(GPXReader.trimmed(latText)), latitude.isFinite,
              let longitude = DecimalParser.parseDouble(GPXReader.trimmed(lonText)), longitude.isFinite else {
            scanner.undoPlainElement()
            return .notPlain
        }
        // Every child is read before anything is stored or stated, so that a point with a problem
        // can still go back to the token-by-token path.
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        var zoneless = false
        var given = 0
        for k in 0..<scanner.plainChildCount {
            let child = scanner.plainChild(k)
            guard let f = GPXReader.pointField(child.localName, direct: true) else {
                let local = child.localName
                if GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt") {
                    scanner.undoPlainElement()  // a point inside a point: the general path states it
                    return .notPlain
                }
                continue
            }
            guard given & f.bit == 0 else {  // a repeated field: the general path states it
                scanner.undoPlainElement()
                return .notPlain
            }
            given |= f.bit
            let value = GPXReader.read(f, child.text)
            switch value {
            case .problem:
                scanner.undoPlainElement()
                return .notPlain
            case .time(let t, let hadZone):
                guard let stored = storedTime(t, hadZone: hadZone) else {
                    scanner.undoPlainElement()
                    return .notPlain
                }
                values.time = stored
                zoneless = zoneless || !hadZone
            default:
                GPXReader.store(f, value, in: &values)
            }
        }
        if zoneless { assumeZoneless() }
        point = PartialPoint(kind: kind, latitude: latitude, longitude: longitude, values: values)
        guard let item = try finishPoint() else { return .dropped }
        return .item(item)
    }

    /// Checks the point just closed; returns its item unless it is dropped.
    private mutating func finishPoint() throws(TraceReadError) -> TraceItem? {
        pointDepth = 0
        let c = point.coordinateNoted ? nil : try checker.coordinate(latitude: point.latitude, longitude: point.longitude, line: scanner.line)
        if let c { point.values.coordinate = c }
        // Route points and waypoints are checked for position and values, not for time order.
        guard try checker.accept(valid: c != nil, time: point.values.time, line: scanner.line, ordered: point.kind == .track) else { return nil }
        switch point.kind {
        case .track: return .trackPoint(point.values)
        case .route: return .routePoint(point.values)
        case .waypoint: return .waypoint(point.values)
        }
    }
}

// MARK: - Fused points

extension GPXReader {
    /// The 8 bytes at `p`, the first in the lowest byte.
    @inline(__always) private static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// A mask of the lowest `n` bytes (1…8): one shift, no branch.
    @inline(__always) private static func lowBytes(_ n: Int) -> UInt64 {
        UInt64.max &>> UInt64(truncatingIfNeeded: 64 &- 8 &* n)
    }

    /// Skips XML white space from `i` (a byte loop: the gaps inside a tag are short).
    @inline(__always) private static func skipShortSpaces(_ base: UnsafePointer<UInt8>, _ i: inout Int, limit: Int) {
        while i < limit && XMLScanner.isSpace(base[i]) { i &+= 1 }
    }

    /// ``XMLScanner/skipCheckedSpaces(_:from:limit:)`` that expects the same run of white space
    /// as last time at this place: byte `place / 8` of `gaps` (0…15, updated to a run shorter
    /// than 16 bytes). When the 16 bytes from `from` hold exactly that run, the result is `from`
    /// plus the expected length, which does not wait for the bytes' compare (files repeat their
    /// indentation from point to point), else what the compare finds. The same result either way.
    @inline(__always) private static func skipPredictedSpaces(_ base: UnsafePointer<UInt8>, from i: Int, limit: Int, gaps: inout UInt64, place: UInt64) -> Int {
        // The expectation first: the compiler then keeps it, not the compare's count, where they
        // are equal.
        let predicted = (gaps &>> place) & 0xFF
        guard limit &- i >= 16 else { return XMLScanner.skipCheckedSpaces(base, from: i, limit: limit) }
        let gap = (ByteMasks.atMost(0x20, in: base + i) ^ 0xFFFF).trailingZeroBitCount  // 32: all white space
        if UInt64(truncatingIfNeeded: gap) == predicted { return i &+ Int(truncatingIfNeeded: predicted) }
        guard gap < 16 else { return XMLScanner.skipCheckedSpaces(base, from: i &+ 16, limit: limit) }
        gaps = gaps & ~(0xFF &<< place) | UInt64(truncatingIfNeeded: gap) &<< place
        return i &+ gap
    }

    /// The number in text from `i` up to `terminator` (optionally surrounded by XML white space),
    /// exactly as ``DecimalParser/parseDouble(_:)-(UnsafeBufferPointer<UInt8>)`` reads the trimmed
    /// text; `i` is left at the terminator. Nil (with `i` unchanged) when the text is anything
    /// else, the value is not finite, or the terminator is not in the window. Inlined into
    /// ``fusedPoint(into:)`` (`@inline(always)`, guaranteed: `@inline(__always)` was declined
    /// there, and the call cost about 20 instructions per number).
    @inline(always)
    private static func fusedNumber(_ base: UnsafePointer<UInt8>, _ i: inout Int, limit: Int, until terminator: UInt8) -> Double? {
        var j = i
        skipShortSpaces(base, &j, limit: limit)
        guard j < limit else { return nil }
        let value: Double
        if let (v, length) = DecimalParser.parseCommonPrefix(base + j, limit: limit &- j) {
            value = v  // finite: the common shape's values are
            j &+= length
        } else {
            guard let (v, length) = DecimalParser.parseGeneralPrefix(base + j, limit: limit &- j), v.isFinite else { return nil }
            value = v
            j &+= length
        }
        // The terminator at once (usual), else after white space.
        guard j < limit else { return nil }
        if base[j] != terminator {
            skipShortSpaces(base, &j, limit: limit)
            guard j < limit, base[j] == terminator else { return nil }
        }
        i = j
        return value
    }

    /// The next point, when it has the commonest shape, scanned and parsed in one pass: after
    /// white space, an unprefixed `<trkpt` (in an explicit segment), `<rtept` (in a route) or
    /// `<wpt`; exactly the attributes `lat` and `lon` (in either order, either quote), each a
    /// number with at most white space around it, a latitude in [-90, 90] and a longitude in
    /// (-180, 180]; then, between white space, unprefixed children `<ele>`, `<time>`, `<hdop>`,
    /// `<vdop>`, `<pdop>`, `<sat>`, `<speed>`, `<course>`, `<hAcc>` or `<vAcc>` whose text is a
    /// readable value (a number is parsed straight from the text, a time from its first byte to
    /// its end) and whose end tag follows at once; then the end tag; all in the scanner's window.
    /// Anything else (another attribute, child, prefix, an entity reference, a comment, a value
    /// with a problem, a time that the zone-less offset shifts out of range, the window's end)
    /// gives `.notPlain` having changed nothing but `values` (which the caller then drops), and
    /// the general paths read the element. A point's values go into `values` (a plain
    /// ``Fix/Numbers``: the callers wrap it in a ``Fix`` with no texts, so nothing is retained or
    /// released per point) and its kind comes back. What it accepts, it reads exactly as the token-by-token path does (same values,
    /// items and diagnostics; the checks run with the scanner after the end tag, as there).
    private mutating func fusedPoint(into values: inout Fix.Numbers) throws(TraceReadError) -> FusedPoint {
        guard let window = scanner.elementWindow() else { return .notPlain }
        let base = window.base, limit = window.limit
        var i = GPXReader.skipPredictedSpaces(base, from: window.position, limit: limit, gaps: &pointGap, place: 0)
        guard limit &- i >= 8 else { return .notPlain }
        let head = GPXReader.load8(base + i)
        let kind: PointKind
        let nameLength: Int
        let endTag: UInt64
        if head & 0xFFFF_FFFF_FFFF == 0x7470_6B72_743C {  // "<trkpt"
            guard trackDepth > 0 && segmentDepth > 0 && scanner.depth == segmentDepth else { return .notPlain }
            kind = .track
            nameLength = 5
            endTag = 0x3E74_706B_7274_2F3C  // "</trkpt>"
        } else if head & 0xFFFF_FFFF_FFFF == 0x7470_6574_723C {  // "<rtept"
            guard routeDepth > 0 && scanner.depth == routeDepth else { return .notPlain }
            kind = .route
            nameLength = 5
            endTag = 0x3E74_7065_7472_2F3C  // "</rtept>"
        } else if head & 0xFFFF_FFFF == 0x7470_773C {  // "<wpt"
            kind = .waypoint
            nameLength = 3
            endTag = 0x3E74_7077_2F3C  // "</wpt>"
        } else {
            return .notPlain
        }
        i &+= 1 &+ nameLength
        guard XMLScanner.isSpace(base[i]) else { return .notPlain }

        // Attributes: lat and lon, once each.
        var latitude = 0.0, longitude = 0.0
        var seen = 0
        while true {
            GPXReader.skipShortSpaces(base, &i, limit: limit)
            guard limit &- i >= 8 else { return .notPlain }
            if base[i] == UInt8(ascii: ">") { break }
            let name = UInt32(truncatingIfNeeded: GPXReader.load8(base + i))
            let isLatitude = name == 0x3D74_616C  // "lat="
            guard isLatitude || name == 0x3D6E_6F6C else { return .notPlain }  // "lon="
            let bit = isLatitude ? 1 : 2
            guard seen & bit == 0 else { return .notPlain }
            seen |= bit
            let quote = base[i &+ 4]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .notPlain }
            i &+= 5
            guard let value = GPXReader.fusedNumber(base, &i, limit: limit, until: quote) else { return .notPlain }
            if isLatitude { latitude = value } else { longitude = value }
            i &+= 1
            guard i < limit else { return .notPlain }
            if base[i] == UInt8(ascii: ">") { break }
            guard XMLScanner.isSpace(base[i]) else { return .notPlain }
        }
        // Positions the checks would refuse or change go the general way (which reports them).
        guard seen == 3, latitude >= -90, latitude <= 90, longitude > -180, longitude <= 180 else { return .notPlain }
        i &+= 1

        // Children, then the end tag.
        values = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: latitude, longitude: longitude))
        var zoneless = false
        var given = 0
        var gaps = childGaps, place: UInt64 = 0  // place: 8 × the child's index, at most 56
        while true {
            i = GPXReader.skipPredictedSpaces(base, from: i, limit: limit, gaps: &gaps, place: place)
            place = min(place &+ 8, 56)
            guard limit &- i >= 8 else { return .notPlain }
            let tag = GPXReader.load8(base + i)
            if tag & 0xFFFF == 0x2F3C {  // "</"
                let endLength = nameLength &+ 3
                guard tag & GPXReader.lowBytes(endLength) == endTag else { return .notPlain }
                scanner.consumeElement(endName: (i &+ 2)..<(i &+ 2 &+ nameLength), end: i &+ endLength)
                break
            }
            let f: Field
            // Per name: its length with '<' and '>', and its end tag's first eight bytes (all of
            // it but course's '>') with their mask, as constants.
            let tagLength: Int
            let childEndTag: UInt64, endMask: UInt64
            switch UInt8(truncatingIfNeeded: tag &>> 8) {
            case UInt8(ascii: "e"):
                guard tag & 0xFF_FFFF_FFFF == 0x3E_656C_653C else { return .notPlain }  // "<ele>"
                f = .elevation
                (tagLength, childEndTag, endMask) = (5, 0x3E65_6C65_2F3C, 0xFFFF_FFFF_FFFF)  // "</ele>"
            case UInt8(ascii: "t"):
                guard tag & 0xFFFF_FFFF_FFFF == 0x3E65_6D69_743C else { return .notPlain }  // "<time>"
                f = .time
                (tagLength, childEndTag, endMask) = (6, 0x3E_656D_6974_2F3C, 0xFF_FFFF_FFFF_FFFF)  // "</time>"
            case UInt8(ascii: "h"):
                switch tag & 0xFFFF_FFFF_FFFF {
                case 0x3E70_6F64_683C:  // "<hdop>"
                    f = .hdop
                    childEndTag = 0x3E_706F_6468_2F3C  // "</hdop>"
                case 0x3E63_6341_683C:  // "<hAcc>"
                    f = .horizontalAccuracy
                    childEndTag = 0x3E_6363_4168_2F3C  // "</hAcc>"
                default: return .notPlain
                }
                (tagLength, endMask) = (6, 0xFF_FFFF_FFFF_FFFF)
            case UInt8(ascii: "v"):
                switch tag & 0xFFFF_FFFF_FFFF {
                case 0x3E70_6F64_763C:  // "<vdop>"
                    f = .vdop
                    childEndTag = 0x3E_706F_6476_2F3C  // "</vdop>"
                case 0x3E63_6341_763C:  // "<vAcc>"
                    f = .verticalAccuracy
                    childEndTag = 0x3E_6363_4176_2F3C  // "</vAcc>"
                default: return .notPlain
                }
                (tagLength, endMask) = (6, 0xFF_FFFF_FFFF_FFFF)
            case UInt8(ascii: "p"):
                guard tag & 0xFFFF_FFFF_FFFF == 0x3E70_6F64_703C else { return .notPlain }  // "<pdop>"
                f = .pdop
                (tagLength, childEndTag, endMask) = (6, 0x3E_706F_6470_2F3C, 0xFF_FFFF_FFFF_FFFF)  // "</pdop>"
            case UInt8(ascii: "s"):
                if tag & 0xFF_FFFF_FFFF == 0x3E_7461_733C {  // "<sat>"
                    f = .satellites
                    (tagLength, childEndTag, endMask) = (5, 0x3E74_6173_2F3C, 0xFFFF_FFFF_FFFF)  // "</sat>"
                } else if tag & 0xFF_FFFF_FFFF_FFFF == 0x3E_6465_6570_733C {  // "<speed>"
                    f = .speed
                    (tagLength, childEndTag, endMask) = (7, 0x3E64_6565_7073_2F3C, .max)  // "</speed>"
                } else {
                    return .notPlain
                }
            case UInt8(ascii: "c"):
                guard tag == 0x3E65_7372_756F_633C else { return .notPlain }  // "<course>"
                f = .course
                (tagLength, childEndTag, endMask) = (8, 0x6573_7275_6F63_2F3C, .max)  // "</course", then '>'
            default:
                return .notPlain
            }
            guard given & f.bit == 0 else { return .notPlain }  // a repeated field: the general path states it
            given |= f.bit
            i &+= tagLength
            if f == .time {
                // The time's text: from its first byte (after any white space), at least the 19
                // bytes every form has, then up to white space or markup; then only white space
                // before the '<'. Exactly the trimmed text the other paths parse.
                var j = i
                GPXReader.skipShortSpaces(base, &j, limit: limit)
                guard limit &- j > 20 else { return .notPlain }
                var e = j &+ 19
                // The usual 20 bytes then '<' at once, else the byte loop.
                let b19 = base[e]
                if base[j &+ 20] == UInt8(ascii: "<") && b19 != UInt8(ascii: "<") && b19 != UInt8(ascii: "&") && b19 > 0x20 {
                    e &+= 1
                    i = e
                } else {
                    while e < limit {
                        let b = base[e]
                        if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || XMLScanner.isSpace(b) { break }
                        e &+= 1
                    }
                    i = e
                    GPXReader.skipShortSpaces(base, &i, limit: limit)
                    guard i < limit, base[i] == UInt8(ascii: "<") else { return .notPlain }
                }
                if e &- j == 20, let t = Timestamp.parseCommonUTC(base + j, day: &utcDay) {
                    values.time = t
                } else {
                    guard let parsed = Timestamp.parseISO8601(UnsafeBufferPointer(start: base + j, count: e &- j)),
                          let stored = storedTime(parsed.timestamp, hadZone: parsed.hadZone) else { return .notPlain }
                    values.time = stored
                    zoneless = zoneless || !parsed.hadZone
                }
            } else {
                guard let v = GPXReader.fusedNumber(base, &i, limit: limit, until: UInt8(ascii: "<")),
                      GPXReader.storeFused(f, v, in: &values) else { return .notPlain }
            }
            // The end tag: "</" and the start tag's name and '>'.
            guard limit &- i > 8 else { return .notPlain }
            guard GPXReader.load8(base + i) & endMask == childEndTag else { return .notPlain }
            if tagLength == 8 {
                guard base[i &+ 8] == UInt8(ascii: ">") else { return .notPlain }
            }
            i &+= tagLength &+ 1
        }
        fusedCount &+= 1
        childGaps = gaps
        if zoneless { assumeZoneless() }
        // As ``finishPoint()``, for a position already known to be valid (nothing to note).
        guard try checker.accept(valid: true, time: values.time, line: scanner.line, ordered: kind == .track) else { return .dropped }
        switch kind {
        case .track: return .point(.trackPoint)
        case .route: return .point(.routePoint)
        case .waypoint: return .point(.waypoint)
        }
    }

    /// What ``fusedPoint(into:)`` did: as ``PlainPoint``, but a point's values are in the numbers
    /// passed in (no copy through an enum's payload), and only its kind comes back.
    private enum FusedPoint {
        case notPlain, dropped
        case point(FixBatch.Kind)
    }

    /// The item of a fused point of kind `kind`.
    @inline(__always)
    private static func item(_ kind: FixBatch.Kind, _ values: consuming Fix) -> TraceItem {
        switch kind {
        case .routePoint: .routePoint(values)
        case .waypoint: .waypoint(values)
        default: .trackPoint(values)
        }
    }

    /// Stores number `v` of field `f` when ``read(_:_:)`` would read it without a problem;
    /// returns false (storing nothing) when it would report one.
    @inline(__always)
    private static func storeFused(_ f: Field, _ v: Double, in values: inout Fix.Numbers) -> Bool {
        switch f {
        case .elevation: values.elevation = v
        case .hdop: guard !(v < 0) else { return false }; values.hdop = v
        case .vdop: guard !(v < 0) else { return false }; values.vdop = v
        case .pdop: guard !(v < 0) else { return false }; values.pdop = v
        case .speed: guard !(v < 0) else { return false }; values.speed = v
        case .horizontalAccuracy: guard !(v < 0) else { return false }; values.horizontalAccuracy = v
        case .verticalAccuracy: guard !(v < 0) else { return false }; values.verticalAccuracy = v
        case .satellites:
            guard v >= 0 && v == v.rounded() && v < 1000 else { return false }
            values.satellites = Int(v)
        case .course:
            guard v >= 0 && v <= 360 else { return false }
            values.course = v
        default: return false
        }
        return true
    }
}
