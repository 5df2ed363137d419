/// A bounded, evenly thinned record of a stream: keeps every `stride`-th element, doubling the
/// stride (and dropping every other kept element) whenever more than `limit` are held, and always
/// the last element offered. Deterministic: which elements are kept depends only on their count.
///
/// Memory: at most `limit + 1` elements (the kept ones and the last). Each element offered costs
/// O(1) amortised (a halving copies at most `limit` elements and happens once per doubling).
struct Thinned<Element> {
    let limit: Int
    private(set) var kept: [Element] = []
    private var stride = 1
    private var offered = 0
    private var last: Element?
    /// Whether the last element offered was kept (so ``elements`` does not repeat it).
    private var lastKept = false

    /// `limit` ≥ 2.
    init(limit: Int) {
        precondition(limit >= 2, "a thinned record keeps at least two elements")
        self.limit = limit
    }

    /// Whether the next element offered will be kept (for callers that compute it lazily).
    var keepsNext: Bool { offered % stride == 0 }

    /// Elements offered so far.
    var count: Int { offered }

    mutating func add(_ x: Element) {
        if keepsNext {
            kept.append(x)
            lastKept = true
            if kept.count > limit {
                // Keep the elements at multiples of the doubled stride: the even positions.
                var halved: [Element] = []
                halved.reserveCapacity(limit / 2 + 1)
                for i in Swift.stride(from: 0, to: kept.count, by: 2) { halved.append(kept[i]) }
                kept = halved
                stride *= 2
                lastKept = offered % stride == 0
            }
        } else {
            lastKept = false
        }
        last = x
        offered += 1
    }

    /// The kept elements in order, then the last one offered when it was not kept.
    var elements: [Element] {
        guard !lastKept, let last else { return kept }
        return kept + [last]
    }
}
