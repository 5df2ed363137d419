import TraceDomain
import TraceGeodesy

// The fused point path: a point of the commonest shape scanned, parsed and checked in one pass in
// the XML scanner's window (``fusedPoint(into:)``), exactly as the general paths read it.
extension GPXReader {
    /// The 8 bytes at `p`, the first in the lowest byte.
    @inline(__always) private static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// A mask of the lowest `n` bytes (1…8): one shift, no branch.
    @inline(__always) private static func lowBytes(_ n: Int) -> UInt64 {
        UInt64.max &>> UInt64(truncatingIfNeeded: 64 &- 8 &* n)
    }

    /// Skips XML white space from `i` (a byte loop: the gaps inside a tag are short).
    @inline(__always) private static func skipShortSpaces(_ base: UnsafePointer<UInt8>, _ i: inout Int, limit: Int) {
        while i < limit && XMLScanner.isSpace(base[i]) { i &+= 1 }
    }

    /// ``XMLScanner/skipCheckedSpaces(_:from:limit:)`` that expects the same run of white space
    /// as last time at this place: byte `place / 8` of `gaps` (0…15, updated to a run shorter
    /// than 16 bytes). When the 16 bytes from `from` hold exactly that run, the result is `from`
    /// plus the expected length, which does not wait for the bytes' compare (files repeat their
    /// indentation from point to point), else what the compare finds. The same result either way.
    @inline(__always) private static func skipPredictedSpaces(
        _ base: UnsafePointer<UInt8>, from i: Int, limit: Int, gaps: inout UInt64, place: UInt64
    ) -> Int {
        // The expectation first: the compiler then keeps it, not the compare's count, where they
        // are equal.
        let predicted = (gaps &>> place) & 0xFF
        guard limit &- i >= 16 else { return XMLScanner.skipCheckedSpaces(base, from: i, limit: limit) }
        let gap = (ByteMasks.atMost(0x20, in: base + i) ^ 0xFFFF).trailingZeroBitCount  // 32: all white space
        if UInt64(truncatingIfNeeded: gap) == predicted { return i &+ Int(truncatingIfNeeded: predicted) }
        guard gap < 16 else { return XMLScanner.skipCheckedSpaces(base, from: i &+ 16, limit: limit) }
        gaps = gaps & ~(0xFF &<< place) | UInt64(truncatingIfNeeded: gap) &<< place
        return i &+ gap
    }

    /// The number in text from `i` up to `terminator` (optionally surrounded by XML white space),
    /// exactly as ``DecimalParser/parseDouble(_:)-(UnsafeBufferPointer<UInt8>)`` reads the trimmed
    /// text; `i` is left at the terminator. Nil (with `i` unchanged) when the text is anything
    /// else, the value is not finite, or the terminator is not in the window. Inlined into
    /// ``fusedPoint(into:)`` (`@inline(always)`, guaranteed: `@inline(__always)` was declined
    /// there, and the call cost about 20 instructions per number).
    @inline(always)
    private static func fusedNumber(_ base: UnsafePointer<UInt8>, _ i: inout Int, limit: Int, until terminator: UInt8) -> Double? {
        var j = i
        skipShortSpaces(base, &j, limit: limit)
        guard j < limit else { return nil }
        let value: Double
        if let (v, length) = DecimalParser.parseCommonPrefix(base + j, limit: limit &- j) {
            value = v  // finite: the common shape's values are
            j &+= length
        } else {
            guard let (v, length) = DecimalParser.parseGeneralPrefix(base + j, limit: limit &- j), v.isFinite else { return nil }
            value = v
            j &+= length
        }
        // The terminator at once (usual), else after white space.
        guard j < limit else { return nil }
        if base[j] != terminator {
            skipShortSpaces(base, &j, limit: limit)
            guard j < limit, base[j] == terminator else { return nil }
        }
        i = j
        return value
    }

