import Foundation
import Testing
import TraceDevice
import TraceJSON
import TraceReplay
import TraceSharing

@Suite("Replay: the phone pipeline (TraceDevice's PhoneEmulator per phone)")
struct PhonePipelineTests {
    /// The whole trace in En Route, with En Route's tier and filter replaced (a coarse tier the
    /// hirer sees); the pickup far away, never reached.
    func coarse(filter: Double) throws -> (ScenarioSpec, SharingPolicy) {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var policy = SharingPolicy.seed
        policy[.enRoute].tier = .hundredMeters
        policy[.enRoute].distanceFilter = filter
        return (spec, policy)
    }

    func options(_ policy: SharingPolicy, _ phone: PhoneConfiguration = PhoneConfiguration()) -> ReplayOptions {
        var o = ReplayOptions.ideal
        o.policy = policy
        o.phone = phone
        return o
    }

    @Test(
        "a pass-through configuration (emulation and smoothing off, any seed) writes the default's bytes, without a phone member (ideal network: the seed draws nothing)"
    )
    func passThrough() throws {
        let path = try temp(gpx([(nil, InferenceTests.trip)]))
        let plain = JSONWriter.string(try replay(path, options: .ideal).json)
        var o = ReplayOptions.ideal
        o.phone = PhoneConfiguration(seed: 12_345)
        #expect(JSONWriter.string(try replay(path, options: o).json) == plain)
        #expect(!plain.contains("\"phone\""))
        o.phone.smoothing = .on(mode: .walk)
        #expect(
            try JSONParser.parse(Array(JSONWriter.string(try replay(path, options: o).json).utf8))["phone"]?["smoothing"]?["mode"]?.kind
                == .string("walk"))
    }

    @Test("display error is measured from the raw fix: a still, exact phone emulated at HundredMeters shows the noise")
    func truth() throws {
        // 200 exact fixes (no accuracy: σ 0) at one place, 1 s apart; a 0 m filter delivers all.
        let fixes = stay(at: P(north: 0, east: 0, t: 0), count: 200, dt: 1)
        let path = try temp(gpx([(nil, fixes)]))
        let (spec, policy) = try coarse(filter: 0)
        let off = try replay(path, spec: spec, options: options(policy)).cell(.enRoute, .helper)
        #expect(off.deliveredFixes == 200 && off.view.displayErrorMaxMetres == 0)
        let white = try replay(path, spec: spec, options: options(policy, PhoneConfiguration(accuracyEmulation: .white, seed: 3)))
        let v = white.cell(.enRoute, .helper).view
        // Every fix delivered and received at once, so each sample is that fix's own noise: radial
        // error of a 2-D Gaussian with σ = 100/√2 m per axis, mean σ·√(π/2) ≈ 88.6 m. 200 samples:
        // the mean's standard error is ≈ 3.3 m; ±15 m is over 4 of them.
        #expect(white.cell(.enRoute, .helper).deliveredFixes == 200)
        #expect(abs(v.displayErrorMeanMetres! - 100 / 2.0.squareRoot() * (Double.pi / 2).squareRoot()) < 15)
    }

    @Test(
        "a coarse tier with emulation shows a larger display error than without",
        arguments: [
            PhoneConfiguration.AccuracyEmulation.white, .gaussMarkov(tau: 60),
        ])
    func coarserIsWorse(noise: PhoneConfiguration.AccuracyEmulation) throws {
        // A walk north, 1.4 m a second for 20 min, exact fixes; HundredMeters with a 30 m filter.
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 1200, stepNorth: 1.4, dt: 1)
        let path = try temp(gpx([(nil, fixes)]))
        let (spec, policy) = try coarse(filter: 30)
        let plain = try replay(path, spec: spec, options: options(policy)).cell(.enRoute, .helper).view
        let emulated = try replay(path, spec: spec, options: options(policy, PhoneConfiguration(accuracyEmulation: noise, seed: 5)))
            .cell(.enRoute, .helper).view
        // Without emulation the viewer lags at most one filter step: mean ≈ 15 m, max ≤ 31 m.
        #expect(plain.displayErrorMaxMetres! <= 31)
        #expect(emulated.displayErrorMeanMetres! > 2 * plain.displayErrorMeanMetres!)
        #expect(emulated.displayErrorMaxMetres! > 3 * plain.displayErrorMaxMetres!)
    }

    @Test("emulation is deterministic for a seed; another seed changes the numbers; the seed is in the JSON")
    func seeds() throws {
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 300, stepNorth: 1.4, dt: 1)
        let path = try temp(gpx([(nil, fixes)]))
        let (spec, policy) = try coarse(filter: 30)
        func run(_ seed: UInt64) throws -> String {
            JSONWriter.string(
                try replay(
                    path, spec: spec, options: options(policy, PhoneConfiguration(accuracyEmulation: .gaussMarkov(tau: 60), seed: seed))
                ).json)
        }
        let a = try run(1), b = try run(1), c = try run(2)
        #expect(a == b)
        #expect(a != c)
        let doc = try JSONParser.parse(Array(a.utf8))
        #expect(doc["phone"]?["accuracyEmulation"]?["seed"]?.kind == .string("1"))
        #expect(doc["phone"]?["accuracyEmulation"]?["noise"]?.kind == .string("gaussMarkov"))
        #expect(
            doc["phone"]?["summary"]?.kind
                == .string("accuracy emulation Gauss–Markov (τ 60 s), seed 1; smoothing off; accuracy convention ios; delivery per state"))
    }

    @Test("a delivery override replaces every state's model")
    func deliveryOverride() throws {
        // 10 fixes 50 m apart, 10 s apart: Core Location's 30 m filter delivers all ten; Android's
        // fused provider with a 60 s interval (jitter allowance 6 s) delivers one every 60 s: 0, 60 → two.
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 50, dt: 10)
        let path = try temp(gpx([(nil, fixes)]))
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var o = ReplayOptions()
        #expect(try replay(path, spec: spec, options: o).cell(.enRoute, .helper).deliveredFixes == 10)
        o.phone.deliveryOverride = .androidFused(interval: 60, minUpdateInterval: nil)
        #expect(try replay(path, spec: spec, options: o).cell(.enRoute, .helper).deliveredFixes == 2)
    }
}
