// The JSON read case's baseline: Foundation's JSONSerialization decoding the generated
// Records.json into the same values (kept in its own file: main.swift does not import Foundation).
import Foundation
import TraceDomain
import TraceIO

/// Decodes `path` (`{"locations": [{latitudeE7, longitudeE7, accuracy, timestamp}, …]}`) with
/// JSONSerialization, reads each record's values as the reader does (E7 degrees, ISO time through
/// TraceIO's own `Timestamp.parseISO8601`, so only the JSON layers differ) and returns their sum
/// and the record count.
func foundationRecordsSum(_ path: String) -> (sum: Double, records: Int) {
    let data = try! Data(contentsOf: URL(fileURLWithPath: path))
    let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    let locations = root["locations"] as! [[String: Any]]
    var sum = 0.0
    for l in locations {
        let lat = (l["latitudeE7"] as! NSNumber).doubleValue / 1e7
        let accuracy = (l["accuracy"] as? NSNumber)?.doubleValue ?? 0
        let time = Timestamp.parseISO8601((l["timestamp"] as! String)[...])!.timestamp
        sum += lat + accuracy + Double(time.nanoseconds) * 1e-18
    }
    return (sum, locations.count)
}
