import TracePlatform

/// Bytes from a file descriptor (or memory) in a sliding window, so readers stream files of any
/// size in bounded memory.
///
/// Readers scan `bytes[position..<end]`; when they need more, ``refill(keeping:)`` moves the
/// unconsumed tail to the front and reads the next block. The window grows only while a single
/// token is longer than it, up to ``maximumWindow``. Lines are counted as bytes leave the
/// window, so ``location(of:)`` is exact for any position still in it. A reader that passes over
/// the window's bytes anyway may count their line feeds on the way and say so
/// (``noteLines(_:from:to:)``): the source then counts only the bytes nobody counted.
final class ByteSource {
    /// Bytes read per `read` call.
    static let blockSize = 1 << 20
    /// The largest window: the longest single token (a name, a value, a line) a reader accepts.
    static let maximumWindow = 16 << 20

    /// The name used in messages: the path, or "<stdin>".
    let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var memory: [UInt8]?
    /// The window. Valid bytes are `0..<end`.
    private(set) var bytes: UnsafeMutableBufferPointer<UInt8>
    private(set) var end = 0
    private(set) var atEOF = false
    /// Line and column of `bytes[0]`.
    private var baseLine = 1
    private var baseColumn = 1
    /// Total bytes discarded from the front of the window so far.
    private(set) var discarded = 0
    /// `bytes[0..<countedEnd]` holds `countedLines` line feeds (``noteLines(_:from:to:)``).
    private var countedEnd = 0
    private var countedLines = 0

    /// Opens `path` ("-" is standard input).
    /// - Throws: ``TraceReadError`` naming the file when it cannot be opened or is a directory.
    init(path: String) throws(TraceReadError) {
        if path == "-" {
            fd = Platform.standardInput
            ownsDescriptor = false
            name = "<stdin>"
        } else {
            let f: Int32
            do { f = try Platform.openToRead(path) } catch {
                throw TraceReadError(file: path, line: 0, column: 0, message: error.description, category: .cannotOpen)
            }
            if (try? Platform.status(ofDescriptor: f))?.kind == .folder {
                try? Platform.close(f)
                throw TraceReadError(file: path, line: 0, column: 0, message: "is a directory", category: .cannotOpen)
            }
            fd = f
            ownsDescriptor = true
            name = path
        }
        bytes = .allocate(capacity: ByteSource.blockSize)
    }

    /// Reads from memory (tests, small inputs).
    init(bytes data: [UInt8], name: String) {
        fd = -1
        ownsDescriptor = false
        self.name = name
        memory = data
        bytes = .allocate(capacity: max(data.count, 1))
        _ = bytes.initialize(from: data)
        end = data.count
        atEOF = true
    }

    deinit {
        bytes.deallocate()
        if ownsDescriptor { try? Platform.close(fd) }
    }

