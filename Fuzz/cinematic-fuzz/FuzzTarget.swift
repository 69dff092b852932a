// The JSON target (CINEMATIC_FUZZ_TARGET=json, the default): the C API's JSON entry points.
// Every input must get a status (and a last-error envelope when it fails), never a crash,
// and the stores must keep working.
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

/// One input of the JSON target.
func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
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

#endif
