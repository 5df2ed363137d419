import Foundation
import TestSupport
import Testing
import TraceProj

@testable import TraceIO

/// `read(into:limit:)` must give exactly what `next()` gives: the same items (structure, every
/// value), the same diagnostics, the same error, whatever the batch size, mixed with `next()` or
/// not, through the readers' own fast paths and the protocol's default.
@Suite("Fix batches")
struct FixBatchTests {
    /// What a reading gave: the items and diagnostics, or the error's description.
    enum Outcome: Equatable {
        case read([TraceItem], Diagnostics)
        case failed([TraceItem], String)
    }

    static func byItems(_ reader: some TraceReader) -> Outcome {
        var reader = reader
        var items: [TraceItem] = []
        do {
            while let item = try reader.next() { items.append(item) }
        } catch {
            return .failed(items, String(describing: error))
        }
        return .read(items, reader.diagnostics)
    }

    /// Reads in batches of `limit` (every `mixed`-th batch replaced by one `next()`), checking
    /// each batch's columns against its items.
    static func byBatches(_ reader: some TraceReader, limit: Int, mixed: Int = 0) -> Outcome {
        var reader = reader
        var items: [TraceItem] = []
        var batch = FixBatch()
        var round = 0
        do {
            while true {
                round += 1
                if mixed > 0 && round % mixed == 0 {
                    guard let item = try reader.next() else { break }
                    items.append(item)
                    continue
                }
                let n: Int
                do {
                    n = try reader.read(into: &batch, limit: limit)
                } catch {
                    items += batch.items
                    throw error
                }
                #expect(n == batch.count && n <= limit)
                if n == 0 { break }
                for i in 0..<n { expectColumns(batch, i) }
                // The copied columns hold the same values.
                #expect(batch.kinds == (0..<n).map { batch.kind($0) } && batch.latitudes == (0..<n).map { batch.latitude($0) })
                #expect(batch.longitudes == (0..<n).map { batch.longitude($0) } && batch.times == (0..<n).map { batch.time($0) })
                #expect(
                    batch.elevations == (0..<n).map { batch.elevation($0) }
                        && batch.horizontalAccuracies == (0..<n).map { batch.horizontalAccuracy($0) })
                #expect(batch.hdops == (0..<n).map { batch.hdop($0) } && batch.speeds == (0..<n).map { batch.speed($0) })
                items += batch.items
            }
        } catch {
            return .failed(items, String(describing: error))
        }
        return .read(items, reader.diagnostics)
    }

    /// The columns of item `i` agree with the item.
    static func expectColumns(_ batch: FixBatch, _ i: Int) {
        let item = batch[i]
        func point(_ kind: FixBatch.Kind, _ f: Fix) {
            #expect(batch.kind(i) == kind)
            #expect(batch.coordinate(i) == f.coordinate && batch.time(i) == f.time)
            #expect(batch.elevation(i) == f.elevation && batch.horizontalAccuracy(i) == f.horizontalAccuracy)
            #expect(batch.hdop(i) == f.hdop && batch.speed(i) == f.speed)
        }
        switch item {
        case .trackStart: #expect(batch.kind(i) == .trackStart)
        case .segmentStart: #expect(batch.kind(i) == .segmentStart)
        case .routeStart: #expect(batch.kind(i) == .routeStart)
        case .trackPoint(let f): point(.trackPoint, f)
        case .routePoint(let f): point(.routePoint, f)
        case .waypoint(let f): point(.waypoint, f)
        }
    }

    /// Every way of reading `make()`'s reader agrees with `next()`; returns the items read.
    @discardableResult
    static func expectAgree(_ label: String, _ make: () -> some TraceReader) -> Int {
        let reference = byItems(make())
        for (limit, mixed) in [(1, 0), (3, 0), (64, 0), (1024, 0), (5, 3)] {
            let batches = byBatches(make(), limit: limit, mixed: mixed)
            #expect(batches == reference, "\(label): batches of \(limit), mixed \(mixed)")
        }
        // Through the existential, as `openTrace` users read.
        let any: any TraceReader = make()
        #expect(byBatches(any, limit: 100) == reference, "\(label): any TraceReader")
        if case .read(let items, _) = reference { return items.count }
        if case .failed(let items, _) = reference { return items.count }
        return 0
    }

    /// The summary from batches equals the summary from items.
    static func expectSameSummary(_ label: String, _ make: () -> some TraceReader) {
        var a = make(), b = make()
        var byItem = TraceSummary(exact: Geodesic()), byBatch = TraceSummary(exact: Geodesic())
        var batch = FixBatch()
        do {
            while let item = try a.next() { byItem.add(item) }
            while try b.read(into: &batch, limit: 256) > 0 { byBatch.add(batch) }
        } catch {
            return
        }
        func fields(_ s: TraceSummary) -> [String] {
            [
                "\(s.tracks) \(s.segments) \(s.trackPoints) \(s.routes) \(s.routePoints) \(s.waypoints)",
                "\(String(describing: s.firstTime)) \(String(describing: s.lastTime)) \(s.timedPoints)",
                "\(s.length.bitPattern) \(String(describing: s.minimumElevation)) \(String(describing: s.maximumElevation))",
                "\(s.pointsWithAccuracy) \(String(describing: s.medianInterval)) \(String(describing: s.medianAccuracy)) \(String(describing: s.accuracyRange))",
            ]
        }
        #expect(fields(byItem) == fields(byBatch), "\(label)")
    }

    @Test("generated CSV files with every quirk read the same in batches", arguments: ProblemPolicy.allCases)
    func csv(policy: ProblemPolicy) {
        var items = 0
        for seed in UInt64(1)...60 {
            let bytes = Array(CSVFusedRowTests.fusedCSV(seed: seed).utf8)
            let options = ReadOptions(policy: policy)
            items += Self.expectAgree("CSV seed \(seed), \(policy)") { CSVReader(bytes: bytes, options: options) }
            Self.expectAgree("CSV seed \(seed), \(policy), no fused rows") { CSVReader(bytes: bytes, options: options, paths: .plain) }
            Self.expectSameSummary("CSV seed \(seed)") { CSVReader(bytes: bytes, options: options) }
        }
        #expect(policy == .fail || items > 3_000, "\(items) items")
    }

    @Test("generated GPX files with every quirk read the same in batches", arguments: ProblemPolicy.allCases)
    func gpx(policy: ProblemPolicy) {
        var documents: [String] = []
        for seed in UInt64(1)...20 { documents.append(GPXPointPathTests.quirkyGPX(seed: seed)) }
        for seed in UInt64(1)...12 {
            documents.append(GPXPointPathTests.fusedGPX(seed: seed))
            documents.append(GPXPointPathTests.fusedGPX(seed: seed, lineEnd: "\r\n"))
        }
        for (k, text) in documents.enumerated() {
            let bytes = Array(text.utf8)
            for offset in [nil, 3600] {
                let options = ReadOptions(policy: policy, zonelessUTCOffset: offset)
                Self.expectAgree("GPX \(k), \(policy), \(offset.map(String.init) ?? "UTC")") { GPXReader(bytes: bytes, options: options) }
                Self.expectSameSummary("GPX \(k)") { GPXReader(bytes: bytes, options: options) }
            }
        }
    }

    @Test("named tracks and routes, and points with values beyond the columns, come back whole")
    func wholeItems() throws {
        let gpx = """
            <gpx version="1.1"><wpt lat="1" lon="2"><name>w</name><sat>7</sat></wpt>
            <rte><name>r</name><rtept lat="1" lon="2"><course>90</course></rtept></rte>
            <trk><name>t</name><trkseg><trkpt lat="1" lon="2"><vdop>1.5</vdop><fix>3d</fix></trkpt>
            <trkpt lat="1.1" lon="2"><ele>5</ele><hdop>1</hdop><speed>2</speed><hAcc>3</hAcc></trkpt></trkseg></trk></gpx>
            """
        var reader = GPXReader(bytes: Array(gpx.utf8))
        var batch = FixBatch()
        #expect(try reader.read(into: &batch, limit: 100) == 7)
        #expect(batch.kinds == [.waypoint, .routeStart, .routePoint, .trackStart, .segmentStart, .trackPoint, .trackPoint])
        #expect(Self.byItems(GPXReader(bytes: Array(gpx.utf8))) == .read(batch.items, reader.diagnostics))
        #expect(batch.elevation(6) == 5 && batch.hdop(6) == 1 && batch.speed(6) == 2 && batch.horizontalAccuracy(6) == 3)
        #expect(try reader.read(into: &batch, limit: 100) == 0 && batch.isEmpty)
    }

    @Test("a limit beyond any file (Int.max) reads every item into one batch, which grows as it goes")
    func unboundedLimit() throws {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "lat,lon,time,accuracy\n"
        for row in 0..<10_000 {
            text += "47.\(100_000 + row),8.5,2024-05-01T\(two(row / 3600)):\(two(row / 60 % 60)):\(two(row % 60))Z,4.5\n"
        }
        let bytes = Array(text.utf8)
        var itemByItem = CSVReader(bytes: bytes)
        var expected: [TraceItem] = []
        while let item = try itemByItem.next() { expected.append(item) }
        var reader = CSVReader(bytes: bytes)
        var batch = FixBatch(capacity: 1)
        #expect(try reader.read(into: &batch, limit: .max) == expected.count)
        #expect(batch.items == expected)
        #expect(reader.fusedCount > 9_000 && expected.count > 10_000)  // the track start, then the rows
        #expect(try reader.read(into: &batch, limit: .max) == 0)
    }

    @Test("a batch is a value: a copy keeps its items when the original is refilled or grows")
    func valueSemantics() throws {
        let bytes = Array(CSVFusedRowTests.fusedCSV(seed: 3).utf8)
        var reader = CSVReader(bytes: bytes)
        var batch = FixBatch(capacity: 1)
        #expect(try reader.read(into: &batch, limit: 40) == 40)
        let kept = batch, keptItems = batch.items
        #expect(try reader.read(into: &batch, limit: 100) > 0)
        #expect(kept.items == keptItems && kept.count == 40)
        var grown = kept
        grown.append(.segmentStart)
        #expect(kept.items == keptItems && grown.items == keptItems + [.segmentStart])
    }

    /// The readable trace files (every readable format, by extension; TraceKit's own JSON files
    /// too, which the JSON reader refuses the same way both ways) under `folder`, in path order.
    static func traceFiles(under folder: URL) -> [URL] {
        guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in e where TraceFormat(pathExtension: url.path) != nil {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Every file of `files` reads the same in batches as item by item, under every problem policy;
    /// under `skip` through the motion stage too (as `openTrace` hands the reader out).
    static func expectAllAgree(_ files: [URL]) throws {
        for url in files {
            let bytes = Array(try Data(contentsOf: url))
            let format = TraceFormat(pathExtension: url.path)!
            for policy in ProblemPolicy.allCases {
                let options = ReadOptions(policy: policy)
                let label = "\(url.lastPathComponent), \(policy)"
                func agree(_ make: () -> some CheckedTraceReader) {
                    Self.expectAgree(label, make)
                    if policy == .skip { Self.expectAgree(label + ", staged") { MotionStage(make()) } }
                }
                switch format {
                case .gpx: agree { GPXReader(bytes: bytes, options: options) }
                case .csv: agree { CSVReader(bytes: bytes, options: options) }
                case .plt: agree { PLTReader(bytes: bytes, options: options) }
                case .rec: agree { RECReader(bytes: bytes, options: options) }
                case .nmea: agree { NMEAReader(bytes: bytes, options: options) }
                case .kml: agree { KMLReader(bytes: bytes, options: options) }
                case .ndjson: agree { NDJSONReader(bytes: bytes, options: options) }
                case .geojson, .json: agree { JSONTraceReader(bytes: bytes, format: format, options: options) }
                }
            }
        }
    }

    @Test("the trace files of the repository (Traces/) read the same in batches")
    func repositoryTraces() throws {
        let files = Self.traceFiles(under: packageRoot.appendingPathComponent("Traces"))
        // Traces/ holds 17 readable traces (16 GPX and CSV recordings and trips, distance-pairs.txt).
        #expect(files.count >= 17, "\(files.count) files")
        try Self.expectAllAgree(files)
    }

    @Test(
        "the trace files of ../shared/traces read the same in batches",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces").path),
            "../shared/traces not found: the shared corpus is not read in batches"))
    func sharedTraces() throws {
        let files = Self.traceFiles(under: sharedFolder.appendingPathComponent("traces"))
        // The shared corpus holds 31 readable traces (GPX, XML, CSV, PLT, REC) and 3 NMEA logs.
        #expect(files.count >= 34, "\(files.count) files")
        try Self.expectAllAgree(files)
    }
}
