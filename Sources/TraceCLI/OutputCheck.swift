import TraceBatch
import TraceIO

/// A file a command reads or writes, as a refusal names it.
struct CommandFile {
    var path: String
    /// How a message names it: "--html out.html", "the input ride.gpx", "the policy file quiet.json".
    var name: String

    /// A file named by the option that gives it or by a positional's name: "--html PATH", "IN PATH".
    static func named(_ label: String, _ path: String?) -> [CommandFile] {
        path.map { [CommandFile(path: $0, name: "\(label) \($0)")] } ?? []
    }

    /// An input: "the WHAT PATH" ("the input", "the scenario sidecar", "the policy file").
    static func input(_ what: String, _ path: String?) -> [CommandFile] {
        path.map { [CommandFile(path: $0, name: "the \(what) \($0)")] } ?? []
    }
}

/// Outputs never overwrite inputs (issue 41): before its first write, a command compares every
/// file it will write with every file it reads (traces, sidecars, policy, energy profile,
/// baseline, tolerance, requirement and search-space files, manifests, a corpus's files) and with
/// its other outputs, and refuses (64) the first that names the same file.
enum OutputCheck {
    /// Refuses an output that is one of the inputs, or another output: the same device and inode
    /// when both exist (a symbolic link to it, a hard link), else the same path once it is made
    /// absolute with ".", ".." and links resolved (`x`, `./x`, `a/../x`). Standard input and output
    /// ("-") never clash, nor does an output that is a device, a FIFO or a socket (written
    /// through, never replaced: `/dev/null`). Nothing is opened; `inputs` is asked for only when
    /// there is an output to check.
    /// - Throws: ``CLIError`` 64 naming both: "--html mine.gpx would overwrite the input mine.gpx".
    static func check(outputs: [CommandFile], inputs: () throws(CLIError) -> [CommandFile]) throws(CLIError) {
        let written = outputs.filter { $0.path != "-" }.map { (file: $0, place: FilePlace($0.path)) }.filter {
            ![.characterDevice, .fifo, .socket].contains($0.place.status?.kind)
        }
        guard !written.isEmpty else { return }
        let read = try inputs().filter { $0.path != "-" }.map { (file: $0, place: FilePlace($0.path)) }
        for (i, output) in written.enumerated() {
            if let input = read.first(where: { output.place.isSameFile(as: $0.place) }) {
                throw .usage("\(output.file.name) would overwrite \(input.file.name)")
            }
            if let other = written[..<i].first(where: { output.place.isSameFile(as: $0.place) }) {
                throw .usage("\(output.file.name) would overwrite the output \(other.file.name)")
            }
        }
    }

    /// The files a corpus's trips read (each trip's file, its sidecar and the traces the sidecar
    /// names), checking every sidecar's trace paths before any trip is replayed: a refused path
    /// stops the command before anything is read through it.
    /// - Throws: ``CLIError`` 65 naming the sidecar, the member and why a trace path is refused.
    static func corpusFiles(_ trips: [BatchTrip]) throws(CLIError) -> [CommandFile] {
        var files: [CommandFile] = []
        for trip in trips {
            do { files += try trip.files().flatMap { CommandFile.input("input", $0) } } catch { throw CLIError(error) }
        }
        return files
    }
}
