internal import CTracePlatform

extension Platform {
    /// Asks the processor to fetch the cache line holding `address` for writing, without waiting
    /// for it: a hint that lets the memory reads of several items overlap (a loop fetches the item
    /// it will reach a few iterations later). Never faults, whatever the address; does nothing
    /// where the compiler has no prefetch instruction.
    @inline(__always)
    package static func prefetch(forWriting address: UnsafeRawPointer) {
        tracekit_prefetch_for_writing(address)
    }
}
