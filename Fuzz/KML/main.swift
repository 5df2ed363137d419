// libFuzzer target: the KML reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    chooseFormat(bytes, name: "fuzz.xml")  // the content check a file of another name goes through
    // Item by item and in batches: the same items, error and diagnostics.
    drainBothWays { KMLReader(bytes: bytes, name: "fuzz.kml") }
}

fuzzMain(fuzzOne)
