// libFuzzer target: the PLT (OziExplorer) reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = PLTReader(bytes: bytes, name: "fuzz.plt")
    drain(&reader)
}

fuzzMain(fuzzOne)
