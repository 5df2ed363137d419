// libFuzzer target: the KML reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    // Item by item and in batches: the same items, error and diagnostics.
    drainBothWays { KMLReader(bytes: bytes, name: "fuzz.kml") }
}

fuzzMain(fuzzOne)
