import CinematicThreads
/// The store half of the C API; see include/cinematic.h for the contract.

func lookupStore(_ handle: OpaquePointer?) throws(APIError) -> StoreEntry {
    try HandleTable.shared.lookup(handle, as: .store)
}

/// `cinematic_store_open`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_open")
public func cinematic_store_open(_ runtimeHandle: OpaquePointer?, _ feature: UnsafePointer<CChar>?,
                                 _ argsJSON: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out pointer")
        let runtime = try lookupRuntime(runtimeHandle)
        guard let feature else { throw .misuse("NULL feature name") }
        let name = String(cString: feature)
        out.pointee = try runtime.openStore(feature: name, arguments: parseOptional(argsJSON))
    }
}

/// `cinematic_store_close`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_close")
public func cinematic_store_close(_ handle: OpaquePointer?) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        entry.runtime.closeStore(entry.store)
    }
}

/// `cinematic_store_send`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_send")
public func cinematic_store_send(_ handle: OpaquePointer?, _ intentJSON: UnsafePointer<CChar>?) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        try entry.store.send(parseRequired(intentJSON, "intent_json"))
    }
}

/// `cinematic_store_state`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_state")
public func cinematic_store_state(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out_json")
        out.pointee = try lookupStore(handle).store.stateJSON()
    }
}

/// `cinematic_store_observe`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_observe")
public func cinematic_store_observe(_ handle: OpaquePointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void)?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        entry.store.observe(function.map { StateCallback(function: $0, userdata: userdata, handle: handle!) }, patches: false)
    }
}

/// `cinematic_store_observe_patches`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_observe_patches")
public func cinematic_store_observe_patches(_ handle: OpaquePointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void)?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        entry.store.observe(function.map { StateCallback(function: $0, userdata: userdata, handle: handle!) }, patches: true)
    }
}

/// `cinematic_store_settle`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_settle")
public func cinematic_store_settle(_ handle: OpaquePointer?, _ timeoutMilliseconds: Int64) -> Int32 {
    apiCall { () throws(APIError) in
        let entry = try lookupStore(handle)
        let queue = entry.runtime.queue
        // From inside any callback (of any runtime) a wait could close a cycle with the thread
        // that callback's host code waits for: refused, never risked.
        guard !queue.isDeliveringOnCurrentThread, !DeliveryQueue.isInsideCallback else {
            throw .misuse("cinematic_store_settle called from inside a callback")
        }
        let deadline = Deadline.after(milliseconds: Int(clamping: timeoutMilliseconds))
        let latch = Latch()
        let waiter = entry.store.whenSettled { latch.open() }
        guard latch.wait(until: deadline) else {
            waiter.cancel()
            throw APIError(.timeout, "effects still in flight after \(timeoutMilliseconds) ms")
        }
        guard queue.mode == .queued || queue.waitUntilDelivered(store: entry.store.serial, deadline: deadline) else {
            throw APIError(.timeout, "states still being delivered after \(timeoutMilliseconds) ms")
        }
    }
}

/// `cinematic_store_pending_effects`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_pending_effects")
public func cinematic_store_pending_effects(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    apiCall { () throws(APIError) in
        out?.pointee = 0
        let entry = try lookupStore(handle)
        guard let out else { throw .misuse("NULL out_count") }
        out.pointee = Int32(clamping: entry.store.pendingEffectCount)
    }
}
