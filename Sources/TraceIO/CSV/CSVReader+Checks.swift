// The checks of a parsed row once the file's order is known, and the end of the file.
extension CSVReader {
    /// Settles the row order from the look-ahead, then checks the rows held, queueing their items.
    mutating func decideOrder() throws(TraceReadError) {
        direction = downs > ups ? .newestFirst : .oldestFirst
        if direction == .newestFirst { checker.diagnostics.assume("rows are newest first") }
        let rows = lookahead
        lookahead = []
        for r in rows {
            row = r
            if try check() { queue.push(.trackPoint(row.values)) }
        }
    }

    /// Checks ``row`` once the order is known: applies its structure (queueing a pending track or
    /// segment start when it yields a point) and the point checks. Returns whether it yields a
    /// point (``row``'s values, with the checked coordinate); false for a marker row or a dropped
    /// point.
    mutating func check() throws(TraceReadError) -> Bool {
        let line = row.line
        if row.startsTrack {
            pendingTrack = PendingTrack(name: row.trackName)
            pendingSegment = true
            try checker.startSegment()
            mirroredPrevious = nil
        } else if row.startsSegment {
            pendingSegment = true
            try checker.startSegment()
            mirroredPrevious = nil
        }
        guard row.kind == .point else { return false }
        if !row.notes.isEmpty {
            for n in row.notes { try checker.note(n.kind, line: line, n.detail) }
        }
        var valid = false
        if let p = row.coordinateProblem {
            try checker.note(p.kind, line: line, p.detail)
        } else if let c = try checker.coordinate(latitude: row.latitude, longitude: row.longitude, line: line) {
            row.values.coordinate = c
            valid = true
        }
        let time = row.values.time
        if direction == .newestFirst && valid {
            // The checker's time checks, mirrored: each row should be earlier than the one before.
            if let t = time {
                if !PointChecker.isPlausible(t) { try checker.note(.implausibleTime, line: line, t.iso8601) }
                if let p = mirroredPrevious {
                    if t > p {
                        try checker.note(.timeWentBackwards, line: line, "\(t.iso8601) after \(p.iso8601) in a newest-first file")
                    } else if t == p {
                        try checker.note(.duplicateTime, line: line, t.iso8601)
                    }
                }
                mirroredPrevious = t
            } else if !row.timeUnreadable {
                try checker.note(.missingTime, line: line)
            }
        }
        let track = TrackSample(row.values.coordinate, accuracy: row.values.horizontalAccuracy ?? 0, role: row.values.role)
        guard try checker.accept(valid: valid, time: time, line: line, ordered: direction != .newestFirst, track: track) else {
            return false
        }
        if let t = pendingTrack {
            queue.push(.trackStart(name: t.name))
            pendingTrack = nil
            pendingSegment = true
        }
        if pendingSegment {
            queue.push(.segmentStart)
            pendingSegment = false
        }
        return true
    }

    mutating func finish() throws(TraceReadError) {
        if direction == .unknown { try decideOrder() }
        if commentRows > 0 {
            checker.diagnostics.assume("skipped \(commentRows) comment line\(commentRows == 1 ? "" : "s") (starting with #)")
        }
        if markerRows > 0 {
            checker.diagnostics.assume(
                "skipped \(markerRows) marker row\(markerRows == 1 ? "" : "s") that are not points (\(markerTypes.joined(separator: ", ")))"
            )
        }
        if columns[.time] == nil && columns[.date] == nil && checker.diagnostics.counts[.missingTime] != nil {
            checker.diagnostics.timeAdvice = "no column holds times: map one with --column time=NAME"
        }
        try checker.finishInput()
        finished = true
    }
}
