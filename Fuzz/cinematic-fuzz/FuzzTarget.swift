// libFuzzer target for the C API's JSON entry points: every input must get a status (and a
// last-error envelope when it fails), never a crash, and the stores must keep working.
//
//   make fuzz                    (builds with -sanitize=fuzzer,address and runs for a while)
#if FUZZING
import Cinematic

/// One runtime and its stores, shared by every fuzz input (as a long-lived host would).
nonisolated(unsafe) private var runtime: OpaquePointer?
nonisolated(unsafe) private var stores: [OpaquePointer?] = []

private func setUp() {
    guard runtime == nil else { return }
    precondition(cinematic_runtime_open(#"{"clock":"manual","catalog":"host","favorites":":memory:"}"#, &runtime) == 0)
    // One store of every feature of the catalog.
    for (feature, args) in FeatureCatalog.samples {
        var store: OpaquePointer?
        precondition(cinematic_store_open(runtime, feature, args, &store) == 0)
        stores.append(store)
    }
}

private func checkStatus(_ status: Int32) {
    precondition(String(cString: cinematic_status_name(status)) != "unknown", "unknown status \(status)")
    if status != 0 { precondition(cinematic_last_error() != nil, "a failure without an envelope") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    setUp()
    guard size > 0 else { return 0 }
    let selector = Int(data[0])
    var text = Array(UnsafeBufferPointer(start: data + 1, count: size - 1)).map { CChar(bitPattern: $0) }
    text.append(0)
    text.withUnsafeBufferPointer { buffer in
        let json = buffer.baseAddress!
        // One case per store, then a runtime config, then a provider answer with store args.
        let kinds = stores.count + 2
        switch selector % kinds {
        case let index where index < stores.count:
            checkStatus(cinematic_store_send(stores[index], json))
        case stores.count:
            var other: OpaquePointer?
            let status = cinematic_runtime_open(json, &other)
            checkStatus(status)
            if status == 0 { checkStatus(cinematic_runtime_close(other)) }
        default:
            checkStatus(cinematic_runtime_respond(runtime, UInt64(selector / kinds), json))
            let feature = FeatureCatalog.names[selector / kinds % FeatureCatalog.names.count]
            var store: OpaquePointer?
            let status = cinematic_store_open(runtime, feature, json, &store)
            checkStatus(status)
            if status == 0 { checkStatus(cinematic_store_close(store)) }
        }
    }
    // The stores still answer.
    for store in stores {
        var state: UnsafeMutablePointer<CChar>?
        precondition(cinematic_store_state(store, &state) == 0)
        cinematic_free(state)
    }
    return 0
}

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
#else
/// A plain `swift build` compiles this target too; the fuzzer itself needs `make fuzz`.
@main
enum FuzzingNotEnabled {
    static func main() {
        print("cinematic-fuzz: build and run it with `make fuzz` (-sanitize=fuzzer,address)")
    }
}
#endif