    /// Discards `bytes[0..<keep]`, moves the rest to the front and reads more. Returns the number
    /// of bytes discarded (callers shift their positions by it) and whether new bytes arrived.
    /// - Throws: ``TraceReadError`` on a read error, or when a token would exceed ``maximumWindow``.
    func refill(keeping keep: Int) throws(TraceReadError) -> (shift: Int, grew: Bool) {
        if atEOF { return (0, false) }
        advanceLines(through: keep)
        let remaining = end - keep
        if keep > 0 {
            UnsafeMutableRawPointer(bytes.baseAddress!).copyMemory(from: bytes.baseAddress! + keep, byteCount: remaining)
            discarded += keep
        }
        end = remaining
        if bytes.count - end < ByteSource.blockSize / 4 {
            let capacity = bytes.count * 2
            guard capacity <= ByteSource.maximumWindow else {
                let (l, c) = location(of: 0)
                throw TraceReadError(
                    file: name, line: l, column: c, message: "a single token is longer than \(ByteSource.maximumWindow) bytes")
            }
            let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
            UnsafeMutableRawPointer(bigger.baseAddress!).copyMemory(from: bytes.baseAddress!, byteCount: end)
            bytes.deallocate()
            bytes = bigger
        }
        let n: Int
        do { n = try Platform.read(fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: bytes[end...]))) } catch {
            throw TraceReadError(file: name, line: 0, column: 0, message: "read failed: \(error)", category: .io)
        }
        if n == 0 { atEOF = true }
        end += n
        return (keep, n > 0)
    }

    /// The first bytes of the input, up to `count` (at most ``blockSize``), without consuming
    /// them: reads until it has them or the input ends. Only before a reader has read: the bytes
    /// stay in the window for it, so standard input loses nothing (``TraceFormat/choose(name:head:file:)``
    /// looks at them before a reader is chosen).
    /// - Throws: ``TraceReadError`` on a read error.
    func head(_ count: Int) throws(TraceReadError) -> UnsafeBufferPointer<UInt8> {
        let count = min(count, ByteSource.blockSize)
        while end < count && !atEOF { _ = try refill(keeping: 0) }
        return UnsafeBufferPointer(start: bytes.baseAddress, count: min(end, count))
    }

    /// At the end of input: takes the input to end at `position` (before a multi-byte character
    /// the input cuts, ``XMLScanner``).
    func endInput(at position: Int) {
        if atEOF && position < end { end = position }
    }

    /// The line the input ends on (the line of its last byte: a final line feed ends that line,
    /// it does not start another), once a reader has reached the end of input.
    var lastLine: Int {
        let (line, column) = location(of: end)
        return column == 1 && line > 1 ? line - 1 : line
    }

    /// Moves the line and column of `bytes[0]` to those of `bytes[keep]` (``location(of:)``), and
    /// the counted prefix with them.
    private func advanceLines(through keep: Int) {
        let (l, c) = location(of: keep)
        if countedEnd >= keep {
            countedLines -= l - baseLine
            countedEnd -= keep
        } else {
            countedLines = 0
            countedEnd = 0
        }
        baseLine = l
        baseColumn = c
    }

    /// Records that `bytes[from..<to]` holds `lines` line feeds, counted by a reader that passes
    /// over those bytes anyway (the XML scanner's character check), so that ``location(of:)`` and
    /// ``refill(keeping:)`` need not count them again. The counted bytes are a prefix of the
    /// window: a gap before `from` is counted here; a range that starts inside the counted prefix
    /// changes nothing (the source counts what lies beyond it itself, when it needs to).
    func noteLines(_ lines: Int, from: Int, to: Int) {
        guard from <= to, to <= end else { return }
        if from > countedEnd {
            countedLines += ByteMasks.count(0x0A, UnsafePointer(bytes.baseAddress!), from: countedEnd, to: from)
        } else if from < countedEnd {
            return
        }
        countedLines += lines
        countedEnd = to
    }

    /// 1-based line and column (in bytes) of `bytes[position]`. The line counts line feeds from the
    /// nearer end of the counted prefix (``noteLines(_:from:to:)``), or from the window's start,
    /// 16 bytes per step; the column looks back for the last line feed.
    func location(of position: Int) -> (line: Int, column: Int) {
        let limit = min(position, end)
        let base = UnsafePointer(bytes.baseAddress!)
        let line: Int
        if limit >= countedEnd {
            line = baseLine + countedLines + ByteMasks.count(0x0A, base, from: countedEnd, to: limit)
        } else if countedEnd - limit < limit {
            line = baseLine + countedLines - ByteMasks.count(0x0A, base, from: limit, to: countedEnd)
        } else {
            line = baseLine + ByteMasks.count(0x0A, base, from: 0, to: limit)
        }
        guard let lastNewline = ByteMasks.lastIndex(of: 0x0A, base, from: 0, to: limit) else { return (line, baseColumn + limit) }
        return (line, limit - lastNewline)
    }
}
