/// Child handles of the C API; see include/cinematic.h for the contract.

/// `cinematic_store_scope`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_scope")
public func cinematic_store_scope(_ handle: OpaquePointer?, _ scope: UnsafePointer<CChar>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out pointer")
        let entry = try lookupStore(handle)
        guard let scope else { throw .misuse("NULL scope name") }
        out.pointee = try entry.runtime.openScope(of: entry.store, name: String(cString: scope))
    }
}
