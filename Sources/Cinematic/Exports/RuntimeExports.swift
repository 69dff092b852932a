import CinematicData
import CinematicDomain

/// The runtime half of the C API; see include/cinematic.h for the contract.

func lookupRuntime(_ handle: OpaquePointer?) throws(APIError) -> Runtime {
    try HandleTable.shared.lookup(handle, as: .runtime)
}

/// `cinematic_runtime_open`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_open")
public func cinematic_runtime_open(_ configJSON: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out pointer")
        let config = try parseOptional(configJSON).map { document throws(APIError) in try RuntimeConfig(document) } ?? RuntimeConfig()
        let serial = HandleTable.shared.reserve()
        let runtime = try Runtime(serial: serial, config: config)
        out.pointee = HandleTable.shared.install(runtime, serial: serial, as: .runtime)
    }
}

/// `cinematic_runtime_close`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_close")
public func cinematic_runtime_close(_ handle: OpaquePointer?) -> Int32 {
    apiCall { () throws(APIError) in
        if let error = try lookupRuntime(handle).close() { throw error }
    }
}

/// `cinematic_runtime_fd`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_fd")
public func cinematic_runtime_fd(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    apiCall { () throws(APIError) in
        out?.pointee = -1
        let runtime = try lookupRuntime(handle)
        guard let out else { throw .misuse("NULL out_fd") }
        guard runtime.queue.mode == .queued else { throw .misuse("the runtime's delivery is \"immediate\"; only \"queued\" delivery has an fd") }
        out.pointee = runtime.queue.fd
    }
}

/// `cinematic_runtime_dispatch`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_dispatch")
public func cinematic_runtime_dispatch(_ handle: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    apiCall { () throws(APIError) in
        outCount?.pointee = 0
        let runtime = try lookupRuntime(handle)
        guard !runtime.queue.isDeliveringOnCurrentThread else { throw .misuse("cinematic_runtime_dispatch called from inside a callback") }
        let count = runtime.queue.drain()
        outCount?.pointee = Int32(clamping: count)
    }
}

/// `cinematic_runtime_advance_clock`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_advance_clock")
public func cinematic_runtime_advance_clock(_ handle: OpaquePointer?, _ milliseconds: Int64) -> Int32 {
    apiCall { () throws(APIError) in
        let runtime = try lookupRuntime(handle)
        guard let clock = runtime.clock.manual else { throw .misuse("the runtime uses the system clock; open it with {\"clock\": \"manual\"}") }
        guard milliseconds >= 0 else { throw .invalid("milliseconds must not be negative", at: "milliseconds") }
        // The clock saturates (ManualClock.limit): huge or repeated advances never overflow.
        runtime.drive { clock.advance(by: .milliseconds(milliseconds)) }
        runtime.debug.recorder?.write("advance") { [("ms", .int(Int(clamping: milliseconds)))] }
    }
}

/// `cinematic_runtime_set_provider`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_set_provider")
public func cinematic_runtime_set_provider(_ handle: OpaquePointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?) -> Void)?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    apiCall { () throws(APIError) in
        try lookupRuntime(handle).setProvider(function.map { ProviderCallback(function: $0, userdata: userdata) })
    }
}

/// `cinematic_runtime_respond`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_respond")
public func cinematic_runtime_respond(_ handle: OpaquePointer?, _ requestID: UInt64, _ responseJSON: UnsafePointer<CChar>?) -> Int32 {
    apiCall { () throws(APIError) in
        let runtime = try lookupRuntime(handle)
        guard let catalog = runtime.hostCatalog else { throw .misuse("the runtime's catalog is not \"host\"") }
        guard let request = catalog.pendingRequest(requestID) else {
            // Answered, cancelled or never made: a late answer is accepted and dropped.
            let document = try parseRequired(responseJSON, "response_json")
            if let recorder = runtime.debug.recorder, catalog.wasIssued(requestID) {
                let json = JSONFragment(copying: document.root)
                recorder.write("providerAnswer") { [("requestId", .int(Int(clamping: requestID))), ("answer", json), ("dropped", .bool(true))] }
            }
            guard catalog.wasIssued(requestID) else { throw .invalid("no request \(requestID) was ever made", at: "request_id") }
            return
        }
        let answer: Result<HostCatalogAnswer, MovieError>
        do throws(APIError) {
            let document = try parseRequired(responseJSON, "response_json")
            if let recorder = runtime.debug.recorder {
                let json = JSONFragment(copying: document.root)
                recorder.write("providerAnswer") { [("requestId", .int(Int(clamping: requestID))), ("answer", json)] }
            }
            answer = try HostRequestJSON.decodeAnswer(JSONValueReader(document.root, path: "$"), for: request)
        } catch {
            // The request fails rather than waiting forever for an answer that will not come.
            runtime.drive { catalog.respond(to: requestID, with: .failure(.invalidResponse(error.message))) }
            throw error
        }
        runtime.drive { catalog.respond(to: requestID, with: answer) }
    }
}
