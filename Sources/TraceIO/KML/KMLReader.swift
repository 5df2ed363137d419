public import TraceDomain
import TraceGeodesy

/// Reads KML 2.0, 2.1 and 2.2 (Google Earth, GPSBabel, Android exporters): the paths and points
/// of its Placemarks, streamed through the XML scanner (``XMLScanner``) in bounded memory.
///
/// Items:
/// - a Placemark with a `<LineString>` is a track (``TraceItem/trackStart(name:)`` with the
///   Placemark's `<name>`), one segment per LineString, also inside `<MultiGeometry>`; its
///   `<coordinates>` are `lon,lat[,alt]` tuples separated by white space, read without times;
/// - a Placemark with a `<gx:Track>` is a track with timed points: the track's `<when>` and
///   `<gx:coord>` (`lon lat alt`) elements are matched by index, in any order (all times first, as
///   the schema has it, or interleaved); a `<gx:MultiTrack>` is one track with a segment per
///   `<gx:Track>`;
/// - a Placemark with a `<Point>` is a waypoint (``TraceItem/waypoint(_:)``), named after the
///   Placemark, timed by its `<TimeStamp><when>` when present.
///
/// Times: xsd:dateTime (ISO 8601, any fraction, `Z` or an offset; without a zone read as UTC,
/// stated); a `<when>` of only a date, a year and month or a year is read as the first instant of
/// that period, UTC, and stated. A LineString has no per-point times: when its Placemark or an
/// enclosing Folder or Document carries a `<TimeSpan>`, no times are invented; its points are read
/// untimed, one assumption per file says so (with the first and last span), and the spans are in
/// ``lineStringSpans``.
///
/// Skipped safely (never interpreted): Placemarks without geometry, descriptions (CDATA, HTML),
/// `Style`, `StyleMap`, `LookAt` (its `gx:TimeSpan` included), `ExtendedData`, `SchemaData` and
/// `gx:SimpleArrayData` (sensor arrays), `gx:angles`, `Model`, comments; Polygons and their rings
/// are not a trace (counted in one assumption). Folder and Document nesting is bounded by the
/// scanner's depth limit. KML elements are matched by local name under any prefix; `gx:`
/// elements by local name under the prefix `gx` or any prefix the root binds to the Google
/// extension namespace (`http://www.google.com/kml/ext/2.2`).
///
/// Problems: malformed XML, a root other than `<kml>`, or a zip archive (KMZ, not read) is a
/// ``TraceReadError``; a file that ends inside its `<kml>` element (cut off mid-write) keeps every
/// point completed before the cut and counts one ``ProblemKind/truncated`` problem at its last
/// line (a ``TraceReadError`` under ``ProblemPolicy/fail``, as before); an unreadable tuple or
/// position, and a `<when>` that cannot be read, are per-point problems through the shared checks
/// (``Diagnostics``); a gx:Track whose `<when>` and `<gx:coord>` counts differ is stated, its
/// extra positions read without times (each counted as having no time) and its extra times
/// ignored. Memory: the scanner's window (1 MiB, growing only for a longer token), one
/// `<coordinates>` text (at most ``XMLScanner/maximumText``, 1 MiB, about 40,000 tuples; past it a
/// ``TraceReadError``), and a gx:Track's values not yet matched (at most ``maximumPending`` of
/// each; past it a ``TraceReadError``).
public struct KMLReader: TraceReader {
    /// Always ``TraceFormat/kml``.
    public let format = TraceFormat.kml
    var scanner: XMLScanner
    package var checker: PointChecker
    var queue = ItemQueue()
    private var rootChecked = false
    /// `ReadOptions.zonelessUTCOffset`: the offset of times written without a zone.
    let zonelessOffset: Int?
    /// Prefixes the root binds to the Google extension namespace (besides `gx`).
    private var extensionPrefixes: [[UInt8]] = []

    /// Most values of one gx:Track (times, or positions) kept while they wait for their match.
    public static let maximumPending = 1 << 21

    /// The time span a LineString was read under (its Placemark's, else the nearest enclosing
    /// Folder's or Document's): its points carry no time.
    public struct TimeSpan: Hashable, Sendable {
        /// `<begin>` and `<end>`, nil when absent or unreadable.
        public var begin: Timestamp?
        public var end: Timestamp?

