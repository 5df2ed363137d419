#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer to a file descriptor, or to memory for tests.
///
/// Bytes are collected and written in blocks of 64 KiB; `flush()` writes the rest. A write error
/// is remembered and reported by `flush()` so a full disk is not silently ignored.
final class Output {
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private(set) var captured: [UInt8] = []
    private var failure: Int32 = 0

    /// Writes to `fd` (not closed by this object).
    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    /// Collects everything in memory (tests).
    init() { fd = nil }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { drain() }
    }

    /// Writes the buffered bytes.
    /// - Throws: ``CLIError`` with status 74 if any write failed.
    func flush() throws(CLIError) {
        drain()
        if failure != 0 { throw .io("write failed: \(String(cString: strerror(failure)))") }
    }

    /// The captured text (memory outputs only).
    var text: String { String(decoding: captured, as: UTF8.self) }

    private func drain() {
        guard let fd else {
            captured += buffer
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count && failure == 0 {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                } else {
                    offset += n
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
