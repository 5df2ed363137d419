import TraceDomain
import TraceIO
import TraceJSON
import TraceSharing
import TraceSmoothing

/// `tracekit smooth IN OUT`: a Kalman filter (and optionally the RTS smoother) over each track
/// segment, written in any output format.
enum SmoothCommand {
    static let tiers = AccuracyTier.allCases.filter { $0 != .off }.reversed().map(\.key)

    static let spec = CommandSpec(
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
            largest correction in metres. Formats, '-' and atomic writing are as for 'convert'.
            """,
        positionals: [
            PositionalSpec(name: "IN", help: "The trace to read ('-' for standard input)."),
            PositionalSpec(name: "OUT", help: "The file to write ('-' for standard output)."),
        ],
        options: [
            OptionSpec(name: "mode", short: "m", valueName: "MODE", choices: TravelMode.allCases.map(\.rawValue), defaultValue: "walk",
                       help: "How the device travels (sets the process noise)."),
            OptionSpec(name: "tier", valueName: "TIER", choices: tiers, defaultValue: "best",
                       help: "The accuracy tier the trace was recorded at (sets the σ floor, the nominal accuracy and the process noise)."),
            OptionSpec(name: "convention", valueName: "PLATFORM", choices: AccuracyConvention.allCases.map(\.rawValue), defaultValue: "ios",
                       help: "What reported accuracy means: ios (σ = acc/√2), android (acc/1.51), w3c (acc/2.45)."),
            OptionSpec(name: "rts", help: "Smooth offline with the Rauch–Tung–Striebel smoother instead of the forward filter."),
            OptionSpec(name: "gate", valueName: "CHI2", defaultValue: "13.8",
                       help: "Reject a point whose squared Mahalanobis distance exceeds this (χ², 2 degrees of freedom; 'inf': no gating)."),
        ] + ConvertCommand.transcodeOptions,
        examples: [
            "tracekit smooth --rts ride.gpx ride-smoothed.gpx",
            "tracekit smooth --mode drive --tier hundredMeters --convention android history.csv out.csv",
        ])

    static func run(_ args: ParsedArguments, _ output: Output) throws(CLIError) {
        let gateText = args.value("gate") ?? "13.8"
        // KalmanParameters: infinity disables gating; NaN fails `> 0`.
        guard let gate = Double(gateText), gate > 0 else {
            throw .usage("'--gate' takes a positive χ² threshold or 'inf', not '\(gateText)'")
        }
        let mode = TravelMode(rawValue: args.value("mode") ?? "walk")!
        let tier = AccuracyTier(parsing: args.value("tier") ?? "best")!
        let convention = AccuracyConvention(rawValue: args.value("convention") ?? "ios")!
        var stage = SmoothStage(configuration: SmoothingConfiguration(tier: tier, mode: mode, convention: convention, gate: gate)!,
                                rts: args.flags.contains("rts"))
        try ConvertCommand.transcode(args, output, through: &stage)
    }
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
        var line = "smoothed \(summary.points) points (\(rts ? "RTS smoother" : "forward filter"); \(c.mode.rawValue), \(c.tier.key), \(c.convention.rawValue) accuracy, gate \(gate)): "
        line += "\(summary.rejected) rejected, \(summary.restarts) restarts, mean correction \(metres(summary.meanCorrection)), largest \(metres(summary.maximumCorrection))"
        return [line] + (untimed > 0 ? ["\(untimed) points without a time were written unchanged"] : [])
            + (unestimated > 0 ? ["\(unestimated) points without an estimate were written unchanged"] : [])
    }
}
