// libFuzzer target: the scenario sidecar (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceReplay

func fuzzOne(_ bytes: [UInt8]) {
    // A thrown ScenarioFileError is the right outcome for a bad sidecar. Trace paths are only
    // resolved here, never opened.
    _ = try? ScenarioSpec(sidecarBytes: bytes, file: "fuzz/fuzz.scenario.json")
}

fuzzMain(fuzzOne)
