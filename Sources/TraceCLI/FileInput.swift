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

/// Reads a whole small file (a policy or scenario file): at most `limit` bytes.
/// - Throws: ``CLIError`` 66 when it cannot be opened, 65 when it is larger than `limit`, 74 on a
///   read error.
func readSmallFile(_ path: String, limit: Int = 16 << 20) throws(CLIError) -> [UInt8] {
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
        bytes += chunk[0..<n]
        if bytes.count > limit { throw .data("\(path): larger than \(limit) bytes") }
    }
}
