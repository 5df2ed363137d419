/// One NMEA 0183 sentence found in a line: where its address and fields are, and what its
/// checksum says. Ranges index the line's bytes (valid until the next line is read).
///
/// A sentence is `$` + address + `,`-separated fields, optionally `*hh` (two hex digits, the XOR of
/// every byte between `$` and `*`). Bytes before the line's last `$` are leading junk (a serial
/// capture's noise or a sentence cut off by the next one) and are ignored; the caller counts them.
/// At most ``maximumFields`` fields are kept (no standard sentence has more than 22); a longer
/// sentence keeps its first ones.
struct NMEASentence {
    /// The most fields kept per sentence (the address included).
    static let maximumFields = 32
    /// The longest address read (`GPRMC` has 5; proprietary ones such as `PGLOR` or `PUBX` fewer
    /// or a few more).
    static let maximumAddressLength = 8

    /// What the checksum says.
    enum Checksum: Equatable {
        /// `*hh` matches.
        case valid
        /// No `*`: the sentence is taken as it is.
        case absent
        /// `*` followed by something that is not two hex digits, or digits that do not match.
        case bad(written: String, computed: UInt8)
    }

    /// The sentence types the reader takes (the last three letters of a talker's address).
    enum Kind: UInt8 {
        case rmc, gga, gsa, gst, gll, zda
        /// Any other sentence (GSV, VTG, TXT, proprietary `$P…`): counted and skipped.
        case other
    }

    /// Where `$` is, and whether anything but spaces came before it.
    var dollar = 0
    var hasLeadingJunk = false
    /// The address bytes packed into an integer (first byte lowest), for counting skipped types
    /// without allocating.
    var addressKey: UInt64 = 0
    var addressLength = 0
    var kind = Kind.other
    var checksum = Checksum.absent
    /// Field ranges (field 0 is the address), reused line to line: the first `count` are this
    /// sentence's.
    private(set) var fields: [Range<Int>] = []
    private(set) var count = 0

    init() {}

    /// The address as text (messages and the skipped-types assumption).
    static func addressText(_ key: UInt64, length: Int) -> String {
        var bytes: [UInt8] = []
        for i in 0..<length { bytes.append(UInt8(truncatingIfNeeded: key >> UInt64(8 * i))) }
        return String(decoding: bytes, as: UTF8.self)
    }

    var addressText: String { NMEASentence.addressText(addressKey, length: addressLength) }

    /// Finds the sentence in `line`. Returns nil, with the reason, when the line holds none: no
    /// `$`, or an address that is not 1 to ``maximumAddressLength`` letters and digits followed by
    /// `,`, `*` or the line's end. One pass from `$` computes the checksum, reads the address and
    /// splits the fields. `quoting`: a bad address is quoted in the reason (not before the file's
    /// first sentence: it may be no NMEA file at all).
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, quoting: Bool) -> String? {
        count = 0
        guard let base = line.baseAddress else { return "no '$' sentence" }
        let n = line.count
        var d = n - 1
        while d >= 0 && base[d] != 0x24 { d -= 1 }
        guard d >= 0 else { return "no '$' sentence" }
        dollar = d
        hasLeadingJunk = false
        for i in 0..<d where !TextValue.isSpace(base[i]) { hasLeadingJunk = true; break }
        // The address: up to the first `,` or `*`.
        var sum: UInt8 = 0
        var i = d + 1
        addressKey = 0
        while i < n {
            let b = base[i]
            if b == 0x2C || b == 0x2A { break }
            guard TextValue.isDigit(b) || TextValue.isLetter(b), i - d <= NMEASentence.maximumAddressLength else {
                guard quoting else { return "a '$' not followed by an NMEA address" }
                var stop = i
                while stop < n && stop < d + 12 && base[stop] != 0x2A { stop += 1 }
                return "'\(TextValue.shown(UnsafeBufferPointer(start: base + d, count: stop - d)))' is not an NMEA address"
            }
            sum ^= b
            addressKey |= UInt64(b) << UInt64(8 * (i - d - 1))
            i += 1
        }
        addressLength = i - d - 1
        guard addressLength > 0 else { return "'$' without an address" }
        // The fields and the checksum, in one pass up to `*` (or the end).
        if fields.count < NMEASentence.maximumFields {
            fields = Array(repeating: 0..<0, count: NMEASentence.maximumFields)
        }
        var star = n
        var k = 0
        fields.withUnsafeMutableBufferPointer { f in
            var start = d + 1
            var j = i
            while j < n {
                let b = base[j]
                if b == 0x2A {
                    star = j
                    break
                }
                sum ^= b
                if b == 0x2C {
                    if k < NMEASentence.maximumFields { f[k] = start..<j }
                    k += 1
                    start = j + 1
                }
                j += 1
            }
            if k < NMEASentence.maximumFields { f[k] = start..<j }
            k += 1
        }
        count = min(k, NMEASentence.maximumFields)
        if star == n {
            checksum = .absent
        } else if star + 3 == n, let hi = NMEASentence.hex(base[star + 1]), let lo = NMEASentence.hex(base[star + 2]), hi << 4 | lo == sum {
            checksum = .valid
        } else {
            checksum = .bad(written: "*" + TextValue.shown(UnsafeBufferPointer(start: base + star + 1, count: n - star - 1)), computed: sum)
        }
        kind = .other
        if addressLength == 5 && base[d + 1] != 0x50 {  // a talker (not proprietary `P…`) and a type
            let type = addressKey >> 16
            if type == NMEASentence.key("RMC") {
                kind = .rmc
            } else if type == NMEASentence.key("GGA") {
                kind = .gga
            } else if type == NMEASentence.key("GSA") {
                kind = .gsa
            } else if type == NMEASentence.key("GST") {
                kind = .gst
            } else if type == NMEASentence.key("GLL") {
                kind = .gll
            } else if type == NMEASentence.key("ZDA") {
                kind = .zda
            }
        }
        return nil
    }

    /// The packed key of a three-letter type.
    static func key(_ type: StaticString) -> UInt64 {
        let p = type.utf8Start
        return UInt64(p[0]) | UInt64(p[1]) << 8 | UInt64(p[2]) << 16
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
