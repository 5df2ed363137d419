// libFuzzer target: the REC (OwnTracks) reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = RECReader(bytes: bytes, name: "fuzz.rec")
    drain(&reader)
}

fuzzMain(fuzzOne)
