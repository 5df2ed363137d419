package import TraceGeodesy

/// One item of a trace stream: structure markers and points, in file order.
///
/// Every reader produces the same items: a track's points come after its `trackStart` and the
/// `segmentStart` of their segment; route points after their `routeStart`; waypoints anywhere.
public enum TraceItem: Hashable, Sendable {
    /// A new track begins (GPX `<trk>`, a change of the CSV `track` column).
    case trackStart(name: String?)
    /// A new segment of the current track begins (GPX `<trkseg>`, the CSV `segment` column).
    case segmentStart
    /// A point of the current track segment.
    case trackPoint(Fix)
    /// A new route begins (GPX `<rte>`).
    case routeStart(name: String?)
    /// A point of the current route.
    case routePoint(Fix)
    /// A standalone point (GPX `<wpt>`).
    case waypoint(Fix)
}

/// The file formats TraceKit reads and writes.
///
/// `json` is a JSON document whose content decides what it is (``JSONTraceReader``): GeoJSON, a
/// Google location history (Records, Semantic, Timeline) or an array of location objects. Written
/// as `json`, a trace is GeoJSON.
public enum TraceFormat: String, CaseIterable, Hashable, Sendable {
    case gpx, csv, plt, rec, geojson, ndjson, json, nmea, kml

    /// The format implied by a path's extension (case-insensitive), if any.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        switch ext {
        case "gpx", "xml": self = .gpx
        case "csv", "tsv", "txt": self = .csv
        case "plt": self = .plt
        case "rec": self = .rec
        case "kml": self = .kml
        case "geojson": self = .geojson
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "nmea", "nma": self = .nmea
        default: return nil
        }
    }
}

/// An item reduced to what a replay merges, in plain values only (package-internal: the replay's
/// hand-off from the readers, with no ``Fix`` copied and nothing to release): a track's start, a
/// track point, the end, or anything else. The texts (a track's name, a point's `role`) are left
/// in the reader's ``GPXReader/leanText`` (``CSVReader/leanText``).
package struct LeanItem {
    package enum Kind { case trackStart, trackPoint, other, end }
    package var kind: Kind = .end
    /// A track point: whether it carries a `role` text (then in `leanText`) and a time.
    package var hasRole = false
    package var hasTime = false
    /// Nanoseconds since 1970 (UTC); 0 when the point has no time.
    package var time: Int64 = 0
    package var coordinate = Coordinate(uncheckedLatitude: 0, longitude: 0)
    /// Metres and metres per second; NaN when absent.
    package var horizontalAccuracy = Double.nan
    package var speed = Double.nan
    /// The reported course, degrees clockwise from true north as the reader took it: in [0, 360]
    /// (a course beyond is a per-point problem and not kept; 360 stays 360, as a converted file
    /// writes it back); NaN when absent.
    package var course = Double.nan

    package init() {}

    /// Whether it is a track's start (a switch, not the generic `==` across modules).
    package var isTrackStart: Bool {
        if case .trackStart = kind { return true }
        return false
    }

    /// Reduces `item`, putting its text (if any) in `text`.
    @inline(__always)
    init(_ item: consuming TraceItem?, text: inout String?) {
        switch consume item {
        case nil:
            self.init()
        case let item?:
            self.init(item, text: &text)
        }
    }

    /// Reduces `item`, putting its text (if any) in `text`.
    @inline(__always)
    init(_ item: consuming TraceItem, text: inout String?) {
        self.init()
        switch consume item {
        case .trackStart(let name):
            kind = .trackStart
            text = name
        case .trackPoint(let fix):
            kind = .trackPoint
            if let role = fix.role {
                hasRole = true
                text = role
            }
            if let t = fix.time {
                hasTime = true
                time = t.nanoseconds
            }
            coordinate = fix.coordinate
            horizontalAccuracy = fix.horizontalAccuracy ?? .nan
            speed = fix.speed ?? .nan
            course = fix.course ?? .nan
        case .segmentStart, .routeStart, .routePoint, .waypoint:
            kind = .other
        }
    }
}

extension CSVReader {
    /// The next item reduced (``LeanItem``); its text in ``leanText``.
    package mutating func nextLean() throws(TraceReadError) -> LeanItem {
        LeanItem(try next(), text: &leanText)
    }
}

extension TraceReader {
    /// The next item reduced (``LeanItem``), its text in `text` (any reader; the slower way).
    package mutating func nextLean(text: inout String?) throws(TraceReadError) -> LeanItem {
        LeanItem(try next(), text: &text)
    }
}
