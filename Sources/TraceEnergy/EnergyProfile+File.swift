public import TraceJSON

/// An energy profile file that could not be used: file, line, column, the member's path (e.g.
/// "radio.tailMilliwatts") and why, described on one line. The same type as a policy file's
/// error, so that a command reports both alike.
public typealias EnergyProfileError = JSONFileError

/// Energy profile files: JSON, versioned, starting from a built-in profile and overriding any
/// constant.
///
/// ```json
/// {
///   "format": "tracekit-energy-profile",
///   "version": 1,
///   "name": "pixel-lte",
///   "base": "lte",
///   "locationMilliwatts": { "bestForNavigation": 380, "best": 260 },
///   "fixMillijoules": 40,
///   "radio": { "tailMilliwatts": 700, "tailSeconds": 8 }
/// }
/// ```
///
/// Only `format` and `version` are required. `base` names a built-in profile (`lte`, the default,
/// `lte-modern`, `3g`, `wifi`; not a device profile: read its power_profile.xml instead); every
/// constant the file does not set keeps the base's value.
/// `name` defaults to the base's name when the file sets no constant that prices energy (the
/// reference battery prices none: it only scales the percent) and to "BASE-custom" otherwise. Members (units in the names): `locationMilliwatts` (by tier key: `bestForNavigation`,
/// `best`, `nearestTenMeters`, `hundredMeters`, `kilometer`, `threeKilometers`; off is always 0),
/// `fixMillijoules`, `nominalVolts`, `referenceBatteryMilliampHours` (greater than 0, at most
/// 100,000), and `radio` (`promotionMilliwatts`, `promotionSeconds`,
/// `transmitMilliwatts`, `transmitSeconds`, `tailMilliwatts`, `tailSeconds`,
/// `secondTailMilliwatts`, `secondTailSeconds`) and `network` (``NetworkProfile``: `uplinkSeconds`,
/// `backendMedianSeconds`, `backendSigma` from 0 to 3, `lossProbability` from 0 to 1). `assumed`, a list of constant paths such as
/// "radio.tailMilliwatts", replaces the base's list of assumed constants; without it, a constant
/// the file sets is no longer marked assumed. `model` and `modelVersion`, when present, must name
/// this model. Every value is a number of at least 0 (`nominalVolts` greater than 0). Unknown
/// members, wrong types and out-of-range values are errors naming file, line, column and field.
extension EnergyProfile {
    /// The only energy profile file version this TraceKit reads.
    public static let fileVersion = 1

    /// The largest reference battery a profile file may set, in mAh: 100,000, beyond any phone's
    /// or tablet's battery (a typo's guard, not a physical limit).
    public static let maximumReferenceBatteryMilliampHours = 100_000.0

    /// Reads a profile file's bytes; `file` names it in errors.
    /// - Throws: ``EnergyProfileError`` for a syntax error (line and column) or an invalid member
    ///   (line, column and path).
    public init(fileBytes bytes: [UInt8], file: String) throws(EnergyProfileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw EnergyProfileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        self = try ProfileReader(file: file).profile(root)
    }

    /// The complete profile as a version-1 profile file: every constant, the assumed list, the
    /// model's name and version. Reading it back gives an equal profile.
    public var fileJSON: JSONValue {
        var top: [(String, JSONValue)] = [
            ("format", .string("tracekit-energy-profile")), ("version", .number(Double(EnergyProfile.fileVersion))),
            ("model", .string(EnergyProfile.modelName)), ("modelVersion", .number(Double(EnergyProfile.modelVersion))),
            ("name", .string(name)), ("base", .string(base)),
        ]
        var groups: [(String, [(String, JSONValue)])] = []
        for constant in EnergyConstant.allCases {
            let value = JSONValue.number(self[constant])
            guard let group = constant.group else {
                top.append((constant.member, value))
                continue
            }
            if let i = groups.firstIndex(where: { $0.0 == group }) {
                groups[i].1.append((constant.member, value))
            } else {
                groups.append((group, [(constant.member, value)]))
            }
        }
        top += groups.map { ($0.0, .object($0.1)) }
        top.append(("assumed", .array(assumed.sorted().map { .string($0.path) })))
        return .object(top)
    }
}

/// Validates a parsed profile document member by member.
private struct ProfileReader: JSONFieldReading {
    let file: String

