@testable import TraceGeometry

/// Shorthand for a planar point.
func pt(_ x: Double, _ y: Double) -> Point2D { Point2D(x: x, y: y) }

/// A closed axis-aligned square ring, counter-clockwise.
func square(_ minX: Double, _ minY: Double, _ side: Double) -> [Point2D] {
    [pt(minX, minY), pt(minX + side, minY), pt(minX + side, minY + side), pt(minX, minY + side), pt(minX, minY)]
}

/// Shoelace area of a closed ring (absolute value), computed independently of GEOS.
func shoelaceArea(_ ring: [Point2D]) -> Double {
    var twice = 0.0
    for i in 0..<(ring.count - 1) {
        twice += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y
    }
    return abs(twice) / 2
}

/// Whether `sub` is a subsequence of `seq` (same order, possibly with gaps).
func isSubsequence<T: Equatable>(_ sub: [T], of seq: [T]) -> Bool {
    var i = sub.startIndex
    for element in seq where i < sub.endIndex && sub[i] == element { i += 1 }
    return i == sub.endIndex
}

/// The reason of an `.invalidInput` error, or nil for any other error.
func invalidInputReason(_ error: GeometryError?) -> String? {
    if case .invalidInput(let reason) = error { return reason }
    return nil
}
