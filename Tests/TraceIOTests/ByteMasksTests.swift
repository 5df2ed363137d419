import TestSupport
import Testing

@testable import TraceIO

/// The block scans must answer what a byte loop answers, for every alignment and length.
@Suite("Byte masks")
struct ByteMasksTests {
    @Test("count and lastIndex agree with a byte loop on random buffers, ranges and densities")
    func countAndLastIndex() {
        var rng = SplitMix64(seed: 3)
        for round in 0..<3_000 {
            // Sparse to dense newlines; some buffers long enough for the counters' 255-step flush.
            let n = round % 100 == 0 ? 9_000 + Int(rng.next() % 100) : Int(rng.next() % 300)
            let density = UInt64(1 + round % 7)
            let bytes = (0..<n).map { _ in rng.next() % (density * 8) == 0 ? UInt8(0x0A) : UInt8(truncatingIfNeeded: 0x20 + rng.next() % 90)
            }
            let from = n == 0 ? 0 : Int(rng.next() % UInt64(n / 2 + 1))
            let to = from + Int(rng.next() % UInt64(n - from + 1))
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                let count = bytes[from..<to].filter { $0 == 0x0A }.count
                let last = bytes[from..<to].lastIndex(of: 0x0A)
                #expect(ByteMasks.count(0x0A, base, from: from, to: to) == count, "n \(n) \(from)..<\(to)")
                #expect(ByteMasks.lastIndex(of: 0x0A, base, from: from, to: to) == last, "n \(n) \(from)..<\(to)")
            }
        }
        // All matches, past the 255 steps of the byte counters.
        let lines = [UInt8](repeating: 0x0A, count: 16 * 600 + 5)
        lines.withUnsafeBufferPointer { b in
            #expect(ByteMasks.count(0x0A, b.baseAddress!, from: 0, to: lines.count) == lines.count)
        }
    }

    @Test("skipAtMost agrees with a byte loop for every byte value in every lane, and skipCheckedSpaces with skipSpaces on checked text")
    func skipAtMost() {
        for value in 0...255 {
            for lane in 0..<40 {
                var bytes = [UInt8](repeating: 0x20, count: 40)
                bytes[lane] = UInt8(value)
                for x: UInt8 in [0x00, 0x20, 0x7F, 0x80, 0xFF] {
                    let expected = bytes.firstIndex { $0 > x } ?? bytes.count
                    let found = bytes.withUnsafeBufferPointer { ByteMasks.skipAtMost(x, $0.baseAddress!, from: 0, limit: $0.count) }
                    #expect(found == expected, "byte \(value) in lane \(lane), x \(x)")
                }
            }
        }
        // On text the character check passes (white space, printable ASCII, UTF-8), the same as skipSpaces.
        var rng = SplitMix64(seed: 5)
        let alphabet: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0x3C, 0x61, 0x21, 0x7F, 0xC3, 0xA9]
        for _ in 0..<5_000 {
            let bytes = (0..<Int(rng.next() % 70)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let from = Int(rng.next() % UInt64(bytes.count + 1))
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                #expect(
                    XMLScanner.skipCheckedSpaces(base, from: from, limit: b.count)
                        == ByteMasks.skipSpaces(base, from: from, limit: b.count), "\(bytes) from \(from)")
            }
        }
    }

    @Test("digits (SSE2 and byte loop) marks exactly the ASCII digits, for every byte value in every lane")
    func digits() {
        for value in 0...255 {
            for lane in 0..<16 {
                for fill: UInt8 in [0x30, 0x39, 0x2E, 0x00, 0xFF] {
                    var bytes = [UInt8](repeating: fill, count: 16)
                    bytes[lane] = UInt8(value)
                    var expected: UInt32 = 0
                    for (k, b) in bytes.enumerated() where b >= 0x30 && b <= 0x39 { expected |= 1 << k }
                    let (found, byLoop) = bytes.withUnsafeBufferPointer {
                        (ByteMasks.digits(in: $0.baseAddress!), ByteMasks.digitsByLoop(in: $0.baseAddress!))
                    }
                    #expect(found == expected && byLoop == expected, "byte \(value) in lane \(lane) among \(fill)")
                }
            }
        }
    }

    @Test("matches (SSE2 and byte loop) marks exactly the bytes equal to the pattern's, for every byte value in every lane")
    func matches() {
        let pattern: (low: UInt64, high: UInt64) = (0x3054_3030_2D30_302D, 0x5A30_303A_3030_3A30)
        let expectedBytes = Array("-00-00T00:00:00Z".utf8)
        for value in 0...255 {
            for lane in 0..<16 {
                var bytes = expectedBytes
                bytes[lane] = UInt8(value)
                var expected: UInt32 = 0
                for k in 0..<16 where bytes[k] == expectedBytes[k] { expected |= 1 << k }
                let (found, byLoop) = bytes.withUnsafeBufferPointer {
                    (ByteMasks.matches(pattern, in: $0.baseAddress!), ByteMasks.matchesByLoop(pattern, in: $0.baseAddress!))
                }
                #expect(found == expected && byLoop == expected, "byte \(value) in lane \(lane)")
            }
        }
    }
}
