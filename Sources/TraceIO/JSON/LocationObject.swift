import TraceGeodesy
import TraceJSON

/// Reads one JSON location object as apps and backends write them (generic NDJSON lines, arrays of
/// locations, Google `Records.json` records): keys are matched case-insensitively after removing
/// `_` and `-`:
/// - latitude: `lat`, `latitude`; `latitudeE7`, `latE7` (degrees × 10⁷);
/// - longitude: `lon`, `lng`, `long`, `longitude`; `longitudeE7`, `lngE7`, `lonE7`;
/// - or a position text: `point`/`position`/`location`/`latLng` as WKT `POINT(lon lat)`,
///   `"lat, lng"`, `"48.1°, 11.5°"` or `geo:lat,lng`;
/// - time: `time`, `timestamp`, `tst`, `ts`, `datetime`, `date`, `when` (ISO 8601, also
///   `2014-09-10 06:54:07+0200`; or epoch seconds or milliseconds by magnitude); `timestampMs`
///   (epoch milliseconds, Google's older records);
/// - horizontal accuracy (m): `accuracy`, `acc`, `horizontalAccuracy`, `hAcc`, `accuracyMeters`;
/// - vertical accuracy (m): `verticalAccuracy`, `vac`, `vAcc`, `altitudeAccuracy`;
/// - elevation (m): `alt`, `altitude`, `elevation`, `ele`, `altitudeMeters`;
/// - speed: `speed`, `velocity`, `speedMetersPerSecond` in m/s; `vel` in km/h (OwnTracks, as
///   ``RECReader`` reads it; -1 is unknown);
/// - course (degrees): `course`, `cog`, `bearing`, `heading` (-1 is unknown);
/// - a nested object `coords` (the browser, Capacitor and Expo geolocation shape, with the time
///   outside it) or `location`/`position` (one level deep) supplies what the outer object lacks.
enum LocationObject {
    enum Slot: Int, CaseIterable {
        case latitude, longitude, latitudeE7, longitudeE7, position, time, timeMs, accuracy, verticalAccuracy, elevation, speed,
            speedKmh, course, nested
    }

    /// Keys by slot, lower case without `_` and `-`; also in the camel case files usually write,
    /// so that most keys are found without being normalised.
    private static let slots: [String: Slot] = {
        let names: [(Slot, [String])] = [
            (.latitude, ["lat", "latitude"]), (.longitude, ["lon", "lng", "long", "longitude"]),
            (.latitudeE7, ["latitudee7", "late7", "latitudeE7", "latE7"]),
            (.longitudeE7, ["longitudee7", "lnge7", "lone7", "longitudeE7", "lngE7", "lonE7"]),
            (.position, ["point", "latlng", "geo", "wkt", "latLng", "LatLng"]),
            (.time, ["time", "timestamp", "tst", "ts", "datetime", "date", "when"]), (.timeMs, ["timestampms", "timestampMs"]),
            (
                .accuracy,
                ["accuracy", "acc", "horizontalaccuracy", "hacc", "accuracymeters", "horizontalAccuracy", "hAcc", "accuracyMeters"]
            ),
            (.verticalAccuracy, ["verticalaccuracy", "vac", "vacc", "altitudeaccuracy", "verticalAccuracy", "vAcc", "altitudeAccuracy"]),
            (.elevation, ["alt", "altitude", "elevation", "ele", "altitudemeters", "altitudeMeters"]),
            (.speed, ["speed", "velocity", "speedmeterspersecond", "speedMetersPerSecond"]), (.speedKmh, ["vel"]),
            (.course, ["course", "cog", "bearing", "heading"]), (.nested, ["coords", "location", "position"]),
        ]
        var table: [String: Slot] = [:]
        for (slot, keys) in names { for k in keys { table[k] = slot } }
        return table
    }()