    /// The next point, when it has the commonest shape, scanned and parsed in one pass: after
    /// white space, an unprefixed `<trkpt` (in an explicit segment), `<rtept` (in a route) or
    /// `<wpt`; exactly the attributes `lat` and `lon` (in either order, either quote), each a
    /// number with at most white space around it, a latitude in [-90, 90] and a longitude in
    /// (-180, 180]; then, between white space, unprefixed children `<ele>`, `<time>`, `<hdop>`,
    /// `<vdop>`, `<pdop>`, `<sat>`, `<speed>`, `<course>`, `<hAcc>` or `<vAcc>` whose text is a
    /// readable value (a number is parsed straight from the text, a time from its first byte to
    /// its end) and whose end tag follows at once; then the end tag; all in the scanner's window.
    /// Anything else (another attribute, child, prefix, an entity reference, a comment, a value
    /// with a problem, a time that the zone-less offset shifts out of range, the window's end)
    /// gives `.notPlain` having changed nothing but `values` (which the caller then drops), and
    /// the general paths read the element. A point's values go into `values` (a plain
    /// ``Fix/Numbers``: the callers wrap it in a ``Fix`` with no texts, so nothing is retained or
    /// released per point) and its kind comes back. What it accepts, it reads exactly as the token-by-token path does (same values,
    /// items and diagnostics; the checks run with the scanner after the end tag, as there).
    mutating func fusedPoint(into values: inout Fix.Numbers) throws(TraceReadError) -> FusedPoint {
        guard let window = scanner.elementWindow() else { return .notPlain }
        let base = window.base, limit = window.limit
        var i = GPXReader.skipPredictedSpaces(base, from: window.position, limit: limit, gaps: &pointGap, place: 0)
        guard limit &- i >= 8 else { return .notPlain }
        let head = GPXReader.load8(base + i)
        let kind: PointKind
        let nameLength: Int
        let endTag: UInt64
        if head & 0xFFFF_FFFF_FFFF == 0x7470_6B72_743C {  // "<trkpt"
            guard trackDepth > 0 && segmentDepth > 0 && scanner.depth == segmentDepth else { return .notPlain }
            kind = .track
            nameLength = 5
            endTag = 0x3E74_706B_7274_2F3C  // "</trkpt>"
        } else if head & 0xFFFF_FFFF_FFFF == 0x7470_6574_723C {  // "<rtept"
            guard routeDepth > 0 && scanner.depth == routeDepth else { return .notPlain }
            kind = .route
            nameLength = 5
            endTag = 0x3E74_7065_7472_2F3C  // "</rtept>"
        } else if head & 0xFFFF_FFFF == 0x7470_773C {  // "<wpt"
            kind = .waypoint
            nameLength = 3
            endTag = 0x3E74_7077_2F3C  // "</wpt>"
        } else {
            return .notPlain
        }
        i &+= 1 &+ nameLength
        guard XMLScanner.isSpace(base[i]) else { return .notPlain }

        // Attributes: lat and lon, once each.
        var latitude = 0.0, longitude = 0.0
        var seen = 0
        while true {
            GPXReader.skipShortSpaces(base, &i, limit: limit)
            guard limit &- i >= 8 else { return .notPlain }
            if base[i] == UInt8(ascii: ">") { break }
            let name = UInt32(truncatingIfNeeded: GPXReader.load8(base + i))
            let isLatitude = name == 0x3D74_616C  // "lat="
            guard isLatitude || name == 0x3D6E_6F6C else { return .notPlain }  // "lon="
            let bit = isLatitude ? 1 : 2
            guard seen & bit == 0 else { return .notPlain }
            seen |= bit
            let quote = base[i &+ 4]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .notPlain }
            i &+= 5
            guard let value = GPXReader.fusedNumber(base, &i, limit: limit, until: quote) else { return .notPlain }
            if isLatitude { latitude = value } else { longitude = value }
            i &+= 1
            guard i < limit else { return .notPlain }
            if base[i] == UInt8(ascii: ">") { break }
            guard XMLScanner.isSpace(base[i]) else { return .notPlain }
        }
        // Positions the checks would refuse or change go the general way (which reports them).
        guard seen == 3, PointChecker.takesUnchanged(latitude: latitude, longitude: longitude) else { return .notPlain }
        i &+= 1

