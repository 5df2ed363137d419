import TraceJSON
import TraceReplay

/// How long recordings are cut into trips: `split`'s options, and with `--split` those of
/// `replay`, `compare` and `batch`.
struct SplitOptions: OptionGroup {
    /// `--split`: replay each trip as its own request (not on `split`, which always splits).
    var split = false
    var gap = DurationArgument(seconds: TripRules.default.gapSeconds)
    var stay = DurationArgument(seconds: TripRules.default.staySeconds)
    var stayRadius = PositiveMetres(rawValue: TripRules.default.stayRadiusMetres)

    var rules: TripRules { TripRules(gapSeconds: gap.seconds, staySeconds: stay.seconds, stayRadiusMetres: stayRadius.rawValue) }

    /// The rule options (`split` has these alone).
    static let ruleOptions: [Option<SplitOptions>] = [
        .value(
            "gap", \.gap, valueName: "DURATION",
            help:
                "A recording gap: no fix for longer than this (600, 600s, 10m, 1.5h). It separates trips, and a replay leaves it out of request time."
        ),
        .value(
            "stay", \.stay, valueName: "DURATION",
            help: "A long stay: within --stay-radius of one fix for at least this long separates trips."),
        .value("stay-radius", \.stayRadius, valueName: "METRES", help: "The long stay's radius."),
    ]

    /// `--split` and the rule options (`replay`, `compare`, `batch`).
    static let options: [Option<SplitOptions>] =
        [
            .flag(
                "split", \.split,
                help:
                    "Cut each recording into trips at recording gaps and long stays (as 'tracekit split' does) and replay each trip as its own request."
            )
        ] + ruleOptions
}

/// A duration: seconds, or a number with s, m (min) or h.
struct DurationArgument: ArgumentRepresentable, Equatable {
    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init(argument: String) throws(InvalidArgument) {
        var text = Substring(argument)
        var unit = 1.0
        for (suffix, factor) in [("min", 60.0), ("s", 1), ("m", 60), ("h", 3600)] where text.hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
            unit = factor
            break
        }
        guard let x = Double(text), x.isFinite, x > 0, x * unit <= 366 * 86_400 else {
            throw .expected("a duration above 0 and at most a year: seconds, or a number with s, m or h (600, 10m, 1.5h)", got: argument)
        }
        seconds = x * unit
    }

    var argument: String {
        if seconds >= 3600, (seconds / 3600).rounded() == seconds / 3600 { return JSONWriter.number(seconds / 3600) + "h" }
        if seconds >= 60, (seconds / 60).rounded() == seconds / 60 { return JSONWriter.number(seconds / 60) + "m" }
        return JSONWriter.number(seconds) + "s"
    }
}

/// A positive, finite number of metres.
struct PositiveMetres: ArgumentRepresentable, Equatable {
    var rawValue: Double

    init(rawValue: Double) { self.rawValue = rawValue }

    init(argument: String) throws(InvalidArgument) {
        guard let x = Double(argument), x.isFinite, x > 0, x <= 100_000 else {
            throw .expected("a number of metres above 0 and at most 100000", got: argument)
        }
        rawValue = x
    }

    var argument: String { JSONWriter.number(rawValue) }
}
