import TraceDomain
import TraceJSON

// A point's fields: which child element carries which, how its text is read (the value rules,
// one place for every path), and how a value is stored or reported.
extension GPXReader {
    enum Field: Int, CustomStringConvertible {
        case elevation, time, hdop, vdop, pdop, satellites, fixType, name, speed, course
        case horizontalAccuracy, verticalAccuracy, role, state, containerName

        /// The field's bit in a set of fields.
        @inline(__always) var bit: Int { 1 << rawValue }

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

    /// The field a point child element carries: by local name, direct children only for the GPX
    /// elements, any depth (extensions) for speed, course, accuracies, role and state.
    static func pointField(_ local: UnsafeBufferPointer<UInt8>, direct: Bool) -> Field? {
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

    /// `bytes` without leading and trailing XML whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = bytes.count
        while lo < hi && XMLScanner.isSpace(bytes[lo]) { lo += 1 }
        while hi > lo && XMLScanner.isSpace(bytes[hi - 1]) { hi -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lo..<hi])
    }

    /// Parses a decimal number; notes an unreadable one. `required` values note a missing coordinate.
    mutating func number(_ text: UnsafeBufferPointer<UInt8>?, what: String, required: Bool = false) throws(TraceReadError) -> Double? {
        guard let text else { return nil }
        let v = DecimalParser.parseDouble(GPXReader.trimmed(text))
        if let v, v.isFinite { return v }
        try checker.note(required ? .invalidCoordinate : .invalidValue, line: scanner.line, "\(what) \(TextValue.notANumber(text))")
        return nil
    }

    /// A point field's text, read: the value to store, or the problem to report.
    enum FieldValue {
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
    static func read(_ f: Field, _ raw: UnsafeBufferPointer<UInt8>) -> FieldValue {
        let text = GPXReader.trimmed(raw)
        if text.isEmpty { return .none }
        func shown() -> String { ShownText.escaped(String(decoding: text.prefix(40), as: UTF8.self)) }
        func number(_ what: String, nonNegative: Bool = false) -> FieldValue {
            guard let v = DecimalParser.parseDouble(text), v.isFinite else {
                return .problem(.invalidValue, "\(what) \(TextValue.notANumber(text))")
            }
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
            return ValueRules.isSatelliteCount(v) ? .count(Int(v)) : .problem(.invalidValue, "satellites \(v)")
        case .course:
            guard case .number(let v) = number("course") else { return number("course") }
            return ValueRules.isCourse(v) ? .number(v) : .problem(.invalidValue, "course \(v) outside [0, 360]")
        case .fixType:
            let s = String(decoding: text, as: UTF8.self)
            if let t = FixType(rawValue: s) { return .fix(t) }
            return .problem(.invalidValue, "fix '\(s.prefix(40))' (expected none, 2d, 3d, dgps or pps)")
        case .name, .role, .state, .containerName: return .text(String(decoding: text, as: UTF8.self))
        }
    }

    /// The time a field value stores, shifted by the zone-less offset when it has no zone; nil
    /// when the shift leaves the representable range.
    func storedTime(_ t: Timestamp, hadZone: Bool) -> Timestamp? {
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
    mutating func assumeZoneless() {
        if zonelessOffset == nil && !zoneAssumed {
            zoneAssumed = true
            checker.diagnostics.assume("times without a zone were read as UTC")
        }
    }

    /// Stores a readable value (a number, count, fix type or text) of field `f` in `values`.
    static func store(_ f: Field, _ value: FieldValue, in values: inout Fix) {
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
    mutating func finishField(_ f: Field, text raw: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
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
}
