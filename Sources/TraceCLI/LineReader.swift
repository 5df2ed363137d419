import TracePlatform

/// Reads a file descriptor line by line in 64 KiB blocks, with a bound on line length so memory
/// stays bounded whatever the input.
///
/// Lines end at LF; a CR before it is dropped; a final line without LF is returned too.
struct LineReader: ~Copyable {
    /// The longest line accepted by default, in bytes.
    static let maximumLineLength = 1 << 20
    /// The longest line this reader accepts, in bytes.
    let limit: Int

    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Name used in messages: the path, or `<stdin>`.
    let name: String
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEOF = false
    private(set) var lineNumber = 0

    /// Reads standard input.
    init(standardInput: ()) {
        self.init(fd: Platform.standardInput, owned: false, name: "<stdin>")
    }

    private init(fd: Int32, owned: Bool, name: String, limit: Int = LineReader.maximumLineLength) {
        self.limit = limit
        self.fd = fd
        ownsDescriptor = owned
        self.name = name
    }

    /// Opens `path` for reading; "-" is standard input.
    /// - Throws: ``CLIError`` with status 66 naming the file and the system's reason (also for a
    ///   directory).
    init(path: String, limit: Int = LineReader.maximumLineLength) throws(CLIError) {
        if path == "-" {
            self.init(fd: Platform.standardInput, owned: false, name: "<stdin>", limit: limit)
        } else {
            self.init(fd: try openRegularFile(path), owned: true, name: path, limit: limit)
        }
    }

    deinit {
        if ownsDescriptor { try? Platform.close(fd) }
    }

    /// The next line without its terminator, or nil at the end of input.
    ///
    /// `output`, when given, is flushed before every read that may block, so a program feeding
    /// lines one at a time through a pipe gets each answer before it sends the next line.
    /// - Throws: ``CLIError`` (65) for a line longer than ``limit`` or invalid UTF-8,
    ///   (74) for a read or write error.
    mutating func next(flushingBeforeRead output: Output? = nil) throws(CLIError) -> String? {
        var line: [UInt8] = []
        while true {
            if start < end {
                let found = block[start..<end].firstIndex(of: UInt8(ascii: "\n"))
                let stop = found ?? end
                line += block[start..<stop]
                if line.count > limit {
                    throw .data("\(name):\(lineNumber + 1): line longer than \(limit) bytes")
                }
                start = stop
                if found != nil {
                    start += 1
                    return try finish(line)
                }
            }
            if atEOF {
                return line.isEmpty ? nil : try finish(line)
            }
            try output?.flush()
            try refill()
        }
    }

    private mutating func finish(_ bytes: [UInt8]) throws(CLIError) -> String {
        lineNumber += 1
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard let s = String(validating: line, as: UTF8.self) else {
            throw .data("\(name):\(lineNumber): not valid UTF-8")
        }
        return s
    }

    private mutating func refill() throws(CLIError) {
        start = 0
        end = 0
        let n: Int
        do { n = try block.withUnsafeMutableBytes { try Platform.read(fd, into: $0) } } catch {
            throw .io("\(name): read failed: \(error)")
        }
        if n == 0 { atEOF = true }
        end = n
    }
}
