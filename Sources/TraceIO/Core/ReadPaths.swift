/// The fast paths a reader may take besides its general one. The public initializers always take
/// them all; the tests give fewer, at initialisation (the internal initializers), to compare each
/// path with the general one. Fixed for the reader's life: nothing can change it mid-read.
struct ReadPaths: OptionSet, Sendable {
    let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Plain rows or points: CSV rows split by the row scanner's block scan
    /// (``RowScanner/plainRows``), GPX points read whole from the XML scanner
    /// (``GPXReader/plainPoint()``).
    static let plain = ReadPaths(rawValue: 1 << 0)
    /// Fused rows or points: scanned, parsed and checked in one pass in the window
    /// (``CSVReader/fusedRow(_:_:into:)``, ``GPXReader/fusedPoint(into:)``); taken only together
    /// with ``plain``.
    static let fused = ReadPaths(rawValue: 1 << 1)
    /// Every path: what production readers take.
    static let all: ReadPaths = [.plain, .fused]

    /// The paths with plain and fused on or off.
    init(plain: Bool, fused: Bool) {
        self = []
        if plain { insert(.plain) }
        if fused { insert(.fused) }
    }
}
