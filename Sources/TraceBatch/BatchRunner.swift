import Synchronization  // Atomic

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs independent jobs on a bounded pool of worker threads and hands each result to the caller's
/// thread as it finishes.
///
/// `jobs` threads (at most the number of items) each take the next unclaimed index, run `work` on
/// it and queue the result; the calling thread waits for results and passes each to `completed`
/// in completion order, on its own thread, so `completed` needs no lock and may write output,
/// draw progress or keep results by index (which restores the items' order whatever the timing).
/// Memory is bounded: at most ``resultsInFlightPerJob`` × `jobs` items are claimed and not yet
/// passed to `completed` (a worker waits for the caller when it falls behind), plus what
/// `completed` keeps.
public struct BatchRunner: Sendable {
    /// Worker threads; at least 1.
    public var jobs: Int

    /// `jobs` workers; default: the processors this process may run on.
    public init(jobs: Int = BatchRunner.activeProcessors) {
        self.jobs = max(1, jobs)
    }

    /// The processors available to this process (`sysconf(_SC_NPROCESSORS_ONLN)`; 1 if unknown).
    public static var activeProcessors: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Items claimed by the workers and not yet passed to `completed`, per job, at most: enough
    /// that a worker need not wait for a caller that keeps up, few enough that one that does not
    /// holds a bounded number of results.
    public static let resultsInFlightPerJob = 4

    /// Runs `work` for every index in `0..<count` on the workers; calls `completed(index, result)`
    /// on the calling thread as each finishes. Returns when all have been passed to `completed`.
    public func run<Result: Sendable>(
        count: Int, work: @escaping @Sendable (Int) -> Result, completed: (Int, Result) -> Void
    ) {
        guard count > 0 else { return }
        let workers = min(jobs, count)
        let shared = Shared<Result>(count: count, work: work, inFlight: Self.resultsInFlightPerJob * workers)
        var threads: [pthread_t] = []
        for _ in 0..<workers {
            let box = Unmanaged.passRetained(shared as AnyObject)
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 8 << 20)
            var thread = pthread_t()
            let status = pthread_create(
                &thread, &attributes,
                { raw in
                    let shared = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue() as! any BatchWorker
                    shared.runWorker()
                    return nil
                }, box.toOpaque())
            pthread_attr_destroy(&attributes)
            if status == 0 {
                threads.append(thread)
            } else {
                box.release()
            }
        }
        if threads.isEmpty {
            // No thread could be started: do the work here, every result queued before any is
            // taken (so without the bound).
            shared.unbound()
            shared.runWorker()
        }
        for _ in 0..<count {
            let (index, result) = shared.take()
            completed(index, result)
        }
        for t in threads { pthread_join(t, nil) }
    }

    /// ``run(count:work:completed:)`` collecting the results in index order.
    public func map<Result: Sendable>(count: Int, work: @escaping @Sendable (Int) -> Result) -> [Result] {
        var slots = [Result?](repeating: nil, count: count)
        run(count: count, work: work) { slots[$0] = $1 }
        return slots.map { $0! }
    }
}

/// A worker's loop, type-erased for the thread entry point.
private protocol BatchWorker: AnyObject {
    func runWorker()
}

/// What the workers and the caller share: the next index (atomic), the finished results (behind a
/// mutex), a semaphore counting them, and one counting the items a worker may still claim before
/// the caller takes a result.
private final class Shared<Result: Sendable>: BatchWorker, @unchecked Sendable {
    // @unchecked: `done` is only touched with `lock` held; `ready` is a POSIX semaphore, safe to
    // use from any thread; everything else is an atomic or immutable. The lock is a pthread mutex,
    // not Synchronization's Mutex: thread sanitizer sees a pthread mutex's ordering, while Mutex's
    // futex, inside the uninstrumented standard library, looks to it like no ordering at all and
    // every hand-over of a result like a data race.
    let count: Int
    let work: @Sendable (Int) -> Result
    let next = Atomic<Int>(0)
    private var done: [(Int, Result)] = []
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    let ready: UnsafeMutablePointer<sem_t>
    let slots: UnsafeMutablePointer<sem_t>

    init(count: Int, work: @escaping @Sendable (Int) -> Result, inFlight: Int) {
        self.count = count
        self.work = work
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        ready = .allocate(capacity: 1)
        sem_init(ready, 0, 0)
        slots = .allocate(capacity: 1)
        sem_init(slots, 0, UInt32(max(1, min(inFlight, count))))
    }

    deinit {
        sem_destroy(slots)
        slots.deallocate()
        sem_destroy(ready)
        ready.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// A slot for every item: for a worker on the caller's own thread, which takes no result
    /// until it has run them all.
    func unbound() {
        for _ in 0..<count { sem_post(slots) }
    }

    func runWorker() {
        while true {
            // A slot first (given back when the caller takes a result), then an index: no more
            // than the slots are claimed and not yet taken. A worker that finds none left gives
            // its slot back for the others.
            while sem_wait(slots) != 0 {}  // EINTR: wait again
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < count else {
                sem_post(slots)
                return
            }
            let r = work(i)
            pthread_mutex_lock(lock)
            done.append((i, r))
            pthread_mutex_unlock(lock)
            sem_post(ready)
        }
    }

    /// The next finished result, waiting for one.
    func take() -> (Int, Result) {
        while sem_wait(ready) != 0 {}  // EINTR: wait again
        pthread_mutex_lock(lock)
        let result = done.removeFirst()
        pthread_mutex_unlock(lock)
        sem_post(slots)
        return result
    }
}
