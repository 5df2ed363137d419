#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written atomically: every file TraceKit writes (converted and smoothed traces, replay
/// pictures and GeoJSON, batch baselines and reports, the trip generator's trips) goes through it.
///
/// The bytes go to a temporary file beside the target (`TARGET.tmp-` and 6 random letters and digits, so the
/// same folder and file system); ``commit()`` flushes it to disk (`fsync`), renames it over the target and
/// syncs the folder. Until then the target is untouched: a failure at any point leaves the previous
/// file byte-identical. ``abandon()`` (also run by `deinit` and by every failure inside this type)
/// removes the temporary file; so does a SIGINT, SIGTERM, SIGHUP, SIGPIPE or SIGXFSZ that arrives
/// while it exists (when that signal has its default action: the temporary files are removed, then
/// the signal ends the process as it would have).
///
/// The new file gets the target's permission bits (and, where allowed, its owner) when the target
/// is a regular file, else the mode any new file gets (0666 less the umask). A target that is a
/// symbolic link is replaced by the file, not written through. "-" writes standard output
/// directly (nothing to commit); so does a target that is (or links to) a character device, a
/// FIFO or a socket, such as `/dev/null`, `/dev/stdout` or a named pipe: it is opened and written
/// through, since replacing it by a file would break it for every other program.
public final class AtomicFile {
    /// The target.
    public let path: String
    /// The descriptor to write to: the temporary file's, or standard output's for "-".
    public let fd: Int32
    private let temporary: String?
    private let slot: Int?
    /// Whether ``fd`` is a device, FIFO or socket this file opened (closed when done).
    private let device: Bool
    private var done = false

    /// Creates the temporary file beside `path`.
    /// - Throws: ``TraceWriteError`` naming `path` when it cannot be created.
    public init(path: String) throws(TraceWriteError) {
        self.path = path
        if path == "-" {
            fd = STDOUT_FILENO
            temporary = nil
            slot = nil
            device = false
            return
        }
        var resolved = stat()
        if stat(path, &resolved) == 0, [S_IFCHR, S_IFIFO, S_IFSOCK].contains(resolved.st_mode & S_IFMT) {
            let f = open(path, O_WRONLY | O_CLOEXEC)
            guard f >= 0 else { throw TraceWriteError(file: path, message: "cannot open: \(String(cString: strerror(errno)))") }
            fd = f
            temporary = nil
            slot = nil
            device = true
            return
        }
        // The cleanup signals wait while the file is created and registered, so none can orphan it.
        let (f, name, slot, reason) = TemporaryFiles.withSignalsBlocked { () -> (Int32, String, Int?, Int32) in
            var attempts = 0
            while true {
                let name = path + ".tmp-" + String((0..<6).map { _ in AtomicFile.nameCharacters.randomElement()! })
                // 0666: the kernel applies the umask, as for any new file.
                let f = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if f >= 0 { return (f, name, TemporaryFiles.register(Array(name.utf8CString)), 0) }
                attempts += 1
                if errno != EEXIST || attempts == 100 { return (f, name, nil, errno) }
            }
        }
        guard f >= 0 else {
            throw TraceWriteError(file: path, message: "cannot create a temporary file beside it: \(String(cString: strerror(reason)))")
        }
        var target = stat()
        if lstat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFREG {
            // Keep the target's mode and, when we may, its owner and group.
            fchmod(f, target.st_mode & 0o7777)
            if target.st_uid != geteuid() || target.st_gid != getegid() { _ = fchown(f, target.st_uid, target.st_gid) }
        }
        fd = f
        temporary = name
        self.slot = slot
        device = false
    }

    /// Writes all of `text` to the temporary file (abandoning it on failure).
    public func write(_ text: String) throws(TraceWriteError) {
        let sink = ByteSink(fd: fd, name: path)
        sink.write(text)
        do { try sink.flush() } catch {
            abandon()
            throw error
        }
    }