    /// The slot of a key, after lower-casing and removing `_` and `-`.
    static func slot(_ key: String) -> Slot? {
        if let s = slots[key] { return s }
        guard key.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
            return nil
        }
        var k = ""
        for u in key.utf8 where u != UInt8(ascii: "_") && u != UInt8(ascii: "-") {
            k.unicodeScalars.append(Unicode.Scalar(TextValue.lower(u)))
        }
        return slots[k]
    }

    /// What an object gives each slot: its first member of that slot (key and value).
    struct Values {
        private var members = [(key: String, value: JSONValue)?](repeating: nil, count: Slot.allCases.count)
        subscript(_ s: Slot) -> (key: String, value: JSONValue)? {
            get { members[s.rawValue] }
            set { members[s.rawValue] = newValue }
        }
    }

    /// Whether `v` looks like a location object (has a latitude, an E7 latitude, a position text
    /// or a nested position): used to tell an array of locations from other arrays.
    static func looksLikeLocation(_ v: JSONValue) -> Bool {
        for m in v.members {
            switch slot(m.key) {
            case .latitude?, .latitudeE7?, .position?: return true
            case .nested?: if m.value.isObject && looksLikeLocation(m.value) { return true }
            default: continue
            }
        }
        return false
    }

    /// The fix of location object `v` (nil when it has no usable position: the problem is noted).
    static func fix(_ v: JSONValue, line: Int, into points: inout JSONPoints) throws(TraceReadError) -> Fix? {
        var values = Values()
        collect(v, into: &values, depth: 0)
        var latitude: Double?, longitude: Double?, elevation: Double?
        func coordinate(_ slot: Slot, scale: Double) throws(TraceReadError) -> Double? {
            guard let (key, value) = values[slot] else { return nil }
            switch JSONPoints.number(value) {
            case .absent: return nil
            case .invalid:
                try points.checker.note(.invalidCoordinate, line: line, "\(key) is \(JSONPoints.shown(value)), not a number")
                return .nan
            case .value(let x): return x / scale
            }
        }
        latitude = try coordinate(.latitude, scale: 1)
        if latitude == nil { latitude = try coordinate(.latitudeE7, scale: 1e7) }
        longitude = try coordinate(.longitude, scale: 1)
        if longitude == nil { longitude = try coordinate(.longitudeE7, scale: 1e7) }
        if latitude == nil, longitude == nil, let (key, value) = values[.position] {
            if let s = value.text, let p = JSONPoints.wktPoint(s) {
                (latitude, longitude, elevation) = (p.lat, p.lon, p.ele)
            } else if let s = value.text, let p = JSONPoints.latLngText(s) {
                (latitude, longitude) = p
            } else {
                try points.checker.note(.invalidCoordinate, line: line, "\(key) \(JSONPoints.shown(value)) is not a position")
                return nil
            }
        }
        if latitude?.isNaN == true || longitude?.isNaN == true { return nil }
        guard var f = try points.fix(latitude: latitude, longitude: longitude, line: line) else { return nil }
        if let (key, value) = values[.time] {
            f.time = try points.time(value, key: key, line: line)
        } else if let (key, value) = values[.timeMs] {
            f.time = try points.time(value, key: key, line: line, unit: .milliseconds)
        }
        func measure(_ slot: Slot, _ what: String, unknown: Double? = nil, range: ClosedRange<Double> = 0...Double.infinity)
            throws(TraceReadError) -> Double?
        {
            guard let (key, value) = values[slot] else { return nil }
            return try points.measure(value, key: key, what, line: line, unknown: unknown, range: range)
        }
        f.horizontalAccuracy = try measure(.accuracy, "horizontal accuracy")
        f.verticalAccuracy = try measure(.verticalAccuracy, "vertical accuracy")
        f.elevation = try measure(.elevation, "elevation", range: -Double.infinity...Double.infinity)
        if f.elevation == nil { f.elevation = elevation }
        f.speed = try measure(.speed, "speed", unknown: -1)
        if f.speed == nil, let kmh = try measure(.speedKmh, "speed", unknown: -1) { f.speed = kmh / 3.6 }
        f.course = try measure(.course, "course", unknown: -1, range: 0...360)
        return f
    }

    /// Fills `values` from the members of `v`, and from one nested `coords`/`location`/`position`
    /// object for slots the outer object leaves empty.
    private static func collect(_ v: JSONValue, into values: inout Values, depth: Int) {
        var nested: [JSONValue] = []
        for m in v.members {
            guard let s = slot(m.key) else { continue }
            if s == .nested {
                if m.value.isObject {
                    if depth == 0 { nested.append(m.value) }
                    continue
                }
                // `location`/`position` as text is a position.
                if values[.position] == nil { values[.position] = m }
                continue
            }
            if values[s] == nil { values[s] = m }
        }
        for n in nested {
            var inner = Values()
            collect(n, into: &inner, depth: depth + 1)
            for s in Slot.allCases where values[s] == nil { values[s] = inner[s] }
        }
    }
}
