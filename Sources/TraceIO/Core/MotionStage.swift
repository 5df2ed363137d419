import TraceDomain

/// A reader whose points pass a ``PointChecker`` (every reader): the motion stage reads the
/// motion check's marks from it.
package protocol CheckedTraceReader: TraceReader {
    var checker: PointChecker { get set }
}

/// The motion check's actions under the `filter` and `skip` policies, as a stage over a reader
/// (``openTrace(_:format:options:)`` puts every reader under one then): each speed spike is
/// dropped, and a new segment starts at each teleport (``ImpliedMotion``).
///
/// The reader's checker decides (it sees every point on every path, with its line) and marks the
/// kept track points it holds pending and what each turned out to be, by ordinal; the stage counts
/// the track points it hands on, holds a pending one back with everything after it until it is
/// decided, then drops it, or puts a segment start before it, or hands it on. Nothing is held
/// while nothing is pending, and a batch with no mark passes straight through. What is held is
/// bounded: a pending fix is decided within ``ImpliedMotion/lookahead`` track points, at a
/// segment, route or waypoint, or at the end.
///
/// ``next()`` and ``read(into:limit:)`` give the same items (and the same diagnostics, and the
/// items read before an error), as for every reader.
package struct MotionStage<Base: CheckedTraceReader>: TraceReader {
    fileprivate var base: Base
    /// Items ready to hand out.
    private var ready = ItemQueue()
    /// Items held behind a pending track point, with the ordinal of each track point (0 for any
    /// other item).
    private var held: [(item: TraceItem, ordinal: Int)] = []
    private var heldHead = 0
    /// The ordinal of the last track point taken from the reader.
    fileprivate var ordinal = 0
    /// Ordinals marked pending and not yet decided (a few: one per key at most).
    private var pending: [Int] = []
    /// Decisions for track points not yet handed on: true for a spike.
    private var decided: [Int: Bool] = [:]
    private var marks: [MotionMark] = []
    private var scratch = FixBatch()
    /// Spikes dropped.
    private var dropped = 0

    package init(_ base: Base) { self.base = base }

    package var format: TraceFormat { base.format }

    /// The reader's diagnostics, with the spikes dropped here counted as dropped points.
    package var diagnostics: Diagnostics {
        var d = base.diagnostics
        d.pointsDropped += dropped
        return d
    }

    /// Whether nothing is ready, held, pending or decided: the reader's items can go straight on.
    fileprivate var idle: Bool { ready.isEmpty && heldHead == held.count && pending.isEmpty && decided.isEmpty }

    package mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if let item = ready.pop() { return item }
            let item = try base.next()
            if idle && !base.checker.hasMotionMarks {
                if case .trackPoint = item { ordinal += 1 }
                return item
            }
            takeMarks()
            guard let item else {
                finish()
                return ready.pop()
            }
            take(item)
            release()
        }
    }

    package mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
        if idle {
            do {
                _ = try base.read(into: &batch, limit: limit)
            } catch {
                if base.checker.hasMotionMarks {
                    swap(&scratch, &batch)
                    batch.removeAll()
                    takeFailed(into: &batch)
                } else {
                    countTrackPoints(batch)
                }
                throw error
            }
            if !base.checker.hasMotionMarks {
                countTrackPoints(batch)
                return batch.count
            }
            // A pending or decided point in the batch: through its items.
            swap(&scratch, &batch)
            takeMarks()
            takeScratch()
        }
        batch.removeAll()
        while true {
            while batch.count < limit, let item = ready.pop() { batch.append(item) }
            if batch.count > 0 { return batch.count }
            let n: Int
            do {
                n = try base.read(into: &scratch, limit: limit)
            } catch {
                takeFailed(into: &batch)
                throw error
            }
            takeMarks()
            if n == 0 {
                finish()
                if ready.isEmpty { return 0 }
                continue
            }
            takeScratch()
        }
    }

    /// Counts the track points of a batch that went straight on.
    private mutating func countTrackPoints(_ batch: FixBatch) {
        for i in 0..<batch.count where batch.kind(i) == .trackPoint { ordinal += 1 }
    }

    /// Takes the items of ``scratch`` and hands on what is decided.
    private mutating func takeScratch() {
        for i in 0..<scratch.count { take(scratch[i]) }
        release()
    }

    /// After the reader failed: takes what it read before (in ``scratch``) and puts everything
    /// decided in `batch`, as many ``next()`` calls would have handed out before the error.
    private mutating func takeFailed(into batch: inout FixBatch) {
        takeMarks()
        takeScratch()
        while let item = ready.pop() { batch.append(item) }
    }

    /// The end of the reader's items: everything is decided (the checker decides every pending
    /// fix at the end), so everything held is handed on.
    private mutating func finish() {
        pending.removeAll()
        release()
    }

    /// Reads the checker's new marks.
    fileprivate mutating func takeMarks() {
        guard base.checker.hasMotionMarks else { return }
        base.checker.takeMotionMarks(into: &marks)
        for m in marks {
            switch m.kind {
            case .pending:
                pending.append(m.ordinal)
            case .spike, .teleport:
                pending.removeAll { $0 == m.ordinal }
                decided[m.ordinal] = m.kind == .spike
            }
        }
        marks.removeAll(keepingCapacity: true)
    }

    /// Takes an item from the reader, behind those held.
    fileprivate mutating func take(_ item: TraceItem) {
        var n = 0
        if case .trackPoint = item {
            ordinal += 1
            n = ordinal
        }
        held.append((item, n))
    }

    /// Hands on the held items up to the first pending track point: drops the spikes, starts a
    /// segment before each teleport.
    fileprivate mutating func release() {
        while heldHead < held.count {
            let (item, n) = held[heldHead]
            if n > 0 {
                if pending.contains(n) { break }
                if let spike = decided.removeValue(forKey: n) {
                    if spike {
                        dropped += 1
                        heldHead += 1
                        continue
                    }
                    ready.push(.segmentStart)
                }
            }
            ready.push(item)
            heldHead += 1
        }
        if heldHead == held.count {
            held.removeAll(keepingCapacity: true)
            heldHead = 0
        }
    }
}

