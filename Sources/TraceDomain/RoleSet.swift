/// A set of roles in one byte, for allocation-free answers.
public struct RoleSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let hirer = RoleSet(.hirer)
    public static let helper = RoleSet(.helper)
    public static let delegate = RoleSet(.delegate)

    /// The set holding just `role`.
    public init(_ role: Role) { rawValue = 1 << UInt8(role.rawValue) }

    /// The roles in the set, in ``Role`` order.
    public var roles: [Role] { Role.allCases.filter { contains(RoleSet($0)) } }
}
