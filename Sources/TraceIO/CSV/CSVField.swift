/// The fields a CSV column can hold and the header names that select them (``recognise(header:)``,
/// ``option(_:)``). Their values are read by ``TextValue`` and ``TextTime`` (shared with
/// ``PLTReader`` and ``RECReader``).
enum CSVField: Int, CaseIterable, Hashable, Sendable {
    case latitude, longitude, latitudeHemisphere, longitudeHemisphere
    case time, date, utcOffset
    case elevation, accuracy, verticalAccuracy, speed, course
    case hdop, vdop, pdop, satellites, fixType
    case name, role, state, track, segment, pointType

    /// Whether the field's values are words, not numbers or times (placeholders are values there).
    var holdsText: Bool {
        switch self {
        case .name, .role, .state, .track, .segment, .pointType, .fixType, .latitudeHemisphere, .longitudeHemisphere: true
        case .latitude, .longitude, .time, .date, .utcOffset, .elevation, .accuracy, .verticalAccuracy, .speed, .course,
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
        case .utcOffset: "utcOffset"
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
        case .utcOffset: "UTC offset"
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
        add(.time, ["time", "timestamp", "datetime", "utctime", "timeutc", "utc", "gpstime", "trackedat", "recordedat", "isotime", "localtime", "lcltime", "localdatetime"])
        add(.date, ["date", "utcdate", "dateutc", "gpsdate", "localdate", "lcldate"])
        add(.utcOffset, ["utcoffset", "tzoffset", "timezoneoffset", "gmtoffset", "timezone", "tz", "zoneoffset", "offsetutc", "utcofst", "utcoff", "gmtofst"])
        add(.elevation, ["ele", "elevation", "alt", "altitude", "height"])
        add(.accuracy, ["accuracy", "hacc", "horizontalaccuracy", "accuracyhorizontal", "acc", "haccuracy"])
        add(.verticalAccuracy, ["vacc", "verticalaccuracy", "accuracyvertical", "vaccuracy"])
        add(.speed, ["speed", "spd", "velocity"])
        // Aviation and marine names are angles, never track numbers: TRK (ground track), HDG, CRS.
        add(.course, ["course", "bearing", "heading", "cog", "trk", "hdg", "crs", "groundtrack", "trackangle", "truetrack", "truecourse", "trueheading"])
        add(.hdop, ["hdop"])
        add(.vdop, ["vdop"])
        add(.pdop, ["pdop"])
        add(.satellites, ["sat", "sats", "satellites", "nsat", "numsat", "numsats", "satellitesused"])
        add(.fixType, ["fix", "fixtype"])
        add(.name, ["name"])
        add(.role, ["role"])
        add(.state, ["state"])
        add(.track, ["track", "trackid", "trackname", "tracknumber", "tracknum", "trackno", "trackindex"])
        add(.segment, ["segment", "seg", "segmentid", "trkseg"])
        add(.pointType, ["trackpointtype", "pointtype"])
        return table
    }()

    /// Unit words accepted as a suffix of a header name ("altitude_ft", "speed_kmh", "time_ms",
    /// "latitudeE7").
    static let unitSuffixes = [
        "kmh", "kph", "mph", "knots", "kts", "kn", "mps", "ms", "feet", "ft", "meters", "metres", "m", "deg", "degrees", "us", "ns", "s",
        "e7", "semicircles",
    ]

    /// Words a header adds to a field's name without changing it ("gps_longitude",
    /// "position_lat", "enhanced_altitude", "Location Latitude"), dropped when the name is read
    /// word by word.
    static let qualifierWords: Set<String> = [
        "gps", "gnss", "position", "pos", "location", "loc", "wgs84", "wgs", "device", "raw", "current", "geo", "point", "enhanced",
        "value", "fix", "coord", "coordinate",
    ]

    /// Words that say which hemisphere a coordinate's letter names ("LATITUDE N/S", "LONGITUDE E"):
    /// the value carries the letter, so they name no field of their own.
    static let hemisphereWords: Set<String> = ["n", "s", "e", "w", "ns", "ew"]

    /// Words that mark a date or time column as local time ("Lcl Date", "Local Time",
    /// "LocalDateTime"): dropped when the name is read, and remembered (``isLocal(header:)``).
    static let localWords: Set<String> = ["lcl", "local"]

    /// Whether a header names a local date or time ("Lcl Time", "local_time", "LocalTime").
    static func isLocal(header raw: String) -> Bool {
        let base = raw.lowercased().filter { $0.isLetter }
        return localWords.contains { base.hasPrefix($0) || base.hasSuffix($0) }
    }

    /// The field a header names, with the unit the header states (in parentheses or brackets,
    /// or as a suffix), normalised to lower case without spaces. Nil for an unknown header.
    ///
    /// The name is matched whole first (lower case, without spaces, underscores, hyphens and
    /// dots), then word by word: split at punctuation, spaces and lower-to-upper case changes
    /// (`gpsLongitude`, `latitudeE7`), without the ``qualifierWords``, a trailing hemisphere
    /// marker (`N/S`, `E`) and a trailing unit word, the rest read as one name. A name that starts
    /// with `position` (FIT's `position_lat` and `position_long`) is marked with the unit
    /// `fit-position`: integer values beyond the degree range are then semicircles.
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
        return recogniseWords(raw, unit: unit)
    }

    /// ``recognise(header:)``'s word-by-word reading.
    private static func recogniseWords(_ raw: String, unit given: String?) -> (field: CSVField, unit: String?)? {
        var words: [String] = []
        var word = ""
        var previousLower = false
        var depth = 0
        for ch in raw {
            if ch == "(" || ch == "[" { depth += 1 }
            if depth > 0 {
                if ch == ")" || ch == "]" { depth -= 1 }
                continue
            }
            let alphanumeric = ch.isASCII && (ch.isLetter || ch.isNumber)
            if !alphanumeric || (ch.isUppercase && previousLower) {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = ""
            }
            if alphanumeric { word.append(ch) }
            previousLower = ch.isLowercase || ch.isNumber
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        let fitPosition = words.first == "position"
        var unit = given
        words.removeAll { qualifierWords.contains($0) || localWords.contains($0) }
        while let last = words.last, words.count > 1, hemisphereWords.contains(last) { words.removeLast() }
        if let last = words.last, words.count > 1, unitSuffixes.contains(last) {
            unit = unit ?? last
            words.removeLast()
        }
        guard !words.isEmpty, let f = synonyms[words.joined()] else { return nil }
        if fitPosition && (f == .latitude || f == .longitude) && unit == nil { unit = "fit-position" }
        return (f, unit)
    }

    /// The field an option key names: its key in any case, with or without underscores
    /// ("latitude", "vertical_accuracy", "verticalAccuracy"), or a header synonym ("lat", "lon",
    /// "ele", "alt", "acc").
    static func option(_ key: String) -> CSVField? {
        let k = key.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
        return allCases.first { $0.key.lowercased() == k } ?? synonyms[k]
    }
}
