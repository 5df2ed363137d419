// TraceKit's C shim for what Swift cannot spell: a prefetch hint. Used by TraceService, where the
// static inline function is inlined into the batch loop.
#ifndef CTRACEPLATFORM_H
#define CTRACEPLATFORM_H

/// Asks the processor to bring the cache line holding `address` into its caches, for writing,
/// without waiting for it: a hint (GCC and Clang's `__builtin_prefetch`), never a fault, even for
/// an address that is not mapped.
static inline void tracekit_prefetch_for_writing(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
