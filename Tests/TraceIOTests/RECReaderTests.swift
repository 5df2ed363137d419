import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TraceIO

private func readREC(_ lines: [String], options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(RECReader(bytes: Array(lines.map { $0 + "\n" }.joined().utf8), options: options))
}

private func rec(_ json: String, time: String = "2015-08-24T05:55:07Z", topic: String = "*                 ") -> String {
    "\(time)\t\(topic)\t\(json)"
}

@Suite("REC reader")
struct RECReaderTests {
    @Test("location records: lat, lon, tst, acc, alt, vac, vel (km/h), cog, tid")
    func location() throws {
        let r = try readREC([
            rec(
                #"{"tst":1440395361,"acc":3000,"_type":"location","alt":51,"lon":10.02785726730668,"vac":29,"vel":-1,"lat":52.37888580984668,"cog":-1,"tid":"NE","batt":96}"#
            ),
            rec(
                #"{"_type":"location","tst":1440403798,"acc":5,"alt":166,"lon":12.71,"vac":6,"vel":36,"lat":51.26,"cog":118,"tid":"NE"}"#,
                topic: "owntracks/jane/phone"),
        ])
        #expect(r.shape == "T S P P")
        let a = r.points[0], b = r.points[1]
        #expect(a.coordinate == (try Coordinate(latitude: 52.37888580984668, longitude: 10.02785726730668)))
        #expect(a.time == Timestamp(nanoseconds: 1_440_395_361 * 1_000_000_000))
        #expect(a.horizontalAccuracy == 3000 && a.elevation == 51 && a.verticalAccuracy == 29)
        #expect(a.speed == nil && a.course == nil)
        #expect(a.name == "NE")
        #expect(b.speed == 10 && b.course == 118)
        #expect(r.diagnostics.isClean)
    }

    @Test("other record types are skipped and counted in one assumption")
    func skipped() throws {
        let r = try readREC([
            rec(#"{"tst":"1440363922","_type":"lwt"}"#),
            rec(#"{"_type":"location","tst":1440395361,"lat":1,"lon":2}"#),
            rec(#"{"_type":"transition","tst":1440395362,"event":"enter"}"#),
            rec(#"{"tst":"1440363922","_type":"lwt"}"#),
            rec(#"{"tst":1440363922}"#),
        ])
        #expect(r.points.count == 1)
        #expect(r.diagnostics.assumptions == ["skipped 4 non-location records (lwt 2, transition 1, (no _type) 1)"])
    }

    @Test("tst as a numeric string; missing tst is a missing time; a bad tst is unreadable")
    func times() throws {
        let r = try readREC([
            rec(#"{"_type":"location","tst":"1440395361","lat":1,"lon":2}"#),
            rec(#"{"_type":"location","lat":1,"lon":2}"#),
            rec(#"{"_type":"location","tst":"soon","lat":1,"lon":2}"#),
            rec(#"{"_type":"location","tst":true,"lat":1,"lon":2}"#),
        ])
        #expect(r.points.count == 4)
        #expect(r.points[0].time == Timestamp(nanoseconds: 1_440_395_361 * 1_000_000_000))
        #expect(r.count(.missingTime) == 1)
        #expect(r.count(.invalidTime) == 2)
    }

    @Test("bad positions are dropped; bad values reported and left out")
    func problems() throws {
        let r = try readREC([
            rec(#"{"_type":"location","tst":1,"lon":2}"#),
            rec(#"{"_type":"location","tst":2,"lat":"52.1","lon":2}"#),
            rec(#"{"_type":"location","tst":3,"lat":95,"lon":2}"#),
            rec(#"{"_type":"location","tst":4,"lat":1,"lon":2,"acc":-5,"cog":400,"vel":-3,"vac":"x"}"#),
        ])
        #expect(r.points.count == 1)
        #expect(r.count(.missingCoordinate) == 1)
        #expect(r.count(.invalidCoordinate) == 2)
        #expect(r.count(.invalidValue) == 4)
        let f = r.points[0]
        #expect(f.horizontalAccuracy == nil && f.course == nil && f.speed == nil && f.verticalAccuracy == nil)
    }

    @Test("a first line that is not a record: not a .rec file")
    func notREC() {
        for text in ["lat,lon\n1,2\n", "2015-08-24T05:55:07Z\t*\tnot json\n", "hello\tworld\t{}\n", "{\"_type\":\"location\"}\n"] {
            let e = readError { () throws(TraceReadError) in try readTrace(RECReader(bytes: Array(text.utf8))) }
            #expect(e?.line == 1, "\(text)")
            #expect(e?.message.hasPrefix("not an OwnTracks .rec file") == true, "\(text)")
        }
    }

    @Test("a later unreadable line (bad JSON, NaN, truncated last line) is a dropped point counted at its line; fatal under fail")
    func unreadable() throws {
        let lines = [
            rec(#"{"_type":"location","tst":1440395361,"lat":1,"lon":2}"#),
            rec(#"{"_type":"location","tst":1440395362,"lat":1,"lon":2,,}"#),
            rec(#"{"_type":"location","tst":1440395363,"lat":1,"lon":2}"#),
            rec(#"{"_type":"location","tst":1440395364,"lat":NaN,"lon":2}"#),
            rec(#"{"_type":"location","tst":1440395364,"la"#),
        ]
        let r = try readREC(lines)
        #expect(r.points.count == 2)
        #expect(r.diagnostics.assumptions.isEmpty)
        #expect(r.diagnostics.pointsDropped == 3 && r.diagnostics.counts[.unreadableRecord] == 3)
        #expect(r.diagnostics.examples.map(\.line) == [2, 4, 5])
        #expect(r.diagnostics.examples[0].detail.hasPrefix("JSON:"))
        let e = readError { () throws(TraceReadError) in try readREC(lines, options: ReadOptions(policy: .fail)) }
        #expect(e?.line == 2)
        #expect(e?.column ?? 0 > 30)
    }

    @Test("blank lines are skipped; no final line end is fine")
    func framing() throws {
        let text =
            "\n" + rec(#"{"_type":"location","tst":1,"lat":1,"lon":2}"#) + "\r\n\r\n"
            + rec(#"{"_type":"location","tst":2,"lat":1,"lon":3}"#)
        let r = try readTrace(RECReader(bytes: Array(text.utf8)))
        #expect(r.points.count == 2)
    }

    @Test(
        "the OwnTracks iPhone stream: 23 locations, 2 lwt records skipped",
        .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
    func corpusFile() throws {
        let reader = try openTrace(corpus("other/owntracks-demo-iphone.rec"))
        #expect(reader.format == .rec)
        let r = try readTrace(reader)
        #expect(r.points.count == 23)
        #expect(r.shape.hasPrefix("T S P"))
        #expect(r.tracks == 1 && r.segments == 1)
        #expect(r.diagnostics.counts.isEmpty)
        #expect(r.diagnostics.assumptions == ["skipped 2 non-location records (lwt 2)"])
        #expect(r.points.first?.time == utc("2015-08-24T05:49:21Z"))
        let span = Double(r.points.last!.time!.nanoseconds - r.points.first!.time!.nanoseconds) / 60e9
        #expect(abs(span - 170.7) < 0.05)
        let acc = r.points.compactMap(\.horizontalAccuracy)
        #expect(acc.count == 23 && acc.min() == 5 && acc.max() == 5000)
        #expect(r.points.compactMap(\.speed).count == 8)
        #expect(r.points.compactMap(\.course).count == 7)
        #expect(r.points.allSatisfy { $0.name == "NE" && $0.elevation != nil && $0.verticalAccuracy != nil })
    }
}