    func constant(_ v: JSONValue, _ c: EnergyConstant) throws(EnergyProfileError) -> Double {
        let unit = c.unit.isEmpty ? "" : " \(c.unit)"
        guard case .number(let x) = v.kind else {
            throw fail(v, c.path, "expected a number\(c.unit.isEmpty ? "" : " of \(c.unit)"), found \(v.typeName)")
        }
        switch c {
        case .nominalVoltage:
            guard x > 0 else { throw fail(v, c.path, "must be greater than 0\(unit), got \(JSONWriter.number(x))") }
        case .referenceBattery:
            let most = EnergyProfile.maximumReferenceBatteryMilliampHours
            guard x > 0, x <= most else {
                throw fail(v, c.path, "must be greater than 0 and at most \(JSONWriter.number(most))\(unit), got \(JSONWriter.number(x))")
            }
        case .lossProbability:
            guard x >= 0, x <= 1 else { throw fail(v, c.path, "must be a probability from 0 to 1, got \(JSONWriter.number(x))") }
        case .backendSpread:
            guard x >= 0, x <= NetworkProfile.maximumBackendSigma else {
                throw fail(
                    v, c.path, "must be from 0 to \(JSONWriter.number(NetworkProfile.maximumBackendSigma)), got \(JSONWriter.number(x))")
            }
        default:
            guard x >= 0 else { throw fail(v, c.path, "must be at least 0\(unit), got \(JSONWriter.number(x))") }
        }
        return x
    }

    func profile(_ root: JSONValue) throws(EnergyProfileError) -> EnergyProfile {
        let groups = ["locationMilliwatts", "radio", "network"]
        let topConstants = EnergyConstant.allCases.filter { $0.group == nil }
        let allowed = ["format", "version", "model", "modelVersion", "name", "base"] + topConstants.map(\.member) + groups + ["assumed"]
        let top = try members(root, "", allowed: allowed)
        guard let format = root["format"] else {
            throw fail(root, "format", "missing; an energy profile file starts with \"format\": \"tracekit-energy-profile\"")
        }
        guard try string(format, "format") == "tracekit-energy-profile" else {
            throw fail(format, "format", "expected \"tracekit-energy-profile\"")
        }
        guard let version = root["version"] else {
            throw fail(root, "version", "missing; this TraceKit reads version \(EnergyProfile.fileVersion)")
        }
        guard case .number(let v) = version.kind else { throw fail(version, "version", "expected a number, found \(version.typeName)") }
        guard v == Double(EnergyProfile.fileVersion) else {
            throw fail(
                version, "version", "unsupported version \(JSONWriter.number(v)); this TraceKit reads version \(EnergyProfile.fileVersion)")
        }
        if let m = root["model"], try string(m, "model") != EnergyProfile.modelName {
            throw fail(m, "model", "this profile is for another model; this TraceKit's is \(EnergyProfile.modelName)")
        }
        if let m = root["modelVersion"] {
            guard case .number(let x) = m.kind else { throw fail(m, "modelVersion", "expected a number, found \(m.typeName)") }
            guard x == Double(EnergyProfile.modelVersion) else {
                throw fail(
                    m, "modelVersion",
                    "this profile is for model version \(JSONWriter.number(x)); this TraceKit's is \(EnergyProfile.modelVersion)")
            }
        }
        var profile = EnergyProfile.lte
        if let b = root["base"] {
            let name = try string(b, "base")
            guard let base = EnergyProfile.builtIn.first(where: { $0.name == name }) else {
                throw fail(
                    b, "base",
                    "unknown profile \"\(shown(name))\"; expected one of \(EnergyProfile.builtIn.map(\.name).joined(separator: ", "))")
            }
            profile = base
        }
        var set: Set<EnergyConstant> = []
        for (key, value) in top {
            if let c = topConstants.first(where: { $0.member == key }) {
                profile[c] = try constant(value, c)
                set.insert(c)
            } else if groups.contains(key) {
                let inGroup = EnergyConstant.allCases.filter { $0.group == key }
                for (k, x) in try members(value, key, allowed: inGroup.map(\.member)) {
                    let c = inGroup.first { $0.member == k }!
                    profile[c] = try constant(x, c)
                    set.insert(c)
                }
            }
        }
        if let list = root["assumed"] {
            profile.assumed = try assumedList(list)
        } else {
            profile.assumed.subtract(set)
        }
        if let n = root["name"] {
            profile.name = try string(n, "name")
            if profile.name.isEmpty || profile.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                throw fail(n, "name", "must be non-empty, without control characters (line breaks, tabs)")
            }
        } else if !set.subtracting([.referenceBattery]).isEmpty {
            profile.name = "\(profile.base)-custom"
        }
        return profile
    }

    func assumedList(_ v: JSONValue) throws(EnergyProfileError) -> Set<EnergyConstant> {
        guard case .array(let items) = v.kind else { throw fail(v, "assumed", "expected an array of constant paths, found \(v.typeName)") }
        var result: Set<EnergyConstant> = []
        for (i, item) in items.enumerated() {
            let p = "assumed[\(i)]"
            let path = try string(item, p)
            guard let c = EnergyConstant.allCases.first(where: { $0.path == path }) else {
                throw fail(
                    item, p,
                    "unknown constant \"\(shown(path))\"; expected one of \(EnergyConstant.allCases.map(\.path).joined(separator: ", "))")
            }
            guard result.insert(c).inserted else { throw fail(item, p, "\"\(path)\" is listed twice") }
        }
        return result
    }
}
