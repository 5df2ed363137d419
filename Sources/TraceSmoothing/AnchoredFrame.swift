public import TraceGeodesy

/// A local east/north frame that follows a filter's estimate: anchored on the first fix, and
/// re-anchored on the estimate (after the update) when the estimate is farther than
/// `reanchorDistance` from the origin, so the state stays within a few kilometres of the origin,
/// where ``LocalFrame`` is exact to parts per million and ``FrameTransform`` carries it across.
///
/// The frame never moves onto a raw fix before the filter has judged it: an outlier thousands of
/// kilometres away is projected into the current frame, rejected there, and leaves the frame
/// where it was. A restart is the one case where the state jumps to a fix; then the frame moves
/// onto that fix's coordinate (``restart(at:position:)``), so even a fix on the far side of the
/// Earth is carried exactly, through its coordinate.
public struct AnchoredFrame: Sendable {
    /// Metres from the origin beyond which the frame moves (infinity: never).
    public private(set) var reanchorDistance: Double
    /// The current frame, nil before the first fix.
    public private(set) var frame: LocalFrame?
    /// How many times the frame has moved.
    public private(set) var reanchors = 0

    /// A frame that moves beyond `reanchorDistance` metres.
    public init(reanchorDistance: Double) {
        precondition(reanchorDistance > 0, "the re-anchoring distance must be positive")
        self.reanchorDistance = reanchorDistance
    }

    /// Changes the distance beyond which the frame moves; the frame stays where it is.
    public mutating func setReanchorDistance(_ distance: Double) {
        precondition(distance > 0, "the re-anchoring distance must be positive")
        reanchorDistance = distance
    }

    /// The position of `c` in the current frame; the first coordinate becomes the origin. The
    /// frame does not move.
    public mutating func position(of c: Coordinate) -> EastNorth {
        guard let f = frame else {
            frame = LocalFrame(origin: c)
            return EastNorth(east: 0, north: 0)
        }
        return f.eastNorth(of: c)
    }

    /// Moves the origin onto the estimate at `estimate` (metres in the current frame) when it is
    /// farther than ``reanchorDistance`` from the origin, and returns the transform to apply to
    /// the state (it takes `estimate` to exactly (0, 0)); nil when the frame stays, or when the
    /// estimate is beyond the Earth's outline in this frame (possible only after a long gap
    /// carried a fast velocity thousands of kilometres; the frame then stays).
    public mutating func follow(estimate: EastNorth) -> FrameTransform? {
        guard let f = frame,
            estimate.east * estimate.east + estimate.north * estimate.north > reanchorDistance * reanchorDistance,
            let origin = f.coordinate(at: estimate)
        else { return nil }
        let new = LocalFrame(origin: origin)
        frame = new
        reanchors += 1
        return FrameTransform(from: f, to: new, offset: estimate)
    }

    /// Moves the origin onto `c`, whose position in the current frame is `position`, for a
    /// filter that has just (re)started at rest at `position`: returns the transform that takes
    /// `position` to (0, 0) with no rotation or scaling (the state has no velocity, its
    /// covariance is isotropic, and the fix's variance is in metres at the fix, where the new
    /// frame is exact). Nothing moves when `c` is already the origin.
    public mutating func restart(at c: Coordinate, position: EastNorth) -> FrameTransform? {
        guard let f = frame, f.origin != c else { return nil }
        frame = LocalFrame(origin: c)
        reanchors += 1
        return FrameTransform(offset: position, cosine: 1, sine: 0, scale: 1)
    }
}
