import TraceDomain
import TraceIO
import TraceJSON
import TraceSharing
import TraceSmoothing

/// `tracekit smooth IN OUT`: a Kalman filter (and optionally the RTS smoother) over each track
/// segment, written in any output format.
enum SmoothCommand {
    /// The options of `smooth`, with their defaults.
    struct Options: CommandOptions {
        var mode = TravelMode.walk
        var tier = AccuracyTier.best
        var convention = AccuracyConvention.ios
        var rts = false
        var gate = GateThreshold(rawValue: 13.8)
        var transcoding = ConvertCommand.Transcoding()
        /// IN and OUT.
        var arguments: [String] = []
    }

    /// The χ² threshold of the filter's gate: positive, infinity ('inf') for no gating.
    struct GateThreshold: ArgumentRepresentable, Equatable {
        var rawValue: Double

        init(rawValue: Double) { self.rawValue = rawValue }

        init(argument: String) throws(InvalidArgument) {
            // KalmanParameters: infinity disables gating; NaN fails `> 0`.
            guard let x = Double(argument), x > 0 else { throw .expected("a positive χ² threshold or 'inf'", got: argument) }
            rawValue = x
        }

        var argument: String { rawValue.isFinite ? JSONWriter.number(rawValue) : "inf" }
    }

    static let spec = CommandSpec<Options>(
        name: "smooth",
        abstract: "Smooth a trace with a Kalman filter, or with the Rauch–Tung–Striebel smoother (--rts).",
        discussion: """
            Each track segment is filtered on its own: a constant-velocity model in a local \
            east/north frame (re-anchored on the estimate once it is 10 km from the frame's \
            origin), process noise from --mode and --tier (the battery model's walk and drive values, docs/battery-model.md; \
            the bike values are TraceKit's assumption, between them), measurement noise from each \
            point's reported accuracy read with --convention and floored by the tier, or the \
            tier's nominal accuracy when a point has none (no value, or 0 or less). A point whose \
            squared Mahalanobis distance exceeds --gate ('inf' turns gating off) is rejected: \
            counted, and it does not move the estimate. The fifth rejection in a row restarts the \
            filter at that point instead (counted as a restart, not a rejection). Every point is \
            written at its estimate: without --rts the forward filter's (what a service sees \
            online; for a rejected point, the prediction), with --rts the smoothed estimate from \
            the whole segment. Points are taken in time order (newest-first exports included); \
            points without a time are written unchanged. Only positions change: every other value \
            is written as read.

            The summary goes to stderr: points smoothed, rejected, restarts, and the mean and \
            largest correction in metres. Formats, '-', atomic writing and the refusal of an OUT \
            that is IN (64) are as for 'convert'.
            """,
        positionals: [
            PositionalSpec(name: "IN", help: "The trace to read ('-' for standard input)."),
            PositionalSpec(name: "OUT", help: "The file to write ('-' for standard output)."),
        ],
        options: [
            .value("mode", short: "m", \.mode, valueName: "MODE", help: "How the device travels (sets the process noise)."),
            .value(
                "tier", \.tier, valueName: "TIER",
                help: "The accuracy tier the trace was recorded at (sets the σ floor, the nominal accuracy and the process noise)."),
            .value(
                "convention", \.convention, valueName: "PLATFORM",
                help: "What reported accuracy means: ios (σ = acc/√2), android (acc/1.51), w3c (acc/2.45)."),
            .flag("rts", \.rts, help: "Smooth offline with the Rauch–Tung–Striebel smoother instead of the forward filter."),
            .value(
                "gate", \.gate, valueName: "CHI2",
                help: "Reject a point whose squared Mahalanobis distance exceeds this (χ², 2 degrees of freedom; 'inf': no gating)."),
        ] + ConvertCommand.transcodeOptions.map { $0.on(\.transcoding) },
        examples: [
            "tracekit smooth --rts ride.gpx ride-smoothed.gpx",
            "tracekit smooth --mode drive --tier hundredMeters --convention android history.csv out.csv",
        ])

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        guard
            let configuration = SmoothingConfiguration(
                tier: options.tier, mode: options.mode, convention: options.convention, gate: options.gate.rawValue)
        else {
            throw .usage("'--tier' \(options.tier.key) gives no smoothing parameters")  // not a choice: the parser refused it
        }
        var stage = SmoothStage(configuration: configuration, rts: options.rts)
        try ConvertCommand.transcode(options.transcoding, options.arguments, output, through: &stage)
    }
}

