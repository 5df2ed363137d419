import TraceDomain
import TraceJSON
import TraceReplay

/// `replay --split`: each trip's report in the chosen format, in time order, then the trips side
/// by side with their total, and where the recording's other fixes went.
enum TripsReport {
    /// "Split: IN into 3 trips (…)": the rule and where the helper's fixes went; `inputs` as the
    /// output shows them (``Shown``).
    static func header(_ t: TripReplays, inputs: [String]) -> String {
        let s = t.split, r = s.rules
        var parts = ["\(s.trips.reduce(0) { $0 + $1.fixes }) of the helper's \(s.fixes) fixes in trips"]
        if s.inStays > 0 { parts.append("\(s.inStays) in long stays") }
        if s.stationary > 0 { parts.append("\(s.stationary) never \(DecimalText.fixed(r.stayRadiusMetres, 0)) m from where they were") }
        return "Split: \(inputs.joined(separator: ", ")) into \(s.trips.count) trip\(s.trips.count == 1 ? "" : "s") "
            + "(recording gaps over \(InfoCommand.duration(r.gapSeconds)), long stays of \(InfoCommand.duration(r.staySeconds)) within "
            + "\(DecimalText.fixed(r.stayRadiusMetres, 0)) m; README \"Long recordings\"): \(parts.joined(separator: ", ")); "
            + "\(s.gapCount) recording gap\(s.gapCount == 1 ? "" : "s") (\(InfoCommand.duration(s.gapSeconds)))"
    }

    /// "Trip 2 of 3: start … end (24.2 min, 23.01 km; after a long stay, to a long stay)".
    static func title(_ trip: Trip, of count: Int) -> String {
        "Trip \(trip.index) of \(count): \(trip.start.iso8601) … \(trip.end.iso8601) (\(InfoCommand.duration(trip.durationSeconds)), "
            + "\(DecimalText.fixed(trip.distanceMetres / 1000, 2)) km; after \(trip.startsAfter.rawValue), to \(trip.endsAt.rawValue))"
    }

    /// The trips side by side: a row per trip and the total.
    static func summaryTable(_ t: TripReplays) -> String {
        let roles = t.totals.map(\.role)
        var header = ["Trip", "Start", "Time", "Distance km"]
        for role in roles { header += ["\(role.key) sent", "\(role.key) mAh"] }
        var rows: [[String]] = []
        for x in t.trips {
            var row = [
                "\(x.trip.index)", x.trip.start.iso8601, InfoCommand.duration(x.result.durationSeconds),
                DecimalText.fixed(x.trip.distanceMetres / 1000, 2),
            ]
            for role in roles {
                let sent = x.result.roleTotals.first { $0.role == role }?.sentUpdates
                let mAh = x.result.energy.first { $0.role == role }?.estimate.milliampHours
                row += [sent.map(String.init) ?? "—", mAh.map { DecimalText.fixed($0, 2) } ?? "—"]
            }
            rows.append(row)
        }
        var total = [
            "Total", "", InfoCommand.duration(t.seconds), DecimalText.fixed(t.trips.reduce(0) { $0 + $1.trip.distanceMetres } / 1000, 2),
        ]
        for r in t.totals { total += ["\(r.sentUpdates)", DecimalText.fixed(r.milliampHours, 2)] }
        rows.append(total)
        return TextTable.aligned(header: header, rows: rows)
    }

    static func table(_ t: TripReplays, inputs: [String]) -> String {
        var out = header(t, inputs: inputs.map(Shown.terminal)) + "\n"
        for x in t.trips {
            out += "\n=== " + title(x.trip, of: t.trips.count) + "\n" + ReplayReport.table(x.result)
        }
        out += "\nTrips (each its own request):\n" + summaryTable(t)
        return out
    }

    static func markdown(_ t: TripReplays, inputs: [String]) -> String {
        var out = "## TraceKit replay, trip by trip\n\n" + header(t, inputs: inputs.map(Shown.markdown)) + "\n"
        for x in t.trips { out += "\n#### " + title(x.trip, of: t.trips.count) + "\n\n" + ReplayReport.markdown(x.result) }
        let lines = summaryTable(t).split(separator: "\n").map(String.init)
        out += "\n#### Trips (each its own request)\n\n```\n" + lines.joined(separator: "\n") + "\n```\n"
        return out
    }

    /// The replay CSV with the trip's number first on every row.
    static func csv(_ t: TripReplays) -> String {
        var out = ""
        for (i, x) in t.trips.enumerated() {
            let lines = ReplayReport.csv(x.result).split(separator: "\r\n", omittingEmptySubsequences: true)
            for (j, line) in lines.enumerated() {
                if j == 0 {
                    if i == 0 { out += "trip," + line + "\r\n" }
                } else {
                    out += "\(x.trip.index)," + line + "\r\n"
                }
            }
        }
        if t.trips.isEmpty { out = "trip," + ReplayReport.csvColumns.joined(separator: ",") + "\r\n" }
        return out
    }

    static func json(_ t: TripReplays, inputs: [String]) -> JSONValue {
        let s = t.split
        return .object([
            ("schema", .string("tracekit-replay-trips/1")), ("traces", .array(inputs.map { .string($0) })),
            (
                "split",
                .object([
                    ("gapSeconds", .number(s.rules.gapSeconds)), ("staySeconds", .number(s.rules.staySeconds)),
                    ("stayRadiusMetres", .number(s.rules.stayRadiusMetres)), ("helperFixes", .number(Double(s.fixes))),
                    ("inLongStays", .number(Double(s.inStays))), ("stationary", .number(Double(s.stationary))),
                    ("recordingGaps", .number(Double(s.gapCount))), ("recordingGapSeconds", .number(s.gapSeconds)),
                ])
            ),
            (
                "trips",
                .array(
                    t.trips.map { x in
                        .object([
                            ("index", .number(Double(x.trip.index))), ("start", .string(x.trip.start.iso8601)),
                            ("end", .string(x.trip.end.iso8601)), ("distanceMetres", .number(x.trip.distanceMetres)),
                            ("startsAfter", .string(x.trip.startsAfter.key)), ("endsAt", .string(x.trip.endsAt.key)),
                            ("replay", x.result.json),
                        ])
                    })
            ),
            ("total", total(t)),
        ])
    }

    /// The trips' total: their count, request time, and each role's figures summed.
    static func total(_ t: TripReplays) -> JSONValue {
        .object([
            ("trips", .number(Double(t.trips.count))), ("seconds", .number(t.seconds)),
            (
                "roles",
                .array(
                    t.totals.map { r in
                        .object([
                            ("role", .string(r.role.key)), ("rawFixes", .number(Double(r.rawFixes))),
                            ("deliveredFixes", .number(Double(r.deliveredFixes))), ("sentUpdates", .number(Double(r.sentUpdates))),
                            ("distanceMetres", .number(r.distanceMetres)), ("energyJoules", .number(r.joules)),
                            ("milliampHours", .number(r.milliampHours)),
                        ])
                    })
            ),
        ])
    }
}
