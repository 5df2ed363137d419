/// A reader whose points pass a ``PointChecker`` (every reader): the motion stage reads the
/// motion check's marks from it.
protocol CheckedTraceReader: TraceReader {
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
struct MotionStage<Base: CheckedTraceReader>: TraceReader {
    private var base: Base
    /// Items ready to hand out.
    private var ready = ItemQueue()
    /// Items held behind a pending track point, with the ordinal of each track point (0 for any
    /// other item).
    private var held: [(item: TraceItem, ordinal: Int)] = []
    private var heldHead = 0
    /// The ordinal of the last track point taken from the reader.
    private var ordinal = 0
    /// Ordinals marked pending and not yet decided (a few: one per key at most).
    private var pending: [Int] = []
    /// Decisions for track points not yet handed on: true for a spike.
    private var decided: [Int: Bool] = [:]
    private var marks: [MotionMark] = []
    private var scratch = FixBatch()
    /// Spikes dropped.
    private var dropped = 0

    init(_ base: Base) { self.base = base }

    var format: TraceFormat { base.format }

    /// The reader's diagnostics, with the spikes dropped here counted as dropped points.
    var diagnostics: Diagnostics {
        var d = base.diagnostics
        d.pointsDropped += dropped
        return d
    }

    /// Whether nothing is ready, held, pending or decided: the reader's items can go straight on.
    private var idle: Bool { ready.isEmpty && heldHead == held.count && pending.isEmpty && decided.isEmpty }

    mutating func next() throws(TraceReadError) -> TraceItem? {
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

    mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
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
    private mutating func takeMarks() {
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
    private mutating func take(_ item: TraceItem) {
        var n = 0
        if case .trackPoint = item {
            ordinal += 1
            n = ordinal
        }
        held.append((item, n))
    }

    /// Hands on the held items up to the first pending track point: drops the spikes, starts a
    /// segment before each teleport.
    private mutating func release() {
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
