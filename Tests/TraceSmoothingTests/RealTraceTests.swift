import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceIO
import TraceSharing
import TraceSmoothing

/// The shared corpus's traces with reported accuracy (phones) and the loggers' (no accuracy:
/// the tier's nominal σ), smoothed end to end.
@Suite("Smoothing real traces")
struct RealTraceTests {
    static var corpusPresent: Bool { FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/gpx").path) }

    /// File, tier, mode, convention, whether every point reports an accuracy.
    static let files: [(String, AccuracyTier, TravelMode, AccuracyConvention, Bool)] = [
        ("gpx/togeojson-apple_watch_route.gpx", .bestForNavigation, .walk, .ios, true),
        ("csv/trackintel-google_location_history.csv", .hundredMeters, .drive, .android, true),  // mixed: walking and vehicle
        ("other/owntracks-demo-iphone.rec", .kilometer, .drive, .ios, true),
        ("gpx/gpsbabel-mtk_logger_m241.gpx", .best, .drive, .ios, false),
        ("gpx/gpsbabel-sbn-v13_gt31.gpx", .best, .drive, .ios, false),
    ]

    @Test(
        "every point comes out, finite, near its fix; few rejections",
        .enabled(if: corpusPresent, "../shared/traces not found: real-trace smoothing skipped"))
    func corpus() throws {
        for (file, tier, mode, convention, hasAccuracy) in Self.files {
            let configuration = SmoothingConfiguration(tier: tier, mode: mode, convention: convention)!
            var reader = try openTrace(sharedFolder.appendingPathComponent("traces/" + file).path)
            var fixes: [Fix] = []
            while let item = try reader.next() { if case .trackPoint(let f) = item, f.time != nil { fixes.append(f) } }
            fixes.sort { $0.time! < $1.time! }  // the Google export is newest first
            #expect(fixes.count > 20, "\(file)")
            #expect(fixes.allSatisfy { $0.horizontalAccuracy != nil } == hasAccuracy, "\(file)")
            for rts in [false, true] {
                var smoother = TrackSmoother(configuration: configuration)
                for f in fixes { smoother.append(f.coordinate, time: f.time!.seconds, accuracy: f.horizontalAccuracy) }
                let summary = smoother.run(smoothing: rts)
                #expect(summary.points == fixes.count)
                #expect(summary.rejected <= fixes.count / 10, "\(file): \(summary.rejected) of \(fixes.count) rejected")
                for i in 0..<fixes.count {
                    let c = smoother.coordinate(at: i)
                    #expect(c != nil, "\(file): every fix of a real trace has an estimate")
                    #expect(smoother.sigma(at: i).isFinite && smoother.sigma(at: i) > 0)
                }
                // A correction is a few σ of the fix at most, on average.
                let typical = configuration.variance(
                    accuracy: fixes.compactMap(\.horizontalAccuracy).sorted().dropFirst(fixes.count / 2).first
                ).squareRoot()
                #expect(
                    summary.meanCorrection > 0 && summary.meanCorrection < 3 * typical,
                    "\(file) rts \(rts): mean correction \(summary.meanCorrection) m, typical σ \(typical) m")
            }
        }
    }
}
