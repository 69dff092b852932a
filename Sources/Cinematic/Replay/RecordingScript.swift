import CJansson
import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// A recording read back: one parsed line per event, in file order.
struct RecordingScript {
    /// One line of a recording.
    struct Line {
        /// 1-based line number in the file.
        let number: Int
        /// Virtual time since the session opened.
        let time: Duration
        let event: String
        let document: JSONDocument
        let object: JSONObjectReader

        /// An error about this line.
        func invalid(_ message: String) -> APIError {
            APIError(.invalid, "recording line \(number): \(message)", path: "$")
        }

        /// `error` naming this line (unless it already does).
        func annotate(_ error: APIError) -> APIError {
            guard !error.message.hasPrefix("recording line ") else { return error }
            return APIError(error.status, "recording line \(number): \(error.message)", path: error.path)
        }

        func uint(_ key: String) throws(APIError) -> UInt64 {
            let value = try object.required(key).int()
            guard value >= 0 else { throw invalid("\"\(key)\" must not be negative") }
            return UInt64(value)
        }

        /// A member re-serialized (borrowed from the line's document).
        func json(_ key: String) throws(APIError) -> JSONFragment {
            JSONFragment(copying: try object.required(key).value)
        }
    }

    /// The largest recording read: 1 GiB.
    static let maximumBytes = 1 << 30

    let lines: [Line]

    /// Reads and parses the file at `path`.
    init(path: String) throws(APIError) {
        let bytes = try Self.read(path)
        var lines: [Line] = []
        var number = 0
        for slice in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard !slice.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) else { continue }
            let document: JSONDocument
            do throws(APIError) {
                document = try (Array(slice) + [0]).withUnsafeBufferPointer { buffer throws(APIError) in
                    try buffer.withMemoryRebound(to: CChar.self) { chars throws(APIError) in try JSONDocument(parsing: chars.baseAddress!) }
                }
            } catch {
                throw APIError(error.status, "recording line \(number): \(error.message)", path: error.path, line: number, column: error.column)
            }
            let object: JSONObjectReader
            let event: String
            let milliseconds: Double
            do throws(APIError) {
                object = try document.object("an event object")
                event = try object.required("event").string()
                milliseconds = try object.required("t").double()
            } catch {
                throw APIError(error.status, "recording line \(number): \(error.message)", path: error.path)
            }
            guard milliseconds >= 0, milliseconds < 1e15 else {
                throw APIError(.invalid, "recording line \(number): \"t\" must be a time in milliseconds ≥ 0", path: "$.t")
            }
            lines.append(Line(number: number, time: .microseconds(Int64(milliseconds * 1_000)), event: event,
                              document: document, object: object))
        }
        guard let first = lines.first, first.event == "session" else {
            throw APIError(.invalid, "\(path) is not a recording: it must start with a \"session\" line", path: "$")
        }
        self.lines = lines
    }

    /// Reads the whole file, failing early (before reading on) on a line longer than a JSON
    /// document may be or a file larger than ``maximumBytes``: a FIFO or `/dev/zero` gets a
    /// status, not a gigabyte.
    private static func read(_ path: String) throws(APIError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw APIError(.io, "cannot open the recording \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var lineStart = 0
        var lineNumber = 1
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw APIError(.io, "cannot read the recording \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            let start = bytes.count
            bytes += chunk[..<count]
            for index in start..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
                lineStart = index + 1
                lineNumber += 1
            }
            guard bytes.count - lineStart <= JSONDocument.maximumBytes else {
                throw APIError(.tooLarge, "recording line \(lineNumber) is larger than \(JSONDocument.maximumBytes) bytes", line: lineNumber)
            }
            guard bytes.count <= maximumBytes else { throw APIError(.tooLarge, "the recording is larger than \(maximumBytes) bytes") }
        }
        return bytes
    }
}
