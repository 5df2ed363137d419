#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Whether plain rows take the block-scanning path (``ReadPaths/plain``; tests turn it off to
    /// compare), fixed at initialisation.
    let plainRows: Bool
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

    init(source: ByteSource, delimiter: UInt8?, quotes: Bool, plainRows: Bool = true) {
        self.plainRows = plainRows
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
            } else if b == 0x2C {
                counts[0] += 1
            } else if b == 0x3B {
                counts[1] += 1
            } else if b == 0x09 {
                counts[2] += 1
            }
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
