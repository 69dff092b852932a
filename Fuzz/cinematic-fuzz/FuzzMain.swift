// libFuzzer's entry: one executable, three targets, chosen by CINEMATIC_FUZZ_TARGET:
//   json       the C API's JSON entry points (FuzzTarget.swift; the default)
//   index      the catalog index reader (IndexFuzz.swift)
//   recording  the recording reader, cinematic_replay (RecordingFuzz.swift)
//
//   make fuzz                    (each target in turn, FUZZ_SECONDS each)
#if FUZZING
import Cinematic
import Glibc

/// Every status a call returns is one the header names, and a failure has an envelope.
func checkStatus(_ status: Int32) {
    precondition(String(cString: cinematic_status_name(status)) != "unknown", "unknown status \(status)")
    if status != 0 { precondition(cinematic_last_error() != nil, "a failure without an envelope") }
}

/// The target named by CINEMATIC_FUZZ_TARGET.
nonisolated(unsafe) private let target: (UnsafePointer<UInt8>, Int) -> Int32 = {
    // Inputs may name files (an app's state file, a recording): relative ones land in a
    // scratch directory, never in the checkout. (libFuzzer's own paths, the corpus and the
    // artifact prefix, are absolute for that reason: the Makefile passes them so.)
    precondition(chdir(fuzzDirectory) == 0, "cannot enter \(fuzzDirectory)")
    switch getenv("CINEMATIC_FUZZ_TARGET").map({ String(cString: $0) }) ?? "json" {
    case "index": return IndexFuzz.run
    case "recording": return RecordingFuzz.run
    case "json": return fuzzJSON
    case let other: fatalError("CINEMATIC_FUZZ_TARGET: no target \(other) (json, index, recording)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 { target(data, size) }

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's entry point under this name; hand control to libFuzzer.
@_cdecl("cinematic_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzz(data, size) }
}

/// A scratch directory of this process (made once).
let fuzzDirectory: String = {
    var template = Array("/tmp/cinematic-fuzz-XXXXXX".utf8CString)
    precondition(mkdtemp(&template) != nil, "mkdtemp failed")
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}()

/// Writes `bytes` to `path` (replacing it).
func writeFile(_ path: String, _ bytes: UnsafeRawBufferPointer) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    var done = 0
    while done < bytes.count {
        let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
        precondition(count > 0, "cannot write \(path)")
        done += count
    }
    close(fd)
}
#else
/// A plain `swift build` compiles this target too; the fuzzer itself needs `make fuzz`.
@main
enum FuzzingNotEnabled {
    static func main() {
        print("cinematic-fuzz: build and run it with `make fuzz` (-sanitize=fuzzer,address)")
    }
}
#endif
