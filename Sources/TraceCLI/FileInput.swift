#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens `path` read-only and checks that it is not a directory.
/// - Throws: ``CLIError`` 66 naming the file and the reason.
func openRegularFile(_ path: String) throws(CLIError) -> Int32 {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw .noInput("\(path): \(String(cString: strerror(errno)))") }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        close(fd)
        throw .noInput("\(path): is a directory")
    }
    return fd
}

/// Whether `path` names a folder.
func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// The largest policy, scenario or energy profile file read, bytes. Such files are kilobytes; the
/// bound keeps a hostile one cheap, since parsed JSON takes some 25 times its size in memory.
let smallFileLimit = 1 << 20

/// Reads a whole small file (a policy, scenario or energy profile file): at most `limit` bytes.
/// - Throws: ``CLIError`` 66 when it cannot be opened, 65 when it is larger than `limit`, 74 on a
///   read error.
func readSmallFile(_ path: String, limit: Int = smallFileLimit) throws(CLIError) -> [UInt8] {
    let fd = try openRegularFile(path)
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw .io("\(path): read failed: \(String(cString: strerror(errno)))")
        }
        if n == 0 { return bytes }
        // Checked before appending, and the buffer grows by doubling up to `limit` and no further,
        // so a 2 GB stream costs at most `limit` (not the next power of two, plus a copy).
        if bytes.count + n > limit { throw .data("\(path): larger than \(limit) bytes") }
        if bytes.count + n > bytes.capacity { bytes.reserveCapacity(min(limit, max(2 * bytes.capacity, bytes.count + n))) }
        bytes += chunk[0..<n]
    }
}