        public init(begin: Timestamp?, end: Timestamp?) {
            self.begin = begin
            self.end = end
        }
    }
    /// One entry per LineString read (in file order, at most 65,536): its time span, or nil.
    public private(set) var lineStringSpans: [TimeSpan?] = []

    /// What an element's text is read as.
    enum Field { case name, stampWhen, spanBegin, spanEnd, coordinates, when, coord }
    var field: Field?
    var fieldDepth = 0
    /// The line where the open `<coordinates>` text starts.
    var fieldLine = 0

    /// A Feature (Document, Folder, Placemark) open around the current element, with its TimeSpan.
    struct Feature {
        var depth: Int
        var span: TimeSpan?
        var spanText: String?
    }
    var features: [Feature] = []
    var spanDepth = 0
    var spanBegin: (Timestamp?, String) = (nil, ""), spanEnd: (Timestamp?, String) = (nil, "")

    /// The open Placemark (0: none) and what it said before its geometry.
    var placemarkDepth = 0
    var placemarkName: String?
    var stampDepth = 0
    /// The Placemark's TimeStamp: none, a time, or the text that could not be read.
    enum Stamp { case none, time(Timestamp), unreadable(String) }
    var stamp = Stamp.none
    var trackStarted = false
    var lineStringDepth = 0, pointDepth = 0, gxTrackDepth = 0

    /// The LineString tuples being handed out (``KMLReader/nextTuplePoint()``): the text (the
    /// scanner's, untouched until they are all read), where the next tuple starts, and its line.
    var tuples: UnsafeBufferPointer<UInt8>?
    var tupleCursor = 0, tupleLine = 0

    /// The open gx:Track's values not yet matched, and its counts.
    var times: [Int64] = [], timesHead = 0
    var coords: [(Tuple, line: Int)] = [], coordsHead = 0
    var whenCount = 0, coordCount = 0, trackLine = 0
    /// Extra positions of a closed gx:Track being handed out without times.
    var draining = false

    // What is stated once at the end.
    var spannedLineStrings = 0, untimedLineStrings = 0
    var firstSpan = "", lastSpan = ""
    var polygons = 0
    var mismatchedTracks = 0, firstMismatch = ""
    var zoneAssumed = false, coarseAssumed = false, extraTuplesStated = false
    private var finished = false

    /// A `<when>` that could not be read, waiting for its position (the problem is its point's).
    static let unreadableTime = Int64.min

    public var diagnostics: Diagnostics { checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = XMLScanner(source: source)
        checker = PointChecker(file: source.name, options: options)
        zonelessOffset = options.zonelessUTCOffset
    }

