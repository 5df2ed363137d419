import TraceDomain
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
/// problems go through the shared checks (``Diagnostics``). A file that ends inside its `<gpx>`
/// element (cut off mid-write) keeps every point completed before the cut, drops the point the
/// cut falls in, and counts one ``ProblemKind/truncated`` problem at its last line; under
/// ``ProblemPolicy/fail`` it is a ``TraceReadError`` as before. Every path (fused, plain, token
/// by token, the replay's reduced one) ends at the same point. Memory: the XML scanner's window
/// (1 MiB, growing only for a longer token) plus one point.
public struct GPXReader: TraceReader {
    public let format = TraceFormat.gpx
    var scanner: XMLScanner
    package var checker: PointChecker
    private var queue = ItemQueue()
    private var rootChecked = false
    /// The text of the last item ``nextLean()`` reduced (a track's name, a point's role), if any.
    package var leanText: String?

    /// Where the reader is in the GPX structure.
    var trackDepth = 0, segmentDepth = 0, routeDepth = 0
    var pendingStart: PendingStart?
    /// The point being read, while `pointDepth` (its element's depth) is not 0. Built in place
    /// and handed out once, straight from ``next()``.
    var point = PartialPoint()
    var pointDepth = 0
    private var field: Field?
    private var fieldDepth = 0
    var zoneAssumed = false
    /// Whether plain points are read whole (``ReadPaths/plain``; tests turn it off to compare both
    /// paths), fixed at initialisation.
    private let plainPoints: Bool
    /// Whether points of the commonest shape are scanned and parsed in one pass
    /// (``fusedPoint(into:)``) before ``plainPoint()`` is tried (``ReadPaths/fused``; tests turn it
    /// off to compare the paths), fixed at initialisation.
    private let fusedPoints: Bool
    /// Set by ``nextLean()`` when ``fusedPoint(into:)`` declined the element: ``next()`` then starts
    /// at ``plainPoint()``, as it would have after the same answer.
    private var skipFusedOnce = false
    /// The fields whose repetition in a point was stated (``repeated(_:)``).
    var repeatsStated = 0
    /// Whether a point inside a point was stated.
    private var nestedPointStated = false
    /// How many points ``fusedPoint(into:)`` read (tests check that it is taken).
    var fusedCount = 0
    /// `ReadOptions.zonelessUTCOffset`: the offset of times written without a zone.
    let zonelessOffset: Int?
    /// The date of the last common time the fused path read (``Timestamp/parseCommonUTC(_:day:)``).
    var utcDay = Timestamp.CommonUTCDay()
    /// The lengths of the white space the fused path last found before a point (the low byte of
    /// `pointGap`), and inside one (a byte of `childGaps` each, by place: before the first child,
    /// the second, …, the eighth and later): what it expects next time
    /// (``skipPredictedSpaces(_:from:limit:gaps:place:)``).
    var pointGap: UInt64 = 0, childGaps: UInt64 = 0

    enum PendingStart { case track(String?), route(String?) }
    enum PointKind { case track, route, waypoint }

    struct PartialPoint {
        var kind = PointKind.track
        var latitude: Double?, longitude: Double?
        /// An unreadable lat/lon was already noted (so it is not counted again as missing).
        var coordinateNoted = false
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        /// The fields given so far (bit ``Field/rawValue``): a repeat is not read.
        var given = 0
    }

    public var diagnostics: Diagnostics { checker.diagnostics }

    /// A reader taking `paths` besides the token-by-token path (``ReadPaths/all`` unless a test
    /// compares them).
    init(source: ByteSource, options: ReadOptions, paths: ReadPaths = .all) {
        scanner = XMLScanner(source: source)
        plainPoints = paths.contains(.plain)
        fusedPoints = paths.contains(.fused)
        checker = PointChecker(file: source.name, options: options)
        zonelessOffset = options.zonelessUTCOffset
    }

