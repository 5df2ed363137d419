import TraceGeodesy
import TraceJSON

/// Reads a JSON trace document, streamed in bounded memory (the 1 MiB window plus one element of
/// at most ``JSONStream/elementCap`` bytes): GeoJSON (format ``TraceFormat/geojson``, or
/// ``TraceFormat/json`` whose top level is GeoJSON), Google location histories and arrays of
/// location objects (format ``TraceFormat/json``).
///
/// The top level decides (no whole-file load: the document is walked member by member and its
/// big arrays element by element):
/// - an object with `features` → GeoJSON FeatureCollection (see the GeoJSON rules in
///   `GeoJSON/GeoJSONFeatures.swift`); an object whose `type` is `Feature` or a geometry → one
///   GeoJSON feature;
/// - `locations` → Google Takeout `Records.json` (each record a ``LocationObject``:
///   `latitudeE7`, `longitudeE7`, `timestamp` or `timestampMs`, `accuracy`, `altitude`,
///   `velocity`, `heading`, `verticalAccuracy`), one track, one segment;
/// - `timelineObjects` → Semantic Location History, `semanticSegments` / `rawSignals` → the
///   on-device Timeline export, a top-level array of objects with `startTime` and
///   `visit`/`activity`/`timelinePath` → the older iOS Timeline export (rules in
///   `LocationHistory/GoogleTimeline.swift`);
/// - any other top-level array → an array of location objects as backends dump them
///   (``LocationObject``: the generic NDJSON keys, WKT `POINT(lon lat)` texts, times such as
///   `2014-09-10 06:54:07+0200`), one track, one segment.
///
/// A document that ends before it closes (cut off mid-write) keeps every element completed
/// before the cut and drops the one the cut falls in whole (a point for a record or location
/// object; a feature or timeline object with all its points), once its kind is known; one
/// ``ProblemKind/truncated`` problem at its last line says so (a ``TraceReadError`` under
/// ``ProblemPolicy/fail``, as before).
///
/// Other members of the top-level object are skipped. Failures (``TraceReadError`` with file,
/// line and column): text that is not JSON where the walk needs it; a top-level object with none
/// of these members ("a JSON object with keys a, b, c: not a location history, GeoJSON or array of
/// locations"); an array whose first element is not a location; for format `geojson`, anything
/// but GeoJSON. Inside an element, per-point problems go through the shared checks and skipped
/// parts are counted in assumptions.
public struct JSONTraceReader: TraceReader {
    /// ``TraceFormat/geojson`` or ``TraceFormat/json``, as opened.
    public let format: TraceFormat
    var stream: JSONStream
    var points: JSONPoints
    var geo = GeoJSONState()

    enum Element { case feature, record, timelineObject, semanticSegment, rawSignal, arrayItem }
    private enum State {
        case start
        case members(first: Bool)
        case array(Element, first: Bool, inTop: Bool)
        case done
    }
    private var state = State.start
    /// What the document was found to be (nil until known).
    private(set) var kind: String?
    private var topKeys: [String] = []
    private var topMembers: [(key: String, value: JSONValue)] = []
    private var elementsRead = 0
    /// The element being parsed (nil between elements): the one a cut falls in.
    private var reading: Element?

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { points.checker.diagnostics }

    init(source: ByteSource, options: ReadOptions, format: TraceFormat) {
        self.format = format
        stream = JSONStream(source: source)
        points = JSONPoints(file: source.name, options: options)
    }

