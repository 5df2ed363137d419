#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TraceGeodesy

/// Rows of a delimited text file, one at a time, through a ``ByteSource`` window: CSV (quoted
/// fields with `""` escapes, line breaks inside quotes), OziExplorer PLT and OwnTracks REC lines.
///
/// A row ends at LF (a CR before it is dropped); a UTF-8 byte order mark at the start is skipped;
/// blank rows (only spaces, tabs, CR) are skipped unless ``skipBlankRows`` is off. A quote opens
/// a quoted field only as the first non-space byte of a field (so `5" screen` is plain text).
/// Fields are trimmed of spaces (and tabs, unless tab is the delimiter); quoted fields are
/// decoded in place in the window, so every field is a range of ``ByteSource/bytes``, valid until
/// the next call. Memory: the window plus one row; a row longer than ``maximumRowLength`` is an
/// error, never unbounded growth.
struct RowScanner {
    /// The longest row accepted, bytes.
    static let maximumRowLength = 1 << 20

    let source: ByteSource
    /// The field delimiter; nil while unknown (a row is then one field).
    var delimiter: UInt8?
    /// Whether `"` quotes fields.
    let quotes: Bool
    var skipBlankRows = true
    /// Whether plain rows take the block-scanning path (tests turn it off to compare).
    var plainRows = true
    /// 1-based line on which the current row starts.
    private(set) var line = 0
    /// The line on which ``position`` is.
    private(set) var nextLine = 1
    /// Where the next row starts.
    private(set) var position = 0
    private var started = false
    private(set) var rowStart = 0
    private(set) var rowEnd = 0
    /// The current row's fields (ranges of `source.bytes`).
    var fields: ArraySlice<Range<Int>> { fieldStorage[..<fieldCount] }
    /// Field ranges, reused row to row: the first `fieldCount` are the current row's.
    private var fieldStorage: [Range<Int>] = []
    private var fieldCount = 0

    init(source: ByteSource, delimiter: UInt8?, quotes: Bool) {
        self.source = source
        self.delimiter = delimiter
        self.quotes = quotes
    }

    private var bytes: UnsafeMutableBufferPointer<UInt8> { source.bytes }

    private func isDelimiter(_ b: UInt8) -> Bool {
        if let d = delimiter { return b == d }
        return b == 0x2C || b == 0x3B || b == 0x09
    }

    private func isPadding(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0D || (b == 0x09 && delimiter != 0x09) }

    /// Whether the quote at `q` is the first non-space byte of its field.
    private func opensQuote(at q: Int) -> Bool {
        var i = q - 1
        while i >= rowStart && (bytes[i] == 0x20 || (bytes[i] == 0x09 && delimiter != nil && delimiter != 0x09)) { i -= 1 }
        return i < rowStart || isDelimiter(bytes[i])
    }

    private func find(_ byte: UInt8, from: Int, to: Int) -> Int? {
        guard from < to, let hit = memchr(bytes.baseAddress! + from, Int32(byte), to - from) else { return nil }
        return hit.assumingMemoryBound(to: UInt8.self) - bytes.baseAddress!
    }

    private func countNewlines(from: Int, to: Int) -> Int {
        var n = 0
        var p = from
        while let q = find(0x0A, from: p, to: to) { n += 1; p = q + 1 }
        return n
    }

    func error(_ message: String, line: Int? = nil, column: Int = 0) -> TraceReadError {
        TraceReadError(file: source.name, line: line ?? self.line, column: column, message: message)
    }

    private func tooLong(_ startLine: Int) -> TraceReadError {
        error("a row longer than \(RowScanner.maximumRowLength) bytes (is this a \(quotes ? "CSV" : "text") file?)", line: startLine)
    }

    /// Reads more bytes, keeping the current row. False at the end of the file.
    private mutating func more(_ scan: inout Int) throws(TraceReadError) -> Bool {
        if source.atEOF { return false }
        if scan - rowStart > RowScanner.maximumRowLength { throw tooLong(nextLine) }
        let r = try source.refill(keeping: rowStart)
        rowStart -= r.shift
        scan -= r.shift
        position = rowStart
        return true
    }

