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
public enum TraceFormat: String, CaseIterable, Hashable, Sendable {
    case gpx, csv, plt, rec, geojson, ndjson

    /// The format implied by a path's extension (case-insensitive), if any.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        switch ext {
        case "gpx", "xml": self = .gpx
        case "csv", "tsv", "txt": self = .csv
        case "plt": self = .plt
        case "rec": self = .rec
        case "geojson", "json": self = .geojson
        case "ndjson", "jsonl": self = .ndjson
        default: return nil
        }
    }
}
