// The recording target (CINEMATIC_FUZZ_TARGET=recording): every input is a recording file
// that cinematic_replay reads and replays. Every call must return a status the header names
// (a report or an envelope), and nothing may crash, trap or hang.
#if FUZZING
import Cinematic

enum RecordingFuzz {
    /// One input: the whole recording.
    static func run(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        let path = fuzzDirectory + "/input.jsonl"
        writeFile(path, UnsafeRawBufferPointer(start: data, count: size))
        var matched: Int32 = -1
        var report: UnsafeMutablePointer<CChar>?
        let status = cinematic_replay(path, &matched, &report)
        checkStatus(status)
        if status == 0 { precondition(report != nil && (matched == 0 || matched == 1), "a replay without a report") }
        cinematic_free(report)
        return 0
    }
}
#endif
