#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("TracePlatform has a Linux (Glibc) branch and a Darwin branch, nothing else")
#endif

/// TraceKit's one seam to the C library's system interface: files, descriptors, folders, threads,
/// signals, clocks, the process. Every other module calls these instead of Glibc or Darwin, so a
/// second platform means one module to port. Each function has a Linux (Glibc) branch and a
/// Darwin branch side by side; only the Linux one is compiled and tested on this project's
/// machines (README, "Library"). The API is `package`: every module of TraceKit may call it, a
/// service that depends on TraceKit cannot.
///
/// The functions stay thin: one system call each (or the few that make one operation), named by
/// what they do, failures as ``Errno``.
package enum Platform {
    /// Standard input's descriptor (POSIX fixes 0, 1 and 2 on every platform).
    package static let standardInput: Int32 = 0
    /// Standard output's descriptor.
    package static let standardOutput: Int32 = 1
    /// Standard error's descriptor.
    package static let standardError: Int32 = 2
}

/// A failed system call's error number (`errno`); its description is the system's message
/// (`strerror`), as the error messages quote it.
package struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error number.
    package let code: Int32

    /// The error `code`.
    package init(_ code: Int32) { self.code = code }

    /// The error of this thread's last failed call.
    package static var last: Errno {
        #if canImport(Glibc)
            Errno(Glibc.errno)
        #elseif canImport(Darwin)
            Errno(Darwin.errno)
        #endif
    }

    /// EINTR: a signal interrupted the call.
    package static var interrupted: Errno {
        #if canImport(Glibc)
            Errno(Glibc.EINTR)
        #elseif canImport(Darwin)
            Errno(Darwin.EINTR)
        #endif
    }

    /// EEXIST: the file exists.
    package static var exists: Errno {
        #if canImport(Glibc)
            Errno(Glibc.EEXIST)
        #elseif canImport(Darwin)
            Errno(Darwin.EEXIST)
        #endif
    }

    /// The system's message for the error (`strerror`).
    package var description: String {
        #if canImport(Glibc)
            String(cString: Glibc.strerror(code))
        #elseif canImport(Darwin)
            String(cString: Darwin.strerror(code))
        #endif
    }
}

extension Platform {
    /// Throws the error in `errno` unless `status` (a system call's result) is 0.
    static func check(_ status: Int32) throws(Errno) {
        guard status == 0 else { throw Errno.last }
    }

    /// Ends the process with `status` (C `exit`: buffered standard I/O is flushed).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #elseif canImport(Darwin)
            Darwin.exit(status)
        #endif
    }

    /// A monotonic clock (`CLOCK_MONOTONIC`), nanoseconds since an arbitrary start.
    package static func monotonicNanoseconds() -> UInt64 { nanoseconds(CLOCK_MONOTONIC) }

    /// The CPU time this process has used on all its threads (`CLOCK_PROCESS_CPUTIME_ID`), nanoseconds.
    package static func processCPUNanoseconds() -> UInt64 { nanoseconds(CLOCK_PROCESS_CPUTIME_ID) }

    /// The time of `clock` in nanoseconds (`clock_gettime`; `clockid_t` is an Int32 on Linux, an
    /// enum on Darwin, spelt the same).
    private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        #if canImport(Glibc)
            Glibc.clock_gettime(clock, &ts)
        #elseif canImport(Darwin)
            Darwin.clock_gettime(clock, &ts)
        #endif
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`); 1 if unknown.
    package static var onlineProcessors: Int {
        #if canImport(Glibc)
            max(1, Int(Glibc.sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #elseif canImport(Darwin)
            max(1, Int(Darwin.sysconf(_SC_NPROCESSORS_ONLN)))
        #endif
    }

    /// The process's resident memory now, bytes: the second field of `/proc/self/statm` times the
    /// page size on Linux; nil where it cannot be read (and on Darwin, which has no such file:
    /// `task_info` is not wrapped here).
    package static var residentBytes: Int? {
        #if canImport(Glibc)
            guard let fd = try? openToRead("/proc/self/statm") else { return nil }
            defer { try? close(fd) }
            guard let bytes = try? readAll(fd, limit: 4096) else { return nil }
            let fields = bytes.split(separator: UInt8(ascii: " "))
            guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
            return pages * Int(Glibc.sysconf(Int32(_SC_PAGESIZE)))
        #elseif canImport(Darwin)
            return nil
        #endif
    }

    /// The process's effective user id (`geteuid`).
    package static var effectiveUser: UInt32 {
        #if canImport(Glibc)
            Glibc.geteuid()
        #elseif canImport(Darwin)
            Darwin.geteuid()
        #endif
    }

    /// The process's effective group id (`getegid`).
    package static var effectiveGroup: UInt32 {
        #if canImport(Glibc)
            Glibc.getegid()
        #elseif canImport(Darwin)
            Darwin.getegid()
        #endif
    }
}
