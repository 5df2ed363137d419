#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says of a file: its kind, permission bits, size, owner, and the device and inode
/// that identify it.
package struct FileStatus: Equatable, Sendable {
    /// A file's kind (`st_mode & S_IFMT`).
    package enum Kind: Equatable, Sendable {
        case regular, folder, symbolicLink, characterDevice, blockDevice, fifo, socket, unknown
    }

    /// The file's kind.
    package var kind: Kind
    /// The permission bits, set-id and sticky bits (`st_mode & 0o7777`).
    package var permissions: UInt32
    /// The size in bytes.
    package var size: Int64
    /// The owner's user id.
    package var user: UInt32
    /// The owner's group id.
    package var group: UInt32
    /// The device that holds the file (`st_dev`): with ``inode``, the file's identity, the same
    /// for every path that leads to it (a symbolic link followed, a hard link).
    package var device: UInt64
    /// The file's number on its device (`st_ino`).
    package var inode: UInt64

    /// The status in `info` (`st_mode` is a UInt32 on Linux, a UInt16 on Darwin: both are `mode_t`,
    /// as `S_IFMT` and the kinds are, so the same spelling serves both).
    fileprivate init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        permissions = UInt32(info.st_mode & 0o7777)
        size = Int64(info.st_size)
        user = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
        // `dev_t` is a UInt64 on Linux, an Int32 on Darwin; `ino_t` a UInt64 on both.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}

extension Platform {
    // MARK: Descriptors

    /// Opens `path` to read (`O_RDONLY`, and `O_CLOEXEC` when `closeOnExec`).
    package static func openToRead(_ path: String, closeOnExec: Bool = false) throws(Errno) -> Int32 {
        try open(path, O_RDONLY | (closeOnExec ? O_CLOEXEC : 0))
    }

    /// Opens the existing `path` to write without truncating it, closed on exec (`O_WRONLY |
    /// O_CLOEXEC`): a device, FIFO or socket written through.
    package static func openToWrite(_ path: String) throws(Errno) -> Int32 {
        try open(path, O_WRONLY | O_CLOEXEC)
    }

    /// Creates `path`, which must not exist, to write, closed on exec (`O_WRONLY | O_CREAT | O_EXCL
    /// | O_CLOEXEC`); `permissions` less the umask; ``Errno/exists`` when it exists.
    package static func createNew(_ path: String, permissions: UInt32) throws(Errno) -> Int32 {
        try open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    }

    /// Creates `path` to write, or empties it if it exists (`O_WRONLY | O_CREAT | O_TRUNC`); a new
    /// file gets `permissions` less the umask.
    package static func createOrTruncate(_ path: String, permissions: UInt32) throws(Errno) -> Int32 {
        try open(path, O_WRONLY | O_CREAT | O_TRUNC, permissions)
    }

    /// Opens folder `path` (`O_RDONLY | O_DIRECTORY`), for ``sync(_:)``.
    package static func openFolder(_ path: String) throws(Errno) -> Int32 {
        try open(path, O_RDONLY | O_DIRECTORY)
    }

    /// `open(path, flags, permissions)`: the descriptor, or the error.
    private static func open(_ path: String, _ flags: Int32, _ permissions: UInt32 = 0) throws(Errno) -> Int32 {
        #if canImport(Glibc)
            let fd = Glibc.open(path, flags, mode_t(permissions))
        #elseif canImport(Darwin)
            let fd = Darwin.open(path, flags, mode_t(permissions))
        #endif
        guard fd >= 0 else { throw Errno.last }
        return fd
    }

    /// Closes `fd` (never retried: the descriptor is gone even when close reports an error).
    package static func close(_ fd: Int32) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.close(fd))
        #elseif canImport(Darwin)
            try check(Darwin.close(fd))
        #endif
    }

    /// Reads at most `buffer.count` bytes from `fd` into `buffer` (one `read`, retried when a signal
    /// interrupts it); returns how many, 0 at the end of the input.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        #if canImport(Glibc)
            try retryingInterrupted { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        #elseif canImport(Darwin)
            try retryingInterrupted { Darwin.read(fd, buffer.baseAddress, buffer.count) }
        #endif
    }

    /// Why ``readAll(_:limit:)`` stopped.
    package enum ReadAllError: Error {
        /// More than the limit: nothing is returned.
        case tooLarge
        case failed(Errno)
    }

    /// Everything left on `fd`, at most `limit` bytes: checked before appending, and the buffer
    /// grows by doubling up to `limit` and no further, so a 2 GB stream costs at most `limit`.
    package static func readAll(_ fd: Int32, limit: Int) throws(ReadAllError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            switch chunk.withUnsafeMutableBytes({ b in Result { () throws(Errno) in try read(fd, into: b) } }) {
            case .success(let count): n = count
            case .failure(let error): throw .failed(error)
            }
            if n == 0 { return bytes }
            if bytes.count + n > limit { throw .tooLarge }
            if bytes.count + n > bytes.capacity { bytes.reserveCapacity(min(limit, max(2 * bytes.capacity, bytes.count + n))) }
            bytes += chunk[0..<n]
        }
    }

    /// Writes some of `bytes` to `fd` (one `write`, retried when a signal interrupts it); returns
    /// how many.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        #if canImport(Glibc)
            try retryingInterrupted { Glibc.write(fd, bytes.baseAddress, bytes.count) }
        #elseif canImport(Darwin)
            try retryingInterrupted { Darwin.write(fd, bytes.baseAddress, bytes.count) }
        #endif
    }

    /// `call`'s count, `call` made again while it fails with EINTR.
    private static func retryingInterrupted(_ call: () -> Int) throws(Errno) -> Int {
        while true {
            let n = call()
            if n >= 0 { return n }
            let error = Errno.last
            if error != .interrupted { throw error }
        }
    }

    /// Writes all of `bytes` to `fd`, as many ``write(_:_:)`` calls as it takes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Flushes `fd`'s data and metadata to the disk (`fsync`; for a folder, its entries).
    package static func sync(_ fd: Int32) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.fsync(fd))
        #elseif canImport(Darwin)
            try check(Darwin.fsync(fd))
        #endif
    }

    /// Sets the permission bits of the file open as `fd` (`fchmod`).
    package static func setPermissions(_ fd: Int32, _ permissions: UInt32) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.fchmod(fd, mode_t(permissions)))
        #elseif canImport(Darwin)
            try check(Darwin.fchmod(fd, mode_t(permissions)))
        #endif
    }

    /// Sets the owner and group of the file open as `fd` (`fchown`).
    package static func setOwner(_ fd: Int32, user: UInt32, group: UInt32) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.fchown(fd, user, group))
        #elseif canImport(Darwin)
            try check(Darwin.fchown(fd, user, group))
        #endif
    }

    /// Whether `fd` is a terminal (`isatty`).
    package static func isTerminal(_ fd: Int32) -> Bool {
        #if canImport(Glibc)
            Glibc.isatty(fd) == 1
        #elseif canImport(Darwin)
            Darwin.isatty(fd) == 1
        #endif
    }

    /// A pipe, both ends closed on exec (`pipe`, then `FD_CLOEXEC` on each).
    package static func makePipe() throws(Errno) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        #if canImport(Glibc)
            try check(Glibc.pipe(&fds))
            for fd in fds { _ = Glibc.fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #elseif canImport(Darwin)
            try check(Darwin.pipe(&fds))
            for fd in fds { _ = Darwin.fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        return (fds[0], fds[1])
    }

    // MARK: Paths

    /// The status of `path`, following symbolic links (`stat`; unqualified, as `Glibc.stat` would
    /// name the struct).
    package static func status(ofPath path: String) throws(Errno) -> FileStatus {
        #if canImport(Glibc)
            try status { stat(path, $0) }
        #elseif canImport(Darwin)
            try status { stat(path, $0) }
        #endif
    }

    /// The status of `path` itself, a symbolic link not followed (`lstat`).
    package static func status(ofLink path: String) throws(Errno) -> FileStatus {
        #if canImport(Glibc)
            try status { Glibc.lstat(path, $0) }
        #elseif canImport(Darwin)
            try status { Darwin.lstat(path, $0) }
        #endif
    }

    /// The status of the file open as `fd` (`fstat`).
    package static func status(ofDescriptor fd: Int32) throws(Errno) -> FileStatus {
        #if canImport(Glibc)
            try status { Glibc.fstat(fd, $0) }
        #elseif canImport(Darwin)
            try status { Darwin.fstat(fd, $0) }
        #endif
    }

    /// The status `call` fills in (0: done; else the error is in `errno`).
    private static func status(_ call: (UnsafeMutablePointer<stat>) -> Int32) throws(Errno) -> FileStatus {
        var info = stat()
        try check(call(&info))
        return FileStatus(info)
    }

    /// Whether `path` exists (`access(F_OK)`; a link to nothing does not).
    package static func exists(_ path: String) -> Bool {
        #if canImport(Glibc)
            Glibc.access(path, F_OK) == 0
        #elseif canImport(Darwin)
            Darwin.access(path, F_OK) == 0
        #endif
    }

    /// Whether this process may read `path` (`access(R_OK)`).
    package static func isReadable(_ path: String) -> Bool {
        #if canImport(Glibc)
            Glibc.access(path, R_OK) == 0
        #elseif canImport(Darwin)
            Darwin.access(path, R_OK) == 0
        #endif
    }

    /// `path` made absolute with every link, "." and ".." resolved (`realpath`), as its bytes; nil
    /// when it does not exist.
    package static func resolvedPath(_ path: String) -> [UInt8]? {
        #if canImport(Glibc)
            guard let resolved = Glibc.realpath(path, nil) else { return nil }
            defer { Glibc.free(resolved) }
        #elseif canImport(Darwin)
            guard let resolved = Darwin.realpath(path, nil) else { return nil }
            defer { Darwin.free(resolved) }
        #endif
        return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// Renames `from` to `to`, replacing `to` if it exists (`rename`).
    package static func rename(_ from: String, to: String) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.rename(from, to))
        #elseif canImport(Darwin)
            try check(Darwin.rename(from, to))
        #endif
    }

    /// Removes the file `path` (`unlink`).
    package static func remove(_ path: String) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.unlink(path))
        #elseif canImport(Darwin)
            try check(Darwin.unlink(path))
        #endif
    }

    /// Removes the file named by the C string `path`, errors ignored: async-signal-safe (no Swift
    /// string, no allocation), for a signal handler.
    package static func removeFromSignalHandler(_ path: UnsafePointer<CChar>) {
        #if canImport(Glibc)
            _ = Glibc.unlink(path)
        #elseif canImport(Darwin)
            _ = Darwin.unlink(path)
        #endif
    }

    /// Creates the folder `path` (`mkdir`); `permissions` less the umask; ``Errno/exists`` when
    /// something is there.
    package static func makeFolder(_ path: String, permissions: UInt32) throws(Errno) {
        #if canImport(Glibc)
            try check(Glibc.mkdir(path, mode_t(permissions)))
        #elseif canImport(Darwin)
            try check(Darwin.mkdir(path, mode_t(permissions)))
        #endif
    }

    /// The names in folder `path` without "." and "..", in the folder's own order
    /// (`opendir`/`readdir`).
    package static func names(inFolder path: String) throws(Errno) -> [String] {
        #if canImport(Glibc)
            guard let folder = Glibc.opendir(path) else { throw Errno.last }  // an OpaquePointer
            defer { Glibc.closedir(folder) }
            let next = { Glibc.readdir(folder) }
        #elseif canImport(Darwin)
            guard let folder = Darwin.opendir(path) else { throw Errno.last }  // an UnsafeMutablePointer<DIR>
            defer { Darwin.closedir(folder) }
            let next = { Darwin.readdir(folder) }
        #endif
        var names: [String] = []
        while let entry = next() {  // d_name: a tuple of 256 CChars on Linux, 1024 on Darwin
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names.filter { $0 != "." && $0 != ".." }
    }
}
