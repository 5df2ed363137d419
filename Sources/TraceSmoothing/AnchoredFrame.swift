public import TraceGeodesy

/// A local east/north frame that follows a track: anchored on the first fix, re-anchored on the
/// current fix when it is farther than `reanchorDistance` from the origin, so positions stay
/// within a few kilometres of the origin where ``LocalFrame`` is exact to parts per million.
public struct AnchoredFrame: Sendable {
    /// Metres from the origin beyond which the frame moves (infinity: never).
    public let reanchorDistance: Double
    /// The current frame, nil before the first fix.
    public private(set) var frame: LocalFrame?
    /// How many times the frame has moved.
    public private(set) var reanchors = 0

    /// A frame that moves beyond `reanchorDistance` metres.
    public init(reanchorDistance: Double) {
        precondition(reanchorDistance > 0, "the re-anchoring distance must be positive")
        self.reanchorDistance = reanchorDistance
    }

    /// The position of `c` in the current frame, and the transform from the previous frame when
    /// `c` made the frame move (then the position is the origin).
    public mutating func project(_ c: Coordinate) -> (position: EastNorth, moved: FrameTransform?) {
        guard let f = frame else {
            frame = LocalFrame(origin: c)
            return (EastNorth(east: 0, north: 0), nil)
        }
        let p = f.eastNorth(of: c)
        guard p.east * p.east + p.north * p.north > reanchorDistance * reanchorDistance else { return (p, nil) }
        let new = LocalFrame(origin: c)
        frame = new
        reanchors += 1
        return (EastNorth(east: 0, north: 0), FrameTransform(from: f, to: new))
    }
}
