/// A JSON value with the position it was read from, so validation errors can name file, line
/// and column as well as the field. Equality compares values only, not positions.
public struct JSONValue: Sendable, Equatable {
    /// The value itself.
    public var kind: Kind
    /// 1-based line of the value's first character (0 for values built in code).
    public var line: Int
    /// 1-based column (in UTF-8 bytes) of the value's first character.
    public var column: Int

    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// A number, as the finite double nearest its text.
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in file order; keys are unique (the parser rejects duplicates).
        case object([(key: String, value: JSONValue)])

        public static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.null, .null): true
            case (.bool(let x), .bool(let y)): x == y
            case (.number(let x), .number(let y)): x == y
            case (.string(let x), .string(let y)): x == y
            case (.array(let x), .array(let y)): x == y
            case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.kind == b.kind }

    public init(_ kind: Kind, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// The member named `key` of an object, or nil (also for non-objects).
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = kind { return members.first { $0.key == key }?.value }
        return nil
    }

    /// A short name of the value's type for messages: "null", "a boolean", "a number", ….
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
