import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceProj

@testable import TraceReplay

/// The fewest updates for a display-error bound (``UpdateLimit``), on hand-built tracks and
/// against an exhaustive search.
@Suite("The limit: the fewest updates that keep a display-error bound")
struct UpdateLimitTests {
    static func at(north: Double, east: Double = 0) -> Coordinate {
        Coordinate(uncheckedLatitude: lat(P(north: north, east: east, t: 0)), longitude: lon(P(north: north, east: east, t: 0)))
    }

    /// Whether every fix is within `bound` of the last of `sends` at or before it.
    static func feasible(_ positions: [Coordinate], _ sends: [Int], _ bound: Double) -> Bool {
        guard sends.first == 0 else { return positions.isEmpty && sends.isEmpty }
        let geodesic = Geodesic()
        var last = 0
        for i in positions.indices {
            if sends.contains(i) { last = i }
            if TangentPlane.distance(from: positions[last], to: positions[i], fallback: geodesic) > bound { return false }
        }
        return true
    }

    @Test("nothing, one fix, a phone standing still: 0, 1 and 1 send")
    func trivial() {
        #expect(UpdateLimit.fewestSends([], boundMetres: 10, exact: Geodesic.wgs84).isEmpty)
        #expect(UpdateLimit.fewestSends([Self.at(north: 0)], boundMetres: 10, exact: Geodesic.wgs84) == [0])
        let still = Array(repeating: Self.at(north: 0), count: 500)
        #expect(UpdateLimit.fewestSends(still, boundMetres: 10, exact: Geodesic.wgs84) == [0] && UpdateLimit.greedySends(still, boundMetres: 10, exact: Geodesic.wgs84) == [0])
    }

    @Test("a straight track at 1 m a fix: a send every 11 fixes with a 10.5 m bound, as the rule that sends on exceeding")
    func straight() {
        let track = (0...100).map { Self.at(north: Double($0)) }
        let sends = UpdateLimit.fewestSends(track, boundMetres: 10.5, exact: Geodesic.wgs84)
        #expect(sends.count == 10)  // 101 fixes, each send covering 11
        #expect(UpdateLimit.greedySends(track, boundMetres: 10.5, exact: Geodesic.wgs84) == Array(stride(from: 0, through: 99, by: 11)))
        #expect(Self.feasible(track, sends, 10.5))
    }

    @Test("a track that comes back: the rule that sends on exceeding sends 3, the minimum is 2")
    func comesBack() {
        let track = [0, 9, 18.5, 1].map { Self.at(north: $0) }
        #expect(UpdateLimit.greedySends(track, boundMetres: 10, exact: Geodesic.wgs84) == [0, 2, 3])
        #expect(UpdateLimit.fewestSends(track, boundMetres: 10, exact: Geodesic.wgs84) == [0, 1])
    }

    @Test("the minimum equals an exhaustive search on 300 random tracks of up to 11 fixes, and is feasible")
    func exhaustive() {
        var rng = SplitMix64(seed: 20_261_203)
        for _ in 0..<300 {
            let n = Int.random(in: 1...11, using: &rng)
            let track = (0..<n).map { _ in Self.at(north: rng.uniform(0, 40), east: rng.uniform(0, 40)) }
            let sends = UpdateLimit.fewestSends(track, boundMetres: 10, exact: Geodesic.wgs84)
            #expect(Self.feasible(track, sends, 10))
            // Every schedule starts at fix 0: try each subset of the others, fewest first.
            var best = n
            for mask in 0..<(1 << (n - 1)) where mask.nonzeroBitCount + 1 < best {
                let subset = [0] + (1..<n).filter { mask & (1 << ($0 - 1)) != 0 }
                if Self.feasible(track, subset, 10) { best = subset.count }
            }
            #expect(sends.count == best, "\(track)")
            #expect(UpdateLimit.greedySends(track, boundMetres: 10, exact: Geodesic.wgs84).count >= best)
        }
    }
}
