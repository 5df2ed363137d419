import TraceDomain
import TraceGeodesy

// The fused row path: a row of the commonest shape scanned, parsed and checked in one pass in
// the row scanner's window (``fusedRow(_:_:into:)``), exactly as the general path reads it.
extension CSVReader {
    /// What ``fusedRow(_:_:into:)`` reads from a column.
    struct FusedColumn {
        enum Kind { case skip, time, number }
        /// Where a number goes.
        enum Target { case latitude, longitude, measure(Fix.Measure) }
        var kind: Kind
        var target = Target.latitude
        /// The numbers the checks take unchanged: `lowest...highest` (any number for the
        /// position's columns, whose pair is tested whole once the row is read).
        var lowest = -Double.infinity, highest = Double.infinity

        static let skip = FusedColumn(kind: .skip)
        static let time = FusedColumn(kind: .time)
        static func number(_ target: Target, _ lowest: Double, _ highest: Double) -> FusedColumn {
            FusedColumn(kind: .number, target: target, lowest: lowest, highest: highest)
        }
    }

    /// The columns ``fusedRow(_:_:into:)`` reads, from the header, up to the last one it needs: nil when a
    /// column is one it does not read (a date, hemispheres, track, segment, point type,
    /// satellites, fix, texts), a measure's header states a unit, or values may have a decimal
    /// comma. Those files take the row scanner's path for every row.
    func fusedLayout() -> [FusedColumn]? {
        // The fused path reads decimal degrees and Unix epochs or ISO times only: it is taken
        // once the general path has settled both coordinate columns as degrees.
        guard !decimalComma, latitudeForm == .degrees, longitudeForm == .degrees, epochOrigin == .unix else { return nil }
        var layout: [FusedColumn] = []
        for field in CSVField.allCases {
            guard let index = columns[field] else { continue }
            let column: FusedColumn
            switch field {
            // Any number here; the position is tested whole once the row is read, as
            // ``check()`` takes it unchanged (``PointChecker/takesUnchanged(latitude:longitude:)``).
            case .latitude: column = .number(.latitude, -.infinity, .infinity)
            case .longitude: column = .number(.longitude, -.infinity, .infinity)
            case .time: column = .time
            case .elevation, .accuracy, .verticalAccuracy, .speed, .course, .hdop, .vdop, .pdop:
                guard units[field] == nil else { return nil }
                // As ``readValues()``: elevation may be negative, a course is in [0, 360], the
                // others are not negative.
                let measure = CSVReader.measures[field]!
                column =
                    field == .elevation
                    ? .number(.measure(measure), -.infinity, .infinity)
                    : field == .course ? .number(.measure(measure), 0, 360) : .number(.measure(measure), 0, .infinity)
            case .latitudeHemisphere, .longitudeHemisphere, .date, .utcOffset, .satellites, .fixType, .name, .role, .state, .track,
                .segment,
                .pointType:
                return nil
            }
            while layout.count <= index { layout.append(.skip) }
            layout[index] = column
        }
        return layout
    }

    /// The measure each numeric column holds.
    private static let measures: [CSVField: Fix.Measure] = [
        .elevation: .elevation, .accuracy: .horizontalAccuracy, .verticalAccuracy: .verticalAccuracy, .speed: .speed,
        .course: .course, .hdop: .hdop, .vdop: .vdop, .pdop: .pdop,
    ]

    /// What ``fusedRow(_:_:into:)`` did.
    enum FusedRow {
        /// Not a row of the fused shape: the row scanner reads it (nothing was consumed).
        case notPlain
        /// A row read and dropped by the checks.
        case dropped
        /// A point, in the fix passed in.
        case item
    }

    /// Rows ``fusedRow(_:_:into:)`` reads one after another from the row scanner's window without
    /// moving the scanner, which catches up once, in ``finishFusedRun(_:noting:)``.
    struct FusedRun {
        let base: UnsafePointer<UInt8>
        /// The end of the valid bytes in the window.
        let limit: Int
        let delimiter: UInt8
        /// Where the run starts, and where its next row starts.
        let start: Int
        var position: Int
        /// The line of the run's first row.
        let firstLine: Int
        /// The rows read (each ends with its line feed, just before `position`).
        var rows = 0
    }

