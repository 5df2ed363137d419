/// How often a phone takes a fix.
struct Sampling {
    /// Mean interval, seconds.
    var interval: Double
    /// Each interval is `interval` × (1 ± this), uniformly.
    var jitter: Double

    /// Driving and cycling: a navigation-grade stream at 1 Hz (Core Location's rate with
    /// `kCLLocationAccuracyBestForNavigation`).
    static let vehicle = Sampling(interval: 1, jitter: 0)
    /// Walking: fixes 3–5 s apart (a phone in a pocket, the OS coalescing updates).
    static let walking = Sampling(interval: 4, jitter: 0.25)
    /// A phone lying still indoors: about every 10 s (8–12 s).
    static let resting = Sampling(interval: 10, jitter: 0.2)
}