    /// Advances to the next row (skipping blank rows when ``skipBlankRows``) and splits it when
    /// the delimiter is known. False at the end of the file.
    /// - Throws: ``TraceReadError`` for a row longer than ``maximumRowLength``, an unterminated
    ///   quoted field, or a read error.
    mutating func nextRow() throws(TraceReadError) -> Bool {
        if !started {
            started = true
            var scan = 0
            rowStart = 0
            while source.end < 3, try more(&scan) {}
            if source.end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        }
        while true {
            if plainRows, let d = delimiter {
                switch plainRow(delimiter: d) {
                case .row: return true
                case .blank: continue
                case .fallback: break
                }
            }
            rowStart = position
            var scan = position
            var inQuotes = false
            var quoteLine = 0
            var embedded = 0
            var newline: Int?
            while true {
                if scan >= source.end {
                    if try more(&scan) { continue }
                    if inQuotes { throw error("unterminated quoted field", line: quoteLine) }
                    break
                }
                if inQuotes {
                    guard let q = find(0x22, from: scan, to: source.end) else {
                        embedded += countNewlines(from: scan, to: source.end)
                        scan = source.end
                        continue
                    }
                    embedded += countNewlines(from: scan, to: q)
                    if q + 1 < source.end {
                        if bytes[q + 1] == 0x22 { scan = q + 2 } else { inQuotes = false; scan = q + 1 }
                    } else {
                        scan = q
                        if !(try more(&scan)) { inQuotes = false; scan = q + 1 }
                    }
                    continue
                }
                let nl = find(0x0A, from: scan, to: source.end)
                if quotes, let q = find(0x22, from: scan, to: nl ?? source.end) {
                    if opensQuote(at: q) {
                        inQuotes = true
                        quoteLine = nextLine + embedded
                    }
                    scan = q + 1
                    continue
                }
                if let nl {
                    newline = nl
                    break
                }
                scan = source.end
            }
            line = nextLine
            if let newline {
                rowEnd = newline
                position = newline + 1
                nextLine += embedded + 1
            } else {
                if rowStart >= source.end { return false }
                rowEnd = source.end
                position = source.end
                nextLine += embedded
            }
            if rowEnd - rowStart > RowScanner.maximumRowLength { throw tooLong(line) }
            while rowEnd > rowStart && bytes[rowEnd - 1] == 0x0D { rowEnd -= 1 }
            if skipBlankRows {
                var blank = true
                for i in rowStart..<rowEnd where !TextValue.isSpace(bytes[i]) { blank = false; break }
                if blank { continue }
            }
            split()
            return true
        }
    }

    private enum PlainRow { case row, blank, fallback }

    /// The next row, split, when it is plain: its line end is in the window and no quote comes
    /// before it. Scans 16 bytes at a time for the line end, quotes and the delimiter at once
    /// (``ByteMasks``), where ``nextRow()``'s general path makes a `memchr` call per field.
    /// Anything else (a quote, the window's last bytes, a row over the length limit) is left to
    /// the general path, which reads it the same way.
    @inline(__always) private mutating func plainRow(delimiter d: UInt8) -> PlainRow {
        let base = UnsafePointer(bytes.baseAddress!)
        let start = position, end = source.end
        var i = start
        var fieldStart = start
        var newline = -1
        fieldCount = 0
        while i + 16 <= end {
            let m = ByteMasks.find(0x0A, 0x22, d, in: base + i)
            let below: UInt32 = m.a == 0 ? 0xFFFF : (1 << UInt32(m.a.trailingZeroBitCount)) - 1
            if quotes && m.b & below != 0 { return .fallback }
            var delimiters = m.c & below
            while delimiters != 0 {
                let at = i + delimiters.trailingZeroBitCount
                addTrimmed(base, fieldStart, at)
                fieldStart = at + 1
                delimiters &= delimiters - 1
            }
            if m.a != 0 {
                newline = i + m.a.trailingZeroBitCount
                break
            }
            i += 16
        }
        guard newline >= 0, newline - start <= RowScanner.maximumRowLength else { return .fallback }
        var rowEnd = newline
        while rowEnd > start && base[rowEnd - 1] == 0x0D { rowEnd -= 1 }
        rowStart = start
        self.rowEnd = rowEnd
        line = nextLine
        nextLine += 1
        position = newline + 1
        if skipBlankRows && (rowEnd == start || TextValue.isSpace(base[start])) {
            var blank = true
            for k in start..<rowEnd where !TextValue.isSpace(base[k]) { blank = false; break }
            if blank { return .blank }
        }
        addTrimmed(base, min(fieldStart, rowEnd), rowEnd)
        return .row
    }

    /// The window from the next row on, for a reader that reads a plain row by itself
    /// (``CSVReader``'s fused rows): the window's base, the next row's start and the end of the
    /// valid bytes. Nil before the first row was read (the byte order mark is not skipped yet).
    @inline(__always) func rowWindow() -> (base: UnsafePointer<UInt8>, position: Int, limit: Int)? {
        guard started else { return nil }
        return (UnsafePointer(bytes.baseAddress!), position, source.end)
    }

    /// Moves past `rows` (at least one) rows a reader read by itself from ``rowWindow()``, the
    /// last of which starts at `lastStart`, has its text end at `lastEnd` (without the CRs before
    /// the LF) and its line end at `newline` (in the window, within ``maximumRowLength``): leaves
    /// the scanner as ``nextRow()`` would after them (line, row range), except that no fields are
    /// split.
    @inline(__always) mutating func consumeRows(_ rows: Int, lastStart: Int, lastEnd: Int, newline: Int) {
        rowStart = lastStart
        rowEnd = lastEnd
        line = nextLine &+ rows &- 1
        nextLine &+= rows
        position = newline &+ 1
        fieldCount = 0
    }

    /// Appends the field between `lo` and `hi` of `base` (the window), without its padding.
    @inline(__always) private mutating func addTrimmed(_ base: UnsafePointer<UInt8>, _ lo: Int, _ hi: Int) {
        var lo = lo, hi = hi
        while lo < hi && isPadding(base[lo]) { lo += 1 }
        while hi > lo && isPadding(base[hi - 1]) { hi -= 1 }
        addField(lo..<hi)
    }

