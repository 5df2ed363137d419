#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import Dispatch  // DispatchSemaphore: Darwin has no unnamed POSIX semaphores (sem_init fails)
#endif

extension Platform {
    /// A started thread, to ``join(_:)``.
    package struct Thread {
        /// `pthread_t`: an unsigned long on Linux, a non-null pointer on Darwin.
        fileprivate let handle: pthread_t
    }

    /// Starts a thread with a stack of `stackSize` bytes that runs `body` (`pthread_create`); nil
    /// when it cannot be started.
    package static func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Thread? {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body))
        var attributes = pthread_attr_t()
        #if canImport(Glibc)
            Glibc.pthread_attr_init(&attributes)
            Glibc.pthread_attr_setstacksize(&attributes, stackSize)
            var thread = pthread_t()
            let status = Glibc.pthread_create(
                &thread, &attributes,
                { raw in  // UnsafeMutableRawPointer?
                    Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                    return nil
                }, box.toOpaque())
            Glibc.pthread_attr_destroy(&attributes)
            guard status == 0 else {
                box.release()
                return nil
            }
            return Thread(handle: thread)
        #elseif canImport(Darwin)
            Darwin.pthread_attr_init(&attributes)
            Darwin.pthread_attr_setstacksize(&attributes, stackSize)
            var thread: pthread_t?
            let status = Darwin.pthread_create(
                &thread, &attributes,
                { raw in  // UnsafeMutableRawPointer
                    Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                    return nil
                }, box.toOpaque())
            Darwin.pthread_attr_destroy(&attributes)
            guard status == 0, let thread else {
                box.release()
                return nil
            }
            return Thread(handle: thread)
        #endif
    }

    /// Waits for `thread` to end (`pthread_join`).
    package static func join(_ thread: Thread) {
        #if canImport(Glibc)
            Glibc.pthread_join(thread.handle, nil)
        #elseif canImport(Darwin)
            Darwin.pthread_join(thread.handle, nil)
        #endif
    }

    /// A mutual-exclusion lock: a pthread mutex, whose ordering thread sanitizer sees (the standard
    /// library's `Mutex` waits on a futex inside uninstrumented code, which thread sanitizer takes
    /// for no ordering at all, and every hand-over through it for a data race).
    package final class Lock: @unchecked Sendable {
        // @unchecked: the mutex is made for use from any thread.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// An unlocked lock.
        package init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            #if canImport(Glibc)
                Glibc.pthread_mutex_init(mutex, nil)
            #elseif canImport(Darwin)
                Darwin.pthread_mutex_init(mutex, nil)
            #endif
        }

        deinit {
            #if canImport(Glibc)
                Glibc.pthread_mutex_destroy(mutex)
            #elseif canImport(Darwin)
                Darwin.pthread_mutex_destroy(mutex)
            #endif
            mutex.deallocate()
        }

        /// Runs `body` with the lock held.
        package func withLock<T>(_ body: () throws -> T) rethrows -> T {
            #if canImport(Glibc)
                Glibc.pthread_mutex_lock(mutex)
                defer { Glibc.pthread_mutex_unlock(mutex) }
            #elseif canImport(Darwin)
                Darwin.pthread_mutex_lock(mutex)
                defer { Darwin.pthread_mutex_unlock(mutex) }
            #endif
            return try body()
        }
    }

    /// A counting semaphore: an unnamed POSIX semaphore on Linux (`sem_t`), a dispatch semaphore
    /// on Darwin.
    package final class Semaphore: @unchecked Sendable {
        // @unchecked: both kinds are made for use from any thread.
        #if canImport(Glibc)
            private let semaphore: UnsafeMutablePointer<sem_t>
        #elseif canImport(Darwin)
            private let semaphore: DispatchSemaphore
        #endif

        /// A semaphore counting `value`.
        package init(value: Int) {
            #if canImport(Glibc)
                semaphore = .allocate(capacity: 1)
                Glibc.sem_init(semaphore, 0, UInt32(value))
            #elseif canImport(Darwin)
                // From 0, then up: a dispatch semaphore made with a count traps when it is freed
                // holding less than that count.
                semaphore = DispatchSemaphore(value: 0)
                for _ in 0..<value { semaphore.signal() }
            #endif
        }

        deinit {
            #if canImport(Glibc)
                Glibc.sem_destroy(semaphore)
                semaphore.deallocate()
            #endif
        }

        /// Takes one, waiting until there is one (a wait a signal interrupts is waited again).
        package func wait() {
            #if canImport(Glibc)
                while Glibc.sem_wait(semaphore) != 0 {}
            #elseif canImport(Darwin)
                semaphore.wait()
            #endif
        }

        /// Takes one if there is one now; whether it did.
        package func tryWait() -> Bool {
            #if canImport(Glibc)
                Glibc.sem_trywait(semaphore) == 0
            #elseif canImport(Darwin)
                semaphore.wait(timeout: .now()) == .success
            #endif
        }

        /// Gives one back, waking a waiter.
        package func signal() {
            #if canImport(Glibc)
                Glibc.sem_post(semaphore)
            #elseif canImport(Darwin)
                semaphore.signal()
            #endif
        }
    }
}
