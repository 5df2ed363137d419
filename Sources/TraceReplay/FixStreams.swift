import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// Where one stream's fixes come from.
///
/// A trip held in memory (``LoadedTrip``, or the first pass's buffers when the trip fits
/// ``ReplayOptions/memoryLimitTripBytes``) is a ``memory(_:)`` source per role and file, replayed
/// without reading a file again.
enum FixSource {
    /// Fixes held in memory, in time order, or in file order for an unordered file over
    /// ``ReplayOptions/memoryLimitFixes`` (as a second read gives them: the replay skips and
    /// counts the late ones either way).
    case memory(FixColumns)
    /// Read again from the file: its timed points of the stream's role, skipping the rest.
    case file(RoleReader)
    /// Single pass: read once from the file, tallying what the first pass would have recorded
    /// (``LiveTally``); the stream is abandoned at a point of another role or a time before the
    /// previous one (the file needs the first pass).
    case live(RoleReader, LiveTally)
    /// Nothing more to read.
    case exhausted
}

/// Single pass: what the first pass would have recorded about a file read live (its one role).
struct LiveTally {
    /// Timed fixes.
    var fixes = 0
    /// Track points without a time.
    var untimed = 0
    var lastTime = Int64.min
    /// Whether the content named the role of any point.
    var named = false
}

/// One role's fixes from one file, in time order.
///
/// Fixes are taken from a window of columns: the memory source's own columns, or a window refilled
/// from the reader up to ``windowSize`` fixes at a time. Advancing is an index step within the
/// window; the source (an enum holding the reader) is touched once per refill. A read error or an
/// abandonment met while refilling is held until the fixes read before it are taken, so the
/// stream throws or stops at the same fix as it would reading one point at a time.
struct FixStream {
    let role: Role
    /// The input file's index.
    let file: Int
    /// The next fix; nil at the end (or when abandoned).
    private(set) var head: ReplayFix?
    /// Single pass: the file turned out to need the first pass (see ``FixSource/live(_:_:)``).
    private(set) var abandoned = false
    /// The live reader's diagnostics so far (nil for a recorded stream).
    var diagnostics: Diagnostics? {
        if case .live(let reader, _) = source { return reader.diagnostics }
        return nil
    }
    private var source: FixSource
    private var window: FixColumns
    private var next = 0
    /// What ends the window: more to read, the end, an abandonment, or a read error.
    private var ending: Ending = .more
    /// Only fixes timed within this (a trip of a long recording).
    private let timeWindow: ClosedRange<Int64>?

    private enum Ending {
        case more, end, abandoned, failed(ReplayError)
    }

    /// Fixes read from a file per refill.
    static let windowSize = 1024

    /// Opens the stream and reads its first fix (check ``abandoned`` for a live source).
    /// `window`: only fixes timed within it (``ReplayOptions/window``).
    init(role: Role, file: Int, source: FixSource, window: ClosedRange<Int64>? = nil) throws(ReplayError) {
        self.role = role
        self.file = file
        self.timeWindow = window
        if case .memory(let columns) = source {
            self.window = columns
            self.source = .exhausted
            ending = .end
        } else {
            self.window = FixColumns()
            self.source = source
        }
        try advance()
    }

    /// The live source's tally and reader once the stream has ended (nil for other sources).
    var live: (tally: LiveTally, reader: RoleReader)? {
        if case .live(let reader, let tally) = source { return (tally, reader) }
        return nil
    }

    /// Moves ``head`` to the next fix.
    @inline(__always)
    mutating func advance() throws(ReplayError) {
        if next < window.count {
            head = window[next]
            next += 1
            return
        }
        try advanceWindow()
    }

    private mutating func advanceWindow() throws(ReplayError) {
        while true {
            switch ending {
            case .more:
                refill()
                if next < window.count {
                    head = window[next]
                    next += 1
                    return
                }
            case .end:
                head = nil
                return
            case .abandoned:
                head = nil
                abandoned = true
                return
            case .failed(let error):
                head = nil
                ending = .end
                throw error
            }
        }
    }

    /// Reads up to ``windowSize`` fixes into the window, noting what ended it.
    private mutating func refill() {
        window.removeAll()
        next = 0
        let taken = source
        source = .exhausted  // the reader is held uniquely while reading
        switch taken {
        case .memory, .exhausted:
            ending = .end
        case .file(var reader):
            ending = Self.read(&reader, role: role, within: timeWindow, into: &window)
            source = .file(reader)
        case .live(var reader, var tally):
            ending = Self.readLive(&reader, role: role, tally: &tally, into: &window)
            source = .live(reader, tally)
        }
    }

    private static func read(_ reader: inout RoleReader, role: Role, within w: ClosedRange<Int64>?, into window: inout FixColumns) -> Ending
    {
        do {
            while window.count < windowSize {
                guard let p = try reader.nextPoint() else { return .end }
                if p.role == role, p.timed {
                    if let w, !w.contains(p.fix.time) { continue }
                    window.append(p.fix)
                }
            }
            return .more
        } catch {
            return .failed(error)
        }
    }

    private static func readLive(_ reader: inout RoleReader, role: Role, tally: inout LiveTally, into window: inout FixColumns) -> Ending {
        do {
            while window.count < windowSize {
                guard let p = try reader.nextPoint() else { return .end }
                guard p.role == role else { return .abandoned }
                guard p.timed else {
                    tally.untimed += 1
                    continue
                }
                let t = p.fix.time
                guard t >= tally.lastTime else { return .abandoned }
                tally.lastTime = t
                tally.fixes += 1
                if p.named { tally.named = true }
                window.append(p.fix)
            }
            return .more
        } catch {
            return .failed(error)
        }
    }
}

/// The k-way merge of fix streams on one clock: the earliest head first; at equal times, streams
/// in helper, hirer, delegate order, then file order.
struct MergedFixes {
    /// The streams, in tie-break order.
    private(set) var streams: [FixStream]
    /// A live stream was abandoned: the replay needs the first pass.
    private(set) var abandoned = false

    /// The rank of a role at equal times: helper, hirer, delegate.
    static func rank(_ role: Role) -> Int { role == .helper ? 0 : role == .hirer ? 1 : 2 }

    init(_ streams: [FixStream]) {
        self.streams = streams.enumerated().sorted {
            (Self.rank($0.element.role), $0.element.file, $0.offset) < (Self.rank($1.element.role), $1.element.file, $1.offset)
        }.map(\.element)
    }

    /// The earliest head time, if any.
    var earliest: Int64? { streams.compactMap { $0.head?.time }.min() }

    /// The next fix in time order with its role and file; nil at the end or when a stream is
    /// abandoned (see ``abandoned``).
    @inline(__always)
    mutating func next() throws(ReplayError) -> (fix: ReplayFix, role: Role, file: Int)? {
        var k = -1
        var best = Int64.max
        for i in streams.indices {
            if let h = streams[i].head, h.time < best || k < 0 {
                best = h.time
                k = i
            }
        }
        guard k >= 0, let fix = streams[k].head else { return nil }
        try streams[k].advance()
        if streams[k].abandoned {
            abandoned = true
            return nil
        }
        return (fix, streams[k].role, streams[k].file)
    }
}