        // Children, then the end tag.
        values = Fix.Numbers(coordinate: Coordinate(uncheckedLatitude: latitude, longitude: longitude))
        var zoneless = false
        var given = 0
        var gaps = childGaps, place: UInt64 = 0  // place: 8 × the child's index, at most 56
        while true {
            i = GPXReader.skipPredictedSpaces(base, from: i, limit: limit, gaps: &gaps, place: place)
            place = min(place &+ 8, 56)
            guard limit &- i >= 8 else { return .notPlain }
            let tag = GPXReader.load8(base + i)
            if tag & 0xFFFF == 0x2F3C {  // "</"
                let endLength = nameLength &+ 3
                guard tag & GPXReader.lowBytes(endLength) == endTag else { return .notPlain }
                scanner.consumeElement(endName: (i &+ 2)..<(i &+ 2 &+ nameLength), end: i &+ endLength)
                break
            }
            let f: Field
            // Per name: its length with '<' and '>', and its end tag's first eight bytes (all of
            // it but course's '>') with their mask, as constants.
            let tagLength: Int
            let childEndTag: UInt64, endMask: UInt64
            switch UInt8(truncatingIfNeeded: tag &>> 8) {
            case UInt8(ascii: "e"):
                guard tag & 0xFF_FFFF_FFFF == 0x3E_656C_653C else { return .notPlain }  // "<ele>"
                f = .elevation
                (tagLength, childEndTag, endMask) = (5, 0x3E65_6C65_2F3C, 0xFFFF_FFFF_FFFF)  // "</ele>"
            case UInt8(ascii: "t"):
                guard tag & 0xFFFF_FFFF_FFFF == 0x3E65_6D69_743C else { return .notPlain }  // "<time>"
                f = .time
                (tagLength, childEndTag, endMask) = (6, 0x3E_656D_6974_2F3C, 0xFF_FFFF_FFFF_FFFF)  // "</time>"
            case UInt8(ascii: "h"):
                switch tag & 0xFFFF_FFFF_FFFF {
                case 0x3E70_6F64_683C:  // "<hdop>"
                    f = .hdop
                    childEndTag = 0x3E_706F_6468_2F3C  // "</hdop>"
                case 0x3E63_6341_683C:  // "<hAcc>"
                    f = .horizontalAccuracy
                    childEndTag = 0x3E_6363_4168_2F3C  // "</hAcc>"
                default: return .notPlain
                }
                (tagLength, endMask) = (6, 0xFF_FFFF_FFFF_FFFF)
            case UInt8(ascii: "v"):
                switch tag & 0xFFFF_FFFF_FFFF {
                case 0x3E70_6F64_763C:  // "<vdop>"
                    f = .vdop
                    childEndTag = 0x3E_706F_6476_2F3C  // "</vdop>"
                case 0x3E63_6341_763C:  // "<vAcc>"
                    f = .verticalAccuracy
                    childEndTag = 0x3E_6363_4176_2F3C  // "</vAcc>"
                default: return .notPlain
                }
                (tagLength, endMask) = (6, 0xFF_FFFF_FFFF_FFFF)
            case UInt8(ascii: "p"):
                guard tag & 0xFFFF_FFFF_FFFF == 0x3E70_6F64_703C else { return .notPlain }  // "<pdop>"
                f = .pdop
                (tagLength, childEndTag, endMask) = (6, 0x3E_706F_6470_2F3C, 0xFF_FFFF_FFFF_FFFF)  // "</pdop>"
            case UInt8(ascii: "s"):
                if tag & 0xFF_FFFF_FFFF == 0x3E_7461_733C {  // "<sat>"
                    f = .satellites
                    (tagLength, childEndTag, endMask) = (5, 0x3E74_6173_2F3C, 0xFFFF_FFFF_FFFF)  // "</sat>"
                } else if tag & 0xFF_FFFF_FFFF_FFFF == 0x3E_6465_6570_733C {  // "<speed>"
                    f = .speed
                    (tagLength, childEndTag, endMask) = (7, 0x3E64_6565_7073_2F3C, .max)  // "</speed>"
                } else {
                    return .notPlain
                }
            case UInt8(ascii: "c"):
                guard tag == 0x3E65_7372_756F_633C else { return .notPlain }  // "<course>"
                f = .course
                (tagLength, childEndTag, endMask) = (8, 0x6573_7275_6F63_2F3C, .max)  // "</course", then '>'
            default:
                return .notPlain
            }
            guard given & f.bit == 0 else { return .notPlain }  // a repeated field: the general path states it
            given |= f.bit
            i &+= tagLength
            if f == .time {
                // The time's text: from its first byte (after any white space), at least the 19
                // bytes every form has, then up to white space or markup; then only white space
                // before the '<'. Exactly the trimmed text the other paths parse.
                var j = i
                GPXReader.skipShortSpaces(base, &j, limit: limit)
                guard limit &- j > 20 else { return .notPlain }
                var e = j &+ 19
                // The usual 20 bytes then '<' at once, else the byte loop.
                let b19 = base[e]
                if base[j &+ 20] == UInt8(ascii: "<") && b19 != UInt8(ascii: "<") && b19 != UInt8(ascii: "&") && b19 > 0x20 {
                    e &+= 1
                    i = e
                } else {
                    while e < limit {
                        let b = base[e]
                        if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || XMLScanner.isSpace(b) { break }
                        e &+= 1
                    }
                    i = e
                    GPXReader.skipShortSpaces(base, &i, limit: limit)
                    guard i < limit, base[i] == UInt8(ascii: "<") else { return .notPlain }
                }
                if e &- j == 20, let t = Timestamp.parseCommonUTC(base + j, day: &utcDay) {
                    values.time = t
                } else {
                    guard let parsed = Timestamp.parseISO8601(UnsafeBufferPointer(start: base + j, count: e &- j)),
                        let stored = storedTime(parsed.timestamp, hadZone: parsed.hadZone)
                    else { return .notPlain }
                    values.time = stored
                    zoneless = zoneless || !parsed.hadZone
                }
            } else {
                guard let v = GPXReader.fusedNumber(base, &i, limit: limit, until: UInt8(ascii: "<")),
                    GPXReader.storeFused(f, v, in: &values)
                else { return .notPlain }
            }
            // The end tag: "</" and the start tag's name and '>'.
            guard limit &- i > 8 else { return .notPlain }
            guard GPXReader.load8(base + i) & endMask == childEndTag else { return .notPlain }
            if tagLength == 8 {
                guard base[i &+ 8] == UInt8(ascii: ">") else { return .notPlain }
            }
            i &+= tagLength &+ 1
        }
        fusedCount &+= 1
        childGaps = gaps
        if zoneless { assumeZoneless() }
        // As ``finishPoint()``, for a position already known to be valid (nothing to note).
        let kept =
            kind == .track
            ? try checker.acceptTrackPoint(
                time: values.time, line: scanner.line, at: values.coordinate, accuracy: values.horizontalAccuracyOrZero)
            : try checker.accept(valid: true, time: values.time, line: scanner.line, ordered: false, track: nil)
        guard kept else { return .dropped }
        switch kind {
        case .track: return .point(.trackPoint)
        case .route: return .point(.routePoint)
        case .waypoint: return .point(.waypoint)
        }
    }

    /// What ``fusedPoint(into:)`` did: as ``PlainPoint``, but a point's values are in the numbers
    /// passed in (no copy through an enum's payload), and only its kind comes back.
    enum FusedPoint {
        case notPlain, dropped
        case point(FixBatch.Kind)
    }

    /// The item of a fused point of kind `kind`.
    @inline(__always)
    static func item(_ kind: FixBatch.Kind, _ values: consuming Fix) -> TraceItem {
        switch kind {
        case .routePoint: .routePoint(values)
        case .waypoint: .waypoint(values)
        default: .trackPoint(values)
        }
    }

    /// Stores number `v` of field `f` when ``read(_:_:)`` would read it without a problem;
    /// returns false (storing nothing) when it would report one.
    @inline(__always)
    private static func storeFused(_ f: Field, _ v: Double, in values: inout Fix.Numbers) -> Bool {
        switch f {
        case .elevation: values.elevation = v
        case .hdop: guard !(v < 0) else { return false }; values.hdop = v
        case .vdop: guard !(v < 0) else { return false }; values.vdop = v
        case .pdop: guard !(v < 0) else { return false }; values.pdop = v
        case .speed: guard !(v < 0) else { return false }; values.speed = v
        case .horizontalAccuracy: guard !(v < 0) else { return false }; values.horizontalAccuracy = v
        case .verticalAccuracy: guard !(v < 0) else { return false }; values.verticalAccuracy = v
        case .satellites:
            guard ValueRules.isSatelliteCount(v) else { return false }
            values.satellites = Int(v)
        case .course:
            guard ValueRules.isCourse(v) else { return false }
            values.course = v
        default: return false
        }
        return true
    }
}
