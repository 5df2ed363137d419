import Synchronization
import Testing
import TracePlatform

@testable import TraceBatch

#if canImport(Glibc)
    import Glibc  // usleep, pthread_self
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("BatchRunner")
struct BatchRunnerTests {
    @Test("results come back in index order whatever the completion order", arguments: [1, 2, 3, 8])
    func ordered(jobs: Int) {
        let out = BatchRunner(jobs: jobs).map(count: 50) { i in
            // Uneven work so that completion order differs from index order with several jobs.
            var x = UInt64(i)
            for _ in 0..<((50 - i) * 2000) { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            return (i, x)
        }
        #expect(out.map(\.0) == Array(0..<50))
    }

    @Test("each index runs exactly once; completed sees every result on the calling thread")
    func exactlyOnce() {
        let runs = Runs()
        var completed: [Int] = []
        BatchRunner(jobs: 4).run(
            count: 200,
            work: { i in
                runs.append(i)
                return i * i
            },
            completed: { i, r in
                #expect(r == i * i)
                completed.append(i)
            })
        #expect(runs.sorted == Array(0..<200))
        #expect(completed.sorted() == Array(0..<200))
    }

    @Test("with two jobs, two items run at the same time")
    func concurrent() {
        let active = Atomic<Int>(0), peak = Atomic<Int>(0)
        BatchRunner(jobs: 2).run(
            count: 8,
            work: { _ in
                let now = active.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
                _ = peak.max(now, ordering: .sequentiallyConsistent)
                // Wait (bounded) for the other worker to arrive.
                var spins = 0
                while active.load(ordering: .sequentiallyConsistent) < 2 && spins < 50_000_000 { spins += 1 }
                active.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                return 0
            }, completed: { _, _ in })
        #expect(peak.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test("a caller that falls behind holds a bounded number of results: the workers wait for it", arguments: [1, 2, 3])
    func boundedInFlight(jobs: Int) {
        let claimed = Atomic<Int>(0)
        var taken = 0, worst = 0
        BatchRunner(jobs: jobs).run(
            count: 300,
            work: { i in
                claimed.wrappingAdd(1, ordering: .sequentiallyConsistent)
                return i
            },
            completed: { _, _ in
                taken += 1
                worst = max(worst, claimed.load(ordering: .sequentiallyConsistent) - taken)
                usleep(200)  // a slow caller: writing, hashing
            })
        #expect(taken == 300 && claimed.load(ordering: .sequentiallyConsistent) == 300)
        // The calling thread passes its own items on at once: only the started threads' are held.
        #expect(worst <= BatchRunner.resultsInFlightPerJob * (jobs - 1), "\(worst) claimed and not taken")
        if jobs > 1 { #expect(worst > 0) }
    }

    @Test("the calling thread runs items too: one job starts no thread, two jobs start one", arguments: [1, 2, 3])
    func callingThreadWorks(jobs: Int) {
        let caller = Int(bitPattern: pthread_self())  // pthread_t: an unsigned long on Linux
        let threads = Runs()
        let n = 40
        BatchRunner(jobs: jobs).run(
            count: n,
            work: { i in
                threads.append(Int(bitPattern: pthread_self()))
                // Long enough that every started thread takes some.
                var x = UInt64(i)
                for _ in 0..<200_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
                return x
            }, completed: { _, _ in })
        let seen = Set(threads.all)
        #expect(seen.contains(caller))
        #expect(seen.count <= jobs)
        if jobs == 1 { #expect(seen == [caller]) }
    }

    @Test("in order: completed sees every index once, in index order, whatever the items' times", arguments: [1, 2, 3])
    func inOrder(jobs: Int) {
        var seen: [Int] = []
        BatchRunner(jobs: jobs).runInOrder(count: 60, window: 5) { i in
            // The early items slowest, so that later ones finish first.
            var x = UInt64(i)
            for _ in 0..<((60 - i) * 3000) { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            return (i, x)
        } completed: { i, r in
            #expect(r.0 == i)
            seen.append(i)
        }
        #expect(seen == Array(0..<60))
        var none = 0
        BatchRunner(jobs: jobs).runInOrder(count: 0, window: 5) { $0 } completed: { _, _ in none += 1 }
        #expect(none == 0)
    }

    @Test("in order: no more than the window claimed and not passed, however long the earliest item takes", arguments: [1, 2, 3])
    func inOrderWindow(jobs: Int) {
        let claimed = Atomic<Int>(0)
        var passed = 0, worst = 0
        BatchRunner(jobs: jobs).runInOrder(count: 40, window: 6) { i in
            let now = claimed.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            if i % 10 == 0 { usleep(3000) }  // an earliest item that holds the others up
            return now
        } completed: { _, _ in
            passed += 1
            worst = max(worst, claimed.load(ordering: .sequentiallyConsistent) - passed)
        }
        #expect(passed == 40 && claimed.load(ordering: .sequentiallyConsistent) == 40)
        #expect(worst <= 6, "\(worst) claimed and not passed")
        if jobs > 1 { #expect(worst > 0) }
    }

    @Test("no items: nothing runs")
    func empty() {
        #expect(BatchRunner(jobs: 3).map(count: 0) { $0 }.isEmpty)
        #expect(BatchRunner(jobs: 0).jobs == 1)
    }
}

/// The indices the workers ran, behind a pthread mutex (Platform.Lock): thread sanitizer sees its
/// ordering, not that of Synchronization's Mutex, whose futex is in the uninstrumented standard library.
private final class Runs: @unchecked Sendable {
    private let lock = Platform.Lock()
    private var indices: [Int] = []

    func append(_ i: Int) { lock.withLock { indices.append(i) } }

    var all: [Int] { lock.withLock { indices } }

    var sorted: [Int] { lock.withLock { indices.sorted() } }
}
