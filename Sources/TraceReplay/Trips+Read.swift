import TraceGeodesy

extension TripSplit {
    /// Splits the helper's timed fixes of `inputs` into trips, reading each file once (the
    /// helper's fixes of several files merged in time order). When a file is not in time order
    /// (tracks recorded on different days, written in another order), the helper's fixes are read
    /// again into memory, up to ``ReplayOptions/memoryLimitFixes``, sorted and split. Fixes of
    /// other roles are not read for the split; they follow the helper's trips by their time.
    /// - Throws: ``ReplayError``, also for an unordered recording beyond the memory limit.
    public static func find(_ inputs: [TraceInput], options: ReplayOptions, rules: TripRules) throws(ReplayError) -> TripSplit {
        var splitter = TripSplitter(rules: rules, exact: options.exact)
        var merged = try helperFixes(inputs, options: options)
        while let (fix, _, _) = try merged.next() { splitter.add(time: fix.time, fix.coordinate) }
        let split = splitter.finish()
        guard split.outOfOrder > 0 else { return split }
        var all: [(time: Int64, coordinate: Coordinate)] = []
        merged = try helperFixes(inputs, options: options)
        while let (fix, _, _) = try merged.next() {
            guard all.count < options.memoryLimitFixes else {
                let names = inputs.map(\.path).joined(separator: ", ")
                throw .invalid(
                    "\(names): not in time order, and more than \(options.memoryLimitFixes) fixes to sort in memory: sort the recording by time first"
                )
            }
            all.append((fix.time, fix.coordinate))
        }
        let order = all.indices.sorted { all[$0].time < all[$1].time || (all[$0].time == all[$1].time && $0 < $1) }
        var sorted = TripSplitter(rules: rules, exact: options.exact)
        for i in order { sorted.add(time: all[i].time, all[i].coordinate) }
        var result = sorted.finish()
        result.outOfOrder = split.outOfOrder
        return result
    }

    private static func helperFixes(_ inputs: [TraceInput], options: ReplayOptions) throws(ReplayError) -> MergedFixes {
        var streams: [FixStream] = []
        for (i, input) in inputs.enumerated() {
            let reader: RoleReader
            do {
                reader = try RoleReader(
                    path: input.path, format: options.inputFormat, options: options.read, defaultRole: input.defaultRole)
            } catch {
                throw .read(error)
            }
            streams.append(try FixStream(role: .helper, file: i, source: .file(reader)))
        }
        return MergedFixes(streams)
    }
}
