import Synchronization  // Atomic
import TracePlatform

/// Runs independent jobs on a bounded pool of threads, the calling thread among them, and hands
/// each result to the calling thread as it finishes.
///
/// `jobs` threads (at most the number of items) each take the next unclaimed index and run `work`
/// on it: the calling thread and `jobs - 1` others, so one job starts no thread and runs every
/// item where it is called. The calling thread passes each result to `completed`, on its own
/// thread, in the order it meets them (its own items as it finishes them, the other threads'
/// between its items and, once none is left to claim, as they come), so `completed` needs no lock
/// and may write output, draw progress or keep results by index (which restores the items' order
/// whatever the timing). Memory is bounded: at most ``resultsInFlightPerJob`` items per thread
/// started are claimed by those threads and not yet passed to `completed` (a thread waits for the
/// caller when it falls behind), plus the calling thread's own item, plus what `completed` keeps.
public struct BatchRunner: Sendable {
    /// Threads that run the work, the calling thread included; at least 1.
    public var jobs: Int

    /// `jobs` threads; default: the processors this process may run on.
    public init(jobs: Int = BatchRunner.activeProcessors) {
        self.jobs = max(1, jobs)
    }

    /// The processors available to this process (`sysconf(_SC_NPROCESSORS_ONLN)`; 1 if unknown).
    public static var activeProcessors: Int {
        Platform.onlineProcessors
    }

    /// Items claimed by a started thread and not yet passed to `completed`, per such thread, at
    /// most: enough that a thread need not wait while the calling thread runs an item of its own
    /// (a tune's key for a long trip takes as long as dozens for short ones: with 4, two jobs
    /// found the tune's keys 1.5 times faster than one; with 64, 1.6 to 2 times), few enough that
    /// a caller that falls behind holds a bounded number of results.
    public static let resultsInFlightPerJob = 64

    /// Runs `work` for every index in `0..<count` on the calling thread and `jobs - 1` others;
    /// calls `completed(index, result)` on the calling thread as each finishes. Returns when all
    /// have been passed to `completed`. `work` runs on the calling thread's stack as well as on
    /// the started threads' (8 MiB each).
    public func run<Result: Sendable>(
        count: Int, work: @escaping @Sendable (Int) -> Result, completed: (Int, Result) -> Void
    ) {
        guard count > 0 else { return }
        let others = min(jobs, count) - 1
        let shared = Shared<Result>(count: count, work: work, inFlight: Self.resultsInFlightPerJob * max(1, others))
        let threads = Self.start(others, shared)
        // The calling thread: the others' finished results first (they wait for it once a few are
        // not yet taken), then an item of its own, passed on as soon as it is done; once none is
        // left to claim, the others' last results as they come. A thread that could not be
        // started leaves its share to the rest, the calling thread at least.
        for _ in 0..<count {
            if let (index, result) = shared.take(waiting: false, freeingSlot: true) {
                completed(index, result)
            } else if let index = shared.claim() {
                completed(index, work(index))
            } else {
                let (index, result) = shared.take(waiting: true, freeingSlot: true)!
                completed(index, result)
            }
        }
        for t in threads { Platform.join(t) }
    }

    /// ``run(count:work:completed:)`` with `completed` called in index order, without a barrier:
    /// at most `window` items (at least 1) are claimed and not yet passed to `completed` — a
    /// thread, the calling one too, waits for the earliest to be passed before claiming beyond
    /// them — so at most `window` results are held, done or not, besides what `completed` keeps.
    /// For results judged in order (a memory bound on what is kept: `tune`'s corpus) when items
    /// take unequal times.
    public func runInOrder<Result: Sendable>(
        count: Int, window: Int, work: @escaping @Sendable (Int) -> Result, completed: (Int, Result) -> Void
    ) {
        guard count > 0 else { return }
        let window = max(1, min(window, count))
        let shared = Shared<Result>(count: count, work: work, inFlight: window)
        let threads = Self.start(min(jobs, count) - 1, shared)
        // The calling thread: what the others finished, then an item of its own when the window
        // has room, or a wait; each result held until those before it are passed, and its slot
        // in the window given back when it is.
        var held: [Int: Result] = [:]
        var next = 0
        while next < count {
            if let (index, result) = shared.take(waiting: false, freeingSlot: false) {
                held[index] = result
            } else if shared.claimSlot() {
                if let index = shared.claim() {
                    held[index] = work(index)
                } else {
                    shared.freeSlot()
                    let (index, result) = shared.take(waiting: true, freeingSlot: false)!
                    held[index] = result
                }
            } else {
                let (index, result) = shared.take(waiting: true, freeingSlot: false)!
                held[index] = result
            }
            while let result = held.removeValue(forKey: next) {
                completed(next, result)
                next += 1
                shared.freeSlot()
            }
        }
        for t in threads { Platform.join(t) }
    }