    /// A run from the scanner's next row; nil before the first row (the byte order mark is not
    /// skipped yet) or without a delimiter.
    @inline(__always) func startFusedRun() -> FusedRun? {
        guard let window = scanner.rowWindow(), let d = scanner.delimiter else { return nil }
        return FusedRun(
            base: window.base, limit: window.limit, delimiter: d, start: window.position,
            position: window.position, firstLine: scanner.nextLine)
    }

    /// Moves the scanner past the run's rows (the last one's text found from its line feed) and,
    /// when `noting` (``read(into:limit:)``'s runs; not ``next()``'s single rows, where a call per
    /// row would cost more than the source's own count), tells the source about the line feeds
    /// they hold (one per row, its last byte), so that it does not count them again.
    mutating func finishFusedRun(_ run: FusedRun, noting: Bool = true) {
        guard run.rows > 0 else { return }
        let newline = run.position &- 1
        let lastStart = run.rows == 1 ? run.start : ByteMasks.lastIndex(of: 0x0A, run.base, from: run.start, to: newline)! &+ 1
        var lastEnd = newline
        while lastEnd > lastStart && run.base[lastEnd &- 1] == 0x0D { lastEnd &-= 1 }
        scanner.consumeRows(run.rows, lastStart: lastStart, lastEnd: lastEnd, newline: newline)
        if noting { scanner.source.noteLines(run.rows, from: run.start, to: scanner.position) }
        fusedCount &+= run.rows
    }

    /// ``fusedRow(_:_:into:)`` for ``next()``: one row, out of line (``read(into:limit:)`` has it
    /// inlined in its loop). The source counts a single row's line feed itself when it needs to.
    @inline(never)
    mutating func nextFusedRow(_ layout: [FusedColumn], into values: inout Fix.Numbers) throws(TraceReadError) -> FusedRow {
        guard var run = startFusedRun() else { return .notPlain }
        defer { finishFusedRun(run, noting: false) }
        return try fusedRow(layout, &run, into: &values)
    }

