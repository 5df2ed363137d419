import TracePlatform

/// Opens `path` read-only and checks that it is not a directory.
/// - Throws: ``CLIError`` 66 naming the file and the reason.
func openRegularFile(_ path: String) throws(CLIError) -> Int32 {
    let fd: Int32
    do { fd = try Platform.openToRead(path) } catch { throw .noInput("\(path): \(error)") }
    if (try? Platform.status(ofDescriptor: fd))?.kind == .folder {
        try? Platform.close(fd)
        throw .noInput("\(path): is a directory")
    }
    return fd
}

/// Whether `path` names a folder.
func isFolder(_ path: String) -> Bool {
    (try? Platform.status(ofPath: path))?.kind == .folder
}

/// The largest policy, scenario or energy profile file read, bytes. Such files are kilobytes; the
/// bound keeps a hostile one cheap, since parsed JSON takes some 25 times its size in memory.
let smallFileLimit = 1 << 20

/// Reads a whole small file (a policy, scenario or energy profile file): at most `limit` bytes.
/// - Throws: ``CLIError`` 66 when it cannot be opened, 65 when it is larger than `limit`, 74 on a
///   read error.
func readSmallFile(_ path: String, limit: Int = smallFileLimit) throws(CLIError) -> [UInt8] {
    let fd = try openRegularFile(path)
    defer { try? Platform.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n: Int
        do { n = try chunk.withUnsafeMutableBytes { try Platform.read(fd, into: $0) } } catch {
            throw .io("\(path): read failed: \(error)")
        }
        if n == 0 { return bytes }
        // Checked before appending, and the buffer grows by doubling up to `limit` and no further,
        // so a 2 GB stream costs at most `limit` (not the next power of two, plus a copy).
        if bytes.count + n > limit { throw .data("\(path): larger than \(limit) bytes") }
        if bytes.count + n > bytes.capacity { bytes.reserveCapacity(min(limit, max(2 * bytes.capacity, bytes.count + n))) }
        bytes += chunk[0..<n]
    }
}
