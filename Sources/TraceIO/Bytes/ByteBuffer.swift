/// A growable byte buffer for the scanner's scratch storage (captured text, decoded attribute
/// values, the open elements' names): appends are a capacity check and a copy, with no
/// uniqueness check or generic collection code.
final class ByteBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The contents, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// Bytes `r` of the contents, valid until the next change.
    subscript(r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + r.lowerBound, count: r.count) }

    /// Keeps the first `n` bytes (storage is kept).
    func removeAll(from n: Int = 0) { count = n }

    func append(_ b: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = b
        count += 1
    }

    func append(_ p: UnsafePointer<UInt8>, count n: Int) {
        if count + n > capacity { grow(to: count + n) }
        (storage + count).initialize(from: p, count: n)
        count += n
    }

    private func grow(to needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = c
    }
}