    /// Flushes the temporary file to disk and renames it over the target; on failure it is removed
    /// and the target is untouched. Nothing to do for standard output.
    public func commit() throws(TraceWriteError) {
        if device && !done {
            done = true
            guard close(fd) == 0 else { throw TraceWriteError(file: path, message: "write failed: \(String(cString: strerror(errno)))") }
            return
        }
        guard let temporary, !done else { return }
        done = true
        defer { TemporaryFiles.unregister(slot) }
        guard fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            throw TraceWriteError(file: path, message: "cannot flush to disk: \(reason)")
        }
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TraceWriteError(file: path, message: "write failed: \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TraceWriteError(file: path, message: "cannot rename into place: \(reason)")
        }
        // The rename itself is durable once the folder is synced (best effort: some file systems
        // refuse fsync on a folder).
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]).isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let dir = open(folder, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Removes the temporary file; the target is untouched.
    public func abandon() {
        if device && !done {
            done = true
            close(fd)
            return
        }
        guard let temporary, !done else { return }
        done = true
        close(fd)
        unlink(temporary)
        TemporaryFiles.unregister(slot)
    }

    deinit { abandon() }

    private static let nameCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// Writes `text` to `path` atomically.
    public static func write(_ path: String, _ text: String) throws(TraceWriteError) {
        let file = try AtomicFile(path: path)
        try file.write(text)
        try file.commit()
    }

    /// Writes `path` atomically through a ``ByteSink`` that `body` fills; returns the bytes written.
    public static func write(_ path: String, _ body: (ByteSink) throws(TraceWriteError) -> Void) throws(TraceWriteError) -> Int {
        let file = try AtomicFile(path: path)
        let sink = ByteSink(fd: file.fd, name: path)
        do {
            try body(sink)
            try sink.flush()
        } catch {
            file.abandon()
            throw error
        }
        try file.commit()
        return sink.count
    }
}

/// The temporary files that exist, for the signal handler: C strings in fixed slots, so the
/// handler only reads memory and calls `unlink`, which is async-signal-safe.
enum TemporaryFiles {
    static let capacity = 256
    // `slots` and `installed` are written only with `lock` held; the signal handler reads `slots`
    // without it. A pthread mutex rather than Synchronization's Mutex: thread sanitizer sees its
    // ordering (see TraceBatch's BatchRunner).
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let p = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(p, nil)
        return p
    }()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ]

    private static func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// Takes a slot for `name` (nil when all are taken: that file is then not removed on a signal).
    static func register(_ name: [CChar]) -> Int? {
        locked { () -> Int? in
            var slot: Int?
            for i in 0..<capacity where slots[i] == nil {
                slots[i] = strdup(name)
                slot = i
                break
            }
            if !installed {
                installed = true
                for s in signals { installHandler(s) }
            }
            return slot
        }
    }

    /// Runs `body` with the cleanup signals blocked on this thread.
    static func withSignalsBlocked<T>(_ body: () -> T) -> T {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for s in signals { sigaddset(&blocked, s) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return body()
    }

    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        locked {
            let old = slots[slot]
            slots[slot] = nil
            free(old)
        }
    }

    /// Installs the cleanup handler for `signal` when its action is the default one (an ignored or
    /// handled signal stays as it is).
    private static func installHandler(_ signal: Int32) {
        #if canImport(Glibc)
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }  // nil: SIG_DFL
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.__sigaction_handler.sa_handler = { received in
                TemporaryFiles.removeAll()
                // The default action again, and the signal again: it ends the process as it would have.
                var restore = sigaction()
                sigemptyset(&restore.sa_mask)
                sigaction(received, &restore, nil)
                raise(received)
            }
            sigaction(signal, &action, nil)
        #endif
    }

    /// Unlinks every registered file (async-signal-safe).
    private static func removeAll() {
        for i in 0..<capacity {
            if let name = slots[i] { unlink(name) }
        }
    }
}
