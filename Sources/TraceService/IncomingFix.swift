public import TraceDomain
public import TraceGeodesy
import TracePlatform

/// A fix as a service's receive loop hands it on: which of its requests it is for (an index in the
/// service's array of ``LiveRequest``), the phone that sent it, where and when it was taken, and
/// its reported speed when the phone gives one. 48 bytes.
public struct IncomingFix: Hashable, Sendable {
    /// The request's index in the array the batch is decided against.
    public var request: Int
    /// The phone that sent it.
    public var sender: Role
    /// Where it was taken.
    public var coordinate: Coordinate
    /// When it was taken.
    public var time: Timestamp
    /// Its reported speed, m/s, or nil.
    public var speed: Double?

    public init(request: Int, sender: Role, coordinate: Coordinate, time: Timestamp, speed: Double? = nil) {
        self.request = request
        self.sender = sender
        self.coordinate = coordinate
        self.time = time
        self.speed = speed
    }
}

extension Array where Element == LiveRequest {
    /// How many fixes ahead a batch fetches the requests it will reach.
    static var prefetchDistance: Int { 12 }

    /// Decides every fix of `batch`, in order, each as the request at its index would decide it
    /// alone (``LiveRequest/receive(_:from:at:speed:)``), and appends the decisions to
    /// `decisions` in the same order.
    ///
    /// The answers are exactly those of the fixes received one by one; what changes is the time. A
    /// fix for one request among a million costs one read of main memory (a request is 104 bytes
    /// in an array, beyond the caches), which the decision then waits for. While deciding a fix,
    /// the batch asks the processor for the requests of the fixes 12 places ahead, so those reads
    /// overlap and each fix finds its request in the cache: Benchmarks/README.md ("Live
    /// requests") gives both figures. No allocation per fix (give `decisions` its capacity once,
    /// and empty it keeping its capacity between batches).
    ///
    /// - Precondition: every fix's ``IncomingFix/request`` is an index of this array.
    public mutating func receive(_ batch: [IncomingFix], into decisions: inout [RelayDecision]) {
        decisions.reserveCapacity(decisions.count + batch.count)
        let ahead = Self.prefetchDistance
        withUnsafeMutableBufferPointer { requests in
            batch.withUnsafeBufferPointer { fixes in
                /// Asks for the request of the fix at `j`, if there is one: its first and last
                /// bytes, as a request may straddle two cache lines.
                func fetch(_ j: Int) {
                    guard j < fixes.count, let base = requests.baseAddress else { return }
                    let r = fixes[j].request
                    guard r >= 0, r < requests.count else { return }
                    let start = UnsafeRawPointer(base + r)
                    Platform.prefetch(forWriting: start)
                    Platform.prefetch(forWriting: start + (MemoryLayout<LiveRequest>.size - 1))
                }
                for j in 0..<Swift.min(ahead, fixes.count) { fetch(j) }
                for i in fixes.indices {
                    fetch(i + ahead)
                    let fix = fixes[i]
                    precondition(
                        requests.indices.contains(fix.request), "IncomingFix.request \(fix.request) is not an index of the requests")
                    decisions.append(requests[fix.request].receive(fix.coordinate, from: fix.sender, at: fix.time, speed: fix.speed))
                }
            }
        }
    }
}
