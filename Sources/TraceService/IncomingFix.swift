import CTracePlatform
public import TraceDomain
public import TraceGeodesy

/// A fix as a service's receive loop hands it on: which of its requests it is for (an index in the
/// service's array of ``LiveRequest``), the phone that sent it, where and when it was taken, and
/// its reported speed when the phone gives one. 56 bytes in an array.
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
    /// the batch asks the processor for the requests of the fixes 12 places ahead (a prefetch
    /// hint, `__builtin_prefetch` through CTracePlatform, inlined here), so those reads overlap
    /// and each fix finds its request in the cache: Benchmarks/README.md ("Live requests") gives
    /// both figures. No allocation per fix: `decisions` grows only when it lacks room for the
    /// batch, then at least doubling (empty it keeping its capacity between batches).
    ///
    /// - Precondition: every fix's ``IncomingFix/request`` is an index of this array.
    public mutating func receive(_ batch: [IncomingFix], into decisions: inout [RelayDecision]) {
        if decisions.capacity - decisions.count < batch.count {
            decisions.reserveCapacity(Swift.max(decisions.count + batch.count, 2 * decisions.capacity))
        }
        let ahead = Self.prefetchDistance, last = LiveRequest.bytesReadPerFix - 1
        withUnsafeMutableBufferPointer { requests in
            batch.withUnsafeBufferPointer { fixes in
                /// Asks for the request of the fix at `j`, if there is one: every cache line of the
                /// bytes a fix reads (``LiveRequest/bytesReadPerFix``, 80 of the 97: the policy, the
                /// state and flags, both senders' memories), which at 104 bytes apart may span three
                /// lines (the second is the one at `start + 64`).
                func fetch(_ j: Int) {
                    guard j < fixes.count, let base = requests.baseAddress else { return }
                    let r = fixes[j].request
                    guard r >= 0, r < requests.count else { return }
                    let start = UnsafeRawPointer(base + r)
                    tracekit_prefetch_for_writing(start)
                    tracekit_prefetch_for_writing(start + 64)
                    tracekit_prefetch_for_writing(start + last)
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
