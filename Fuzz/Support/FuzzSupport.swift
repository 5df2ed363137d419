import Foundation
// Shared by the libFuzzer targets of Fuzz/ (see README, "Hardening: fuzzing"). Each target is an
// executable that hands the bytes to one of the library's in-memory entry points. Built with
// `-sanitize=fuzzer,address -DFUZZING` (make fuzz), its main starts libFuzzer's driver; built
// normally, its main runs the files named on the command line through the same function, so a
// reproducer can be replayed (and debugged) without the sanitizers.
public import TraceIO
import TracePlatform

#if FUZZING
    import CFuzzDriver
#endif

/// The bytes libFuzzer hands over, as the array the library's readers take.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Reads `reader` to its end. A thrown error ends the read: it is the right outcome for bad
/// input. Every fix is checked against the readers' promises; a broken promise traps.
public func drain(_ reader: inout some TraceReader) {
    while true {
        let item: TraceItem?
        do {
            item = try reader.next()
        } catch {
            return
        }
        guard let item else { return }
        switch item {
        case .trackPoint(let fix), .routePoint(let fix), .waypoint(let fix): check(fix)
        case .trackStart, .segmentStart, .routeStart: break
        }
    }
}

/// Reads the input twice, from two fresh readers: item by item (``drain(_:)``'s checks), and in
/// batches (`read(into:limit:)`, batch sizes 1, 7 and 1,024 in turn). Traps unless both give the
/// same items, the same error (or none) and the same diagnostics: the batch paths are a second
/// implementation of the same reading.
public func drainBothWays<R: TraceReader>(_ make: () -> R) {
    var one = make()
    var items: [TraceItem] = []
    var error: TraceReadError?
    while true {
        do {
            guard let item = try one.next() else { break }
            switch item {
            case .trackPoint(let fix), .routePoint(let fix), .waypoint(let fix): check(fix)
            case .trackStart, .segmentStart, .routeStart: break
            }
            items.append(item)
        } catch let e {
            error = e
            break
        }
    }
    var batched = make()
    var batch = FixBatch()
    var batchItems: [TraceItem] = []
    var batchError: TraceReadError?
    let limits = [1, 7, 1024]
    var round = 0
    while true {
        do {
            let n = try batched.read(into: &batch, limit: limits[round % limits.count])
            batchItems += batch.items
            if n == 0 { break }
        } catch let e {
            batchItems += batch.items
            batchError = e
            break
        }
        round += 1
    }
    precondition(items == batchItems, "read(into:) gave \(batchItems.count) items, next() \(items.count)")
    precondition(error == batchError, "read(into:) ended with \(String(describing: batchError)), next() with \(String(describing: error))")
    precondition(one.diagnostics == batched.diagnostics, "read(into:) and next() report different diagnostics")
}

/// Chooses a format for the input's first bytes as if it were named `name` (the content check of
/// ``TraceFormat/choose(name:head:file:)``): only what a format choice may throw, never a trap.
public func chooseFormat(_ bytes: [UInt8], name: String?) {
    bytes.withUnsafeBufferPointer { b in
        _ = try? TraceFormat.choose(name: name, head: UnsafeBufferPointer(rebasing: b.prefix(TraceFormat.sniffLength)), file: "fuzz")
    }
}

/// Traps unless `fix` keeps the readers' promises: latitude finite in [-90, 90], longitude finite
/// in (-180, 180], every optional number finite.
public func check(_ fix: Fix) {
    let lat = fix.coordinate.latitude, lon = fix.coordinate.longitude
    precondition(lat.isFinite && lat >= -90 && lat <= 90, "latitude out of range: \(lat)")
    precondition(lon.isFinite && lon > -180 && lon <= 180, "longitude out of range: \(lon)")
    for (name, value) in [
        ("elevation", fix.elevation), ("horizontalAccuracy", fix.horizontalAccuracy),
        ("verticalAccuracy", fix.verticalAccuracy), ("hdop", fix.hdop), ("vdop", fix.vdop),
        ("pdop", fix.pdop), ("speed", fix.speed), ("course", fix.course),
    ] {
        if let value { precondition(value.isFinite, "\(name) not finite: \(value)") }
    }
}

/// The `main` of every target. Built for fuzzing (-DFUZZING), hands the command line to libFuzzer
/// with `body` as the function under test; otherwise runs every file named on the command line
/// through `body` and says which it ran.
public func fuzzMain(_ body: @escaping ([UInt8]) -> Void) -> Never {
    #if FUZZING
        fuzzBody = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        Platform.exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                fuzzBody?(fuzzBytes(data, size))
                return 0
            })
    #else
        runFiles(body)
        Platform.exit(0)
    #endif
}

#if FUZZING
    /// The function under test (set once, before libFuzzer starts; it runs everything on one thread).
    nonisolated(unsafe) private var fuzzBody: (([UInt8]) -> Void)?

    /// libFuzzer's archive brings its own `main`, which needs this symbol to link (SwiftPM's main wins
    /// and starts the driver above with the same function).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        fuzzBody?(fuzzBytes(data, size))
        return 0
    }
#endif

/// The `main` of a normal (non-fuzzing) build: runs every file named on the command line through
/// `body`, the target's fuzzing function, and says which it ran.
func runFiles(_ body: ([UInt8]) -> Void) {
    let files = CommandLine.arguments.dropFirst()
    if files.isEmpty {
        print("usage: \(CommandLine.arguments[0]) FILE... (runs each file as one fuzzing input; make fuzz builds the fuzzer)")
        return
    }
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else {
            print("cannot read \(file)")
            Platform.exit(1)
        }
        body(Array(data))
        print("ran \(file) (\(data.count) bytes)")
    }
}
