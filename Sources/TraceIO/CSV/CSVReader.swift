import TraceDomain
import TraceGeodesy

/// Reads CSV (and TSV, semicolon-separated) traces: one point per row, streamed in bounded
/// memory (the 1 MiB window plus one row, and at most 256 rows of look-ahead at the start).
///
/// **Dialect.** The delimiter (`,` `;` or tab) is the most frequent of them outside quotes in
/// the header line. Quoted fields with `""` escapes and line breaks, CRLF, a UTF-8 byte order
/// mark, trailing delimiters and blank rows are accepted; rows whose fields are all empty are
/// skipped. A leading `#` on the header is ignored. With `;` or tab as the delimiter a decimal
/// comma (`47,37`) is read too.
///
/// **Header.** The header is the first line that names the latitude and longitude columns (with
/// ``ReadOptions/columns``, the first line that is not a `#` comment); `#` comment lines and up to
/// 64 lines of preamble before it are skipped and stated. A units row under it (`deg,deg,m,km/h`:
/// every field a unit word) gives the units its columns do not name. Names are matched in any
/// case, ignoring spaces, underscores, hyphens and dots, with a unit in parentheses or brackets or
/// as a suffix (`Speed (km/h)`, `altitude_ft`, `time_ms`, `latitudeE7`), then word by word without
/// qualifiers (`gps_longitude`, `position_lat`, `enhanced_altitude`) and hemisphere markers
/// (`LATITUDE N/S`); see ``CSVField``:
/// - latitude: `lat`, `latitude`; longitude: `lon`, `lng`, `long`, `longitude`; hemisphere
///   columns `N/S` and `E/W` (`S`/`W` negate);
/// - time: `time`, `timestamp`, `datetime`, `tracked_at`, `recorded_at`, `utc_time`, …: ISO 8601
///   (`T` or space, `/` or `-` in the date), or an epoch number; or a `date` (`utc_date`) column
///   plus a time-of-day `time` column (dates `2008/05/04`, `2008-05-04`, `20080504`, `04.05.2008`);
/// - `accuracy`/`hAcc`/`horizontal_accuracy`/`accuracy_horizontal`/`acc` and
///   `vAcc`/`vertical_accuracy`/`accuracy_vertical` (metres); `ele`/`elevation`/`alt`/`altitude`/
///   `height` (metres; feet when the header or the value says `ft`/`feet`);
/// - `speed` (m/s unless the header or the value says `km/h`, `mph` or `kn`; BT747 logger files,
///   recognised by their `RCR` column, write km/h), `course`/`bearing`/`heading`/`cog` (degrees);
/// - `hdop`, `vdop`, `pdop`; `sat`/`sats`/`satellites`/`nsat` (for `11(11)` or `9/12` the count
///   before the bracket or slash: the satellites used); `fix` (none, 2d, 3d, dgps, pps);
/// - `name`, `role`, `state` (text); `track` and `segment`: a change of value starts a new track
///   (named by the value) or segment; without them one track and one segment hold every point;
/// - `trackpoint_type`/`point_type` (OpenTracks): only `TRACKPOINT` rows are points;
///   `SEGMENT_START_*` rows start a segment; other rows (IDLE, SEGMENT_END_*, …) are markers,
///   skipped and counted in an assumption.
/// ``ReadOptions/columns`` overrides detection: field name (`latitude`, `longitude`, `time`,
/// `date`, `elevation`, `accuracy`, `verticalAccuracy`, `speed`, `course`, `hdop`, `vdop`,
/// `pdop`, `satellites`, `fixType`, `name`, `role`, `state`, `track`, `segment`,
/// `latitudeHemisphere`, `longitudeHemisphere`, `pointType`; any case, underscores ignored) →
/// header name (case-insensitive) or 1-based column number.
///
/// **Forms** (settled once per column and stated): coordinates in decimal degrees, NMEA's
/// degrees and decimal minutes (the first value beyond the degree range, or the unit `ddmm`), E7
/// integers (`e7`) or FIT semicircles (`semicircles`, or FIT's `position_lat` names); epochs
/// counted from FIT's or GPS's origin (`fit`, `gps`; a file whose positions are semicircles counts
/// from FIT's); six-digit dates as YYMMDD unless only DDMMYY reads (or `yymmdd`, `ddmmyy`);
/// a UTC-offset column (`utc_offset`, `tz`: `+02:00`, `-0500`, hours, minutes or seconds) for
/// zone-less times. A columns option may name the form after a colon (`position_lat:semicircles`).
///
/// **Values.** Units inside values are converted to SI (`374.8 m`, `3 ft`, `12.3 km/h`,
/// `5 mph`, `4 kn`); hemisphere letters inside coordinates (`31.77N`, `N31.77`, `122.4W`). An
/// empty value, `-`, `NaN`, `null`, `N/A` or `none` is no value. Zone-less times use
/// ``ReadOptions/zonelessUTCOffset``, or are read as UTC with the assumption "CSV times without a
/// zone were read as UTC" — unless the time or date header says UTC (`UTC TIME`, `time_utc`). Epoch numbers are seconds below 1e11, milliseconds below 1e14,
/// microseconds below 1e17, else nanoseconds (or as the header's unit says, `time_ms`); the unit
/// used is stated once as an assumption ("epoch times in milliseconds").
///
/// **Order.** Files written newest first (Google Location History exports) are recognised from
/// the first three changes of time between consecutive timed rows (majority; looked for within
/// the first 256 rows): the assumption "rows are newest first" is stated, rows are still streamed
/// in file order, and the time-order checks are mirrored (a time later than the row before is
/// what "time goes backwards" reports).
///
/// **Failures.** An empty file, a header without latitude and longitude columns (the error lists
/// the columns found and a mapping that would read them, ending in ``columnsAdvice``), an unknown field
/// or missing column in ``ReadOptions/columns``, an unterminated quoted field and a row longer
/// than 1 MiB are ``TraceReadError``s; per-point problems go through the shared checks
/// (``Diagnostics``): a row without coordinates is a missing coordinate (dropped).
public struct CSVReader: TraceReader {
    /// Always ``TraceFormat/csv``.
    public let format = TraceFormat.csv
    var scanner: RowScanner
    package var checker: PointChecker
    let options: ReadOptions
    /// Column index per field (by ``CSVField`` raw value); nil when absent.
    var columns = FieldTable<Int>()
    /// The unit a header states, per field.
    var units = FieldTable<String>()
    var headerRead = false
    var finished = false
    var decimalComma = false
    /// The time or date header says UTC ("UTC TIME", "time_utc"): zone-less times are UTC.
    var headerSaysUTC = false
    /// The time and date columns whose headers say local time ("Lcl Date", "LocalTime").
    var localColumns: [Int] = []
    var queue = ItemQueue()
    /// The text of the last item ``nextLean()`` reduced (a track's name, a point's role), if any.
    package var leanText: String?
    /// ISO 8601 text composed from a date and a time of day, reused row to row.
    var iso: [UInt8] = []
    /// The zone-less-times assumption was stated (so it is not looked up per row).
    var zonelessAssumed = false
    /// The epoch unit last stated as an assumption (so it is not restated per row).
    var statedEpochUnit: TextTime.EpochUnit?
    /// How the latitude and longitude columns write degrees (``CoordinateForm``).
    var latitudeForm = CoordinateForm.undecided
    var longitudeForm = CoordinateForm.undecided
    /// Where the time column's epoch numbers count from.
    var epochOrigin = EpochOrigin.unix
    /// The digit order of six-digit dates.
    var sixDigitDates = SixDigitDate.undecided
    /// The header's row was read as data already (no units row under it): the scanner's current
    /// row is the first data row.
    var pendingRow = false
    /// `#` comment rows after the header, skipped.
    var commentRows = 0
    /// The columns of a row as ``fusedRow(_:_:into:)`` reads them (up to the last column it needs), or
    /// nil when the header's columns rule it out (see ``fusedLayout()``).
    var fusedColumns: [FusedColumn]?
    /// Whether rows of the commonest shape are scanned and parsed in one pass (``fusedRow(_:_:into:)``)
    /// before the row scanner splits them (``ReadPaths/fused``; tests turn it off to compare the
    /// paths), fixed at initialisation.
    private let fusedRows: Bool
    /// The date of the last common time the fused path read (``Timestamp/parseCommonUTC(_:day:)``).
    var utcDay = Timestamp.CommonUTCDay()
    /// How many rows ``fusedRow(_:_:into:)`` read (tests check that it is taken).
    var fusedCount = 0

