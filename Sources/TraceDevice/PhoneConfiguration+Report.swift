public import TraceJSON
import TraceSharing
import TraceSmoothing

extension PhoneConfiguration {
    /// The configuration in one line for a report, e.g. "accuracy emulation Gauss–Markov
    /// (τ 60 s), seed 42; smoothing walk (gate 13.8); accuracy convention ios; delivery per state".
    /// The seed is named only when emulation is on (it changes nothing otherwise).
    public var summary: String {
        let emulation: String
        switch accuracyEmulation {
        case .off: emulation = "accuracy emulation off"
        case .white: emulation = "accuracy emulation white, seed \(seed)"
        case .gaussMarkov(let tau): emulation = "accuracy emulation Gauss–Markov (τ \(JSONWriter.number(tau)) s), seed \(seed)"
        }
        let smoothed: String
        switch smoothing {
        case .off: smoothed = "smoothing off"
        case .on(let mode, let gate): smoothed = "smoothing \(mode.rawValue) (gate \(gate.isFinite ? JSONWriter.number(gate) : "inf"))"
        }
        return "\(emulation); \(smoothed); accuracy convention \(convention.rawValue); delivery \(deliveryOverride?.summary ?? "per state")"
    }

    /// The configuration as JSON for a report. Keys and order are stable:
    /// `accuracyEmulation` (`{"noise": "off"}`, `{"noise": "white", "seed": "42"}` or
    /// `{"noise": "gaussMarkov", "tauSeconds": 60, "seed": "42"}`; the seed is a decimal string
    /// because a JSON number cannot hold every 64-bit value exactly), `smoothing`
    /// (`{"mode": "off"}` or `{"mode": "walk", "gate": 13.8}`; `"gate": null` for an infinite
    /// gate, no gating), `accuracyConvention`, and
    /// `deliveryOverride` (a policy file's `delivery` object, or null).
    public var json: JSONValue {
        let emulation: JSONValue
        switch accuracyEmulation {
        case .off: emulation = .object([("noise", .string("off"))])
        case .white: emulation = .object([("noise", .string("white")), ("seed", .string(String(seed)))])
        case .gaussMarkov(let tau):
            emulation = .object([("noise", .string("gaussMarkov")), ("tauSeconds", .number(tau)), ("seed", .string(String(seed)))])
        }
        let smoothed: JSONValue
        switch smoothing {
        case .off: smoothed = .object([("mode", .string("off"))])
        case .on(let mode, let gate):
            smoothed = .object([("mode", .string(mode.rawValue)), ("gate", gate.isFinite ? .number(gate) : .null)])
        }
        return .object([
            ("accuracyEmulation", emulation), ("smoothing", smoothed),
            ("accuracyConvention", .string(convention.rawValue)),
            ("deliveryOverride", deliveryOverride?.fileJSON ?? .null),
        ])
    }
}
