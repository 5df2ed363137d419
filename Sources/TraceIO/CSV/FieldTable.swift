/// A value per ``CSVField``, stored by the field's raw value (no hashing per row).
struct FieldTable<Value> {
    private var values = [Value?](repeating: nil, count: CSVField.allCases.count)

    subscript(field: CSVField) -> Value? {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }
}
