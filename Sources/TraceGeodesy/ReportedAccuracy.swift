/// The one rule for a horizontal accuracy reported with a fix, shared by every module that reads
/// one (the trace summary, the accuracy gate, the accuracy emulator, the smoother): it is usable
/// when it is finite and above 0. Android's `getAccuracy()` returns 0 when it has none and CSV
/// exports write 0 or negative values for "none", so those mean no accuracy.
public enum ReportedAccuracy {
    /// `metres` when it is a usable accuracy, else nil.
    @inlinable public static func usable(_ metres: Double?) -> Double? {
        guard let metres, metres > 0, metres.isFinite else { return nil }
        return metres
    }
}
