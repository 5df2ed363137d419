#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `value` with exactly `decimals` digits after the point (C `%.*f`, correctly rounded).
func fixed(_ value: Double, _ decimals: Int) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 400) { buf in
        let n = withVaList([Int32(decimals), value]) { vsnprintf(buf.baseAddress!, 400, "%.*f", $0) }
        return String(decoding: UnsafeRawBufferPointer(start: buf.baseAddress!, count: Int(min(n, 399))), as: UTF8.self)
    }
}
