#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Distance and two azimuths as one line's text: `distance` with `decimals` digits, the azimuths
/// with `decimals + 5` (one `vsnprintf` call, `%.*f %.*f %.*f`).
func fixedTriple(_ distance: Double, _ azimuth1: Double, _ azimuth2: Double, decimals: Int) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buf in
        let d = Int32(decimals), a = Int32(decimals + 5)
        let n = withVaList([d, distance, a, azimuth1, a, azimuth2]) { vsnprintf(buf.baseAddress!, 1024, "%.*f %.*f %.*f", $0) }
        return String(decoding: UnsafeRawBufferPointer(start: buf.baseAddress!, count: Int(min(n, 1023))), as: UTF8.self)
    }
}
