public import TraceGeodesy

/// The fewest updates any phone could send to keep a display-error bound: the limit a tuned
/// policy is measured against (issue 21, "The limit"). The phone here knows its true position
/// (the recorded fixes), the network is instant, and the viewer draws the last position it
/// received; the error is judged at each recorded fix. A policy's updates divided by this
/// minimum say how far from the limit it is.
///
/// **Why not "send when the error would exceed the bound".** That rule (``greedySends(_:boundMetres:)``)
/// is optimal when the track moves away and never comes back, but not in general: on a line,
/// fixes at 0, 9, 19 and 1 m with a 10 m bound, it sends at 0, 19 and 1 (three), while sending
/// at 0 and 9 keeps every fix within 10 m (two).
///
/// **The minimum** (``fewestSends(_:boundMetres:)``). A send at fix j covers the fixes from j on
/// while they stay within the bound of it: up to `reach(j)`, the fix before the first one farther.
/// Every schedule starts at fix 0 and, after a send at j, must send again at some fix in
/// (j, reach(j) + 1] (the first fix j does not cover needs a send at it or before it, and the fixes
/// before are covered by j). Among those the one whose reach is farthest is never worse, by the
/// usual exchange argument (whatever a schedule does after another choice, it can do after this
/// one), so choosing it each time gives a minimum schedule: the "jump game" greedy. Time O(n × L)
/// where L is the longest run a send covers; memory O(n).
public enum UpdateLimit {
    /// The indices of the fixes a minimum schedule sends, for `positions` in time order: every
    /// fix is within `boundMetres` of the last sent fix at or before it. Empty for no position.
    public static func fewestSends(_ positions: [Coordinate], boundMetres: Double, exact: some GeodesicSolver) -> [Int] {
        fewestSends(positions, boundMetres: boundMetres, maximumDistances: .max, exact: exact)!
    }

    /// ``fewestSends(_:boundMetres:)``, giving up (nil) after `maximumDistances` distances: a
    /// phone standing still for hours within the bound makes every cover as long as the stay.
    public static func fewestSends(
        _ positions: [Coordinate], boundMetres: Double, maximumDistances: Int, exact geodesic: some GeodesicSolver
    ) -> [Int]? {
        guard !positions.isEmpty else { return [] }
        var reachMemo = [Int](repeating: -1, count: positions.count)
        var distances = 0
        /// The last fix index covered by a send at `j`.
        func reach(_ j: Int) -> Int {
            if reachMemo[j] >= 0 { return reachMemo[j] }
            var r = j
            while r + 1 < positions.count
                && TangentPlane.distance(from: positions[j], to: positions[r + 1], fallback: geodesic) <= boundMetres
            {
                r += 1
            }
            distances += r - j + 1
            reachMemo[j] = r
            return r
        }
        var sends = [0]
        var current = 0
        while reach(current) < positions.count - 1 {
            let last = reach(current) + 1  // the first fix `current` does not cover
            var best = last, bestReach = reach(last)
            for k in stride(from: last - 1, to: current, by: -1) where reach(k) > bestReach {
                best = k
                bestReach = reach(k)
                if distances > maximumDistances { return nil }
            }
            if distances > maximumDistances { return nil }
            sends.append(best)
            current = best
        }
        return sends
    }

    /// The indices the "send when the error would exceed the bound" rule sends: fix 0, then each
    /// fix farther than `boundMetres` from the last sent one. Never fewer than
    /// ``fewestSends(_:boundMetres:)``.
    public static func greedySends(_ positions: [Coordinate], boundMetres: Double, exact geodesic: some GeodesicSolver) -> [Int] {
        guard !positions.isEmpty else { return [] }
        var sends = [0]
        for i in 1..<positions.count
        where TangentPlane.distance(from: positions[sends[sends.count - 1]], to: positions[i], fallback: geodesic) > boundMetres {
            sends.append(i)
        }
        return sends
    }
}