/// A reader with a reduced way to its items for a replay (``LeanItem``, its text in
/// ``leanText``): GPX and CSV, the formats whose readers a replay holds unboxed.
package protocol LeanReading: CheckedTraceReader {
    mutating func nextLean() throws(TraceReadError) -> LeanItem
    var leanText: String? { get }
}

extension GPXReader: LeanReading {}
extension CSVReader: LeanReading {}

extension MotionStage where Base: LeanReading {
    /// The next item reduced (``LeanItem``), its text in `text`: while nothing is held, straight
    /// from the reader's own reduced path (no item made), else through ``next()``. The same items
    /// in the same order as ``next()`` reduced.
    ///
    /// The reader marks a point pending while it is read; nothing being held, that point is the
    /// one just read, a track point (no other item starts a pending fix, and a pending one is
    /// always held). It is held as the item its reduction gives back unchanged (coordinate, time,
    /// accuracy, speed, course, role; its other values are not in a ``LeanItem``).
    ///
    /// Generic, and so specialized only within this module: the replay calls it through the
    /// concrete `nextLean(text:)` of ``MotionStage`` over a GPX or CSV reader, so that the
    /// reader's checker is read in place, not through a protocol witness that copies it.
    @inline(__always)
    fileprivate mutating func leanStep(text: inout String?) throws(TraceReadError) -> LeanItem {
        if idle {
            let item = try base.nextLean()
            if item.hasRole || item.isTrackStart { text = base.leanText }
            if !base.checker.hasMotionMarks {
                if case .trackPoint = item.kind { ordinal += 1 }
                return item
            }
            guard hold(item, role: item.hasRole ? base.leanText : nil) else { return item }
        }
        return LeanItem(try next(), text: &text)
    }

    /// Holds `item`, the track point just read that the reader marked pending (``nextLean(text:)``),
    /// as the item it reduces from; false (the marks taken, nothing held) for any other item.
    private mutating func hold(_ item: LeanItem, role: String?) -> Bool {
        takeMarks()
        guard case .trackPoint = item.kind else { return false }
        var fix = Fix(coordinate: item.coordinate, time: item.hasTime ? Timestamp(nanoseconds: item.time) : nil)
        if !item.horizontalAccuracy.isNaN { fix.horizontalAccuracy = item.horizontalAccuracy }
        if !item.speed.isNaN { fix.speed = item.speed }
        if !item.course.isNaN { fix.course = item.course }
        fix.role = role
        take(.trackPoint(fix))
        release()
        return true
    }
}

extension MotionStage where Base == GPXReader {
    /// The next item reduced (``LeanItem``), its text in `text` (the stage's reduced path).
    package mutating func nextLean(text: inout String?) throws(TraceReadError) -> LeanItem { try leanStep(text: &text) }

    /// The next item (``TraceItem``), specialized for GPX (the replay's other path).
    package mutating func nextItem() throws(TraceReadError) -> TraceItem? { try next() }

    /// ``GPXReader/nextFusedLean()`` through the stage: nil while anything is held (``next()``
    /// gives it), or when the point just read was marked pending (then held).
    package mutating func nextFusedLean() throws(TraceReadError) -> LeanItem? {
        guard idle, let item = try base.nextFusedLean() else { return nil }
        if !base.checker.hasMotionMarks {
            if case .trackPoint = item.kind { ordinal += 1 }
            return item
        }
        return hold(item, role: nil) ? nil : item
    }
}

extension MotionStage where Base == CSVReader {
    /// The next item reduced (``LeanItem``), its text in `text` (the stage's reduced path).
    package mutating func nextLean(text: inout String?) throws(TraceReadError) -> LeanItem { try leanStep(text: &text) }

    /// The next item (``TraceItem``), specialized for CSV (the replay's other path).
    package mutating func nextItem() throws(TraceReadError) -> TraceItem? { try next() }
}
