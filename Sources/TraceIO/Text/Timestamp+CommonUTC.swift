import TraceDomain

// The fast path of TraceIO's readers for the commonest time form: kept beside the readers that
// inline it, not in TraceDomain's `Timestamp`.
extension Timestamp {
    /// The commonest form, exactly the 20 bytes `YYYY-MM-DDThh:mm:ssZ` at `p` with a year in
    /// 1970…2261, hour 0…23 and second 0…59, read without the general parser's branches: the
    /// instant ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)`` gives for those bytes (with a
    /// zone), or nil for anything else, which that parser then reads (or rejects) in full.
    /// - Complexity: O(1), no allocation.
    @inline(__always)
    static func parseCommonUTC(_ p: UnsafePointer<UInt8>) -> Timestamp? {
        let (a, b) = commonUTCWords(p)
        guard let day = commonUTCDay(a, b), let second = commonUTCSecondOfDay(p) else { return nil }
        return Timestamp(nanoseconds: (day &+ second) &* 1_000_000_000)  // < 2262-04-11: no overflow
    }

    /// The last date ``parseCommonUTC(_:day:)`` read: its bytes and its first second.
    struct CommonUTCDay {
        /// "YYYY-MM-" and (low 16 bits) "DD"; `valid` false until a date was read.
        fileprivate var head: UInt64 = 0, tail: UInt64 = 0
        fileprivate var valid = false
        fileprivate var start: Int64 = 0
        init() {}
    }

    /// ``parseCommonUTC(_:)`` for a reader whose times mostly share their date with the one
    /// before: when the 10 date bytes equal those of the last date read (held in `day`), their
    /// validation and day count are reused; otherwise the date is read and remembered. The same
    /// result as ``parseCommonUTC(_:)`` for every input (the tests compare them). Inlined into the
    /// reader (`@inline(always)`: guaranteed, where `@inline(__always)` was declined), with a call
    /// only for a new date (``rememberCommonUTCDay(_:_:in:)``).
    @inline(always)
    static func parseCommonUTC(_ p: UnsafePointer<UInt8>, day: inout CommonUTCDay) -> Timestamp? {
        let (a, b) = commonUTCWords(p)
        let start: Int64
        if day.valid && a == day.head && b & 0xFFFF == day.tail {
            start = day.start
        } else {
            guard let s = rememberCommonUTCDay(a, b, in: &day) else { return nil }
            start = s
        }
        guard let second = commonUTCSecondOfDay(p) else { return nil }
        return Timestamp(nanoseconds: (start &+ second) &* 1_000_000_000)
    }

    /// The first second of the date in `a` and `b` (``commonUTCDay(_:_:)``), remembered in `day`
    /// when it is one; nil (and `day` unchanged) otherwise.
    @inline(never)
    private static func rememberCommonUTCDay(_ a: UInt64, _ b: UInt64, in day: inout CommonUTCDay) -> Int64? {
        guard let s = commonUTCDay(a, b) else { return nil }
        day.head = a
        day.tail = b & 0xFFFF
        day.valid = true
        day.start = s
        return s
    }

    /// The first 16 of the 20 bytes at `p` as little-endian words: "YYYY-MM-" and "DDThh:mm".
    @inline(__always)
    private static func commonUTCWords(_ p: UnsafePointer<UInt8>) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(p)
        return (
            UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }

    @inline(__always) private static func digit(_ w: UInt64, _ k: Int) -> Int { Int((w &>> UInt64(8 &* k)) & 0x0F) }

    /// The first second (since 1970) of the date `YYYY-MM-DD` in `a` and the low bytes of `b`,
    /// when its separators and digits are right and it is a real date in 1970…2261; else nil.
    @inline(__always)
    private static func commonUTCDay(_ a: UInt64, _ b: UInt64) -> Int64? {
        guard a & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000 else { return nil }
        let digitsA = (a & 0x00FF_FF00_FFFF_FFFF) | 0x3000_0030_0000_0000  // separators as '0'
        let digitsD = (b & 0xFFFF) | 0x3030_3030_3030_0000
        guard DecimalParser.digitCount(digitsA) == 8, DecimalParser.digitCount(digitsD) == 8 else { return nil }
        let year = digit(a, 0) &* 1000 &+ digit(a, 1) &* 100 &+ digit(a, 2) &* 10 &+ digit(a, 3)
        let month = digit(a, 5) &* 10 &+ digit(a, 6)
        let day = digit(b, 0) &* 10 &+ digit(b, 1)
        guard year >= 1970, year <= 2261, month >= 1, month <= 12, day >= 1, day <= daysInMonth(month, year: year) else { return nil }
        return Int64(daysFromCivil(year: year, month: month, day: day)) &* 86_400
    }

    /// The second of the day of `Thh:mm:ssZ` at `p + 10` (the 20 bytes at `p` readable), when
    /// the separators and digits are right, the hour is 0…23 and the minute and second 0…59.
    @inline(__always)
    private static func commonUTCSecondOfDay(_ p: UnsafePointer<UInt8>) -> Int64? {
        // The shape of the 16 bytes "-MM-DDThh:mm:ssZ" from `p + 4`: digits where digits go, and
        // the separators (every third byte) in their places. (The date's bytes are checked again,
        // which costs nothing here.)
        let separators = ByteMasks.matches((0x3054_3030_2D30_302D, 0x5A30_303A_3030_3A30), in: p + 4)  // "-00-00T0", "0:00:00Z"
        guard (ByteMasks.digits(in: p + 4) & 0b0110_1101_1011_0110) | (separators & 0b1001_0010_0100_1001) == 0xFFFF else { return nil }
        let w = UInt64(littleEndian: UnsafeRawPointer(p + 11).loadUnaligned(as: UInt64.self))  // "hh:mm:ss"
        // 10·tens + ones of the hour, minute and second in bytes 0, 3 and 6 (each at most 99: no
        // carry between bytes).
        let v = w & 0x0F0F_000F_0F00_0F0F
        let t = (v &* 10 &+ (v &>> 8)) & 0x00FF_0000_FF00_00FF
        // Adding 128 - 24 to the hour and 128 - 60 to the minute and second sets a byte's top bit
        // exactly when it is out of range.
        guard (t &+ 0x0044_0000_4400_0068) & 0x0080_0000_8000_0080 == 0 else { return nil }
        return Int64((t & 0xFF) &* 3600 &+ ((t &>> 24) & 0xFF) &* 60 &+ (t &>> 48))
    }
}
