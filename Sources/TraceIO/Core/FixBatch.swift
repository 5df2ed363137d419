public import TraceDomain
public import TraceGeodesy

/// Items of a trace in columns (struct of arrays), filled by ``TraceReader/read(into:limit:)``:
/// the same items, in the same order, as that many calls of ``TraceReader/next()`` would return,
/// without handing each one out on its own.
///
/// Every item has a kind and a row in every column. A point's row holds its coordinate, time,
/// elevation, horizontal accuracy, HDOP and speed (each nil when the point has none); a structure
/// marker's row holds a zero coordinate and no values. An item carrying anything the columns do
/// not hold (a named track or route, a point with a vertical accuracy, VDOP, PDOP, course,
/// satellites, fix type, name, role or state) is also kept whole: `batch[i]` is always the item
/// exactly as ``TraceReader/next()`` returns it.
///
/// The per-item accessors (``kind(_:)``, ``coordinate(_:)``, ``time(_:)``, …) read the columns in
/// place and are inlinable, so a client's loop over a batch makes no call per item; the column
/// properties (``latitudes``, …) return copies. A batch is a value: copies do
/// not share changes (the storage is copied on the first change of a shared batch).
public struct FixBatch: Sendable {
    /// What an item is (``TraceItem``'s cases without their values).
    public enum Kind: UInt8, Hashable, Sendable {
        case trackStart, segmentStart, trackPoint, routeStart, routePoint, waypoint
    }

    /// The columns, in memory this batch owns (internal, but visible to the inlinable accessors).
    @usableFromInline final class Storage: @unchecked Sendable {  // only changed while uniquely referenced
        /// Read by inlined accessors in clients, where the optimizer cannot prove accesses exclusive:
        /// unchecked (only the owning batch writes it, while uniquely referenced).
        @usableFromInline @exclusivity(unchecked) var count = 0
        let capacity: Int
        @usableFromInline let kinds: UnsafeMutablePointer<Kind>
        @usableFromInline let latitudes: UnsafeMutablePointer<Double>, longitudes: UnsafeMutablePointer<Double>
        /// ``Fix``'s presence bits (time, elevation, horizontal accuracy, HDOP, speed) per item.
        @usableFromInline let present: UnsafeMutablePointer<UInt16>
        @usableFromInline let times: UnsafeMutablePointer<Int64>
        @usableFromInline let elevations: UnsafeMutablePointer<Double>, horizontalAccuracies: UnsafeMutablePointer<Double>
        @usableFromInline let hdops: UnsafeMutablePointer<Double>, speeds: UnsafeMutablePointer<Double>

        init(capacity: Int) {
            self.capacity = capacity
            kinds = .allocate(capacity: capacity)
            latitudes = .allocate(capacity: capacity)
            longitudes = .allocate(capacity: capacity)
            present = .allocate(capacity: capacity)
            times = .allocate(capacity: capacity)
            elevations = .allocate(capacity: capacity)
            horizontalAccuracies = .allocate(capacity: capacity)
            hdops = .allocate(capacity: capacity)
            speeds = .allocate(capacity: capacity)
        }

        /// A copy with room for `capacity` items.
        func copy(capacity: Int) -> Storage {
            let s = Storage(capacity: max(capacity, count))
            s.count = count
            s.kinds.update(from: kinds, count: count)
            s.latitudes.update(from: latitudes, count: count)
            s.longitudes.update(from: longitudes, count: count)
            s.present.update(from: present, count: count)
            s.times.update(from: times, count: count)
            s.elevations.update(from: elevations, count: count)
            s.horizontalAccuracies.update(from: horizontalAccuracies, count: count)
            s.hdops.update(from: hdops, count: count)
            s.speeds.update(from: speeds, count: count)
            return s
        }

        deinit {
            kinds.deallocate()
            latitudes.deallocate()
            longitudes.deallocate()
            present.deallocate()
            times.deallocate()
            elevations.deallocate()
            horizontalAccuracies.deallocate()
            hdops.deallocate()
            speeds.deallocate()
        }
    }

    @usableFromInline private(set) var storage: Storage
    /// The items the columns do not hold whole, by index.
    private var whole: [Int: TraceItem] = [:]

    /// An empty batch with room for `capacity` items (it grows as needed).
    public init(capacity: Int = 0) {
        storage = Storage(capacity: max(capacity, 16))
    }

