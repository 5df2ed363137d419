import TraceDomain
import TraceGeodesy

// gx:Track: `<when>` and `<gx:coord>` matched by index, whichever comes first; what is left when
// the track closes.
extension KMLReader {
    /// A `<when>` of the open gx:Track: the point of the position waiting for it, or kept until
    /// its position comes.
    mutating func trackWhen(_ text: UnsafeBufferPointer<UInt8>) throws(TraceReadError) -> Step? {
        whenCount += 1
        let t = readTime(text)?.nanoseconds ?? KMLReader.unreadableTime
        if coordsHead < coords.count {
            let (tuple, line) = coords[coordsHead]
            coordsHead += 1
            if coordsHead == coords.count { resetCoords() }
            return try trackPoint(tuple, time: t, line: line)
        }
        guard times.count - timesHead < KMLReader.maximumPending else { throw tooManyPending("<when>", "<gx:coord>") }
        if timesHead > 0 && timesHead == times.count { resetTimes() }
        times.append(t)
        return nil
    }

    /// A `<gx:coord>` of the open gx:Track: its point when its time has come, else kept.
    mutating func trackCoord(_ text: UnsafeBufferPointer<UInt8>) throws(TraceReadError) -> Step? {
        coordCount += 1
        let tuple = KMLReader.tuple(TextValue.trimmed(text), separator: 0x20)
        if timesHead < times.count {
            let t = times[timesHead]
            timesHead += 1
            if timesHead == times.count { resetTimes() }
            return try trackPoint(tuple, time: t, line: nil)
        }
        guard coords.count - coordsHead < KMLReader.maximumPending else { throw tooManyPending("<gx:coord>", "<when>") }
        coords.append((tuple, scanner.line))
        return nil
    }

    mutating func resetTimes() {
        times.removeAll(keepingCapacity: true)
        timesHead = 0
    }

    mutating func resetCoords() {
        coords.removeAll(keepingCapacity: true)
        coordsHead = 0
    }

    private func tooManyPending(_ what: String, _ other: String) -> TraceReadError {
        scanner.error(
            "a gx:Track with more than \(KMLReader.maximumPending) \(what) not yet matched by a \(other) (the reader's limit for one track; split the track)"
        )
    }

    /// A point of the open gx:Track (or a drained one: `time` nil), checked. `known`: the line of
    /// its position, or nil for the scanner's, found only for a problem (``XMLScanner/line`` counts).
    mutating func trackPoint(_ tuple: Tuple, time: Int64?, line known: Int?) throws(TraceReadError) -> Step? {
        let source = scanner.source, at = scanner.position
        func line() -> Int { known ?? source.location(of: at).line }
        var n = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        // The common case without a call: a position the checker takes unchanged.
        var valid = false
        if case .position(let longitude, let latitude, let altitude) = tuple,
            PointChecker.takesUnchanged(latitude: latitude, longitude: longitude)
        {
            n.coordinate = Coordinate(uncheckedLatitude: latitude, longitude: longitude)
            n.elevation = altitude
            valid = true
        } else if let p = try position(tuple, line: line()) {
            n.coordinate = p.0
            n.elevation = p.1
            valid = true
        }
        if let time {
            if time == KMLReader.unreadableTime {
                try checker.note(.invalidTime, line: line(), "its <when> in the gx:Track at line \(trackLine)")
            } else {
                n.time = Timestamp(nanoseconds: time)
            }
        }
        guard try checker.accept(valid: valid, time: n.time, line: line(), track: TrackSample(n.coordinate, accuracy: 0)) else {
            return nil
        }
        return .point(n)
    }

    /// The open gx:Track closed: states a count mismatch; extra positions are then handed out
    /// without times (``nextDrainedPoint()``), extra times dropped.
    mutating func finishTrack() throws(TraceReadError) {
        if whenCount != coordCount {
            mismatchedTracks += 1
            if mismatchedTracks == 1 {
                firstMismatch = "line \(trackLine), \(whenCount) <when> and \(coordCount) <gx:coord>"
            }
        }
        resetTimes()
        draining = coordsHead < coords.count
    }

    /// The next extra position of a closed gx:Track, without a time; nil after the last.
    mutating func nextDrainedPoint() throws(TraceReadError) -> Step? {
        guard coordsHead < coords.count else {
            resetCoords()
            draining = false
            return nil
        }
        let (tuple, line) = coords[coordsHead]
        coordsHead += 1
        return try trackPoint(tuple, time: nil, line: line)
    }
}
