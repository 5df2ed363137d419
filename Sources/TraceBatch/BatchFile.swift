import TracePlatform

/// Reading whole small files (sidecars, manifests, baselines, tolerance files) and listing
/// folders, with POSIX calls and errors that name the file.
enum BatchFile {
    /// The whole of `path` ("-": standard input), at most `limit` bytes.
    /// - Throws: ``BatchTripError`` `.cannotOpen` when it cannot be opened or is a folder, `.data`
    ///   when it is larger than `limit`, `.io` on a read error.
    static func read(_ path: String, limit: Int = 256 << 20) throws(BatchTripError) -> [UInt8] {
        let fd: Int32
        if path == "-" {
            fd = Platform.standardInput
        } else {
            do { fd = try Platform.openToRead(path) } catch { throw BatchTripError(.cannotOpen, "\(path): \(error)") }
        }
        defer { if fd != Platform.standardInput { try? Platform.close(fd) } }
        if (try? Platform.status(ofDescriptor: fd))?.kind == .folder {
            throw BatchTripError(.cannotOpen, "\(path): is a directory")
        }
        do { return try Platform.readAll(fd, limit: limit) } catch {
            switch error {
            case .tooLarge: throw BatchTripError(.data, "\(path): larger than \(limit) bytes")
            case .failed(let e): throw BatchTripError(.io, "\(path): read failed: \(e)")
            }
        }
    }

    /// The first `count` bytes of file `path` (fewer when it is shorter); nil when it cannot be read.
    static func prefix(_ path: String, count: Int) -> [UInt8]? {
        guard let fd = try? Platform.openToRead(path) else { return nil }
        defer { try? Platform.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { try? Platform.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            guard let n, n > 0 else { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    /// What `path` is: a folder, a regular file (or a link to one), or nothing usable.
    enum Entry { case folder, file, other }

    static func entry(_ path: String) -> Entry {
        switch (try? Platform.status(ofPath: path))?.kind {
        case .folder: .folder
        case .regular: .file
        default: .other
        }
    }

    /// Whether `path` itself is a symbolic link (links to folders are not followed by discovery,
    /// so a link cannot make it loop).
    static func isLink(_ path: String) -> Bool {
        (try? Platform.status(ofLink: path))?.kind == .symbolicLink
    }

    /// The names in folder `path`, without "." and "..", in byte order.
    /// - Throws: ``BatchTripError`` `.cannotOpen`.
    static func names(in path: String) throws(BatchTripError) -> [String] {
        let names: [String]
        do { names = try Platform.names(inFolder: path) } catch { throw BatchTripError(.cannotOpen, "\(path): \(error)") }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
