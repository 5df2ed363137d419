package import TracePlatform

/// Where a path leads, found without opening it (`stat` and `realpath` only: a FIFO is not
/// blocked on, a file without read permission is not read): whether two paths name one file (an
/// output that would overwrite an input) and whether a path stays inside a folder (the traces a
/// scenario sidecar names).
package struct FilePlace: Sendable {
    /// The path as given.
    package let path: String
    /// The path made absolute, with ".", "..", repeated slashes and every symbolic link resolved as
    /// far as it exists (`realpath` of its longest existing prefix); the part that does not exist
    /// is appended textually, a ".." there removing the component before it. As bytes: a name
    /// need not be UTF-8.
    package let resolved: [UInt8]
    /// The file's status when it exists (`stat`: a link followed); nil when it does not.
    package let status: FileStatus?

    package init(_ path: String) {
        self.path = path
        status = try? Platform.status(ofPath: path)
        resolved = Self.resolve(path)
    }

    /// ``resolved`` as text, for a message.
    package var resolvedText: String { String(decoding: resolved, as: UTF8.self) }

    /// Whether both paths name one file: the same device and inode when both exist (a symbolic
    /// link and its target, two hard links), else the same resolved path (`./x`, `a/../x` and `x`
    /// before any is written).
    package func isSameFile(as other: FilePlace) -> Bool {
        if let a = status, let b = other.status { return a.device == b.device && a.inode == b.inode }
        return resolved == other.resolved
    }

    /// Whether this place is `folder` itself or inside it, once both are resolved (a link inside
    /// the folder that points out of it is outside).
    package func isInside(_ folder: FilePlace) -> Bool {
        let f = folder.resolved
        if resolved == f { return true }
        let prefix = f.last == Self.slash ? f : f + [Self.slash]
        return resolved.starts(with: prefix)
    }

    private static let slash = UInt8(ascii: "/")

    /// See ``resolved``. Tries `realpath` on the whole path, then on each shorter prefix down to
    /// "/" or the working folder, and appends what did not resolve.
    static func resolve(_ path: String) -> [UInt8] {
        let absolute = path.hasPrefix("/")
        var parts = path.split(separator: "/").map(String.init)
        var rest: [String] = []
        while true {
            let prefix = (absolute ? "/" : "") + parts.joined(separator: "/")
            if let base = Platform.resolvedPath(prefix.isEmpty ? "." : prefix) { return appending(rest, to: base) }
            guard let last = parts.popLast() else { break }
            rest.insert(last, at: 0)
        }
        // Not even the working folder resolves (it was removed): the path, textually.
        return appending(rest, to: absolute ? [slash] : [])
    }

    /// `base` with `parts` appended: "." skipped, ".." removing the last component (never above
    /// the root).
    static func appending(_ parts: [String], to base: [UInt8]) -> [UInt8] {
        var components = base.split(separator: slash).map(Array.init)
        for p in parts {
            if p == "." { continue }
            if p == ".." {
                _ = components.popLast()
                continue
            }
            components.append(Array(p.utf8))
        }
        let joined = components.joined(separator: [slash])
        return base.first == slash ? [slash] + joined : Array(joined)
    }
}
