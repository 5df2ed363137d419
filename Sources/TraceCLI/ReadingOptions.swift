import TraceDomain
import TraceIO
import TraceJSON

/// How to read traces: the options `info`, `convert`, `smooth`, `replay`, `compare` and `batch`
/// share (each declares them with its own help).
struct ReadingOptions: OptionGroup {
    var inputFormat: InputFormat?
    var onProblem = ProblemPolicy.default
    /// `--max-speed`: the implied-motion limit (``ImpliedMotion``).
    var maxSpeed = SpeedLimit(metresPerSecond: ImpliedMotion.defaultMaximumSpeed)
    var utcOffset: UTCOffset?
    /// `--date`: the date of NMEA fixes that come before any date in the log.
    var date: DateArgument?
    /// Every `--column` given, in order (a later pair for the same field wins).
    var columns: [ColumnMapping] = []

    /// The reader's options.
    var readOptions: ReadOptions {
        var o = ReadOptions(
            policy: onProblem, zonelessUTCOffset: utcOffset?.seconds,
            columns: columns.reduce(into: [:]) { $0.merge($1.fields) { _, later in later } }, maximumSpeed: maxSpeed.metresPerSecond)
        o.date = date?.days
        return o
    }

    /// The format to read, when one is named (nil: from each path's extension).
    var format: TraceFormat? { inputFormat?.traceFormat }
}

/// A format TraceKit reads.
enum InputFormat: String, ArgumentChoice {
    case gpx, csv, plt, rec, nmea, kml, geojson, ndjson, json

    var traceFormat: TraceFormat {
        switch self {
        case .gpx: .gpx
        case .csv: .csv
        case .plt: .plt
        case .rec: .rec
        case .nmea: .nmea
        case .kml: .kml
        case .geojson: .geojson
        case .ndjson: .ndjson
        case .json: .json
        }
    }
}

extension ProblemPolicy: ArgumentChoice {}

/// `--max-speed`: the fastest motion a track is believed (``ImpliedMotion``), in metres per second
/// (`100`), or with a unit (`360km/h`, `200mph`, `190kn`, `100m/s`); `off` turns the check off.
struct SpeedLimit: ArgumentRepresentable, Equatable {
    /// Nil: off.
    var metresPerSecond: Double?

    init(metresPerSecond: Double?) { self.metresPerSecond = metresPerSecond }

    init(argument: String) throws(InvalidArgument) {
        let text = argument.lowercased().filter { $0 != " " }
        if text == "off" {
            metresPerSecond = nil
            return
        }
        let units: [(String, Double)] = [("km/h", 1 / 3.6), ("kmh", 1 / 3.6), ("mph", 0.44704), ("kn", 1852.0 / 3600), ("m/s", 1)]
        var number = Substring(text), factor = 1.0
        if let (suffix, f) = units.first(where: { text.hasSuffix($0.0) }) {
            number = number.dropLast(suffix.count)
            factor = f
        }
        guard let v = Double(number), v.isFinite, v > 0 else {
            throw .expected("a speed above 0 in m/s, or with a unit (km/h, mph, kn), or 'off'", got: argument)
        }
        metresPerSecond = v * factor
    }

    var argument: String { metresPerSecond.map { JSONWriter.number($0) } ?? "off" }
}

/// Hours east of UTC for zone-less CSV times: within ±14, a whole number of seconds.
struct UTCOffset: ExpressibleByArgument, Equatable {
    var seconds: Int

    init(argument: String) throws(InvalidArgument) {
        guard let hours = Double(argument), hours.isFinite, abs(hours) <= 14, (hours * 3600).rounded() == hours * 3600 else {
            throw .expected("hours east of UTC between -14 and 14", got: argument)
        }
        seconds = Int(hours * 3600)
    }
}

/// `--date YYYY-MM-DD`: a day of the proleptic Gregorian calendar, as days since 1970-01-01.
struct DateArgument: ExpressibleByArgument, Equatable {
    var days: Int

    init(argument: String) throws(InvalidArgument) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { throw .expected("a date YYYY-MM-DD", got: argument) }
        let days = Timestamp.daysFromCivil(year: y, month: m, day: d)
        guard (1...12).contains(m), (1...31).contains(d), Timestamp.civilFromDays(days) == (y, m, d) else {
            throw .expected("a date YYYY-MM-DD that exists", got: argument)
        }
        guard Timestamp.supportedYears.contains(y) else {
            throw .expected(
                "a date YYYY-MM-DD in the years \(Timestamp.supportedYears.lowerBound)–\(Timestamp.supportedYears.upperBound)",
                got: argument)
        }
        self.days = days
    }
}

/// CSV columns for fields: `FIELD=COLUMN` pairs, comma-separated (a later pair for the same field
/// wins).
struct ColumnMapping: ExpressibleByArgument, Equatable {
    var fields: [String: String] = [:]

    init(argument: String) throws(InvalidArgument) {
        for pair in argument.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .expected("FIELD=COLUMN pairs", got: String(pair)) }
            fields[String(parts[0])] = String(parts[1])
        }
    }
}
