// Readable values: printing a role, a state, a tier or a category (also inside another value:
// `print(action)`) shows the key a policy file and the JSON use, not `TraceDomain.Role.hirer`.

extension Role: CustomStringConvertible {
    /// The ``key``: "hirer", "helper" or "delegate".
    public var description: String { key }
}

extension FulfilmentState: CustomStringConvertible {
    /// The ``key``, e.g. "enRoute" (``displayName`` is the document's "En Route").
    public var description: String { key }
}

extension AccuracyTier: CustomStringConvertible {
    /// The ``key``, e.g. "nearestTenMeters".
    public var description: String { key }
}

extension BatteryLevel: CustomStringConvertible {
    /// The ``displayName``, e.g. "Very High".
    public var description: String { displayName }
}

extension RequestCategory: CustomStringConvertible {
    /// The name, marked when the category is a ride: "ride", "taxi (a ride)", "dog walking".
    public var description: String { isRide && name != "ride" ? "\(name) (a ride)" : name }
}

extension RoleSet: CustomStringConvertible {
    /// The roles in ``Role`` order, comma-separated, or "nobody": "hirer, delegate".
    public var description: String { isEmpty ? "nobody" : roles.map(\.key).joined(separator: ", ") }
}
