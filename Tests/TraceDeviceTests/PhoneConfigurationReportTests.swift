import Testing
import TraceDevice
import TraceJSON
import TraceSharing

/// What a report prints about a phone's emulation: the seed whenever emulation is on.
@Suite("Phone configuration in reports")
struct PhoneConfigurationReportTests {
    @Test(
        "summary and JSON, case by case",
        arguments: [
            (
                PhoneConfiguration(),
                "accuracy emulation off; smoothing off; accuracy convention ios; delivery per state",
                #"{"accuracyEmulation":{"noise":"off"},"smoothing":{"mode":"off"},"accuracyConvention":"ios","deliveryOverride":null}"#
            ),
            (
                PhoneConfiguration(accuracyEmulation: .white, seed: 42),
                "accuracy emulation white, seed 42; smoothing off; accuracy convention ios; delivery per state",
                #"{"accuracyEmulation":{"noise":"white","seed":"42"},"smoothing":{"mode":"off"},"accuracyConvention":"ios","deliveryOverride":null}"#
            ),
            (
                PhoneConfiguration(
                    accuracyEmulation: .gaussMarkov(), seed: UInt64.max, smoothing: .on(mode: .walk), convention: .android,
                    deliveryOverride: .androidFused(interval: 10, minUpdateInterval: nil)),
                "accuracy emulation Gauss–Markov (τ 60 s), seed 18446744073709551615; smoothing walk (gate 13.8); accuracy convention android; delivery Android fused: interval 10 s, min update 10 s (implicit)",
                #"{"accuracyEmulation":{"noise":"gaussMarkov","tauSeconds":60,"seed":"18446744073709551615"},"smoothing":{"mode":"walk","gate":13.8},"accuracyConvention":"android","deliveryOverride":{"model":"androidFused","intervalSeconds":10,"minUpdateIntervalSeconds":null}}"#
            ),
            (
                PhoneConfiguration(seed: 7, smoothing: .on(mode: .drive, gate: 9.2)),
                "accuracy emulation off; smoothing drive (gate 9.2); accuracy convention ios; delivery per state",
                #"{"accuracyEmulation":{"noise":"off"},"smoothing":{"mode":"drive","gate":9.2},"accuracyConvention":"ios","deliveryOverride":null}"#
            ),
        ])
    func report(configuration: PhoneConfiguration, summary: String, json: String) throws {
        #expect(configuration.summary == summary)
        let written = JSONWriter.string(configuration.json)
        // Compare as values, not as text (the writer's spacing is its own).
        #expect(try JSONParser.parse(written) == JSONParser.parse(json), "\(written)")
    }
}