    /// Counts `,`, `;` and tab outside quotes in the current row and picks the most frequent
    /// (ties: comma, then semicolon, then tab; none: comma).
    func detectDelimiter() -> UInt8 {
        var counts = [0, 0, 0]
        var i = rowStart
        var inQuotes = false
        while i < rowEnd {
            let b = bytes[i]
            if inQuotes {
                if b == 0x22 {
                    if i + 1 < rowEnd && bytes[i + 1] == 0x22 { i += 1 } else { inQuotes = false }
                }
            } else if b == 0x22 && quotes && opensQuote(at: i) {
                inQuotes = true
            } else if b == 0x2C { counts[0] += 1 } else if b == 0x3B { counts[1] += 1 } else if b == 0x09 { counts[2] += 1 }
            i += 1
        }
        let best = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }!
        return [0x2C, 0x3B, 0x09][best]
    }

    /// Splits the current row with ``delimiter`` (one field when it is nil).
    mutating func split() {
        fieldCount = 0
        guard let d = delimiter else {
            var lo = rowStart, hi = rowEnd
            while lo < hi && TextValue.isSpace(bytes[lo]) { lo += 1 }
            while hi > lo && TextValue.isSpace(bytes[hi - 1]) { hi -= 1 }
            addField(lo..<hi)
            return
        }
        var i = rowStart
        while true {
            var fs = i
            while fs < rowEnd && isPadding(bytes[fs]) && bytes[fs] != d { fs += 1 }
            if quotes && fs < rowEnd && bytes[fs] == 0x22 {
                var r = fs + 1, w = fs
                var inQuotes = true
                var contentEnd = fs
                while r < rowEnd {
                    let b = bytes[r]
                    if inQuotes {
                        if b == 0x22 {
                            if r + 1 < rowEnd && bytes[r + 1] == 0x22 {
                                bytes[w] = 0x22; w += 1; r += 2
                            } else {
                                inQuotes = false; r += 1
                            }
                        } else {
                            bytes[w] = b; w += 1; r += 1
                        }
                        contentEnd = w
                    } else {
                        if b == d { break }
                        bytes[w] = b; w += 1; r += 1
                        if !isPadding(b) { contentEnd = w }
                    }
                }
                // Keep the window's line structure: the bytes freed by decoding become spaces.
                for k in w..<r { bytes[k] = 0x20 }
                addField(fs..<contentEnd)
                if r >= rowEnd { return }
                i = r + 1
            } else {
                let e = find(d, from: fs, to: rowEnd) ?? rowEnd
                var fe = e
                while fe > fs && isPadding(bytes[fe - 1]) { fe -= 1 }
                addField(fs..<fe)
                if e >= rowEnd { return }
                i = e + 1
            }
        }
    }

    /// Appends a field of the current row.
    @inline(__always) private mutating func addField(_ range: Range<Int>) {
        if fieldCount < fieldStorage.count { fieldStorage[fieldCount] = range } else { fieldStorage.append(range) }
        fieldCount += 1
    }

    /// Field `i` of the current row (empty when the row has fewer fields).
    @inline(__always) func field(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i >= 0 && i < fieldCount else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: source.bytes[fieldStorage[i]])
    }

    /// The whole current row.
    var row: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: source.bytes[rowStart..<rowEnd]) }
}

/// Reads CSV (and TSV, semicolon-separated) traces: one point per row, streamed in bounded
/// memory (the 1 MiB window plus one row, and at most 256 rows of look-ahead at the start).
///
/// **Dialect.** The delimiter (`,` `;` or tab) is the most frequent of them outside quotes in
/// the header line. Quoted fields with `""` escapes and line breaks, CRLF, a UTF-8 byte order
/// mark, trailing delimiters and blank rows are accepted; rows whose fields are all empty are
/// skipped. A leading `#` on the header is ignored. With `;` or tab as the delimiter a decimal
/// comma (`47,37`) is read too.
///
/// **Header.** The first non-blank line is always the header. Names are matched in any case,
/// ignoring spaces, underscores, hyphens and dots, with a unit in parentheses or brackets or as a
/// suffix (`Speed (km/h)`, `altitude_ft`, `time_ms`):
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
/// **Failures.** An empty file, a header without latitude and longitude columns, an unknown field
/// or missing column in ``ReadOptions/columns``, an unterminated quoted field and a row longer
/// than 1 MiB are ``TraceReadError``s; per-point problems go through the shared checks
/// (``Diagnostics``): a row without coordinates is a missing coordinate (dropped).
public struct CSVReader: TraceReader {
    /// Always ``TraceFormat/csv``.
    public let format = TraceFormat.csv
    private(set) var scanner: RowScanner
    private var checker: PointChecker
    private let options: ReadOptions
    /// Column index per field (by ``CSVField`` raw value); nil when absent.
    private var columns = FieldTable<Int>()
    /// The unit a header states, per field.
    private var units = FieldTable<String>()
    private var headerRead = false
    private var finished = false
    private var decimalComma = false
    /// The time or date header says UTC ("UTC TIME", "time_utc"): zone-less times are UTC.
    private var headerSaysUTC = false
    private var queue = ItemQueue()
    /// The text of the last item ``nextLean()`` reduced (a track's name, a point's role), if any.
    package var leanText: String?
    /// ISO 8601 text composed from a date and a time of day, reused row to row.
    private var iso: [UInt8] = []
    /// The zone-less-times assumption was stated (so it is not looked up per row).
    private var zonelessAssumed = false
    /// The epoch unit last stated as an assumption (so it is not restated per row).
    private var statedEpochUnit: TextTime.EpochUnit?
    /// The columns of a row as ``fusedRow(_:_:into:)`` reads them (up to the last column it needs), or
    /// nil when the header's columns rule it out (see ``fusedLayout()``).
    private var fusedColumns: [FusedColumn]?
    /// Whether rows of the commonest shape are scanned and parsed in one pass (``fusedRow(_:_:into:)``)
    /// before the row scanner splits them (tests turn it off to compare the paths).
    var fusedRows = true
    /// The date of the last common time the fused path read (``Timestamp/parseCommonUTC(_:day:)``).
    private var utcDay = Timestamp.CommonUTCDay()
    /// How many rows ``fusedRow(_:_:into:)`` read (tests check that it is taken).
    private(set) var fusedCount = 0

