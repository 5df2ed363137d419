public import TraceGeodesy

/// The similarity that takes east/north coordinates in one local frame to another:
/// new = scale · R(angle) · (old − offset), for positions; vectors (velocities) are only rotated
/// and scaled.
///
/// Between two ``LocalFrame``s it is built at the new origin, where it matches the exact mapping
/// to first order; it is applied to a filter's state, which is exactly at the new origin when
/// ``AnchoredFrame`` re-anchors (the new origin is the estimate's coordinate). What it neglects is
/// the old frame's anisotropy d away from its origin, (d/R)²/2 ≈ 1.2e-6 at 10 km: 1.2e-6 of the
/// velocity and of the covariance. Far from the old origin that anisotropy is not small (1.8 % at
/// 1,200 km), which is why the frame follows the track.
public struct FrameTransform: Sendable, Hashable {
    /// The new origin's position in the old frame, metres.
    public var offset: EastNorth
    /// cos and sin of the rotation from the old axes to the new.
    public var cosine: Double, sine: Double
    /// Length in the new frame of a metre in the old frame (1 ± about 1e-6 at 10 km).
    public var scale: Double

    /// The identity.
    public static let identity = FrameTransform(offset: EastNorth(east: 0, north: 0), cosine: 1, sine: 0, scale: 1)

    /// A transform with these parts.
    public init(offset: EastNorth, cosine: Double, sine: Double, scale: Double) {
        self.offset = offset
        self.cosine = cosine
        self.sine = sine
        self.scale = scale
    }

    /// The transform from `old` to `new` at `new`'s origin: the offset is exact; the rotation
    /// and scale are measured with a probe 100 m north of the new origin in the old frame.
    public init(from old: LocalFrame, to new: LocalFrame) {
        self.init(from: old, to: new, offset: old.eastNorth(of: new.origin))
    }

    /// The transform from `old` to `new` with the new origin's position in the old frame given as
    /// `offset` (the point the new frame was built on, so that it maps to exactly (0, 0)).
    public init(from old: LocalFrame, to new: LocalFrame, offset o: EastNorth) {
        guard let probe = old.coordinate(at: EastNorth(east: o.east, north: o.north + 100)) else {
            self.init(offset: o, cosine: 1, sine: 0, scale: 1)
            return
        }
        let p = new.eastNorth(of: probe)
        let length = (p.east * p.east + p.north * p.north).squareRoot()
        // R·(0, 100)·scale = (−sin, cos)·100·scale = p.
        self.init(offset: o, cosine: p.north / length, sine: -p.east / length, scale: length / 100)
    }

    /// A position in the old frame, in the new.
    @inlinable
    public func position(_ e: Double, _ n: Double) -> (Double, Double) { vector(e - offset.east, n - offset.north) }

    /// A vector (a velocity) in the old frame, in the new.
    @inlinable
    public func vector(_ e: Double, _ n: Double) -> (Double, Double) {
        (scale * (cosine * e - sine * n), scale * (sine * e + cosine * n))
    }

    /// The inverse: from the new frame back to the old. old = offset + (1/scale)·Rᵀ·new, that is
    /// an offset of the old origin's position in the new frame, the opposite rotation and 1/scale.
    public var inverse: FrameTransform {
        let (e, n) = position(0, 0)
        return FrameTransform(offset: EastNorth(east: e, north: n), cosine: cosine, sine: -sine, scale: 1 / scale)
    }
}