extension TravelMode: ArgumentChoice {}
extension AccuracyConvention: ArgumentChoice {}

/// A tier a trace can be recorded at (not `off`), finest first, by its key.
extension AccuracyTier: ArgumentRepresentable {
    static var choices: [String] { allCases.filter { $0 != .off }.reversed().map(\.key) }

    init(argument: String) throws(InvalidArgument) {
        guard let tier = AccuracyTier.allCases.first(where: { $0 != .off && $0.key == argument }) else { throw .notAChoice(Self.choices) }
        self = tier
    }

    var argument: String { key }
}

/// Keeps each segment's items, smooths its timed track points, and writes the segment.
struct SmoothStage: TraceStage {
    var smoother: TrackSmoother
    let rts: Bool
    private var pending: [TraceItem] = []
    private var order: [Int] = []
    private var summary = SmoothingSummary()
    private var untimed = 0
    private var unestimated = 0

    init(configuration: SmoothingConfiguration, rts: Bool) {
        smoother = TrackSmoother(configuration: configuration)
        self.rts = rts
    }

    mutating func take(_ item: TraceItem, _ writer: inout any TraceWriter) throws(TraceWriteError) {
        switch item {
        case .trackStart, .segmentStart, .routeStart:
            try finish(&writer)
            try writer.write(item)
        case .trackPoint:
            pending.append(item)
        case .routePoint, .waypoint:
            // Kept in place among a segment's points, so the file order is preserved.
            if pending.isEmpty { try writer.write(item) } else { pending.append(item) }
        }
    }

    mutating func finish(_ writer: inout any TraceWriter) throws(TraceWriteError) {
        order.removeAll(keepingCapacity: true)
        for (i, item) in pending.enumerated() {
            guard case .trackPoint(let f) = item else { continue }
            if f.time == nil { untimed += 1 } else { order.append(i) }
        }
        if !order.isEmpty {
            let items = pending
            func time(_ i: Int) -> Int64 {
                if case .trackPoint(let f) = items[i], let t = f.time { return t.nanoseconds }
                return 0
            }
            order.sort { (time($0), $0) < (time($1), $1) }  // stable: equal times keep file order
            smoother.removeAll()
            for i in order {
                guard case .trackPoint(let f) = pending[i] else { continue }
                smoother.append(f.coordinate, time: f.time!.seconds, accuracy: f.horizontalAccuracy)
            }
            summary.add(smoother.run(smoothing: rts))
            for (k, i) in order.enumerated() {
                guard case .trackPoint(var f) = pending[i] else { continue }
                guard let c = smoother.coordinate(at: k) else {
                    unestimated += 1
                    continue
                }
                f.coordinate = c
                pending[i] = .trackPoint(f)
            }
        }
        for item in pending { try writer.write(item) }
        pending.removeAll(keepingCapacity: true)
    }

    var notes: [String] {
        let c = smoother.configuration
        func metres(_ x: Double) -> String { JSONWriter.number((x * 100).rounded() / 100) + " m" }
        let gate = c.parameters.gate.isFinite ? JSONWriter.number(c.parameters.gate) : "inf"
        var line =
            "smoothed \(summary.points) points (\(rts ? "RTS smoother" : "forward filter"); \(c.mode.rawValue), \(c.tier.key), \(c.convention.rawValue) accuracy, gate \(gate)): "
        line +=
            "\(summary.rejected) rejected, \(summary.restarts) restarts, mean correction \(metres(summary.meanCorrection)), largest \(metres(summary.maximumCorrection))"
        return [line] + (untimed > 0 ? ["\(untimed) points without a time were written unchanged"] : [])
            + (unestimated > 0 ? ["\(unestimated) points without an estimate were written unchanged"] : [])
    }
}
