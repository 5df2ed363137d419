// libFuzzer target: the GPX reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = GPXReader(bytes: bytes, name: "fuzz.gpx")
    drain(&reader)
}

fuzzMain(fuzzOne)
