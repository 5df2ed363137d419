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
    do { return try Platform.readAll(fd, limit: limit) } catch {
        switch error {
        case .tooLarge: throw .data("\(path): larger than \(limit) bytes")
        case .failed(let e): throw .io("\(path): read failed: \(e)")
        }
    }
}