    // Structure.
    private var pendingTrack: PendingTrack?
    private var pendingSegment = false
    private var lastTrack: [UInt8]?
    private var lastSegment: [UInt8]?
    private var markerRows = 0
    private var markerTypes: [String] = []

    // Order.
    private enum Direction { case unknown, oldestFirst, newestFirst }
    private var direction = Direction.unknown
    private var lookahead: [Row] = []
    private var lookaheadTime: Timestamp?
    private var ups = 0, downs = 0
    private var mirroredPrevious: Timestamp?
    /// Rows held while the order is unknown.
    static let lookaheadLimit = 256

    private struct PendingTrack { var name: String? }

    private struct Note: Error {
        var kind: ProblemKind
        var detail: String
    }

    private enum RowKind { case point, marker }

    /// One parsed row, waiting for the order to be known before its checks.
    private struct Row {
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
    private var row = Row(line: 0)

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { checker.diagnostics }

    /// Whether plain rows take the row scanner's block-scanning path (tests compare both).
    var plainRows: Bool {
        get { scanner.plainRows }
        set { scanner.plainRows = newValue }
    }

    init(source: ByteSource, options: ReadOptions) {
        scanner = RowScanner(source: source, delimiter: nil, quotes: true)
        checker = PointChecker(file: source.name, policy: options.policy)
        self.options = options
    }

