// libFuzzer target: the CSV reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = CSVReader(bytes: bytes, name: "fuzz.csv")
    drain(&reader)
}

fuzzMain(fuzzOne)
