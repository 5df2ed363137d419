public import Foundation

/// The package's root folder (this file is `Tests/Support/TestSupport/PackageRoot.swift`).
public let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The shared corpus beside the checkout (`../shared`), or `TRACEKIT_SHARED` when set.
public let sharedFolder =
    ProcessInfo.processInfo.environment["TRACEKIT_SHARED"].map(URL.init(fileURLWithPath:))
    ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
