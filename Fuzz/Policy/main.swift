// libFuzzer target: the sharing-policy file (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceSharing

func fuzzOne(_ bytes: [UInt8]) {
    // A thrown PolicyFileError is the right outcome for a bad file.
    _ = try? SharingPolicy(fileBytes: bytes, file: "fuzz.policy.json")
}

fuzzMain(fuzzOne)
