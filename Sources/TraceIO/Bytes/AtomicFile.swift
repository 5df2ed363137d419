import TracePlatform

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
            fd = Platform.standardOutput
            temporary = nil
            slot = nil
            device = false
            return
        }
        if let resolved = try? Platform.status(ofPath: path), [.characterDevice, .fifo, .socket].contains(resolved.kind) {
            do { fd = try Platform.openToWrite(path) } catch { throw TraceWriteError(file: path, message: "cannot open: \(error)") }
            temporary = nil
            slot = nil
            device = true
            return
        }
        // The cleanup signals wait while the file is created and registered, so none can orphan it.
        let created = Platform.withSignalsBlocked(TemporaryFiles.signals) { () -> Result<(Int32, String, Int?), Errno> in
            var attempts = 0
            while true {
                let name = path + ".tmp-" + String((0..<6).map { _ in AtomicFile.nameCharacters.randomElement()! })
                do throws(Errno) {
                    // 0666: the kernel applies the umask, as for any new file.
                    let f = try Platform.createNew(name, permissions: 0o666)
                    return .success((f, name, TemporaryFiles.register(Array(name.utf8CString))))
                } catch {
                    attempts += 1
                    if error != .exists || attempts == 100 { return .failure(error) }
                }
            }
        }
        let f: Int32, name: String, slot: Int?
        do { (f, name, slot) = try created.get() } catch {
            throw TraceWriteError(file: path, message: "cannot create a temporary file beside it: \(error)")
        }
        if let target = try? Platform.status(ofLink: path), target.kind == .regular {
            // Keep the target's mode and, when we may, its owner and group.
            try? Platform.setPermissions(f, target.permissions)
            if target.user != Platform.effectiveUser || target.group != Platform.effectiveGroup {
                try? Platform.setOwner(f, user: target.user, group: target.group)
            }
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
            do { try Platform.close(fd) } catch { throw TraceWriteError(file: path, message: "write failed: \(error)") }
            return
        }
        guard let temporary, !done else { return }
        done = true
        defer { TemporaryFiles.unregister(slot) }
        do { try Platform.sync(fd) } catch {
            try? Platform.close(fd)
            try? Platform.remove(temporary)
            throw TraceWriteError(file: path, message: "cannot flush to disk: \(error)")
        }
        do { try Platform.close(fd) } catch {
            try? Platform.remove(temporary)
            throw TraceWriteError(file: path, message: "write failed: \(error)")
        }
        do { try Platform.rename(temporary, to: path) } catch {
            try? Platform.remove(temporary)
            throw TraceWriteError(file: path, message: "cannot rename into place: \(error)")
        }
        // The rename itself is durable once the folder is synced (best effort: some file systems
        // refuse fsync on a folder).
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]).isEmpty ? "/" : String(path[..<$0]) } ?? "."
        if let dir = try? Platform.openFolder(folder) {
            try? Platform.sync(dir)
            try? Platform.close(dir)
        }
    }

    /// Removes the temporary file; the target is untouched.
    public func abandon() {
        if device && !done {
            done = true
            try? Platform.close(fd)
            return
        }
        guard let temporary, !done else { return }
        done = true
        try? Platform.close(fd)
        try? Platform.remove(temporary)
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
    // without it. A pthread mutex (Platform.Lock) rather than Synchronization's Mutex: thread
    // sanitizer sees its ordering.
    private static let lock = Platform.Lock()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    /// The signals that remove the temporary files (when their action is the default one).
    static let signals: [Platform.Signal] = [.interrupt, .terminate, .hangUp, .brokenPipe, .fileSizeExceeded]

    /// Takes a slot for `name` (nil when all are taken: that file is then not removed on a signal).
    static func register(_ name: [CChar]) -> Int? {
        lock.withLock { () -> Int? in
            var slot: Int?
            for i in 0..<capacity where slots[i] == nil {
                // A copy the handler can read: no Swift array, which could move or be freed.
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: name.count)
                copy.initialize(from: name, count: name.count)
                slots[i] = copy
                slot = i
                break
            }
            if !installed {
                installed = true
                for s in signals {
                    Platform.handleIfDefault(s) { received in
                        TemporaryFiles.removeAll()
                        // The default action again, and the signal again: it ends the process as it would have.
                        Platform.raiseWithDefaultAction(received)
                    }
                }
            }
            return slot
        }
    }

    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.withLock {
            let old = slots[slot]
            slots[slot] = nil
            old?.deallocate()
        }
    }

    /// Unlinks every registered file (async-signal-safe).
    private static func removeAll() {
        for i in 0..<capacity {
            if let name = slots[i] { Platform.removeFromSignalHandler(name) }
        }
    }
}
