import TracePlatform

/// A buffered writer to a file descriptor, or to memory for tests.
///
/// Everything written passes through ``Shown/output(_:)``: whatever a renderer did not escape
/// itself, no control character but the output's own line ends and tabs reaches standard output
/// or standard error (the progress bar, which draws with escape sequences on purpose, writes
/// with ``writeToStandardError(_:)``).
///
/// Bytes are collected and written in blocks of 64 KiB; `flush()` writes the rest. A write error
/// is remembered and reported by `flush()` so a full disk is not silently ignored.
final class Output {
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private(set) var captured: [UInt8] = []
    private var failure: Errno?

    /// Writes to `fd` (not closed by this object).
    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    /// Collects everything in memory (tests).
    init() { fd = nil }

    func write(_ s: String) {
        buffer.append(contentsOf: Shown.output(s).utf8)
        if buffer.count >= 1 << 16 { drain() }
    }

    /// Writes the buffered bytes.
    /// - Throws: ``CLIError`` with status 74 if any write failed.
    func flush() throws(CLIError) {
        drain()
        if let failure { throw .io("write failed: \(failure)") }
    }

    /// The captured text (memory outputs only).
    var text: String { String(decoding: captured, as: UTF8.self) }

    private func drain() {
        guard let fd else {
            captured += buffer
            buffer.removeAll(keepingCapacity: true)
            return
        }
        if failure == nil {
            failure = buffer.withUnsafeBytes { raw -> Errno? in
                do throws(Errno) { try Platform.writeAll(fd, raw) } catch { return error }
                return nil
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes `text` to standard error at once, unbuffered (progress bars; diagnostics that must not
/// mix into a converted standard output); one write, its failure ignored. `text` is written as
/// given: text from a file goes through ``printToStandardError(_:)`` instead.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = try? Platform.write(Platform.standardError, UnsafeRawBufferPointer($0)) }
}
