// libFuzzer target: the NDJSON reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = NDJSONReader(bytes: bytes, name: "fuzz.ndjson")
    drain(&reader)
}

fuzzMain(fuzzOne)
