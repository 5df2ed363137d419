/// An axis-aligned bounding rectangle [minX, maxX] × [minY, maxY], in the geometry's units.
///
/// Envelopes returned by ``GeometryContext/envelope(of:)`` satisfy minX ≤ maxX and minY ≤ maxY;
/// a single point gives a degenerate envelope with zero width and height.
public struct Envelope: Hashable, Sendable {
    /// Smallest x.
    public var minX: Double
    /// Smallest y.
    public var minY: Double
    /// Largest x.
    public var maxX: Double
    /// Largest y.
    public var maxY: Double

    /// An envelope from its bounds (not validated).
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// maxX − minX.
    public var width: Double { maxX - minX }
    /// maxY − minY.
    public var height: Double { maxY - minY }

    /// Whether `p` lies inside or on the boundary of the rectangle.
    public func contains(_ p: Point2D) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }
}

extension Envelope: CustomStringConvertible {
    public var description: String { "[\(minX), \(maxX)] × [\(minY), \(maxY)]" }
}
