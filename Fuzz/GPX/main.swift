// libFuzzer target: the GPX reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing"):
// read item by item and in batches, which must agree.
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    chooseFormat(bytes, name: "fuzz.txt")  // the content check a file of another name goes through
    drainBothWays { GPXReader(bytes: bytes, name: "fuzz.gpx") }
}

fuzzMain(fuzzOne)
