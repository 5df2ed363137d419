#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// The signals TraceKit changes the handling of.
    package enum Signal: Sendable, CaseIterable {
        /// SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ.
        case interrupt, terminate, hangUp, brokenPipe, fileSizeExceeded

        /// The signal's number (the names are POSIX's on both platforms; the numbers are each
        /// platform's own).
        package var number: Int32 {
            switch self {
            case .interrupt: SIGINT
            case .terminate: SIGTERM
            case .hangUp: SIGHUP
            case .brokenPipe: SIGPIPE
            case .fileSizeExceeded: SIGXFSZ
            }
        }
    }

    /// Gives `signal` its default action and unblocks it for this thread (`signal(SIG_DFL)`,
    /// `sigprocmask(SIG_UNBLOCK)`): undoes what a parent may have left ignored or blocked.
    package static func restoreDefaultAction(_ signal: Signal) {
        var set = sigset_t()
        #if canImport(Glibc)
            Glibc.signal(signal.number, SIG_DFL)
            Glibc.sigemptyset(&set)
            Glibc.sigaddset(&set, signal.number)
            Glibc.sigprocmask(SIG_UNBLOCK, &set, nil)
        #elseif canImport(Darwin)
            Darwin.signal(signal.number, SIG_DFL)
            Darwin.sigemptyset(&set)
            Darwin.sigaddset(&set, signal.number)
            Darwin.sigprocmask(SIG_UNBLOCK, &set, nil)
        #endif
    }

    /// Ignores `signal` from now on (`signal(SIG_IGN)`).
    package static func ignore(_ signal: Signal) {
        #if canImport(Glibc)
            Glibc.signal(signal.number, SIG_IGN)
        #elseif canImport(Darwin)
            Darwin.signal(signal.number, SIG_IGN)
        #endif
    }

    /// Runs `body` with `signals` blocked on this thread, then restores the thread's mask
    /// (`pthread_sigmask`).
    package static func withSignalsBlocked<T>(_ signals: [Signal], _ body: () -> T) -> T {
        var blocked = sigset_t(), previous = sigset_t()
        #if canImport(Glibc)
            Glibc.sigemptyset(&blocked)
            for s in signals { Glibc.sigaddset(&blocked, s.number) }
            Glibc.pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            defer { Glibc.pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #elseif canImport(Darwin)
            Darwin.sigemptyset(&blocked)
            for s in signals { Darwin.sigaddset(&blocked, s.number) }
            Darwin.pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            defer { Darwin.pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #endif
        return body()
    }

    /// Makes `handler` (given the signal's number) handle `signal` when its action is the default
    /// one; an ignored or already handled signal stays as it is (`sigaction`). (`sigaction` is both a
    /// struct and a function: `Glibc.sigaction` would name the struct, so the calls are unqualified.)
    package static func handleIfDefault(_ signal: Signal, with handler: @convention(c) (Int32) -> Void) {
        var current = sigaction()
        var action = sigaction()
        #if canImport(Glibc)
            // A nil handler: SIG_DFL.
            guard sigaction(signal.number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
            Glibc.sigemptyset(&action.sa_mask)
            action.__sigaction_handler.sa_handler = handler
            sigaction(signal.number, &action, nil)
        #elseif canImport(Darwin)
            // A nil handler: SIG_DFL.
            guard sigaction(signal.number, nil, &current) == 0, current.__sigaction_u.__sa_handler == nil else { return }
            Darwin.sigemptyset(&action.sa_mask)
            action.__sigaction_u.__sa_handler = handler
            sigaction(signal.number, &action, nil)
        #endif
    }

    /// Gives signal `number` its default action and raises it again (`sigaction`, `raise`;
    /// async-signal-safe): from a handler, ends the process as the signal would have.
    package static func raiseWithDefaultAction(_ number: Int32) {
        var restore = sigaction()  // a nil handler: SIG_DFL
        #if canImport(Glibc)
            Glibc.sigemptyset(&restore.sa_mask)
            sigaction(number, &restore, nil)
            Glibc.raise(number)
        #elseif canImport(Darwin)
            Darwin.sigemptyset(&restore.sa_mask)
            sigaction(number, &restore, nil)
            Darwin.raise(number)
        #endif
    }
}
