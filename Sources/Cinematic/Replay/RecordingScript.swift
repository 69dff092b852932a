import CJansson
import CinematicData
import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// A recording read back as a stream: one parsed line at a time, in file order, so memory
/// is bounded by the longest line (at most a JSON document's 1 MiB), not by the file.
///
/// Only a regular file is read (a FIFO, a device or a directory is refused at once, without
/// blocking). The sequence must be possible: the first line is the one `session`, times never
/// go backwards, a store is opened once; otherwise the line is named in the error. A last
/// line cut short (no newline, not JSON: the recording's writer failed or was killed) ends
/// the stream, and ``cutLine`` names it.
final class RecordingScript {
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

    private let path: String
    private let file: ReadableFile
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Where the next read starts (each reader has its own: reads are `pread`).
    private var position = 0
    private var number = 0
    private var lastTime: Duration = .zero
    private var opened: Set<UInt64> = []
    private var isFirst = true
    /// The line that was cut short at the end of the file, if any.
    private(set) var cutLine: Int?
    /// Lines read so far (blank ones not counted).
    private(set) var linesRead = 0

    /// Opens the recording at `path` without blocking (``ReadableFile``): a missing or
    /// non-regular file is `.io`.
    init(path: String) throws(APIError) {
        self.path = path
        do throws(MovieError) {
            guard let file = try ReadableFile.open(path, what: "recording", maximumBytes: .max) else {
                throw .storage("cannot open the recording \(path): \(FileIO.message(ENOENT))")
            }
            self.file = file
        } catch {
            throw APIError(.io, error.message)
        }
    }

    /// A second reader of the very file `other` reads (even if the path is replaced
    /// meanwhile), from its start, with its own position.
    init(sameFileAs other: RecordingScript) throws(APIError) {
        path = other.path
        do throws(MovieError) { file = try other.file.duplicate() } catch { throw APIError(.io, error.message) }
    }

    /// The next line, nil at the end of the file (or at a last line cut short).
    func next() throws(APIError) -> Line? {
        while let bytes = try nextRawLine() {
            number += 1
            let isLast = atEnd && start >= buffer.count && !bytes.hasNewline
            guard !bytes.text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) else { continue }
            let document: JSONDocument
            do throws(APIError) {
                document = try (bytes.text + [0]).withUnsafeBufferPointer { buffer throws(APIError) in
                    try buffer.withMemoryRebound(to: CChar.self) { chars throws(APIError) in try JSONDocument(parsing: chars.baseAddress!) }
                }
            } catch {
                if isLast && number > 1 {
                    cutLine = number
                    return nil
                }
                throw APIError(error.status, "recording line \(number): \(error.message)", path: error.path, line: number, column: error.column)
            }
            linesRead += 1
            return try check(line(number, document))
        }
        return nil
    }

    private func line(_ number: Int, _ document: JSONDocument) throws(APIError) -> Line {
        do throws(APIError) {
            let object = try document.object("an event object")
            let event = try object.required("event").string()
            let milliseconds = try object.required("t").double()
            guard milliseconds >= 0, milliseconds < 1e15 else {
                throw APIError(.invalid, "\"t\" must be a time in milliseconds ≥ 0", path: "$.t")
            }
            return Line(number: number, time: .microseconds(Int64(milliseconds * 1_000)), event: event,
                        document: document, object: object)
        } catch {
            throw APIError(error.status, "recording line \(number): \(error.message)", path: error.path)
        }
    }

    /// Refuses what no recorder writes: a first line that is not `session`, a second
    /// `session`, time going backwards, a store opened twice.
    private func check(_ line: Line) throws(APIError) -> Line {
        if isFirst {
            guard line.event == "session" else {
                throw APIError(.invalid, "\(path) is not a recording: it must start with a \"session\" line", path: "$")
            }
            isFirst = false
        } else if line.event == "session" {
            throw line.invalid("a second \"session\" line: a recording holds one session")
        }
        guard line.time >= lastTime else {
            throw line.invalid("time goes backwards (\(RuntimeClock.milliseconds(line.time).text) ms after \(RuntimeClock.milliseconds(lastTime).text) ms)")
        }
        lastTime = line.time
        if line.event == "open" {
            let store = try line.uint("store")
            guard opened.insert(store).inserted else { throw line.invalid("store \(store) is opened a second time") }
        }
        return line
    }

    /// The bytes of the next line (without its newline), reading more as needed; a line
    /// longer than a JSON document may be is `.tooLarge` before the rest is read.
    private func nextRawLine() throws(APIError) -> (text: ArraySlice<UInt8>, hasNewline: Bool)? {
        var scanned = start
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return (buffer[start..<newline], true)
            }
            scanned = buffer.count
            guard buffer.count - start <= JSONDocument.maximumBytes else {
                throw APIError(.tooLarge, "recording line \(number + 1) is larger than \(JSONDocument.maximumBytes) bytes", line: number + 1)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return (buffer[start...], false)
            }
            let scannedOffset = scanned - start
            try fill()
            scanned = start + scannedOffset
        }
    }

    /// Drops consumed bytes and appends the next chunk of the file.
    private func fill() throws(APIError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let read = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(MovieError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[old...]), at: position) }
        }
        let count: Int
        do throws(MovieError) { count = try read.get() } catch {
            buffer.removeLast(chunk)
            throw APIError(.io, error.message)
        }
        buffer.removeLast(chunk - count)
        if count == 0 { atEnd = true }
        position += count
    }
}
