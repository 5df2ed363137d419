import TestSupport
import Testing
import TracePlatform

@testable import TraceIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Line and column of byte `offset` of `bytes` (1-based; the column in bytes), the plain way.
private func reference(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
    reference(bytes.indices.filter { bytes[$0] == 0x0A }, offset)
}

/// Line and column of byte `offset`, from the offsets of the line feeds (ascending).
private func reference(_ newlines: [Int], _ offset: Int) -> (line: Int, column: Int) {
    var low = 0, high = newlines.count  // the first line feed at or after `offset`
    while low < high {
        let mid = (low + high) / 2
        if newlines[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return (1 + low, offset - (low == 0 ? -1 : newlines[low - 1]))
}

/// Writes `bytes` to a new temporary file and returns its path.
private func temporaryFile(_ bytes: [UInt8], _ tag: String) -> String {
    let path = "/tmp/tracekit-bytesource-\(tag)-\(getpid()).dat"
    createFile(path, bytes)
    return path
}

@Suite("Byte source: line counting")
struct ByteSourceTests {
    @Test("locations stay exact across refills, with or without lines noted by a reader, LF or CRLF")
    func locationsAcrossRefills() throws {
        var rng = SplitMix64(seed: 31)
        for crlf in [false, true] {
            // About 2.5 MiB: short and long lines, a line feed as the last byte of the first block.
            var bytes: [UInt8] = []
            while bytes.count < 5 << 19 {
                let length = rng.uniform(0, 1) < 0.01 ? Int(rng.uniform(0, 5000)) : Int(rng.uniform(0, 60))
                if bytes.count < ByteSource.blockSize - 1 && bytes.count + length + 2 >= ByteSource.blockSize - 1 {
                    bytes += [UInt8](repeating: 0x61, count: ByteSource.blockSize - 1 - bytes.count)
                    bytes.append(0x0A)
                }
                bytes += (0..<length).map { _ in UInt8(rng.uniform(0x20, 0x7F)) }
                bytes += crlf ? [0x0D, 0x0A] : [0x0A]
            }
            #expect(bytes[ByteSource.blockSize - 1] == 0x0A)
            let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
            let path = temporaryFile(bytes, crlf ? "crlf" : "lf")
            defer { try? Platform.remove(path) }
            for noting in 0..<3 {
                let source = try ByteSource(path: path)
                var counted = 0  // what this "reader" noted: bytes[0..<counted] of the window
                while true {
                    let keep = source.end == 0 ? 0 : Int(rng.uniform(Double(source.end) * 0.9, Double(source.end) + 1))
                    let (shift, grew) = try source.refill(keeping: min(keep, source.end))
                    counted = max(counted - shift, 0)
                    let window = UnsafePointer(source.bytes.baseAddress!)
                    if noting > 0 && source.end > counted {
                        // Note the lines up to somewhere in the window (all of it, or part of it).
                        let to = noting == 1 ? source.end : Int(rng.uniform(Double(counted), Double(source.end) + 1))
                        let lines = (counted..<to).count { window[$0] == 0x0A }
                        source.noteLines(lines, from: counted, to: to)
                        counted = to
                    }
                    for p in [0, 1, source.end / 2, source.end - 1, source.end, Int(rng.uniform(0, Double(source.end) + 1))] where p >= 0 {
                        let (line, column) = source.location(of: p)
                        let expected = reference(newlines, source.discarded + p)
                        #expect(
                            line == expected.line && column == expected.column,
                            "position \(p) after \(source.discarded) discarded, noting \(noting)")
                    }
                    if !grew { break }
                }
                #expect(source.discarded + source.end == bytes.count)
            }
        }
    }

    @Test("a note that overlaps what is counted changes nothing; a gap before it is counted")
    func overlappingNotes() {
        let bytes = Array("a\nbb\nccc\ndddd\n".utf8)
        let source = ByteSource(bytes: bytes, name: "<memory>")
        source.noteLines(1, from: 2, to: 5)  // the gap 0..<2 holds one more line feed
        #expect(source.location(of: 5) == reference(bytes, 5))
        source.noteLines(7, from: 3, to: 9)  // overlaps 2..<5: ignored
        for p in 0...bytes.count { #expect(source.location(of: p) == reference(bytes, p), "position \(p)") }
        source.noteLines(1, from: 5, to: 9)
        for p in 0...bytes.count { #expect(source.location(of: p) == reference(bytes, p), "position \(p)") }
    }

    @Test("GPX errors name the right line and column around the window's block boundaries, LF or CRLF")
    func gpxErrorLocations() throws {
        for crlf in [false, true] {
            let eol = crlf ? "\r\n" : "\n"
            var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<gpx version=\"1.1\" creator=\"t\">", "<trk><trkseg>"]
            var size = lines.reduce(0) { $0 + $1.utf8.count + eol.utf8.count }
            var second = 0
            while size < 3 << 20 {
                second += 1
                let line = "  <trkpt lat=\"47.\(second)\" lon=\"8.\(second)\"><time>2024-05-01T00:00:00.\(second)Z</time></trkpt>"
                lines.append(line)
                size += line.utf8.count + eol.utf8.count
            }
            lines.append("</trkseg></trk></gpx>")
            // Offsets of each line's start.
            var starts: [Int] = []
            var offset = 0
            for l in lines {
                starts.append(offset)
                offset += l.utf8.count + eol.utf8.count
            }
            // Lines just before, at and after the first and second block ends.
            var targets: [Int] = []
            for boundary in [ByteSource.blockSize, 2 * ByteSource.blockSize] {
                let k = starts.lastIndex { $0 <= boundary }!
                targets += [k - 1, k, k + 1]
            }
            for k in targets {
                // A control character (the character check's error) and a mismatched end tag
                // (the scanner's), each at a known column of line k + 1.
                for broken in [true, false] {
                    var copy = lines
                    copy[k] = broken ? "  <trkpt lat=\"1\" lon=\"2\">\u{01}</trkpt>" : "  <trkpt lat=\"1\" lon=\"2\"></trkpx>"
                    let column = 26
                    let path = temporaryFile(Array(copy.joined(separator: eol).utf8) + Array(eol.utf8), "gpx")
                    defer { try? Platform.remove(path) }
                    var reader = GPXReader(source: try ByteSource(path: path), options: ReadOptions())
                    do {
                        while try reader.next() != nil {}
                        Issue.record("no error for line \(k + 1)")
                    } catch {
                        #expect(error.line == k + 1, "\(error) (broken \(broken), crlf \(crlf))")
                        #expect(error.column == column, "\(error) (broken \(broken), crlf \(crlf))")
                    }
                }
            }
        }
    }

    /// Fused CSV rows read in batches tell the source the lines they passed (no recount at each
    /// refill); rows the row scanner reads (here a quoted line break) leave the source to count.
    /// After every batch the source's location of the next row is the scanner's line for it; a
    /// bad row just before, at and after each of the first two block ends gets its exact line, as
    /// a diagnostic and, under `fail`, as the error.
    @Test("line numbers stay exact across refills when fused rows are read in batches, LF or CRLF")
    func batchedLinesAcrossRefills() throws {
        for crlf in [false, true] {
            let eol = crlf ? "\r\n" : "\n"
            var lines = ["lat,lon,time,accuracy,note"]
            var starts = [0]
            var offset = lines[0].utf8.count + eol.utf8.count
            var row = 0
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            while offset < 2 * ByteSource.blockSize + 100_000 {
                let time = "2024-05-01T\(two(row / 3600)):\(two(row % 3600 / 60)):\(two(row % 60))Z"  // one a second
                let note = row == 7 ? "\"two\nlines\"" : "n"
                // A smooth track (11 m a second), so the only problem is the bad row.
                let line = "\(47 + Double(row) / 1e4),\(8 + Double(row % 777) / 1e6),\(time),\(Double(row % 50) + 0.5),\(note)"
                starts.append(offset)
                lines.append(line)
                offset += line.utf8.count + eol.utf8.count
                row += 1
            }
            // Line numbers of each entry of `lines` (the quoted field adds one).
            func lineNumber(_ k: Int) -> Int { k + 1 + (k > 8 ? 1 : 0) }
            var targets: [Int] = []
            for boundary in [ByteSource.blockSize, 2 * ByteSource.blockSize] {
                let k = starts.lastIndex { $0 <= boundary }!
                targets += [k - 1, k, k + 1]
            }
            for k in targets {
                var copy = lines
                copy[k] = "x," + copy[k].split(separator: ",", maxSplits: 1)[1]
                let path = temporaryFile(Array((copy.joined(separator: eol) + eol).utf8), "csv-lines") + ".csv"
                try Platform.rename(String(path.dropLast(4)), to: path)
                defer { try? Platform.remove(path) }
                for policy in [ProblemPolicy.report, .fail] {
                    var reader = try CSVReader(path: path, options: ReadOptions(policy: policy))
                    var batch = FixBatch(capacity: 1024)
                    var points = 0
                    do {
                        while try reader.read(into: &batch, limit: 1024) > 0 {
                            points += batch.count
                            let scanner = reader.scanner
                            let at = scanner.source.location(of: scanner.position)
                            #expect(at.line == scanner.nextLine && at.column == 1, "crlf \(crlf), row \(k), after \(points) items")
                        }
                        #expect(policy == .report, "no error for line \(lineNumber(k))")
                        let example = reader.diagnostics.examples.first { $0.kind == .invalidCoordinate }
                        #expect(example?.line == lineNumber(k), "crlf \(crlf), row \(k)")
                        // Every row but the header and the bad one, and the track's and segment's starts.
                        #expect(points == (lines.count - 2) + 2)
                    } catch {
                        #expect(policy == .fail)
                        #expect(error.line == lineNumber(k), "\(error) (crlf \(crlf), row \(k))")
                    }
                }
            }
        }
    }
}
