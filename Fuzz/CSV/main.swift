// libFuzzer target: the CSV reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing"):
// read item by item and in batches, which must agree.
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    drainBothWays { CSVReader(bytes: bytes, name: "fuzz.csv") }
}

fuzzMain(fuzzOne)
