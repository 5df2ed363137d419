public import TraceJSON

/// The members of the batch's files (baselines, shard lines), read with errors that name the
/// file, the value's line and column and the member's path.
extension JSONFieldReading {
    /// Object `v` at `path`, refusing members not in `allowed`; a missing `v` is an error.
    public func object(_ v: JSONValue?, _ path: String, allowed: [String]) throws(JSONFileError) -> JSONValue {
        guard let v else { throw fail(nil, path, "missing") }
        _ = try members(v, path, allowed: allowed)
        return v
    }

    /// A string member; missing is an error.
    public func string(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> String {
        guard let v else { throw fail(nil, path, "missing") }
        return try string(v, path)
    }

    /// A whole number (|x| < 10⁹, or `limit`); missing is an error. The message says which of
    /// the three it is not: a number, whole, or within the limit.
    public func int(_ v: JSONValue?, _ path: String, limit: Double = 1e9) throws(JSONFileError) -> Int {
        guard let v else { throw fail(nil, path, "missing") }
        guard case .number(let x) = v.kind else { throw fail(v, path, "expected a whole number, found \(v.typeName)") }
        guard x == x.rounded() else { throw fail(v, path, "expected a whole number, got \(JSONWriter.number(x))") }
        guard abs(x) < limit else {
            throw fail(v, path, "\(JSONWriter.number(x)) is beyond this field's limit (less than \(JSONWriter.number(limit)) in magnitude)")
        }
        return Int(x)
    }

    /// A finite number ≥ 0; missing is an error.
    public func nonNegative(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> Double {
        guard let v else { throw fail(nil, path, "missing") }
        guard case .number(let x) = v.kind, x >= 0 else { throw fail(v, path, "expected a number ≥ 0, found \(v.typeName)") }
        return x
    }

    /// A boolean member; missing is an error.
    public func bool(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> Bool {
        guard let v else { throw fail(nil, path, "missing") }
        return try bool(v, path)
    }

    /// The items of array `v`; missing is an error.
    public func array(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> [JSONValue] {
        guard let v else { throw fail(nil, path, "missing") }
        guard case .array(let items) = v.kind else { throw fail(v, path, "expected an array, found \(v.typeName)") }
        return items
    }
}
