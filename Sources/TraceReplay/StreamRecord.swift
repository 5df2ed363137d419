import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// Pass one's record of one role in one file.
struct StreamRecord {
    let path: String
    let role: Role
    let defaultRole: Role
    var named = false
    /// Timed fixes.
    var fixes = 0
    /// Track points without a time (they cannot be placed on the clock: not replayed).
    var untimed = 0
    /// Whether any fix's time is before the previous one's.
    var unordered = false
    var lastTime = Int64.min
    /// The fixes, while there are at most the buffer limit; nil once over it.
    var buffer: FixColumns? = FixColumns()
    var scanner: RoleScanner
    /// The CSV `state` column's changes, in file order.
    var stateChanges: [(state: String, time: Int64)] = []
    var lastStateLabel: String?

    init(path: String, role: Role, defaultRole: Role, rules: InferenceRules) {
        self.path = path
        self.role = role
        self.defaultRole = defaultRole
        scanner = RoleScanner(rules: rules)
    }
}
