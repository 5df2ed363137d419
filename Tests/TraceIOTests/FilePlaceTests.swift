import Foundation
import TestSupport
import Testing
import TraceIO

/// ``FilePlace``: which paths name one file, and whether a path stays inside a folder, found
/// without opening anything.
@Suite("FilePlace: one file, inside a folder")
struct FilePlaceTests {
    /// A scratch folder holding the empty folder `sub` (a path under it), removed at the end.
    static func scratch(_ sub: String, _ body: (String, FileManager) throws -> Void) throws {
        let dir = scratchFolder.appendingPathComponent("place-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(dir)/\(sub)", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir, FileManager.default)
    }

    @Test("one file by every spelling: ./, a/../, a symbolic link, a hard link; before it exists, by its resolved path")
    func sameFile() throws {
        try Self.scratch("a") { dir, fm in try Self.sameFile(dir, fm) }
    }

    static func sameFile(_ dir: String, _ fm: FileManager) throws {
        try "x".write(toFile: "\(dir)/x", atomically: false, encoding: .utf8)
        try "y".write(toFile: "\(dir)/y", atomically: false, encoding: .utf8)
        try fm.createSymbolicLink(atPath: "\(dir)/link", withDestinationPath: "x")
        try fm.linkItem(atPath: "\(dir)/x", toPath: "\(dir)/a/hard")
        try fm.createSymbolicLink(atPath: "\(dir)/up", withDestinationPath: "a")
        let x = FilePlace("\(dir)/x")
        for spelling in ["\(dir)/./x", "\(dir)/a/../x", "\(dir)//x", "\(dir)/link", "\(dir)/a/hard", "\(dir)/up/hard", "\(dir)/up/../x"] {
            #expect(FilePlace(spelling).isSameFile(as: x), "\(spelling)")
        }
        #expect(!FilePlace("\(dir)/y").isSameFile(as: x))
        // Not there yet: the same resolved path, the folder's links resolved.
        let new = FilePlace("\(dir)/new.html")
        #expect(new.status == nil)
        #expect(FilePlace("\(dir)/a/../new.html").isSameFile(as: new))
        // up is a/, whose parent is dir: ".." after a link is the link's target's parent.
        #expect(FilePlace("\(dir)/up/../new.html").isSameFile(as: new))
        #expect(FilePlace("\(dir)/up/new.html").resolvedText == FilePlace("\(dir)/a").resolvedText + "/new.html")
        #expect(FilePlace("\(dir)/missing/../new.html").isSameFile(as: new))
        #expect(!FilePlace("\(dir)/other.html").isSameFile(as: new))
    }

    @Test("inside a folder once links and .. are resolved; a link inside pointing out is outside")
    func inside() throws {
        try Self.scratch("in/sub") { dir, fm in try Self.inside(dir, fm) }
    }

    static func inside(_ dir: String, _ fm: FileManager) throws {
        try fm.createSymbolicLink(atPath: "\(dir)/in/out", withDestinationPath: "/etc")
        let folder = FilePlace("\(dir)/in")
        for path in ["\(dir)/in/a.gpx", "\(dir)/in/sub/../a.gpx", "\(dir)/in/missing/b.gpx", "\(dir)/in"] {
            #expect(FilePlace(path).isInside(folder), "\(path)")
        }
        for path in ["\(dir)/in/../a.gpx", "\(dir)/in/out/passwd", "\(dir)/in/out/../x", "\(dir)/inside.gpx", "/etc/passwd"] {
            #expect(!FilePlace(path).isInside(folder), "\(path)")
        }
        #expect(FilePlace("\(dir)/in/out/passwd").resolvedText == "/etc/passwd")
        #expect(FilePlace("/etc/passwd").isInside(FilePlace("/")))
    }
}
