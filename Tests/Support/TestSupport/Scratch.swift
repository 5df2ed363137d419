public import Foundation

/// The folder tests write their files in: one per test process (`tracekit-tests-PID` in the
/// system's temporary folder), removed with everything in it when the process exits, so a test run
/// leaves nothing behind. Tests name their files inside it uniquely (a UUID) as before.
public let scratchFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracekit-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit {
        try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("tracekit-tests-\(getpid())"))
    }
    return url
}()

/// Writes `content` to a file named `name` (its extension as given) in a fresh folder of the
/// scratch folder; returns its path.
public func scratchFile(_ name: String, _ content: String) throws -> String {
    let dir = scratchFolder.appendingPathComponent("file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try Data(content.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