    /// Reads KML from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Opens a KML file ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options)
    }

    /// What one step of reading gave.
    enum Step {
        case point(Fix.Numbers)
        case item(TraceItem)
        case end
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type.
    public mutating func next() throws(TraceReadError) -> TraceItem? {
        switch try step() {
        case .point(let n): return .trackPoint(Fix(n))
        case .item(let item): return item
        case .end: return nil
        }
    }

    /// Reads up to `limit` items into `batch` (``TraceReader/read(into:limit:)``): track points go
    /// into the columns straight from their numbers; the same items and diagnostics as ``next()``.
    public mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
        batch.removeAll()
        while batch.count < limit {
            switch try step() {
            case .point(let n): batch.appendOwned(.trackPoint, n)  // the batch is this call's since removeAll()
            case .item(let item): batch.append(item)
            case .end: return batch.count
            }
        }
        return batch.count
    }

    mutating func step() throws(TraceReadError) -> Step {
        while true {
            if let item = queue.pop() { return .item(item) }
            if tuples != nil {
                if let s = try nextTuplePoint() { return s }
                continue
            }
            if draining {
                if let s = try nextDrainedPoint() { return s }
                continue
            }
            if finished { return .end }
            // A whole text-only element (`<when>…</when>`, `<gx:coord>…</gx:coord>`) in one call.
            if field == nil && rootChecked, let text = scanner.simpleElement() {
                let depth = scanner.depth + 1
                var s: Step?
                if let f = try startElement(depth: depth) { s = try finishField(f, text: text, simple: true) }
                try endElement(closedDepth: depth)
                if let s { return s }
                continue
            }
            if !rootChecked { try refuseZip() }
            let token: XMLToken
            do {
                token = try scanner.next()
            } catch {
                if field == .coordinates && error.message.hasPrefix("text longer") {
                    throw TraceReadError(
                        file: error.file, line: error.line, column: error.column,
                        message:
                            "a <coordinates> text longer than \(XMLScanner.maximumText) bytes (the reader's limit for one LineString, about 40,000 points; split the LineString)"
                    )
                }
                try cutOff(error)
                continue
            }
            switch token {
            case .endOfDocument:
                try finish()
                return .end
            case .start:
                if let f = try startElement(depth: scanner.depth) { beginField(f, depth: scanner.depth) }
            case .end:
                let closed = scanner.depth + 1  // the scanner has already popped the closed element
                if let f = field, closed == fieldDepth {
                    field = nil
                    scanner.captureText = false
                    if let s = try finishField(f, text: scanner.text, simple: false) {
                        try endElement(closedDepth: closed)
                        return s
                    }
                }
                try endElement(closedDepth: closed)
            case .text:
                break  // collected in scanner.text while a field is open
            }
        }
    }

    /// The scanner's `error`, unless it says the input ended inside the `<kml>` element (a file
    /// cut off mid-write) and the policy is not `fail`: then the points before the cut stand, and
    /// the truncation is counted (``PointChecker/cutOff(_:line:dropped:_:)``) with the points the
    /// cut leaves incomplete, which are dropped: a LineString's last tuple when no white space
    /// follows it (its numbers may be cut; the tuples before it are handed out), a `<Point>`'s
    /// waypoint, a gx:Track's `<when>` and `<gx:coord>` values not yet matched. The scanner ends
    /// there, so the next token ends the document.
    private mutating func cutOff(_ error: TraceReadError) throws(TraceReadError) {
        guard error.category == .truncated, rootChecked, scanner.depth > 0 else { throw error }
        var dropped = 0
        var inside = scanner.openElement.map { "<\($0)>" }
        if field == .coordinates && lineStringDepth > 0 {
            let text = scanner.text
            var complete = text.count
            while complete > 0 && !XMLScanner.isSpace(text[complete - 1]) { complete -= 1 }
            if complete < text.count { dropped = 1 }
            tuples = UnsafeBufferPointer(rebasing: text[..<complete])
            tupleCursor = 0
            tupleLine = fieldLine
            inside = "<coordinates>"
        } else if pointDepth > 0 {
            dropped = 1
            inside = "<Point>"
        } else if gxTrackDepth > 0 {
            let times = times.count - timesHead, coords = coords.count - coordsHead
            dropped = times + coords
            if (field == .when && coords == 0) || (field == .coord && times == 0) { dropped += 1 }
            inside = "<gx:Track>"
            resetTimes()
            resetCoords()
        }
        try checker.cutOff(
            error, line: scanner.source.lastLine, dropped: dropped, PointChecker.cutDetail(inside: inside, incomplete: dropped))
        field = nil
        scanner.endHere()
    }

    /// A zip archive (KMZ) is refused by name before the XML scanner reads its bytes as text.
    private mutating func refuseZip() throws(TraceReadError) {
        var keep = 0
        if try scanner.ensure(2, keeping: &keep), scanner.byte(0) == UInt8(ascii: "P"), scanner.byte(1) == UInt8(ascii: "K") {
            throw TraceReadError(
                file: scanner.source.name, line: 1, column: 1,
                message: "not a KML document: the bytes start with \"PK\", a zip archive (KMZ is not read; unzip it and read its doc.kml)")
        }
    }

    @inline(__always) static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        XMLScanner.equal(a, UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    /// Whether the current tag is the Google extension's `local` (`gx:Track`).
    private func isExtension(_ local: StaticString) -> Bool {
        let name = scanner.name
        let n = local.utf8CodeUnitCount
        guard name.count > n + 1, KMLReader.equals(UnsafeBufferPointer(rebasing: name[(name.count - n)...]), local),
            name[name.count - n - 1] == UInt8(ascii: ":")
        else { return false }
        let prefix = UnsafeBufferPointer(rebasing: name[..<(name.count - n - 1)])
        if KMLReader.equals(prefix, "gx") { return true }
        return extensionPrefixes.contains { $0.elementsEqual(prefix) }
    }

    /// Reads the root's namespace declarations: the prefixes bound to the Google extension.
    private mutating func readRoot() throws(TraceReadError) {
        guard KMLReader.equals(scanner.localName, "kml") else {
            throw scanner.error(
                "not a KML document: the root element is <\(String(decoding: scanner.name.prefix(64), as: UTF8.self))>, expected <kml>")
        }
        for k in 0..<scanner.attributeCount {
            let a = scanner.attributes[k]
            let name = scanner.window(a.name)
            guard name.count > 6, name.starts(with: "xmlns:".utf8) else { continue }
            let value = a.decoded ? scanner.decodedValues[a.value] : scanner.window(a.value)
            if value.starts(with: "http://www.google.com/kml/ext/".utf8) && extensionPrefixes.count < 16 {
                extensionPrefixes.append(Array(name[6...]))
            }
        }
    }

    /// Handles a start tag at `depth`; returns the field whose text it carries, if any.
    mutating func startElement(depth: Int) throws(TraceReadError) -> Field? {
        if !rootChecked {
            rootChecked = true
            try readRoot()
            return nil
        }
        if field != nil { return nil }  // markup inside a value (`<name><b>x</b></name>`): its text is read
        let local = scanner.localName
        guard let first = local.first else { return nil }
        switch first {
        case UInt8(ascii: "D"), UInt8(ascii: "F"):
            if KMLReader.equals(local, "Document") || KMLReader.equals(local, "Folder") { features.append(Feature(depth: depth)) }
        case UInt8(ascii: "P"):
            if KMLReader.equals(local, "Placemark") {
                features.append(Feature(depth: depth))
                guard placemarkDepth == 0 else { return nil }  // a Placemark in a Placemark is not KML: its geometry is the outer one's
                placemarkDepth = depth
                placemarkName = nil
                stamp = .none
                trackStarted = false
            } else if placemarkDepth > 0 && KMLReader.equals(local, "Point") && pointDepth == 0 {
                pointDepth = depth
            } else if KMLReader.equals(local, "Polygon") && placemarkDepth > 0 {
                polygons += 1
            }
        case UInt8(ascii: "n"):
            if placemarkDepth > 0 && depth == placemarkDepth + 1 && KMLReader.equals(local, "name") { return .name }
        case UInt8(ascii: "T"):
            if KMLReader.equals(local, "TimeStamp") && placemarkDepth > 0 && depth == placemarkDepth + 1 {
                stampDepth = depth
            } else if KMLReader.equals(local, "TimeSpan"), let top = features.last, depth == top.depth + 1 {
                spanDepth = depth
                spanBegin = (nil, "")
                spanEnd = (nil, "")
            } else if placemarkDepth > 0 && gxTrackDepth == 0 && KMLReader.equals(local, "Track") && isExtension("Track") {
                try beginGeometry()
                gxTrackDepth = depth
                times.removeAll(keepingCapacity: true)
                coords.removeAll(keepingCapacity: true)
                timesHead = 0
                coordsHead = 0
                whenCount = 0
                coordCount = 0
                trackLine = scanner.line
            }
        case UInt8(ascii: "w"):
            if gxTrackDepth > 0 && depth == gxTrackDepth + 1 && KMLReader.equals(local, "when") { return .when }
            if stampDepth > 0 && depth == stampDepth + 1 && KMLReader.equals(local, "when") { return .stampWhen }
        case UInt8(ascii: "c"):
            if gxTrackDepth > 0 && depth == gxTrackDepth + 1 && KMLReader.equals(local, "coord") && isExtension("coord") { return .coord }
            if KMLReader.equals(local, "coordinates")
                && ((lineStringDepth > 0 && depth == lineStringDepth + 1) || (pointDepth > 0 && depth == pointDepth + 1))
            {
                fieldLine = scanner.line
                return .coordinates
            }
        case UInt8(ascii: "b"):
            if spanDepth > 0 && depth == spanDepth + 1 && KMLReader.equals(local, "begin") { return .spanBegin }
        case UInt8(ascii: "e"):
            if spanDepth > 0 && depth == spanDepth + 1 && KMLReader.equals(local, "end") { return .spanEnd }
        case UInt8(ascii: "L"):
            if placemarkDepth > 0 && lineStringDepth == 0 && gxTrackDepth == 0 && KMLReader.equals(local, "LineString") {
                try beginGeometry()
                lineStringDepth = depth
                noteLineStringSpan()
            }
        default:
            break
        }
        return nil
    }

    /// A track's geometry begins in the open Placemark: its track (once) and a new segment.
    private mutating func beginGeometry() throws(TraceReadError) {
        if !trackStarted {
            trackStarted = true
            queue.push(.trackStart(name: placemarkName))
        }
        queue.push(.segmentStart)
        try checker.startSegment()
    }

    /// Records the time span a new LineString is read under (the innermost Feature's that has one).
    private mutating func noteLineStringSpan() {
        let feature = features.last { $0.span != nil }
        if lineStringSpans.count < 65_536 { lineStringSpans.append(feature?.span) }
        guard let feature, let text = feature.spanText else {
            untimedLineStrings += 1
            return
        }
        spannedLineStrings += 1
        if spannedLineStrings == 1 { firstSpan = text }
        lastSpan = text
    }

    private mutating func beginField(_ f: Field, depth: Int) {
        field = f
        fieldDepth = depth
        scanner.clearText()
        scanner.captureText = true
    }

    /// Handles an end tag at `closedDepth` (after its field, if any, was read).
    mutating func endElement(closedDepth: Int) throws(TraceReadError) {
        if gxTrackDepth > 0 && closedDepth == gxTrackDepth {
            gxTrackDepth = 0
            try finishTrack()
        } else if lineStringDepth > 0 && closedDepth == lineStringDepth {
            lineStringDepth = 0
        } else if pointDepth > 0 && closedDepth == pointDepth {
            pointDepth = 0
        } else if stampDepth > 0 && closedDepth == stampDepth {
            stampDepth = 0
        } else if spanDepth > 0 && closedDepth == spanDepth {
            spanDepth = 0
            if !features.isEmpty {
                let begin = spanBegin.1.isEmpty ? "?" : spanBegin.1, end = spanEnd.1.isEmpty ? "?" : spanEnd.1
                features[features.count - 1].span = TimeSpan(begin: spanBegin.0, end: spanEnd.0)
                features[features.count - 1].spanText = "\(begin)…\(end)"
            }
        }
        if let top = features.last, closedDepth == top.depth {
            features.removeLast()
            if closedDepth == placemarkDepth { placemarkDepth = 0 }
        }
    }

    /// The text of field `f`, read; a point when it completes one.
    /// `simple`: the element was read whole (``XMLScanner/simpleElement()``), so the scanner stands
    /// after its end tag.
    mutating func finishField(_ f: Field, text: UnsafeBufferPointer<UInt8>, simple: Bool) throws(TraceReadError) -> Step? {
        switch f {
        case .name:
            placemarkName = String(decoding: TextValue.trimmed(text), as: UTF8.self)
        case .stampWhen:
            switch readTime(text) {
            case .some(let t): stamp = .time(t)
            case nil: stamp = .unreadable(TextValue.shown(text))
            }
        case .spanBegin, .spanEnd:
            let shown = TextValue.shown(text)
            let value = (readTime(text), shown)
            if f == .spanBegin { spanBegin = value } else { spanEnd = value }
        case .coordinates:
            if simple { fieldLine = scanner.line - text.lazy.filter { $0 == 0x0A }.count }
            if pointDepth > 0 { return try pointWaypoint(text) }
            // The tuples are handed out one by one before the scanner reads on (so `text`, the
            // scanner's, stays as it is); the first line is where the element's text started
            // (counted back from its end for a whole simple element).
            tuples = text
            tupleCursor = 0
            tupleLine = fieldLine
        case .when:
            return try trackWhen(text)
        case .coord:
            return try trackCoord(text)
        }
        return nil
    }

    /// A time from `text`, stating the assumptions it needed; nil when unreadable.
    mutating func readTime(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        switch KMLReader.time(text) {
        case .unreadable: return nil
        case .time(let t, let hadZone, let coarse):
            if coarse && !coarseAssumed {
                coarseAssumed = true
                checker.diagnostics.assume(
                    "times of only a date, a year and month, or a year (first at line \(scanner.line)) were read as the period's first instant, UTC"
                )
            }
            guard !hadZone else { return t }
            if let offset = zonelessOffset { return t.adding(seconds: -offset) }
            if !zoneAssumed {
                zoneAssumed = true
                checker.diagnostics.assume("times without a zone were read as UTC")
            }
            return t
        }
    }

    /// The position a tuple gives, checked (nil, with its problem noted, when unusable).
    mutating func position(_ tuple: Tuple, line: Int) throws(TraceReadError) -> (Coordinate, Double?)? {
        switch tuple {
        case .problem(let detail):
            try checker.note(.invalidCoordinate, line: line, detail)
            return nil
        case .position(let longitude, let latitude, let altitude):
            guard let c = try checker.coordinate(latitude: latitude, longitude: longitude, line: line) else { return nil }
            return (c, altitude)
        }
    }

    /// The next point of the LineString being read, or nil (and the text released) after its last.
    private mutating func nextTuplePoint() throws(TraceReadError) -> Step? {
        guard let text = tuples, let (tuple, line) = KMLReader.nextTuple(text, cursor: &tupleCursor, line: &tupleLine) else {
            tuples = nil
            scanner.clearText()
            return nil
        }
        let p = try position(tuple, line: line)
        var n = Fix.Numbers(coordinate: p?.0 ?? Coordinate(uncheckedLatitude: 0, longitude: 0))
        n.elevation = p?.1
        guard try checker.accept(valid: p != nil, time: nil, line: line, track: TrackSample(n.coordinate, accuracy: 0)) else {
            return nil
        }
        return .point(n)
    }

    /// The waypoint of a `<Point>`'s coordinates (its first tuple), named and timed by its Placemark.
    private mutating func pointWaypoint(_ text: UnsafeBufferPointer<UInt8>) throws(TraceReadError) -> Step? {
        var cursor = 0, line = fieldLine
        guard let (tuple, tupleLine) = KMLReader.nextTuple(text, cursor: &cursor, line: &line) else {
            try checker.note(.missingCoordinate, line: scanner.line, "an empty <coordinates>")
            _ = try checker.accept(valid: false, time: nil, line: scanner.line, ordered: false, track: nil)
            return nil
        }
        if !extraTuplesStated, KMLReader.nextTuple(text, cursor: &cursor, line: &line) != nil {
            extraTuplesStated = true
            checker.diagnostics.assume("a <Point> with more than one position (first at line \(scanner.line)): the first is read")
        }
        let p = try position(tuple, line: tupleLine)
        var fix = Fix(coordinate: p?.0 ?? Coordinate(uncheckedLatitude: 0, longitude: 0))
        fix.elevation = p?.1
        fix.name = placemarkName
        switch stamp {
        case .none: break
        case .time(let t): fix.time = t
        case .unreadable(let shown): try checker.note(.invalidTime, line: tupleLine, "'\(shown)'")
        }
        guard try checker.accept(valid: p != nil, time: fix.time, line: tupleLine, ordered: false, track: nil) else { return nil }
        return .item(.waypoint(fix))
    }

    /// States what was read at the end of the document.
    private mutating func finish() throws(TraceReadError) {
        try checker.finishInput()
        finished = true
        if spannedLineStrings > 0 {
            let n = spannedLineStrings
            let spans = n == 1 ? "(\(firstSpan))" : "(first \(firstSpan), last \(lastSpan))"
            checker.diagnostics.assume(
                "\(n) LineString\(n == 1 ? " has" : "s have") only a TimeSpan \(spans); \(n == 1 ? "its" : "their") points are read without times"
            )
        }
        if untimedLineStrings > 0 {
            let n = untimedLineStrings
            checker.diagnostics.assume(
                "\(n) LineString\(n == 1 ? " has" : "s have") no time; \(n == 1 ? "its" : "their") points are read without times")
        }
        if polygons > 0 {
            checker.diagnostics.assume("\(polygons) Polygon\(polygons == 1 ? " was" : "s were") not read (an area, not a trace)")
        }
        if mismatchedTracks > 0 {
            checker.diagnostics.assume(
                "\(mismatchedTracks) gx:Track\(mismatchedTracks == 1 ? "" : "s") with unequal <when> and <gx:coord> counts (first: \(firstMismatch)): matched by index; extra positions are read without times, extra times ignored"
            )
        }
    }
}

extension KMLReader: CheckedTraceReader {}
