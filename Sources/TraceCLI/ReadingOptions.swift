import TraceIO

/// How to read traces: the options `info`, `convert`, `smooth`, `replay`, `compare` and `batch`
/// share (each declares them with its own help).
struct ReadingOptions: OptionGroup {
    var inputFormat: InputFormat?
    var onProblem = ProblemPolicy.report
    var utcOffset: UTCOffset?
    /// Every `--column` given, in order (a later pair for the same field wins).
    var columns: [ColumnMapping] = []

    /// The reader's options.
    var readOptions: ReadOptions {
        ReadOptions(
            policy: onProblem, zonelessUTCOffset: utcOffset?.seconds,
            columns: columns.reduce(into: [:]) { $0.merge($1.fields) { _, later in later } })
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
