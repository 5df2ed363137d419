public import TraceGeodesy

/// An optional per-state rule that keeps inaccurate fixes from being delivered: a fix whose
/// reported horizontal accuracy (a radius in metres, larger is worse) exceeds ``maximumAccuracy``
/// is not delivered. Neither Core Location's nor Android's distance filter consults accuracy;
/// apps add a rule like this one themselves.
///
/// The gate comes before the ``DeliveryModel``: a fix it stops changes nothing in the
/// ``UpdateGate`` (not the last delivered fix, not the previous fix a derived speed is measured
/// from), as if the phone had not produced it.
///
/// A fix without an accuracy is delivered when
/// ``deliversWithoutAccuracy`` is true (the default: a replay of a trace without accuracies then
/// behaves as if there were no gate) and stopped when it is false. "Without an accuracy" means
/// nil, not finite, or not positive: many recordings carry none, Core Location reports a negative
/// accuracy for an invalid fix, Android's `getAccuracy()` returns 0 when the fix has none (and
/// `hasAccuracy()` is false), and CSV exports write 0 for a missing value. A reported 0 is never
/// taken as a perfect fix.
public struct AccuracyGate: Hashable, Sendable {
    /// The worst accuracy delivered, metres (a fix exactly at it is delivered).
    public var maximumAccuracy: Double
    /// Whether a fix without a usable accuracy is delivered.
    public var deliversWithoutAccuracy: Bool

    public init(maximumAccuracy: Double, deliversWithoutAccuracy: Bool = true) {
        self.maximumAccuracy = maximumAccuracy
        self.deliversWithoutAccuracy = deliversWithoutAccuracy
    }

    /// Whether a fix with this reported accuracy (metres, or nil) passes.
    @inlinable
    public func admits(accuracy: Double?) -> Bool {
        guard let accuracy = ReportedAccuracy.usable(accuracy) else { return deliversWithoutAccuracy }
        return accuracy <= maximumAccuracy
    }
}