    /// The number of items.
    @inlinable public var count: Int { storage.count }
    /// Whether there is no item.
    @inlinable public var isEmpty: Bool { storage.count == 0 }

    /// Removes every item, keeping the storage.
    public mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) { storage.count = 0 } else { storage = Storage(capacity: storage.capacity) }
        if !whole.isEmpty { whole.removeAll(keepingCapacity: true) }
    }

    /// Makes the storage this batch's own, with room for one more item.
    @inline(__always)
    private mutating func prepareAppend() {
        if _slowPath(!isKnownUniquelyReferenced(&storage) || storage.count == storage.capacity) {
            storage = storage.copy(capacity: storage.count == storage.capacity ? storage.capacity * 2 : storage.capacity)
        }
    }

    @inlinable @inline(__always) func check(_ i: Int) {
        precondition(i >= 0 && i < storage.count, "FixBatch index out of range")
    }

    /// The kind of item `i`.
    @inlinable public func kind(_ i: Int) -> Kind { check(i); return storage.kinds[i] }
    /// The coordinate of item `i` (a point's position; 0, 0 for a structure marker).
    @inlinable public func coordinate(_ i: Int) -> Coordinate {
        check(i)
        return Coordinate(uncheckedLatitude: storage.latitudes[i], longitude: storage.longitudes[i])
    }
    /// The latitude and longitude of item `i`, degrees (0 for a structure marker).
    @inlinable public func latitude(_ i: Int) -> Double { check(i); return storage.latitudes[i] }
    @inlinable public func longitude(_ i: Int) -> Double { check(i); return storage.longitudes[i] }
    /// The time of point `i`, if it has one.
    @inlinable public func time(_ i: Int) -> Timestamp? {
        check(i)
        return storage.present[i] & Fix.presentTime != 0 ? Timestamp(nanoseconds: storage.times[i]) : nil
    }
    /// The elevation of point `i` (metres), if it has one.
    @inlinable public func elevation(_ i: Int) -> Double? { value(storage.elevations, i, Fix.presentElevation) }
    /// The horizontal accuracy of point `i` (metres), if it has one.
    @inlinable public func horizontalAccuracy(_ i: Int) -> Double? { value(storage.horizontalAccuracies, i, Fix.presentHorizontalAccuracy) }
    /// The HDOP of point `i`, if it has one.
    @inlinable public func hdop(_ i: Int) -> Double? { value(storage.hdops, i, Fix.presentHDOP) }
    /// The speed of point `i` (metres per second), if it has one.
    @inlinable public func speed(_ i: Int) -> Double? { value(storage.speeds, i, Fix.presentSpeed) }

    @inlinable @inline(__always) func value(_ column: UnsafeMutablePointer<Double>, _ i: Int, _ bit: UInt16) -> Double? {
        check(i)
        return storage.present[i] & bit != 0 ? column[i] : nil
    }

    /// The columns, copied.
    public var kinds: [Kind] { (0..<count).map { kind($0) } }
    public var latitudes: [Double] { Array(UnsafeBufferPointer(start: storage.latitudes, count: count)) }
    public var longitudes: [Double] { Array(UnsafeBufferPointer(start: storage.longitudes, count: count)) }
    public var times: [Timestamp?] { (0..<count).map { time($0) } }
    public var elevations: [Double?] { (0..<count).map { elevation($0) } }
    public var horizontalAccuracies: [Double?] { (0..<count).map { horizontalAccuracy($0) } }
    public var hdops: [Double?] { (0..<count).map { hdop($0) } }
    public var speeds: [Double?] { (0..<count).map { speed($0) } }

    /// Item `i`, exactly as ``TraceReader/next()`` returned it.
    public subscript(i: Int) -> TraceItem {
        check(i)
        if !whole.isEmpty, let item = whole[i] { return item }
        switch storage.kinds[i] {
        case .trackStart: return .trackStart(name: nil)
        case .segmentStart: return .segmentStart
        case .routeStart: return .routeStart(name: nil)
        case .trackPoint: return .trackPoint(fix(i))
        case .routePoint: return .routePoint(fix(i))
        case .waypoint: return .waypoint(fix(i))
        }
    }

    /// The items, in order.
    public var items: [TraceItem] { (0..<count).map { self[$0] } }

    /// The fix of point `i` from the columns.
    private func fix(_ i: Int) -> Fix {
        var f = Fix(coordinate: coordinate(i), time: time(i))
        f.elevation = elevation(i)
        f.horizontalAccuracy = horizontalAccuracy(i)
        f.hdop = hdop(i)
        f.speed = speed(i)
        return f
    }

    /// Appends an item.
    @inline(__always)
    public mutating func append(_ item: TraceItem) {
        switch item {
        case .trackStart(let name):
            appendMarker(.trackStart, whole: name == nil ? nil : item)
        case .segmentStart:
            appendMarker(.segmentStart, whole: nil)
        case .routeStart(let name):
            appendMarker(.routeStart, whole: name == nil ? nil : item)
        case .trackPoint(let f):
            append(.trackPoint, f)
        case .routePoint(let f):
            append(.routePoint, f)
        case .waypoint(let f):
            append(.waypoint, f)
        }
    }

    private mutating func appendMarker(_ kind: Kind, whole item: TraceItem?) {
        prepareAppend()
        let s = storage, i = s.count
        if let item { whole[i] = item }
        s.kinds[i] = kind
        s.latitudes[i] = 0
        s.longitudes[i] = 0
        s.present[i] = 0
        s.times[i] = 0
        s.elevations[i] = 0
        s.horizontalAccuracies[i] = 0
        s.hdops[i] = 0
        s.speeds[i] = 0
        s.count = i &+ 1
    }

    /// Appends a point of kind `kind` (package-internal: the readers' fast paths append their
    /// points straight from their values).
    @inline(__always)
    package mutating func append(_ kind: Kind, _ f: borrowing Fix) {
        prepareAppend()
        let i = storage.count
        let c = f.batchColumns
        if _slowPath(!c.fits) { whole[i] = FixBatch.point(kind, copy f) }
        appendRow(kind, f.coordinate, c)
    }

    /// Appends a point of kind `kind` with numbers `n` and no texts (a reader's fast path that
    /// fills a plain ``Fix/Numbers``: no fix is made, so nothing is retained or released).
    @inline(__always)
    mutating func append(_ kind: Kind, _ n: Fix.Numbers) {
        prepareAppend()
        let i = storage.count
        let c = n.batchColumns
        if _slowPath(!c.fits) { whole[i] = FixBatch.point(kind, Fix(n)) }
        appendRow(kind, n.coordinate, c)
    }

    /// ``append(_:_:)`` of numbers, for a reader's `read(into:limit:)` that emptied the
    /// batch with ``removeAll()`` (which leaves the storage this batch's own) and has not copied
    /// it since: only the capacity is checked, not the ownership (a call per point).
    @inline(__always)
    mutating func appendOwned(_ kind: Kind, _ n: Fix.Numbers) {
        assert(isKnownUniquelyReferenced(&storage), "appendOwned(_:_:) on a shared batch")
        if _slowPath(storage.count == storage.capacity) { storage = storage.copy(capacity: storage.capacity * 2) }
        let i = storage.count
        let c = n.batchColumns
        if _slowPath(!c.fits) { whole[i] = FixBatch.point(kind, Fix(n)) }
        appendRow(kind, n.coordinate, c)
    }

    /// The item of a point of kind `kind`.
    private static func point(_ kind: Kind, _ f: consuming Fix) -> TraceItem {
        switch kind {
        case .routePoint: .routePoint(f)
        case .waypoint: .waypoint(f)
        default: .trackPoint(f)
        }
    }

    /// Writes a point's row (storage already prepared) and counts it.
    @inline(__always)
    private func appendRow(
        _ kind: Kind, _ coordinate: Coordinate,
        _ c: (present: UInt16, time: Int64, elevation: Double, horizontalAccuracy: Double, hdop: Double, speed: Double, fits: Bool)
    ) {
        let s = storage, i = s.count
        s.kinds[i] = kind
        s.latitudes[i] = coordinate.latitude
        s.longitudes[i] = coordinate.longitude
        s.present[i] = c.present
        s.times[i] = c.time
        s.elevations[i] = c.elevation
        s.horizontalAccuracies[i] = c.horizontalAccuracy
        s.hdops[i] = c.hdop
        s.speeds[i] = c.speed
        s.count = i &+ 1
    }
}

extension TraceReader {
    /// Reads up to `limit` items into `batch` (emptied first) by calling ``next()``; returns how
    /// many it read, 0 at the end of the file. Readers override it with faster paths that give
    /// the same items and diagnostics.
    public mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int {
        batch.removeAll()
        while batch.count < limit, let item = try next() { batch.append(item) }
        return batch.count
    }
}