    /// Starts `count` threads running `shared`'s worker loop; those that could not be started are
    /// left out (the calling thread does their share).
    private static func start<Result>(_ count: Int, _ shared: Shared<Result>) -> [Platform.Thread] {
        (0..<count).compactMap { _ in Platform.startThread(stackSize: 8 << 20) { shared.runWorker() } }
    }

    /// ``run(count:work:completed:)`` collecting the results in index order.
    public func map<Result: Sendable>(count: Int, work: @escaping @Sendable (Int) -> Result) -> [Result] {
        var slots = [Result?](repeating: nil, count: count)
        run(count: count, work: work) { slots[$0] = $1 }
        return slots.map { $0! }
    }
}

/// What the threads and the caller share: the next index (atomic), the started threads' finished
/// results (behind a mutex), a semaphore counting them, and one counting the items a started
/// thread may still claim before the caller takes a result.
private final class Shared<Result: Sendable>: @unchecked Sendable {
    // @unchecked: `done` is only touched with `lock` held; `ready` and `slots` are semaphores, safe
    // to use from any thread; everything else is an atomic or immutable. The lock is a pthread
    // mutex (Platform.Lock), not Synchronization's Mutex: thread sanitizer sees a pthread mutex's
    // ordering, while Mutex's futex, inside the uninstrumented standard library, looks to it like
    // no ordering at all and every hand-over of a result like a data race.
    let count: Int
    let work: @Sendable (Int) -> Result
    let next = Atomic<Int>(0)
    private var done: [(Int, Result)] = []
    private let lock = Platform.Lock()
    let ready = Platform.Semaphore(value: 0)
    let slots: Platform.Semaphore

    init(count: Int, work: @escaping @Sendable (Int) -> Result, inFlight: Int) {
        self.count = count
        self.work = work
        slots = Platform.Semaphore(value: max(1, min(inFlight, count)))
    }

    /// A started thread's loop: claim, run, queue, until every index is claimed.
    func runWorker() {
        while true {
            // A slot first (given back when the caller takes a result), then an index: no more
            // than the slots are claimed and not yet taken. A thread that finds none left gives
            // its slot back for the others.
            slots.wait()
            guard let i = claim() else {
                slots.signal()
                return
            }
            let r = work(i)
            lock.withLock { done.append((i, r)) }
            ready.signal()
        }
    }

    /// The next unclaimed index; nil when every index is claimed. The calling thread claims
    /// without a slot: it passes its own result on at once.
    func claim() -> Int? {
        let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return i < count ? i : nil
    }

    /// The next result a started thread finished, waiting for one when `waiting`; nil when none
    /// is ready and not `waiting`. Its slot is given back now when `freeingSlot`, else by the
    /// caller (``freeSlot()``) once it passes the result on.
    func take(waiting: Bool, freeingSlot: Bool) -> (Int, Result)? {
        if waiting {
            ready.wait()
        } else if !ready.tryWait() {
            return nil
        }
        let result = lock.withLock { done.removeFirst() }
        if freeingSlot { slots.signal() }
        return result
    }

    /// A slot for the calling thread's own item, if one is free now.
    func claimSlot() -> Bool { slots.tryWait() }

    /// Gives a slot back.
    func freeSlot() { slots.signal() }
}