    /// Reads CSV from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
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
            if direction == .oldestFirst && pendingTrack == nil && !pendingSegment && fusedRows && plainRows,
               let layout = fusedColumns {
                var fix = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
                switch try nextFusedRow(layout, into: &fix) {
                case .item: return .trackPoint(Fix(fix))
                case .dropped: continue
                case .notPlain: break
                }
            }
            guard try scanner.nextRow() else {
                try finish()
                continue
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
            if queue.isEmpty && direction == .oldestFirst && pendingTrack == nil && !pendingSegment && fusedRows && plainRows,
               let layout = fusedColumns, var run = startFusedRun() {
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

    // MARK: Header

    private mutating func readHeader() throws(TraceReadError) {
        headerRead = true
        guard try scanner.nextRow() else {
            throw scanner.error("empty file: expected a header line naming the latitude and longitude columns", line: 1)
        }
        let delimiter = scanner.detectDelimiter()
        scanner.delimiter = delimiter
        scanner.split()
        decimalComma = delimiter != UInt8(ascii: ",")
        var names: [String] = []
        for i in scanner.fields.indices { names.append(TextValue.string(scanner.field(i))) }
        if let first = names.first, first.hasPrefix("#") { names[0] = TextValue.trimmed(String(first.dropFirst())) }
        let line = scanner.line

        var normalised: [String] = []
        for (i, n) in names.enumerated() {
            normalised.append(n.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" && $0 != "." })
            guard let (field, unit) = CSVField.recognise(header: n) else { continue }
            if let first = columns[field] {
                checker.diagnostics.assume("columns \(first + 1) and \(i + 1) both hold \(field.key); column \(first + 1) ('\(names[first])') is read")
                continue
            }
            columns[field] = i
            if let unit { units[field] = unit }
        }
        try applyColumnOptions(names: names, line: line)

        let shownHeader = names.filter { !$0.isEmpty }.joined(separator: String(UnicodeScalar(delimiter)))
        let missing = [CSVField.latitude, .longitude].filter { columns[$0] == nil }
        if !missing.isEmpty {
            throw scanner.error(
                "no \(missing.map(\.label).joined(separator: " or ")) column in the header '\(shownHeader.count > 200 ? String(shownHeader.prefix(200)) + "…" : shownHeader)': "
                    + "expected lat/latitude and lon/lng/long/longitude (any case), or name the columns with the columns option",
                line: line)
        }
        for f in [CSVField.time, .date] {
            if let i = columns[f], normalised[i].contains("utc") { headerSaysUTC = true }
        }
        // BT747 and MTK logger CSV (INDEX,RCR,DATE,TIME,VALID,…) write SPEED in km/h without saying so.
        if normalised.contains("rcr"), columns[.speed] != nil, units[.speed] == nil {
            units[.speed] = "km/h"
            checker.diagnostics.assume("BT747 logger CSV: SPEED read as km/h")
        }
        pendingTrack = columns[.track] == nil ? PendingTrack(name: nil) : nil
        pendingSegment = columns[.track] == nil
        fusedColumns = fusedLayout()
    }

    private mutating func applyColumnOptions(names: [String], line: Int) throws(TraceReadError) {
        guard !options.columns.isEmpty else { return }
        var unknown: [String] = []
        var problems: [String] = []
        for key in options.columns.keys.sorted() {
            let value = options.columns[key]!
            guard let field = CSVField.option(key) else {
                unknown.append("'\(key)'")
                continue
            }
            var index: Int?
            let trimmed = TextValue.trimmed(value)
            if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber), let n = Int(trimmed) {
                if n >= 1 && n <= names.count { index = n - 1 }
                else { problems.append("column \(n) for \(field.key) does not exist (the header has \(names.count) columns)") }
            } else if let i = names.firstIndex(where: { TextValue.trimmed($0).lowercased() == trimmed.lowercased() }) {
                index = i
            } else {
                problems.append("no column '\(value)' for \(field.key) in the header")
            }
            if let index {
                for f in CSVField.allCases where columns[f] == index { columns[f] = nil }
                columns[field] = index
                units[field] = CSVField.recognise(header: names[index])?.unit
            }
        }
        if !unknown.isEmpty {
            problems.insert("unknown field\(unknown.count > 1 ? "s" : "") \(unknown.joined(separator: ", ")) in the columns option (known: \(CSVField.allCases.map(\.key).joined(separator: ", ")))", at: 0)
        }
        if !problems.isEmpty {
            var e = scanner.error(problems.joined(separator: "; ") + " (header: \(names.joined(separator: ", ")))", line: line)
            e.category = .options  // the option, not the file, is wrong
            throw e
        }
    }

    // MARK: Rows

    /// The trimmed value of `field` in the current row; empty when the column is absent or, for a
    /// number or time, holds a placeholder.
    @inline(__always) private func text(_ field: CSVField) -> UnsafeBufferPointer<UInt8> {
        guard let i = columns[field] else { return UnsafeBufferPointer(start: nil, count: 0) }
        let t = TextValue.trimmed(scanner.field(i))
        // Placeholders ("-", "NaN", "null", "N/A", "none") mean no value only where a value is a
        // number or a time; in text fields (names, roles, states, fix "none") they are the value.
        return field.holdsText || !CSVReader.isPlaceholder(t) ? t : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// `-`, `NaN`, `null`, `N/A`, `NA`, `none`: no value.
    static func isPlaceholder(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every placeholder starts with `-` or `n`: most values are rejected by their first byte.
        guard !t.isEmpty && t.count <= 4 && (t[0] == UInt8(ascii: "-") || t[0] | 0x20 == UInt8(ascii: "n")) else { return false }
        return TextValue.equals(t, "-") || TextValue.equals(t, "nan") || TextValue.equals(t, "null") || TextValue.equals(t, "n/a")
            || TextValue.equals(t, "na") || TextValue.equals(t, "none")
    }

    /// Reads the scanner's current row into ``row``. False when all its fields are empty.
    private mutating func parseRow() -> Bool {
        var empty = true
        for r in scanner.fields where !r.isEmpty { empty = false; break }
        if empty { return false }
        row = Row(line: scanner.line)

        if columns[.track] != nil {
            let v = text(.track)
            if lastTrack == nil || !lastTrack!.elementsEqual(v) {
                row.startsTrack = true
                row.trackName = v.isEmpty ? nil : TextValue.string(v)
                lastTrack = Array(v)
                if columns[.segment] != nil { lastSegment = Array(text(.segment)) }
            }
        }
        if columns[.segment] != nil && !row.startsTrack {
            let v = text(.segment)
            if lastSegment == nil || !lastSegment!.elementsEqual(v) {
                row.startsSegment = lastSegment != nil
                lastSegment = Array(v)
            }
        }
        if columns[.pointType] != nil {
            let v = text(.pointType)
            if !(v.isEmpty || TextValue.equals(v, "TRACKPOINT") || TextValue.equals(v, "TRKPT") || TextValue.equals(v, "POINT")) {
                row.kind = .marker
                if TextValue.hasPrefix(v, "SEGMENT_START") { row.startsSegment = true }
                markerRows += 1
                let name = TextValue.shown(v)
                if markerTypes.count < 8 && !markerTypes.contains(name) { markerTypes.append(name) }
                return true
            }
        }

        // Position.
        let latText = text(.latitude), lonText = text(.longitude)
        if !latText.isEmpty {
            switch coordinate(latText, hemisphere: text(.latitudeHemisphere), positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), what: "latitude") {
            case .success(let v): row.latitude = v
            case .failure(let n): row.coordinateProblem = n
            }
        }
        if !lonText.isEmpty && row.coordinateProblem == nil {
            switch coordinate(lonText, hemisphere: text(.longitudeHemisphere), positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), what: "longitude") {
            case .success(let v): row.longitude = v
            case .failure(let n): row.coordinateProblem = n
            }
        }

        readTime()
        readValues()
        return true
    }

    /// A coordinate with an optional hemisphere letter (`31.77N`, `N 31.77`, `122.4W`, trailing
    /// `°`) and an optional hemisphere column value.
    private func coordinate(_ t: UnsafeBufferPointer<UInt8>, hemisphere: UnsafeBufferPointer<UInt8>, positive: UInt8, negative: UInt8, what: String) -> Result<Double, Note> {
        if hemisphere.isEmpty, let v = plainNumber(t) { return .success(v) }
        var lo = 0, hi = t.count
        var letter: UInt8?
        if hi >= 2 && t[hi - 2] == 0xC2 && t[hi - 1] == 0xB0 { hi -= 2 }  // a trailing degree sign
        while hi > lo && TextValue.isSpace(t[hi - 1]) { hi -= 1 }
        if hi > lo && TextValue.isLetter(t[lo]) { letter = t[lo] & ~0x20; lo += 1 }
        if hi > lo && TextValue.isLetter(t[hi - 1]) && letter == nil { letter = t[hi - 1] & ~0x20; hi -= 1 }
        while lo < hi && TextValue.isSpace(t[lo]) { lo += 1 }
        while hi > lo && TextValue.isSpace(t[hi - 1]) { hi -= 1 }
        if hi >= lo + 2 && t[hi - 2] == 0xC2 && t[hi - 1] == 0xB0 { hi -= 2 }
        guard let v = TextValue.double(UnsafeBufferPointer(rebasing: t[lo..<hi]), decimalComma: decimalComma) else {
            return .failure(Note(kind: .invalidCoordinate, detail: "\(what) \(TextValue.notANumber(t))"))
        }
        var sign = 0.0
        if let letter {
            if letter == positive { sign = 1 } else if letter == negative { sign = -1 }
            else { return .failure(Note(kind: .invalidCoordinate, detail: "\(what) '\(TextValue.shown(t))' has hemisphere \(UnicodeScalar(letter))")) }
        }
        if !hemisphere.isEmpty {
            let h = hemisphere[0] & ~0x20
            let s: Double = h == positive ? 1 : h == negative ? -1 : 0
            if s == 0 || (sign != 0 && s != sign) {
                return .failure(Note(kind: .invalidCoordinate, detail: "\(what) hemisphere '\(TextValue.shown(hemisphere))'"))
            }
            sign = s
        }
        return .success(sign == 0 ? v : sign * abs(v))
    }

    /// `t` read as a plain decimal number when it is one: starting with a digit, sign or point
    /// and ending with a digit (so no hemisphere letter, unit or degree sign), without a decimal
    /// comma, and finite. It is then what the general readers (``coordinate(_:hemisphere:positive:negative:what:)``,
    /// ``measure(_:nonNegative:factor:)``) read too, without their unit and letter handling; nil
    /// leaves the text to them.
    @inline(__always) private func plainNumber(_ t: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !decimalComma, let first = t.first, let last = t.last, last &- UInt8(ascii: "0") < 10,
              first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return nil }
        guard let v = DecimalParser.parseDouble(t), v.isFinite else { return nil }
        return v
    }