    /// Reads GPX from memory (tests).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Reads GPX from memory taking only `paths` besides the token-by-token path (tests).
    init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions(), paths: ReadPaths) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options, paths: paths)
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
            let token: XMLToken
            do {
                token = try scanner.next()
            } catch {
                try cutOff(error)
                continue
            }
            switch token {
            case .endOfDocument:
                try checker.finishInput()
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
        if let point = try nextFusedLean() { return point }
        return LeanItem(try next(), text: &leanText)
    }

    /// The next item reduced (``LeanItem``) when it is a point of the fused path's shape (such a
    /// point has no texts: no name, role or state); nil when it is not, and ``next()`` then gives
    /// it. Taking items this way, and ``next()`` after each nil, gives the same items in the same
    /// order as ``next()`` alone.
    package mutating func nextFusedLean() throws(TraceReadError) -> LeanItem? {
        while !skipFusedOnce && queue.isEmpty && plainPoints && fusedPoints && pointDepth == 0 && field == nil && pendingStart == nil {
            var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
            switch try fusedPoint(into: &fix) {
            case .point(let kind): return LeanItem(GPXReader.item(kind, Fix(fix)), text: &leanText)
            case .dropped: continue
            case .notPlain: skipFusedOnce = true  // next() goes on where the fused path declined
            }
            break
        }
        return nil
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

    @inline(__always) static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        XMLScanner.equal(a, UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    /// Queues the pending track or route start. A new track or route ends the last segment's
    /// points, so the checker restarts too (time order, the motion check).
    private mutating func flushPendingStart() throws(TraceReadError) {
        switch pendingStart {
        case .track(let name): queue.push(.trackStart(name: name))
        case .route(let name): queue.push(.routeStart(name: name))
        case nil: return
        }
        pendingStart = nil
        try checker.startSegment()
    }

    private mutating func startElement() throws(TraceReadError) {
        let local = scanner.localName
        let depth = scanner.depth
        if !rootChecked {
            rootChecked = true
            guard GPXReader.equals(local, "gpx") else {
                throw scanner.error(
                    "not a GPX document: the root element is <\(String(decoding: scanner.name, as: UTF8.self))>, expected <gpx>")
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
            } else if f == nil && !nestedPointStated
                && (GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt"))
            {
                nestedPointStated = true
                checker.diagnostics.assume("points inside another point are not read (first at line \(scanner.line))")
            }
            return
        }
        if GPXReader.equals(local, "trkpt") || GPXReader.equals(local, "rtept") || GPXReader.equals(local, "wpt") {
            let kind: PointKind = GPXReader.equals(local, "wpt") ? .waypoint : GPXReader.equals(local, "rtept") ? .route : .track
            if kind == .track && trackDepth > 0 && segmentDepth == 0 {
                // A point directly in <trk>: an implicit segment.
                try flushPendingStart()
                queue.push(.segmentStart)
                try checker.startSegment()
                segmentDepth = -1
            }
            if kind != .waypoint { try flushPendingStart() }
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
            try flushPendingStart()
            segmentDepth = depth
            queue.push(.segmentStart)
            try checker.startSegment()
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
            try flushPendingStart()
            trackDepth = 0
            segmentDepth = 0
        }
        if routeDepth > 0 && closedDepth == routeDepth {
            try flushPendingStart()
            routeDepth = 0
        }
        return nil
    }

    /// The scanner's `error`, unless it says the input ended inside the `<gpx>` element (a file
    /// cut off mid-write) and the policy is not `fail`: then the points before the cut stand, the
    /// point element the cut falls in (opened, or its start tag cut) is dropped, the truncation
    /// is counted (``PointChecker/cutOff(_:line:dropped:_:)``), and the scanner ends there, so the
    /// next token ends the document.
    private mutating func cutOff(_ error: TraceReadError) throws(TraceReadError) {
        guard error.category == .truncated, rootChecked, scanner.depth > 0 else { throw error }
        let cutTag = scanner.cutStartTag
        let cutPoint: String? =
            pointDepth > 0
            ? (point.kind == .track ? "<trkpt>" : point.kind == .route ? "<rtept>" : "<wpt>")
            : cutTag.flatMap { ["trkpt", "rtept", "wpt"].contains($0) ? "<\($0)>" : nil }
        let inside = cutPoint ?? scanner.openElement.map { "<\($0)>" }
        let dropped = cutPoint == nil ? 0 : 1
        try checker.cutOff(
            error, line: scanner.source.lastLine, dropped: dropped, PointChecker.cutDetail(inside: inside, incomplete: dropped))
        pointDepth = 0
        field = nil
        scanner.endHere()
    }

    /// Checks the point just closed; returns its item unless it is dropped.
    mutating func finishPoint() throws(TraceReadError) -> TraceItem? {
        pointDepth = 0
        let c =
            point.coordinateNoted ? nil : try checker.coordinate(latitude: point.latitude, longitude: point.longitude, line: scanner.line)
        if let c { point.values.coordinate = c }
        // Route points and waypoints are checked for position and values, not for time order.
        let track =
            point.kind == .track
            ? TrackSample(point.values.coordinate, accuracy: point.values.horizontalAccuracy ?? 0, role: point.values.role) : nil
        guard try checker.accept(valid: c != nil, time: point.values.time, line: scanner.line, ordered: point.kind == .track, track: track)
        else {
            return nil
        }
        switch point.kind {
        case .track: return .trackPoint(point.values)
        case .route: return .routePoint(point.values)
        case .waypoint: return .waypoint(point.values)
        }
    }
}

extension GPXReader: CheckedTraceReader {}
