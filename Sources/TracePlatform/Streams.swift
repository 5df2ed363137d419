#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// A buffered C standard I/O stream (a `FILE *`, the same type name on both platforms).
    package struct Stream {
        fileprivate let file: UnsafeMutablePointer<FILE>
    }

    /// An anonymous temporary file, read and written, removed when closed or when the process
    /// ends (`tmpfile`).
    package static func temporaryStream() throws(Errno) -> Stream {
        #if canImport(Glibc)
            guard let file = Glibc.tmpfile() else { throw Errno.last }
        #elseif canImport(Darwin)
            guard let file = Darwin.tmpfile() else { throw Errno.last }
        #endif
        return Stream(file: file)
    }

    /// Creates or empties `path` to write through a buffer (`fopen(path, "w")`).
    package static func createStream(_ path: String) throws(Errno) -> Stream {
        #if canImport(Glibc)
            guard let file = Glibc.fopen(path, "w") else { throw Errno.last }
        #elseif canImport(Darwin)
            guard let file = Darwin.fopen(path, "w") else { throw Errno.last }
        #endif
        return Stream(file: file)
    }

    /// Appends `text` to `stream` (`fputs`); false on a write error.
    @discardableResult
    package static func put(_ text: String, to stream: Stream) -> Bool {
        #if canImport(Glibc)
            Glibc.fputs(text, stream.file) >= 0
        #elseif canImport(Darwin)
            Darwin.fputs(text, stream.file) >= 0
        #endif
    }

    /// Flushes `stream` and goes back to its start, to read what was written (`fflush`, `rewind`).
    package static func rewindToRead(_ stream: Stream) {
        #if canImport(Glibc)
            Glibc.fflush(stream.file)
            Glibc.rewind(stream.file)
        #elseif canImport(Darwin)
            Darwin.fflush(stream.file)
            Darwin.rewind(stream.file)
        #endif
    }

    /// Reads at most `buffer.count` bytes of `stream` into `buffer` (`fread`); 0 at the end or on an
    /// error (``failed(_:)`` tells which).
    package static func read(_ stream: Stream, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
            Glibc.fread(buffer.baseAddress, 1, buffer.count, stream.file)
        #elseif canImport(Darwin)
            Darwin.fread(buffer.baseAddress, 1, buffer.count, stream.file)
        #endif
    }

    /// Whether a read or write on `stream` failed (`ferror`).
    package static func failed(_ stream: Stream) -> Bool {
        #if canImport(Glibc)
            Glibc.ferror(stream.file) != 0
        #elseif canImport(Darwin)
            Darwin.ferror(stream.file) != 0
        #endif
    }

    /// Empties `stream`'s file and goes back to its start, to write it afresh (`rewind`,
    /// `ftruncate` of its descriptor).
    package static func empty(_ stream: Stream) {
        #if canImport(Glibc)
            Glibc.rewind(stream.file)
            _ = Glibc.ftruncate(Glibc.fileno(stream.file), 0)
        #elseif canImport(Darwin)
            Darwin.rewind(stream.file)
            _ = Darwin.ftruncate(Darwin.fileno(stream.file), 0)
        #endif
    }

    /// Flushes and closes `stream` (`fclose`).
    package static func close(_ stream: Stream) {
        #if canImport(Glibc)
            Glibc.fclose(stream.file)
        #elseif canImport(Darwin)
            Darwin.fclose(stream.file)
        #endif
    }
}