    /// The next row of `run` (from its position in the scanner's window), when it has the
    /// commonest shape, scanned and parsed in one pass, without splitting it into fields first: every column up to the last one read
    /// ends at the delimiter (the last one read at the delimiter or the line end); coordinates and
    /// measures are plain decimal numbers (``plainNumber(_:)``'s shape, parsed in place by
    /// ``DecimalParser/parsePrefix(_:limit:)``: no padding, unit, letter or placeholder) within
    /// what the checks accept unchanged (latitude in [-90, 90], longitude in (-180, 180], measures
    /// non-negative where they must be, a course in [0, 360]); the time is ISO 8601 with a zone
    /// (`YYYY-MM-DDThh:mm:ssZ` through ``Timestamp/parseCommonUTC(_:day:)``); the columns not read
    /// hold no quote, and the line end is in the window. The point's values go into `values`
    /// (plain numbers from the caller: ``next()`` makes a fix of them, ``read(into:limit:)``
    /// appends them to the batch's columns, neither copies them through an enum's payload nor
    /// retains anything). The layout decides which fields a row sets, the same for every row
    /// taken, so a caller may pass the same values again for the next row. Anything else gives
    /// `.notPlain` having changed nothing but `values` (which the caller then drops), and the row
    /// scanner reads the row. A row read (`.item`, `.dropped`, or a check that throws) moves
    /// `run` past it; the caller then moves the scanner (``finishFusedRun(_:noting:)``). What it
    /// accepts, it reads exactly as ``parseRow()`` and ``check()`` read it in a file in time order (same values, items and diagnostics; the tests compare the
    /// paths). Inlined into ``read(into:limit:)``'s loop; ``next()`` calls it through
    /// ``nextFusedRow(_:into:)``.
    @inline(always)
    mutating func fusedRow(_ layout: [FusedColumn], _ run: inout FusedRun, into values: inout Fix.Numbers) throws(TraceReadError)
        -> FusedRow
    {
        let base = run.base, limit = run.limit, d = run.delimiter
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        let rowStart = run.position
        // A `#` comment line is the general path's to skip.
        guard rowStart < limit, base[rowStart] != UInt8(ascii: "#") else { return .notPlain }
        var i = rowStart
        // The position and the accuracy as locals for the checks (reading them back from `values`
        // made the loop slower).
        var latitude = 0.0, longitude = 0.0, accuracy = 0.0
        let last = layout.count &- 1
        var atLineEnd = false
        for k in 0...last {
            let column = layout[k]
            switch column.kind {
            case .skip:
                let e = ByteMasks.firstOf(d, lf, UInt8(ascii: "\""), base, from: i, limit: limit)
                guard e < limit, base[e] == d else { return .notPlain }
                i = e
            case .time:
                guard limit &- i > 20 else { return .notPlain }
                let t = base[i &+ 20]
                if t == d || t == lf || t == cr, let time = Timestamp.parseCommonUTC(base + i, day: &utcDay) {
                    values.time = time
                    i &+= 20
                } else {
                    // Other ISO 8601 forms with a zone (fractions, offsets), as ``readTime()``
                    // reads them; none is an epoch number.
                    let e = ByteMasks.firstOf(d, lf, cr, base, from: i, limit: limit)
                    guard e < limit, let parsed = Timestamp.parseISO8601(UnsafeBufferPointer(start: base + i, count: e &- i)),
                        parsed.hadZone
                    else { return .notPlain }
                    values.time = parsed.timestamp
                    i = e
                }
            case .number:
                let v: Double
                if let (value, length) = DecimalParser.parseCommonPrefix(base + i, limit: limit &- i) {
                    // Finite, ending with a digit, with a byte after it in the window.
                    v = value
                    i &+= length
                } else {
                    guard i < limit, let (value, length) = DecimalParser.parseGeneralPrefix(base + i, limit: limit &- i),
                        value.isFinite
                    else { return .notPlain }
                    v = value
                    i &+= length
                    guard i < limit, base[i &- 1] &- UInt8(ascii: "0") < 10 else { return .notPlain }
                }
                guard v >= column.lowest && v <= column.highest else { return .notPlain }
                switch column.target {
                case .latitude: latitude = v
                case .longitude: longitude = v
                case .measure(let m):
                    values.set(m, v)
                    if m == .horizontalAccuracy { accuracy = v }
                }
            }
            // `i` is at the column's end: the delimiter, or (for the last column read) the line end.
            let t = base[i]
            if t == d {
                i &+= 1
            } else if (t == lf || t == cr) && k == last {
                atLineEnd = true
            } else {
                return .notPlain
            }
        }
        // Positions the checks would refuse or change go the general way (which reports them).
        guard PointChecker.takesUnchanged(latitude: latitude, longitude: longitude) else { return .notPlain }
        // The rest of the row: columns not read (no quote), then the line end.
        let newline: Int
        if !atLineEnd {
            newline = ByteMasks.firstOf(lf, UInt8(ascii: "\""), base, from: i, limit: limit)
            guard newline < limit, base[newline] == lf else { return .notPlain }
        } else if base[i] == lf {
            newline = i
        } else {
            guard i &+ 1 < limit, base[i &+ 1] == lf else { return .notPlain }  // CR LF
            newline = i &+ 1
        }
        guard newline &- rowStart <= RowScanner.maximumRowLength else { return .notPlain }
        values.coordinate = Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        run.rows &+= 1
        run.position = newline &+ 1
        // As ``check()`` for a point row with a valid position and no notes, in time order.
        guard
            try checker.acceptTrackPoint(
                time: values.time, line: run.firstLine &+ run.rows &- 1, at: Coordinate(uncheckedLatitude: latitude, longitude: longitude),
                accuracy: accuracy)
        else { return .dropped }
        return .item
    }
}
