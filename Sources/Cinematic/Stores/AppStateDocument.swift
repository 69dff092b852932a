import CinematicData
import CinematicDomain
import CinematicFeatures

/// What an app state file holds, read and checked (a file we read is hostile until proven
/// ours): `{"cinematicAppState":1,"snapshot":<an app store snapshot>}`.
enum AppStateDocument {
    /// What reading a state file found.
    enum Outcome {
        /// No file: a fresh start.
        case missing
        /// Ours: the app store snapshot it holds (checked), to open from.
        case restore(JSONFragment)
        /// Anything else, with the reason (the file is left unchanged).
        case refused(String)
    }

    /// Reads the state file at `path` (never blocking, never more than
    /// ``AppStateFile/maximumBytes``).
    static func read(_ path: String) -> Outcome {
        let bytes: [UInt8]
        do throws(MovieError) {
            guard let file = try ReadableFile.open(path, what: "state file", maximumBytes: AppStateFile.maximumBytes, followingLinks: false) else {
                return .missing
            }
            bytes = try file.readAll()
        } catch {
            return .refused(error.message)
        }
        // An empty file is not a missing one: something made it (a crash of another
        // program, a `touch`), and it is not proven ours. Left as it is.
        if bytes.isEmpty { return .refused("\(path) is empty, not a state file of this app") }
        guard bytes.starts(with: AppStateFile.signature) else { return .refused("\(path) is not a state file of this app") }
        do throws(APIError) {
            let document = try (bytes + [0]).withUnsafeBufferPointer { buffer throws(APIError) in
                try buffer.withMemoryRebound(to: CChar.self) { chars throws(APIError) in try JSONDocument(parsing: chars.baseAddress!) }
            }
            let object = try document.object("a state file")
            try object.rejectUnknownKeys(allowing: ["cinematicAppState", "snapshot"])
            let format = try object.required("cinematicAppState").int()
            guard format == AppStateFile.format else {
                return .refused("\(path) is a state file of format \(format); this library reads format \(AppStateFile.format)")
            }
            let snapshot = try Snapshots.readStore(try object.required("snapshot"), expecting: AppCodec.name)
            guard let data = snapshot.data else { return .refused("\(path) holds no app snapshot") }
            _ = try AppCodec.decodeSnapshot(data)
            return .restore(JSONFragment(copying: try object.required("snapshot").value))
        } catch {
            return .refused("\(path) cannot be read: \(error.message)")
        }
    }
}
