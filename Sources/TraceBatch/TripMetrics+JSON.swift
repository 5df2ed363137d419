public import TraceJSON

extension TripMetrics {
    /// The rows as in a baseline and a shard line: `[{"state", "role", METRIC: number|null…}]`,
    /// every ``GateMetric`` (null: no value).
    public var json: JSONValue {
        .array(
            rows.map { r in
                .object(
                    [("state", .string(r.state.key)), ("role", .string(r.role.key))]
                        + GateMetric.allCases.map { m in (m.rawValue, r.values[m].map { .number($0) } ?? .null) })
            })
    }

    /// Reads ``json`` back; `reader` names the file in errors.
    public init(json v: JSONValue?, _ path: String, reader: some JSONFieldReading) throws(JSONFileError) {
        var rows: [GateRow] = []
        for (j, r) in try reader.array(v, path).enumerated() {
            let q = "\(path)[\(j)]"
            _ = try reader.object(r, q, allowed: ["state", "role"] + GateMetric.allCases.map(\.rawValue))
            let (state, role) = try PooledViews.place(r, q, reader: reader)
            var values: [GateMetric: Double] = [:]
            for m in GateMetric.allCases {
                guard let x = r[m.rawValue] else {
                    throw reader.fail(r, "\(q).\(m.rawValue)", "missing (null when the figure has no value)")
                }
                switch x.kind {
                case .null: break
                case .number(let n) where n >= 0: values[m] = n
                default: throw reader.fail(x, "\(q).\(m.rawValue)", "expected a number ≥ 0 or null, found \(x.typeName)")
                }
            }
            rows.append(GateRow(state: state, role: role, values: values))
        }
        self.init(rows: rows)
    }
}
