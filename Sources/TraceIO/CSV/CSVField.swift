/// The fields a CSV column can hold and the header names that select them (``recognise(header:)``,
/// ``option(_:)``). Their values are read by ``TextValue`` and ``TextTime`` (shared with
/// ``PLTReader`` and ``RECReader``).
enum CSVField: Int, CaseIterable, Hashable, Sendable {
    case latitude, longitude, latitudeHemisphere, longitudeHemisphere
    case time, date
    case elevation, accuracy, verticalAccuracy, speed, course
    case hdop, vdop, pdop, satellites, fixType
    case name, role, state, track, segment, pointType

    /// Whether the field's values are words, not numbers or times (placeholders are values there).
    var holdsText: Bool {
        switch self {
        case .name, .role, .state, .track, .segment, .pointType, .fixType, .latitudeHemisphere, .longitudeHemisphere: true
        case .latitude, .longitude, .time, .date, .elevation, .accuracy, .verticalAccuracy, .speed, .course,
            .hdop, .vdop, .pdop, .satellites:
            false
        }
    }

    /// The field's name in ``ReadOptions/columns`` ("latitude", "verticalAccuracy", …).
    var key: String {
        switch self {
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .latitudeHemisphere: "latitudeHemisphere"
        case .longitudeHemisphere: "longitudeHemisphere"
        case .time: "time"
        case .date: "date"
        case .elevation: "elevation"
        case .accuracy: "accuracy"
        case .verticalAccuracy: "verticalAccuracy"
        case .speed: "speed"
        case .course: "course"
        case .hdop: "hdop"
        case .vdop: "vdop"
        case .pdop: "pdop"
        case .satellites: "satellites"
        case .fixType: "fixType"
        case .name: "name"
        case .role: "role"
        case .state: "state"
        case .track: "track"
        case .segment: "segment"
        case .pointType: "pointType"
        }
    }

    /// The human name used in messages.
    var label: String {
        switch self {
        case .latitudeHemisphere: "latitude hemisphere"
        case .longitudeHemisphere: "longitude hemisphere"
        case .verticalAccuracy: "vertical accuracy"
        case .fixType: "fix"
        case .pointType: "point type"
        default: key
        }
    }

    /// Header names (normalised: lower case, no spaces, underscores, hyphens or dots) per field.
    static let synonyms: [String: CSVField] = {
        var table: [String: CSVField] = [:]
        func add(_ f: CSVField, _ names: [String]) { for n in names { table[n] = f } }
        add(.latitude, ["lat", "latitude"])
        add(.longitude, ["lon", "lng", "long", "longitude"])
        add(.latitudeHemisphere, ["n/s", "ns", "latref", "latituderef", "lathemisphere", "latitudehemisphere"])
        add(.longitudeHemisphere, ["e/w", "ew", "lonref", "longituderef", "lonhemisphere", "longitudehemisphere"])
        add(.time, ["time", "timestamp", "datetime", "utctime", "timeutc", "utc", "gpstime", "trackedat", "recordedat", "isotime"])
        add(.date, ["date", "utcdate", "dateutc", "gpsdate"])
        add(.elevation, ["ele", "elevation", "alt", "altitude", "height"])
        add(.accuracy, ["accuracy", "hacc", "horizontalaccuracy", "accuracyhorizontal", "acc", "haccuracy"])
        add(.verticalAccuracy, ["vacc", "verticalaccuracy", "accuracyvertical", "vaccuracy"])
        add(.speed, ["speed", "spd", "velocity"])
        add(.course, ["course", "bearing", "heading", "cog"])
        add(.hdop, ["hdop"])
        add(.vdop, ["vdop"])
        add(.pdop, ["pdop"])
        add(.satellites, ["sat", "sats", "satellites", "nsat", "numsat", "numsats", "satellitesused"])
        add(.fixType, ["fix", "fixtype"])
        add(.name, ["name"])
        add(.role, ["role"])
        add(.state, ["state"])
        add(.track, ["track", "trackid", "trackname", "trk"])
        add(.segment, ["segment", "seg", "segmentid", "trkseg"])
        add(.pointType, ["trackpointtype", "pointtype"])
        return table
    }()

    /// Unit words accepted as a suffix of a header name ("altitude_ft", "speed_kmh", "time_ms").
    static let unitSuffixes = [
        "kmh", "kph", "mph", "knots", "kts", "kn", "mps", "ms", "feet", "ft", "meters", "metres", "m", "deg", "degrees", "us", "ns", "s",
    ]

    /// The field a header names, with the unit the header states (in parentheses or brackets,
    /// or as a suffix), normalised to lower case without spaces. Nil for an unknown header.
    static func recognise(header raw: String) -> (field: CSVField, unit: String?)? {
        var base = ""
        var unit: String?
        var depth = 0
        var inside = ""
        for ch in raw.lowercased() {
            if ch == "(" || ch == "[" { depth += 1; continue }
            if ch == ")" || ch == "]" {
                depth = max(depth - 1, 0)
                if depth == 0 { unit = inside; inside = "" }
                continue
            }
            if ch == " " || ch == "_" || ch == "-" || ch == "." || ch == "\t" { continue }
            if depth > 0 { inside.append(ch) } else { base.append(ch) }
        }
        if base.hasPrefix("#") { base.removeFirst() }
        if let f = synonyms[base] { return (f, unit) }
        for suffix in unitSuffixes where base.count > suffix.count && base.hasSuffix(suffix) {
            if let f = synonyms[String(base.dropLast(suffix.count))] { return (f, unit ?? suffix) }
        }
        return nil
    }

    /// The field an option key names ("latitude", "vertical_accuracy", "verticalAccuracy", …).
    static func option(_ key: String) -> CSVField? {
        let k = key.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
        return allCases.first { $0.key.lowercased() == k }
    }
}
