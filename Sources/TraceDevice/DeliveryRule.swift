package import TraceDomain
package import TraceGeodesy
package import TraceSharing

/// A state's delivery rule without memory: its tier, distance filter and delivery model, the
/// settings ``UpdateGate`` decides with (its accuracy gate apart). Many devices under one state
/// share one rule; each keeps only its ``DeliveryMemory``.
package struct DeliveryRule: Hashable, Sendable {
    /// ``AccuracyTier/off`` delivers nothing.
    package var tier: AccuracyTier
    /// Metres (see ``UpdateGate/distanceFilter``).
    package var distanceFilter: Double
    /// The model that decides after the first fix.
    package var delivery: DeliveryModel

    package init(tier: AccuracyTier, distanceFilter: Double, delivery: DeliveryModel) {
        self.tier = tier
        self.distanceFilter = distanceFilter
        self.delivery = delivery
    }

    /// A state's row: its tier, filter and model (its accuracy gate is not part of the rule).
    package init(_ row: StatePolicy) {
        self.init(tier: row.tier, distanceFilter: row.distanceFilter, delivery: row.delivery)
    }

    /// Decides whether `fix`, taken at `time` (seconds) with its reported speed, is delivered after
    /// what `memory` holds, and if so records it there: ``UpdateGate``'s rule (its type's
    /// discussion gives it in full) once the accuracy gate has passed the fix. `screen` caches the
    /// last delivered fix's ``TraceGeodesy/TangentPlane/Screen`` between calls when `screens`;
    /// without it every distance the rule needs is measured (the decisions are the same). `exact`
    /// measures the rare step beyond the tangent plane's domain (over 2 km, or near a pole), in
    /// metres: a closure, so the caller's solver is reached only then.
    @inlinable
    package func offer(
        _ fix: Coordinate, at time: Double, speed: Double?, memory: inout DeliveryMemory,
        screen: inout TangentPlane.Screen?, screens: Bool, exact: (Coordinate, Coordinate) -> Double
    ) -> Bool {
        guard tier != .off, time.isFinite else { return false }
        guard let last = memory.lastDelivered else {
            memory = DeliveryMemory(coordinate: fix, time: time, speed: Self.usable(speed) ?? 0)
            return true
        }
        // A clock that stepped back: no time elapsed for this fix (see UpdateGate's discussion).
        let elapsed = max(time - last.time, 0)
        // Each model's rule as a decision taken on time alone, or a distance the fix must reach
        // (more than it, when `strictly`).
        var decided: Bool?
        var threshold = distanceFilter, strictly = false
        switch delivery {
        case .coreLocation:
            break
        case .androidFused(let interval, let minimum):
            // AOSP LocationProviderManager: the fastest-interval check with its jitter allowance,
            // then the distance check, which drops `<=` and is skipped for a filter of 0.
            if elapsed < min(minimum ?? interval, interval) - min(0.1 * interval, 30) {
                decided = false
            } else if distanceFilter <= 0 {
                decided = true
            } else {
                strictly = true
            }
        case .speedElastic:
            threshold = delivery.elasticFilter(distanceFilter, speed: memory.speed)
        case .distanceOrTime(let interval):
            if elapsed >= interval { decided = true }
        case .distanceAndTime(let interval):
            if !(elapsed >= interval) { decided = false }
        }
        // The distance, measured only when the rule needs it (a fix the screen shows to be short
        // of the threshold needs none) or the delivered speed does.
        var d: Double?
        let deliver: Bool
        if let decided {
            deliver = decided
        } else if screens, Self.isCertainlyBelow(threshold, from: last.coordinate, to: fix, screen: &screen) {
            deliver = false
        } else {
            let measured = Self.distance(last.coordinate, fix, exact: exact)
            d = measured
            deliver = strictly ? measured > threshold : measured >= threshold
        }
        if deliver {
            let speed = Self.usable(speed) ?? (elapsed > 0 ? (d ?? Self.distance(last.coordinate, fix, exact: exact)) / elapsed : 0)
            memory = DeliveryMemory(coordinate: fix, time: time, speed: speed)
        } else if time < last.time {
            memory = DeliveryMemory(coordinate: last.coordinate, time: time, speed: memory.speed)
        }
        return deliver
    }

    /// Whether the distance from `last` to `fix` is certainly below `threshold`
    /// (``TraceGeodesy/TangentPlane/Screen``: `last`'s scale, found once per delivered fix when
    /// first needed); false says nothing. The decisions are those of the distance itself: the
    /// screen only answers where the distance would be below by over 1 %.
    @usableFromInline static func isCertainlyBelow(
        _ threshold: Double, from last: Coordinate, to fix: Coordinate, screen: inout TangentPlane.Screen?
    ) -> Bool {
        guard threshold > 0 else { return false }
        if screen?.point != last { screen = TangentPlane.Screen(last) }
        return screen?.isCertainlyBelow(threshold, to: fix) ?? false
    }

    @inlinable static func distance(_ a: Coordinate, _ b: Coordinate, exact: (Coordinate, Coordinate) -> Double) -> Double {
        TangentPlane.distanceIfNear(from: a, to: b) ?? exact(a, b)
    }

    /// A reported speed when usable: finite and not negative (Core Location reports -1 for an
    /// invalid speed).
    @inlinable static func usable(_ speed: Double?) -> Double? {
        guard let speed, speed >= 0, speed.isFinite else { return nil }
        return speed
    }
}

/// What a device's delivery rule remembers between fixes: the last delivered fix, its time
/// (seconds; moved back with a clock that steps back) and its speed (m/s). 32 bytes, with no
/// optional: before the first delivered fix the time is NaN, a time no delivered fix has.
package struct DeliveryMemory: Sendable {
    @usableFromInline var coordinate: Coordinate
    @usableFromInline var time: Double
    /// The speed of the last delivered fix, m/s (reported, or derived); 0 before the first.
    package private(set) var speed: Double

    /// Nothing delivered yet.
    package static let empty = DeliveryMemory(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0), time: .nan, speed: 0)

    @usableFromInline init(coordinate: Coordinate, time: Double, speed: Double) {
        self.coordinate = coordinate
        self.time = time
        self.speed = speed
    }

    /// The last delivered fix and its time, or nil before the first.
    @inlinable package var lastDelivered: (coordinate: Coordinate, time: Double)? {
        time.isNaN ? nil : (coordinate, time)
    }
}