    /// Reads ``row``'s time from the time and date columns (ISO 8601, epoch numbers, or a date
    /// plus a time of day), or notes why it is unreadable.
    private mutating func readTime() {
        let hasTime = columns[.time] != nil, hasDate = columns[.date] != nil
        guard hasTime || hasDate else { return }
        let t = text(.time), d = text(.date)
        if t.isEmpty && d.isEmpty { return }
        var parsed: (timestamp: Timestamp, hadZone: Bool)?
        if !t.isEmpty && d.isEmpty && TextTime.isEpochNumber(t) {
            if let (ts, unit) = TextTime.epoch(t, unit: TextTime.EpochUnit(hint: units[.time])) {
                row.values.time = ts
                if unit != statedEpochUnit {
                    checker.diagnostics.assume("epoch times in \(unit.rawValue)")
                    statedEpochUnit = unit
                }
                return
            }
        } else if let whole = Timestamp.parseISO8601(t) {
            // The usual case, read straight from the field: a complete ISO 8601 time reads the
            // same through ``composedTime(_:date:hasTime:)``.
            parsed = whole
        } else {
            parsed = composedTime(t, date: d, hasTime: hasTime)
        }
        if let parsed {
            var ts = parsed.timestamp
            if !parsed.hadZone && !headerSaysUTC {
                if let offset = options.zonelessUTCOffset {
                    guard let shifted = ts.adding(seconds: -offset) else {
                        row.timeUnreadable = true
                        row.notes.append(Note(kind: .invalidTime, detail: "'\(TextValue.shown(t))' shifted by the UTC offset leaves 1677–2262"))
                        return
                    }
                    ts = shifted
                } else if !zonelessAssumed {
                    checker.diagnostics.assume("CSV times without a zone were read as UTC")
                    zonelessAssumed = true
                }
            }
            row.values.time = ts
            return
        }
        row.timeUnreadable = true
        var shown = t.isEmpty ? "" : "'\(TextValue.shown(t))'"
        if !d.isEmpty { shown = "date '\(TextValue.shown(d))'" + (t.isEmpty ? "" : " time " + shown) }
        if hasDate && d.isEmpty && !t.isEmpty && !TextTime.isEpochNumber(t) { shown += " (no date)" }
        if hasTime && t.isEmpty { shown += " (no time of day)" }
        row.notes.append(Note(kind: .invalidTime, detail: shown))
    }

