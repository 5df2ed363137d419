import Foundation
import TestSupport
import TracePlatform

/// A child process started with `posix_spawn`, for what `Process` cannot do: hand it descriptors
/// exactly as given (a pipe whose reader is already closed).
struct Child {
    let pid: pid_t

    /// Starts `executable` with `arguments`; `stdin`, `stdout` and `stderr` become its 0, 1 and 2,
    /// and it gets no other descriptor of this process (an already closed one is skipped by glibc).
    init(_ executable: String, _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // No other descriptor (as Foundation's Process does): a pipe end that leaked into a child
        // started at the same moment would keep that pipe open.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        self.pid = pid
    }

    /// Waits for the child: how it ended.
    func wait() -> (exited: Int32?, signal: Int32?) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
        let signal = status & 0x7F != 0 && status & 0x7F != 0x7F ? status & 0x7F : nil
        return (exited, signal)
    }

    /// A pipe whose descriptors are closed on exec (only the dup2'd copies reach a child).
    static func pipe() -> (read: Int32, write: Int32) {
        (try? Platform.makePipe()) ?? (-1, -1)
    }

    /// Everything readable from `fd` until end of file; closes it.
    static func readAll(_ fd: Int32) -> String {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { try? Platform.read(fd, into: $0) }
            guard let n, n > 0 else { break }
            data += chunk[0..<n]
        }
        try? Platform.close(fd)
        return String(decoding: data, as: UTF8.self)
    }
}
