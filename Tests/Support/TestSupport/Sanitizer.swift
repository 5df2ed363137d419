/// Which sanitizer this build runs under: `make test-sanitize` builds with
/// `-DTRACEKIT_SANITIZER` and `-DTRACEKIT_SANITIZER_ADDRESS` or `-DTRACEKIT_SANITIZER_THREAD`
/// (README, "Sanitizers"). Tests whose premise a sanitizer's runtime breaks are disabled by these,
/// each saying why.
#if TRACEKIT_SANITIZER_THREAD
    public let sanitizer: String? = "thread"
#elseif TRACEKIT_SANITIZER_ADDRESS
    public let sanitizer: String? = "address"
#elseif TRACEKIT_SANITIZER
    public let sanitizer: String? = "unknown"
#else
    public let sanitizer: String? = nil
#endif
