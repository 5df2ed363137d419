#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// `strtod` of the NUL-terminated `text` with the "C" locale's decimal point in force for this
    /// thread during the call (`uselocale`), whatever a host's `setlocale` chose.
    package static func parseDouble(_ text: UnsafePointer<CChar>) -> Double {
        #if canImport(Glibc)
            guard let locale = cNumericLocale.value else { return Glibc.strtod(text, nil) }
            let previous = Glibc.uselocale(locale)
            defer { Glibc.uselocale(previous) }
            return Glibc.strtod(text, nil)
        #elseif canImport(Darwin)
            guard let locale = cNumericLocale.value else { return Darwin.strtod(text, nil) }
            let previous = Darwin.uselocale(locale)
            defer { Darwin.uselocale(previous) }
            return Darwin.strtod(text, nil)
        #endif
    }
}

/// The POSIX "C" locale for `LC_NUMERIC`, created once and never freed.
private struct CLocale: @unchecked Sendable {
    // `locale_t` is an immutable handle once created; sharing it between threads is safe.
    let value: locale_t?
}

#if canImport(Glibc)
    private let cNumericLocale = CLocale(value: Glibc.newlocale(1 << LC_NUMERIC, "C", nil))  // 1 << LC_NUMERIC: LC_NUMERIC_MASK
#elseif canImport(Darwin)
    private let cNumericLocale = CLocale(value: Darwin.newlocale(LC_NUMERIC_MASK, "C", nil))
#endif
