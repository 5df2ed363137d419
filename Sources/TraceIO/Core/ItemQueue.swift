/// Items a reader has produced but not yet returned (a structure marker and a point can come out
/// of one element or row): first in, first out, storage reused.
struct ItemQueue {
    private var items: [TraceItem] = []
    private var head = 0

    /// Whether no item is waiting.
    var isEmpty: Bool { head == items.count }

    mutating func push(_ item: TraceItem) { items.append(item) }

    /// The oldest item, or nil when empty.
    mutating func pop() -> TraceItem? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return item
    }
}
