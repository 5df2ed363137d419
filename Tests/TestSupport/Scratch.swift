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