    // Structure.
    var pendingTrack: PendingTrack?
    var pendingSegment = false
    var lastTrack: [UInt8]?
    var lastSegment: [UInt8]?
    var markerRows = 0
    var markerTypes: [String] = []

    // Order.
    enum Direction { case unknown, oldestFirst, newestFirst }
    var direction = Direction.unknown
    var lookahead: [Row] = []
    private var lookaheadTime: Timestamp?
    var ups = 0, downs = 0
    var mirroredPrevious: Timestamp?
    /// Rows held while the order is unknown.
    static let lookaheadLimit = 256

    struct PendingTrack { var name: String? }

    struct Note: Error {
        var kind: ProblemKind
        var detail: String
    }

    enum RowKind { case point, marker }

    /// One parsed row, waiting for the order to be known before its checks.
    struct Row {
        var line: Int
        var kind = RowKind.point
        var startsTrack = false
        var trackName: String?
        var startsSegment = false
        var latitude: Double?, longitude: Double?
        var coordinateProblem: Note?
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        var notes: [Note] = []
        var timeUnreadable = false
    }

    /// The row being read: built in place by ``parseRow()`` and checked in place by ``check()``,
    /// so a row is copied only into the look-ahead.
    var row = Row(line: 0)

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { checker.diagnostics }