    /// A time composed through ``TextTime``: the time field as a date and time, else the date
    /// field plus the time field as a time of day (the date field alone without a time column).
    /// Nil when unreadable.
    private mutating func composedTime(_ t: UnsafeBufferPointer<UInt8>, date d: UnsafeBufferPointer<UInt8>, hasTime: Bool) -> (timestamp: Timestamp, hadZone: Bool)? {
        iso.removeAll(keepingCapacity: true)
        var ok = false
        if !t.isEmpty {
            ok = TextTime.appendDateTime(t, to: &iso)
            if !ok && !d.isEmpty {
                iso.removeAll(keepingCapacity: true)
                ok = TextTime.appendDate(d, to: &iso)
                if ok {
                    iso.append(UInt8(ascii: "T"))
                    ok = TextTime.appendTimeOfDay(t, to: &iso)
                }
            }
        } else {
            ok = !hasTime && TextTime.appendDateTime(d, to: &iso)
        }
        return ok ? TextTime.parse(iso) : nil
    }

    /// A number with an optional unit; `factor` maps the unit (the value's, else the header's)
    /// to SI. Notes unreadable values in ``row``.
    private mutating func measure(_ field: CSVField, nonNegative: Bool, factor: (String) -> Double?) -> Double? {
        let t = text(field)
        guard !t.isEmpty else { return nil }
        // A plain number with no unit in the header: every factor is 1 for the unit "".
        if units[field] == nil, let v = plainNumber(t), !nonNegative || v >= 0 { return v }
        guard let (v, valueUnit) = TextValue.numberWithUnit(t, decimalComma: decimalComma) else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) \(TextValue.notANumber(t))"))
            return nil
        }
        let unit = valueUnit.isEmpty ? (units[field] ?? "") : valueUnit
        guard let f = factor(unit) else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) '\(TextValue.shown(t))': unknown unit '\(unit)'"))
            return nil
        }
        if nonNegative && v < 0 {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) \(v) is negative"))
            return nil
        }
        guard (v * f).isFinite else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) '\(TextValue.shown(t))' is out of range"))
            return nil
        }
        return v * f
    }

    /// Reads ``row``'s other values (elevation, accuracies, speed, course, dops, satellites,
    /// fix, texts), noting unreadable ones.
    private mutating func readValues() {
        let length: (String) -> Double? = { TextValue.metres(per: $0) }
        let plain: (String) -> Double? = { $0.isEmpty ? 1 : nil }
        let degrees: (String) -> Double? = {
            switch $0 {
            case "", "deg", "degrees", "°": 1
            default: nil
            }
        }
        if columns[.elevation] != nil {
            let v = measure(.elevation, nonNegative: false, factor: length)
            row.values.elevation = v
        }
        if columns[.accuracy] != nil {
            let v = measure(.accuracy, nonNegative: true, factor: length)
            row.values.horizontalAccuracy = v
        }
        if columns[.verticalAccuracy] != nil {
            let v = measure(.verticalAccuracy, nonNegative: true, factor: length)
            row.values.verticalAccuracy = v
        }
        if columns[.speed] != nil {
            let v = measure(.speed, nonNegative: true, factor: { TextValue.metresPerSecond(per: $0) })
            row.values.speed = v
        }
        if columns[.course] != nil, let c = measure(.course, nonNegative: false, factor: degrees) {
            if c >= 0 && c <= 360 { row.values.course = c }
            else { row.notes.append(Note(kind: .invalidValue, detail: "course \(c) outside [0, 360]")) }
        }
        if columns[.hdop] != nil {
            let v = measure(.hdop, nonNegative: true, factor: plain)
            row.values.hdop = v
        }
        if columns[.vdop] != nil {
            let v = measure(.vdop, nonNegative: true, factor: plain)
            row.values.vdop = v
        }
        if columns[.pdop] != nil {
            let v = measure(.pdop, nonNegative: true, factor: plain)
            row.values.pdop = v
        }
        if columns[.satellites] != nil {
            let t = text(.satellites)
            if !t.isEmpty {
                if let n = TextValue.leadingCount(t), n < 1000 { row.values.satellites = n }
                else { row.notes.append(Note(kind: .invalidValue, detail: "satellites '\(TextValue.shown(t))'")) }
            }
        }
        if columns[.fixType] != nil {
            let t = text(.fixType)
            if !t.isEmpty {
                if let f = FixType(rawValue: TextValue.string(t).lowercased()) { row.values.fixType = f }
                else { row.notes.append(Note(kind: .invalidValue, detail: "fix '\(TextValue.shown(t))' (expected none, 2d, 3d, dgps or pps)")) }
            }
        }
        if columns[.name] != nil || columns[.role] != nil || columns[.state] != nil {
            row.values.setLabels(
                name: columns[.name] != nil ? textValue(.name) : nil,
                role: columns[.role] != nil ? textValue(.role) : nil,
                state: columns[.state] != nil ? textValue(.state) : nil)
        }
    }

    /// A text field's value; nil when empty.
    private func textValue(_ field: CSVField) -> String? {
        let t = text(field)
        return t.isEmpty ? nil : TextValue.string(t)
    }

    // MARK: Fused rows

    /// What ``fusedRow(_:_:into:)`` reads from a column.
    private struct FusedColumn {
        enum Kind { case skip, time, number }
        /// Where a number goes.
        enum Target { case latitude, longitude, measure(Fix.Measure) }
        var kind: Kind
        var target = Target.latitude
        /// The numbers the checks take unchanged: `lowest...highest` (an open end is the next
        /// double inward, as longitude's -180).
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
    private func fusedLayout() -> [FusedColumn]? {
        guard !decimalComma else { return nil }
        var layout: [FusedColumn] = []
        for field in CSVField.allCases {
            guard let index = columns[field] else { continue }
            let column: FusedColumn
            switch field {
            // As ``coordinate(_:hemisphere:positive:negative:what:)`` and ``check()`` take them
            // unchanged: latitude in [-90, 90], longitude in (-180, 180].
            case .latitude: column = .number(.latitude, -90, 90)
            case .longitude: column = .number(.longitude, (-180.0).nextUp, 180)
            case .time: column = .time
            case .elevation, .accuracy, .verticalAccuracy, .speed, .course, .hdop, .vdop, .pdop:
                guard units[field] == nil else { return nil }
                // As ``readValues()``: elevation may be negative, a course is in [0, 360], the
                // others are not negative.
                let measure = CSVReader.measures[field]!
                column = field == .elevation ? .number(.measure(measure), -.infinity, .infinity)
                    : field == .course ? .number(.measure(measure), 0, 360) : .number(.measure(measure), 0, .infinity)
            case .latitudeHemisphere, .longitudeHemisphere, .date, .satellites, .fixType, .name, .role, .state, .track, .segment, .pointType:
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
    private enum FusedRow {
        /// Not a row of the fused shape: the row scanner reads it (nothing was consumed).
        case notPlain
        /// A row read and dropped by the checks.
        case dropped
        /// A point, in the fix passed in.
        case item
    }

    /// Rows ``fusedRow(_:_:into:)`` reads one after another from the row scanner's window without
    /// moving the scanner, which catches up once, in ``finishFusedRun(_:noting:)``.
    private struct FusedRun {
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
    @inline(__always) private func startFusedRun() -> FusedRun? {
        guard let window = scanner.rowWindow(), let d = scanner.delimiter else { return nil }
        return FusedRun(base: window.base, limit: window.limit, delimiter: d, start: window.position,
                        position: window.position, firstLine: scanner.nextLine)
    }

    /// Moves the scanner past the run's rows (the last one's text found from its line feed) and,
    /// when `noting` (``read(into:limit:)``'s runs; not ``next()``'s single rows, where a call per
    /// row would cost more than the source's own count), tells the source about the line feeds
    /// they hold (one per row, its last byte), so that it does not count them again.
    private mutating func finishFusedRun(_ run: FusedRun, noting: Bool = true) {
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
    private mutating func nextFusedRow(_ layout: [FusedColumn], into values: inout Fix.Numbers) throws(TraceReadError) -> FusedRow {
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
    private mutating func fusedRow(_ layout: [FusedColumn], _ run: inout FusedRun, into values: inout Fix.Numbers) throws(TraceReadError) -> FusedRow {
        let base = run.base, limit = run.limit, d = run.delimiter
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        let rowStart = run.position
        var i = rowStart
        var latitude = 0.0, longitude = 0.0
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
                          parsed.hadZone else { return .notPlain }
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
                          value.isFinite else { return .notPlain }
                    v = value
                    i &+= length
                    guard i < limit, base[i &- 1] &- UInt8(ascii: "0") < 10 else { return .notPlain }
                }
                guard v >= column.lowest && v <= column.highest else { return .notPlain }
                switch column.target {
                case .latitude: latitude = v
                case .longitude: longitude = v
                case .measure(let m): values.set(m, v)
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
        guard try checker.accept(valid: true, time: values.time, line: run.firstLine &+ run.rows &- 1) else { return .dropped }
        return .item
    }

    // MARK: Checks

    /// Settles the row order from the look-ahead, then checks the rows held, queueing their items.
    private mutating func decideOrder() throws(TraceReadError) {
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
    private mutating func check() throws(TraceReadError) -> Bool {
        let line = row.line
        if row.startsTrack {
            pendingTrack = PendingTrack(name: row.trackName)
            pendingSegment = true
            checker.startSegment()
            mirroredPrevious = nil
        } else if row.startsSegment {
            pendingSegment = true
            checker.startSegment()
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
                if t < PointChecker.earliest || t >= PointChecker.latest { try checker.note(.implausibleTime, line: line, t.iso8601) }
                if let p = mirroredPrevious {
                    if t > p { try checker.note(.timeWentBackwards, line: line, "\(t.iso8601) after \(p.iso8601) in a newest-first file") }
                    else if t == p { try checker.note(.duplicateTime, line: line, t.iso8601) }
                }
                mirroredPrevious = t
            } else if !row.timeUnreadable {
                try checker.note(.missingTime, line: line)
            }
        }
        guard try checker.accept(valid: valid, time: time, line: line, ordered: direction != .newestFirst) else { return false }
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

    private mutating func finish() throws(TraceReadError) {
        if direction == .unknown { try decideOrder() }
        if markerRows > 0 {
            checker.diagnostics.assume("skipped \(markerRows) marker row\(markerRows == 1 ? "" : "s") that are not points (\(markerTypes.joined(separator: ", ")))")
        }
        finished = true
    }
}

/// A value per ``CSVField``, stored by the field's raw value (no hashing per row).
struct FieldTable<Value> {
    private var values = [Value?](repeating: nil, count: CSVField.allCases.count)

    subscript(field: CSVField) -> Value? {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }
}
