import TraceJSON
import TraceSharing

/// `tracekit policy show|validate|diff`: the per-state policy table.
enum PolicyCommands {
    /// The options of `policy show`, with their defaults.
    struct ShowOptions: CommandOptions {
        var policy: String?
        var format = Format.table
        var arguments: [String] = []
    }

    enum Format: String, ArgumentChoice { case table, json, markdown }

    /// The positional arguments of `policy validate` and `policy diff`, their only options.
    struct FileArguments: CommandOptions {
        var arguments: [String] = []
    }

    static let show = CommandSpec<ShowOptions>(
        name: "policy show",
        abstract: "Print the effective per-state policy table.",
        discussion: """
            Prints the seed policy (the user's document, with TraceKit's documented distance \
            filters), or the seed with the overrides of --policy FILE applied, one row per \
            fulfilment state: what the map shows, the map frame, the accuracy tier, the distance \
            filter, the delivery model (coreLocation, androidFused, speedElastic, distanceOrTime, \
            distanceAndTime: how the phone turns fixes into updates), the accuracy gate, the send \
            rule (everyDelivered, deadReckoning: which delivered fixes the app sends) and each \
            role's annotations. --format json prints a complete version-3 policy file that \
            'policy validate' accepts.
            """,
        options: [
            .value("policy", \.policy, valueName: "FILE", help: "A policy file whose overrides apply to the seed."),
            .value("format", short: "f", \.format, valueName: "FORMAT", help: "Output format."),
        ],
        examples: ["tracekit policy show", "tracekit policy show --policy quiet.json --format markdown"])

    static let validate = CommandSpec<FileArguments>(
        name: "policy validate",
        abstract: "Check a policy file; name the bad field and why.",
        positionals: [PositionalSpec(name: "FILE", help: "The policy file.")],
        examples: ["tracekit policy validate quiet.json"])

    static let diff = CommandSpec<FileArguments>(
        name: "policy diff",
        abstract: "List what differs between two policies, state by state.",
        discussion: """
            Each of A and B is a policy file, or 'seed' for the default table. Prints one line per \
            differing cell ("En Route: distance filter 30 m → 50 m"), or "no differences". Exit \
            status 0 either way; 65 when a file is invalid.
            """,
        positionals: [
            PositionalSpec(name: "A", help: "A policy file, or 'seed'."),
            PositionalSpec(name: "B", help: "A policy file, or 'seed'."),
        ],
        examples: ["tracekit policy diff seed quiet.json"])

    /// The file a policy argument names: nil for "seed", which names none.
    static func file(_ name: String) -> String? { name == "seed" ? nil : name }

    /// Loads a policy file, or the seed for the name "seed".
    static func load(_ path: String) throws(CLIError) -> SharingPolicy {
        if path == "seed" { return .seed }
        return try parse(readSmallFile(path), path)
    }

    /// Reads a policy file's bytes; a bad file is a data error naming the place.
    static func parse(_ bytes: [UInt8], _ path: String) throws(CLIError) -> SharingPolicy {
        do {
            return try SharingPolicy(fileBytes: bytes, file: path)
        } catch {
            throw .data(error.description)
        }
    }

    static func runShow(_ options: ShowOptions, _ output: Output) throws(CLIError) {
        let policy = try options.policy.map { (p) throws(CLIError) in try load(p) } ?? .seed
        switch options.format {
        case .json:
            output.write(JSONWriter.string(policy.fileJSON) + "\n")
        case .markdown:
            output.write(TextTable.markdown(header: SharingPolicy.tableHeader, rows: policy.tableRows))
        case .table:
            output.write("Policy: \(Shown.terminal(policy.name))\n\n")
            output.write(TextTable.aligned(header: SharingPolicy.tableHeader, rows: policy.tableRows))
        }
    }

    static func runValidate(_ options: FileArguments, _ output: Output) throws(CLIError) {
        let path = options.arguments[0]
        let bytes = try readSmallFile(path)
        let policy = try parse(bytes, path)
        let changed = SharingPolicy.seed.differences(to: policy).count
        // The file parsed, so it declares a version this TraceKit reads.
        let version =
            (try? JSONParser.parse(bytes))?["version"].flatMap { v -> Int? in
                if case .number(let x) = v.kind { Int(x) } else { nil }
            } ?? SharingPolicy.fileVersion
        output.write(
            "\(Shown.terminal(path)): valid policy '\(Shown.terminal(policy.name))' (version \(version)), \(changed) cell\(changed == 1 ? "" : "s") differ from the seed\n"
        )
    }

    static func runDiff(_ options: FileArguments, _ output: Output) throws(CLIError) {
        let a = try load(options.arguments[0]), b = try load(options.arguments[1])
        let lines = a.differences(to: b)
        output.write(lines.isEmpty ? "no differences\n" : lines.joined(separator: "\n") + "\n")
    }
}
