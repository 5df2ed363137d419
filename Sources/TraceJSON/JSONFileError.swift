/// A JSON file that could not be used: where, which field, and why, as one line. Every file format
/// of the project (policies, energy profiles, scenarios, baselines, tolerances) reports with it.
public struct JSONFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name as given.
    public var file: String
    /// 1-based line and column of the offending value (0 when it is a missing member).
    public var line: Int
    public var column: Int
    /// The field's path, e.g. "states.enRoute.distanceFilterMetres" (empty for syntax errors).
    public var field: String
    /// What is wrong.
    public var message: String

    /// An error at `line` and `column` of `file` (0 and 0 for a missing member), about `field`.
    public init(file: String, line: Int, column: Int, field: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// An error about value `v` (nil: a missing member) at `field` of `file`.
    public init(file: String, _ v: JSONValue?, _ field: String, _ message: String) {
        self.init(file: file, line: v?.line ?? 0, column: v?.column ?? 0, field: field, message: message)
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return field.isEmpty ? "\(place): \(message)" : "\(place): \(field): \(message)"
    }
}

/// Reading a parsed JSON document member by member, with ``JSONFileError``s that name the file,
/// the value's line and column and the member's path: what the project's file readers share.
/// Text from the file appears in messages with JSON's escapes, so every message stays on one line.
public protocol JSONFieldReading {
    /// The file's name, for messages.
    var file: String { get }
}

extension JSONFieldReading {
    /// An error about `v` (nil: missing) at `path`.
    public func fail(_ v: JSONValue?, _ path: String, _ message: String) -> JSONFileError {
        JSONFileError(file: file, v, path, message)
    }

    /// `text` as a message shows it: with JSON's escapes (a line break becomes `\n`).
    public func shown(_ text: String) -> String { String(JSONWriter.quoted(text).dropFirst().dropLast()) }

    /// The members of object `v`, refusing any not in `allowed`.
    public func members(_ v: JSONValue, _ path: String, allowed: [String]) throws(JSONFileError) -> [(key: String, value: JSONValue)] {
        guard case .object(let m) = v.kind else { throw fail(v, path, "expected an object, found \(v.typeName)") }
        for (key, value) in m where !allowed.contains(key) {
            throw fail(
                value, path.isEmpty ? shown(key) : "\(path).\(shown(key))",
                "unknown member; expected one of \(allowed.joined(separator: ", "))")
        }
        return m
    }

    /// A string value.
    public func string(_ v: JSONValue, _ path: String) throws(JSONFileError) -> String {
        guard case .string(let s) = v.kind else { throw fail(v, path, "expected a string, found \(v.typeName)") }
        return s
    }

    /// A boolean value.
    public func bool(_ v: JSONValue, _ path: String) throws(JSONFileError) -> Bool {
        guard case .bool(let b) = v.kind else { throw fail(v, path, "expected true or false, found \(v.typeName)") }
        return b
    }

    /// A number of `unit` in `range` (excluding its lower bound when `lowerOpen`).
    public func number(_ v: JSONValue, _ path: String, in range: ClosedRange<Double>, lowerOpen: Bool = false, unit: String)
        throws(JSONFileError) -> Double
    {
        guard case .number(let x) = v.kind else { throw fail(v, path, "expected a number of \(unit), found \(v.typeName)") }
        let low = lowerOpen ? "greater than \(JSONWriter.number(range.lowerBound))" : "at least \(JSONWriter.number(range.lowerBound))"
        guard range.contains(x), !(lowerOpen && x == range.lowerBound) else {
            throw fail(v, path, "must be \(low) and at most \(JSONWriter.number(range.upperBound)) \(unit), got \(JSONWriter.number(x))")
        }
        return x
    }
}
