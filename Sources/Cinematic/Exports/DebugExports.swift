/// The debugging half of the C API (history, time travel, the log, replay); see
/// include/cinematic.h for the contract.

/// `cinematic_store_history`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_history")
public func cinematic_store_history(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out_json")
        out.pointee = try lookupStore(handle).store.historyJSON()
    }
}

/// `cinematic_store_revert`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_revert")
public func cinematic_store_revert(_ handle: OpaquePointer?, _ sequence: UInt64) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        guard entry.runtime.config.historyCapacity > 0 else {
            throw .invalid("the runtime keeps no history; open it with {\"history\": N}", at: "seq")
        }
        guard entry.store.revert(toSequence: sequence) else {
            throw .invalid("no history entry \(sequence) (see cinematic_store_history)", at: "seq")
        }
    }
}

/// `cinematic_runtime_set_logger`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_set_logger")
public func cinematic_runtime_set_logger(_ handle: OpaquePointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void)?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    apiCall { () throws(APIError) in
        try lookupRuntime(handle).setLogger(function.map { .host(LogCallback(function: $0, userdata: userdata)) })
    }
}

/// `cinematic_replay`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_replay")
public func cinematic_replay(_ path: UnsafePointer<CChar>?, _ outMatched: UnsafeMutablePointer<Int32>?,
                             _ outReport: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        outMatched?.pointee = 0
        outReport?.pointee = nil
        guard let path else { throw .misuse("NULL path") }
        guard !DeliveryQueue.isInsideCallback else { throw .misuse("cinematic_replay called from inside a callback") }
        let outcome = try Replay(path: pathArgument(path, "path")).run()
        outMatched?.pointee = outcome.matched ? 1 : 0
        outReport?.pointee = outcome.report.mallocCopy()
    }
}
