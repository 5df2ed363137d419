// libFuzzer target: the NMEA 0183 reader (see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    var reader = NMEAReader(bytes: bytes, name: "fuzz.nmea")
    drain(&reader)
    // Again with --date (a log's fixes before any date in the file take it).
    var options = ReadOptions()
    options.date = 19_844  // 2024-05-01
    var dated = NMEAReader(bytes: bytes, name: "fuzz.nmea", options: options)
    drain(&dated)
}

fuzzMain(fuzzOne)