    /// Whether plain rows take the row scanner's block-scanning path (``ReadPaths/plain``).
    var plainRows: Bool { scanner.plainRows }

    /// A reader taking `paths` besides the general path (``ReadPaths/all`` unless a test compares them).
    init(source: ByteSource, options: ReadOptions, paths: ReadPaths = .all) {
        scanner = RowScanner(source: source, delimiter: nil, quotes: true, plainRows: paths.contains(.plain))
        fusedRows = paths.contains(.fused)
        checker = PointChecker(file: source.name, options: options)
        self.options = options
    }

    /// Reads CSV from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Reads CSV from memory taking only `paths` besides the general path (tests).
    init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions(), paths: ReadPaths) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options, paths: paths)
    }

    /// Opens a CSV file ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options)
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type (file, line, column, message).
    @inline(__always) public mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if !queue.isEmpty { return queue.pop() }
            if finished { return nil }
            if !headerRead {
                try readHeader()
                continue
            }
            if !pendingRow && direction == .oldestFirst && pendingTrack == nil && !pendingSegment && fusedRows && plainRows,
                let layout = fusedColumns
            {
                var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
                switch try nextFusedRow(layout, into: &fix) {
                case .item: return .trackPoint(Fix(fix))
                case .dropped: continue
                case .notPlain: break
                }
            }
            if pendingRow {
                pendingRow = false
            } else {
                guard try scanner.nextRow() else {
                    try finish()
                    continue
                }
            }
            guard parseRow() else { continue }
            if direction == .unknown {
                lookahead.append(row)
                if row.kind == .point, let t = row.values.time {
                    if let p = lookaheadTime {
                        if t > p { ups += 1 } else if t < p { downs += 1 }
                    }
                    lookaheadTime = t
                }
                if ups >= 2 || downs >= 2 || lookahead.count >= CSVReader.lookaheadLimit { try decideOrder() }
            } else if try check() {
                // Straight out unless a track or segment start was queued before it.
                if queue.isEmpty { return .trackPoint(row.values) }
                queue.push(.trackPoint(row.values))
            }
        }
    }

    /// Reads up to `limit` items into `batch` (``TraceReader/read(into:limit:)``): a row of the
    /// fused path's shape goes from ``fusedRow(_:_:into:)`` straight into the columns; anything else
    /// through ``next()``. The same items and diagnostics as ``next()``.
    public mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
        batch.removeAll()
        while batch.count < limit {
            if queue.isEmpty && !pendingRow && direction == .oldestFirst && pendingTrack == nil && !pendingSegment && fusedRows
                && plainRows,
                let layout = fusedColumns, var run = startFusedRun()
            {
                // Fused rows one after another until one is not of their shape (nothing the loop
                // tests can change while they are read), into one fix: each row sets all of its
                // fields or is not taken. The scanner catches up when the run ends (also when a
                // check throws).
                var plain = true
                var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
                while plain && batch.count < limit {
                    let row: FusedRow
                    do {
                        row = try fusedRow(layout, &run, into: &fix)
                    } catch {
                        finishFusedRun(run)
                        throw error
                    }
                    switch row {
                    case .item: batch.appendOwned(.trackPoint, fix)  // the batch is its own since removeAll()
                    case .dropped: break
                    case .notPlain: plain = false
                    }
                }
                finishFusedRun(run)
                if batch.count == limit { break }
            }
            guard let item = try next() else { break }
            batch.append(item)
        }
        return batch.count
    }
}

extension CSVReader: CheckedTraceReader {}
