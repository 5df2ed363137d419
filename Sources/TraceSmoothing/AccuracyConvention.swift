/// What a platform's reported horizontal accuracy means, and so how to turn it into a standard
/// deviation per axis (docs/battery-model.md, "Kalman defaults").
public enum AccuracyConvention: String, CaseIterable, Hashable, Sendable {
    /// iOS `horizontalAccuracy`: σ per axis = accuracy / √2.
    case ios
    /// Android `getAccuracy()`, the radius of the 68 % circle: σ = accuracy / 1.51.
    case android
    /// W3C Geolocation `accuracy`, the 95 % radius: σ = accuracy / 2.45.
    case w3c

    /// The divisor from reported accuracy to σ per axis.
    public var divisor: Double {
        switch self {
        case .ios: 2.0.squareRoot()
        case .android: 1.51
        case .w3c: 2.45
        }
    }

    /// σ per axis, metres, for a reported accuracy in metres.
    public func sigma(accuracy: Double) -> Double { accuracy / divisor }
}
