#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading whole small files (sidecars, manifests, baselines, tolerance files) and listing
/// folders, with POSIX calls and errors that name the file.
enum BatchFile {
    /// The whole of `path` ("-": standard input), at most `limit` bytes.
    /// - Throws: ``BatchTripError`` `.cannotOpen` when it cannot be opened or is a folder, `.data`
    ///   when it is larger than `limit`, `.io` on a read error.
    static func read(_ path: String, limit: Int = 256 << 20) throws(BatchTripError) -> [UInt8] {
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw BatchTripError(.cannotOpen, "\(path): \(String(cString: strerror(errno)))") }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw BatchTripError(.cannotOpen, "\(path): is a directory")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BatchTripError(.io, "\(path): read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { throw BatchTripError(.data, "\(path): larger than \(limit) bytes") }
        }
    }

    /// The first `count` bytes of file `path` (fewer when it is shorter); nil when it cannot be read.
    static func prefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    /// What `path` is: a folder, a regular file (or a link to one), or nothing usable.
    enum Entry { case folder, file, other }

    static func entry(_ path: String) -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Whether `path` itself is a symbolic link (links to folders are not followed by discovery,
    /// so a link cannot make it loop).
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The names in folder `path`, without "." and "..", in byte order.
    /// - Throws: ``BatchTripError`` `.cannotOpen`.
    static func names(in path: String) throws(BatchTripError) -> [String] {
        guard let dir = opendir(path) else { throw BatchTripError(.cannotOpen, "\(path): \(String(cString: strerror(errno)))") }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