    /// Reads a JSON document from memory (tests, small inputs); `format` is ``TraceFormat/json``
    /// (anything this type reads) or ``TraceFormat/geojson`` (GeoJSON only).
    public init(bytes: [UInt8], name: String = "<memory>", format: TraceFormat = .json, options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options, format: format)
    }

    /// Opens a JSON document ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, format: TraceFormat = .json, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options, format: format)
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type.
    public mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if let item = points.queue.pop() { return item }
            do {
                switch state {
                case .done: return nil
                case .start: try start()
                case .members(let first): try member(first: first)
                case .array(let e, let first, let inTop): try element(e, first: first, inTop: inTop)
                }
            } catch {
                try cutOff(error)
            }
        }
    }

    private var geoJSONOnly: Bool { format == .geojson }

    private mutating func start() throws(TraceReadError) {
        switch try stream.peek() {
        case UInt8(ascii: "{")?:
            stream.advance()
            if try stream.peek() == UInt8(ascii: "}") {
                throw stream.error(
                    "an empty JSON object: not \(geoJSONOnly ? "GeoJSON" : "a location history, GeoJSON or array of locations")")
            }
            state = .members(first: true)
        case UInt8(ascii: "[")?:
            if geoJSONOnly { throw stream.error("not GeoJSON: the document is a JSON array, not an object") }
            kind = "array of locations"
            state = try stream.beginArray() ? .done : .array(.arrayItem, first: true, inTop: false)
            if case .done = state { try end() }
        case nil:
            throw stream.error("an empty file: not JSON")
        default:
            throw stream.error("not JSON: expected '{' or '[' at the start")
        }
    }

    /// The next member of the top-level object.
    private mutating func member(first: Bool) throws(TraceReadError) {
        if !first, try stream.endOfList(UInt8(ascii: "}"), "the top-level object") {
            try end()
            return
        }
        let key = try stream.key()
        if topKeys.count < 8 { topKeys.append(key) }
        let streamed: (Element, String)? =
            switch key {
            case "features": (.feature, "GeoJSON")
            case "locations" where !geoJSONOnly: (.record, "Records.json")
            case "timelineObjects" where !geoJSONOnly: (.timelineObject, "Semantic Location History")
            case "semanticSegments" where !geoJSONOnly: (.semanticSegment, "Timeline")
            case "rawSignals" where !geoJSONOnly: (.rawSignal, "Timeline")
            default: nil
            }
        if let (e, name) = streamed, try stream.peek() == UInt8(ascii: "[") {
            kind = kind ?? name
            if e == .rawSignal { points.closeTrack() }
            state = try stream.beginArray() ? .members(first: false) : .array(e, first: true, inTop: true)
            return
        }
        state = .members(first: false)
        if ["type", "geometry", "properties", "coordinates", "geometries"].contains(key) {
            topMembers.append((key, try stream.value()))
        } else {
            try stream.skipValue()
        }
    }

    /// The next element of a streamed array.
    private mutating func element(_ e: Element, first: Bool, inTop: Bool) throws(TraceReadError) {
        if !first, try stream.endOfList(UInt8(ascii: "]"), "an array") {
            if inTop {
                state = .members(first: false)
            } else {
                try end()
            }
            return
        }
        state = .array(e, first: false, inTop: inTop)
        if try stream.peek() != nil { reading = e }
        let base = stream.line
        let v = try stream.value()
        reading = nil
        elementsRead += 1
        switch e {
        case .feature: try feature(v, base: base)
        case .record: try location(v, base: base)
        case .timelineObject: try timelineObject(v, base: base)
        case .semanticSegment: try semanticSegment(v, base: base)
        case .rawSignal: try rawSignal(v, base: base)
        case .arrayItem: try arrayItem(v, base: base)
        }
    }

    /// The end of the top-level value.
    private mutating func end() throws(TraceReadError) {
        if try stream.peek() != nil { throw stream.error("expected the end of the document after the top-level value") }
        if kind == nil {
            let type = topMembers.first { $0.key == "type" }?.value.text
            if let type, GeoJSONState.isGeoJSONType(type) {
                kind = "GeoJSON"
                let object = JSONValue(.object(topMembers), line: 1, column: 1)
                try feature(
                    type == "Feature" ? object : JSONValue(.object([("type", JSONValue(.string("Feature"))), ("geometry", object)])),
                    base: 1)
            } else {
                let keys = topKeys.joined(separator: ", ")
                throw TraceReadError(
                    file: stream.name, line: 1, column: 1,
                    message: geoJSONOnly
                        ? "a JSON object with keys \(keys): not GeoJSON (no features, no Feature or geometry type)"
                        : "a JSON object with keys \(keys): not a location history, GeoJSON or array of locations")
            }
        }
        state = .done
        try points.finish()
        geo.finish(&points)
    }

    /// The stream's `error`, unless it says the input ended before the document did (a file cut
    /// off mid-write) once its kind is known, and the policy is not `fail`: then every element
    /// completed before the cut stands, the element the cut falls in (a record, a location
    /// object, a feature, a timeline object) is dropped whole, and the truncation is counted
    /// (``PointChecker/cutOff(_:line:dropped:_:)``); the document ends there.
    private mutating func cutOff(_ error: TraceReadError) throws(TraceReadError) {
        guard error.category == .truncated, let kind else { throw error }
        let what: String
        var dropped = 0
        switch reading {
        case .record?, .arrayItem?, .rawSignal?:
            what = "point"
            dropped = 1
        case .feature?: what = "feature"
        case .timelineObject?, .semanticSegment?: what = "timeline object"
        case nil: what = "element"
        }
        let inside = reading == nil ? "the document (\(kind))" : "a \(what == "point" ? "location" : what)"
        try points.checker.cutOff(
            error, line: stream.source.lastLine, dropped: dropped,
            PointChecker.cutDetail(inside: inside, incomplete: reading == nil ? 0 : 1, what: what))
        reading = nil
        state = .done
        try points.finish()
        geo.finish(&points)
    }

    /// The file line of value `v` parsed from an element starting on line `base`.
    static func line(_ v: JSONValue?, base: Int) -> Int {
        guard let v, v.line > 0 else { return base }
        return base + v.line - 1
    }

    /// One location object (a record of Records.json, an element of an array).
    mutating func location(_ v: JSONValue, base: Int) throws(TraceReadError) {
        let line = JSONTraceReader.line(v, base: base)
        try points.trackPoint(try LocationObject.fix(v, line: line, into: &points), line: line)
    }

    /// An element of a top-level array: an iOS Timeline object, or a location.
    private mutating func arrayItem(_ v: JSONValue, base: Int) throws(TraceReadError) {
        if v["startTime"] != nil && (v["visit"] != nil || v["activity"] != nil || v["timelinePath"] != nil) {
            if elementsRead == 1 { kind = "Timeline (iOS)" }
            try semanticSegment(v, base: base)
            return
        }
        if elementsRead == 1 && !LocationObject.looksLikeLocation(v) {
            let what = v.isObject ? "an object with keys \(v.members.prefix(8).map(\.key).joined(separator: ", "))" : v.typeName
            throw TraceReadError(
                file: stream.name, line: base, column: 0,
                message: "a JSON array whose first element is \(what): not a location (no latitude and longitude)")
        }
        try location(v, base: base)
    }
}

extension JSONTraceReader: CheckedTraceReader {
    package var checker: PointChecker {
        get { points.checker }
        _modify { yield &points.checker }
    }
}
