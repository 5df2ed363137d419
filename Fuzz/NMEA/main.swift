// libFuzzer target: the NMEA 0183 reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = NMEAReader(bytes: bytes, name: "fuzz.nmea")
    drain(&reader)
}

fuzzMain(fuzzOne)
