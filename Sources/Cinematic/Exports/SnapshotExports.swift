#if canImport(Glibc)
import Glibc
#endif

/// The snapshot half of the C API (docs/wire.md, "Snapshots"); see include/cinematic.h for
/// the contract.

/// `cinematic_store_snapshot`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_snapshot")
public func cinematic_store_snapshot(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out_json")
        out.pointee = Snapshots.storeJSON(try lookupStore(handle).store).mallocCopy()
    }
}

/// `cinematic_store_restore`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_store_restore")
public func cinematic_store_restore(_ runtimeHandle: OpaquePointer?, _ snapshotJSON: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out pointer")
        let runtime = try lookupRuntime(runtimeHandle)
        let document = try parseRequired(snapshotJSON, "snapshot_json")
        // The parsed snapshot reads from the document: it lives until the store is open.
        try withExtendedLifetime(document) { () throws(APIError) in
            let snapshot = try Snapshots.readStore(JSONValueReader(document.root, path: "$"))
            let recorded = JSONFragment.object([("snapshot", JSONFragment(copying: document.root))])
            out.pointee = try runtime.restoreStore(snapshot, recordedArguments: recorded)
        }
    }
}

/// `cinematic_runtime_snapshot`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_snapshot")
public func cinematic_runtime_snapshot(_ runtimeHandle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out_json")
        out.pointee = try lookupRuntime(runtimeHandle).snapshotJSON().mallocCopy()
    }
}

/// `cinematic_runtime_restore`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_runtime_restore")
public func cinematic_runtime_restore(_ runtimeHandle: OpaquePointer?, _ snapshotJSON: UnsafePointer<CChar>?,
                                      _ outStores: UnsafeMutablePointer<UnsafeMutablePointer<OpaquePointer?>?>?,
                                      _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    apiCall { () throws(APIError) in
        outCount?.pointee = 0
        let outStores = try requireOut(outStores, "out_stores")
        let runtime = try lookupRuntime(runtimeHandle)
        // The largest runtime snapshot the limits allow is over the general input limit:
        // runtime snapshots have their own (Snapshots.maximumRuntimeBytes).
        let document = try parseRequired(snapshotJSON, "a runtime snapshot", limit: Snapshots.maximumRuntimeBytes)
        let handles = try runtime.restoreAll(document)
        // Never NULL on success (malloc(0) may be): at least one slot.
        guard let array = malloc(max(1, handles.count) * MemoryLayout<OpaquePointer?>.stride)?
            .bindMemory(to: OpaquePointer?.self, capacity: max(1, handles.count)) else {
            for handle in handles { if let entry = try? lookupStore(handle) { runtime.closeStore(entry.store) } }
            throw APIError(.io, "out of memory for \(handles.count) store handles")
        }
        array.initialize(repeating: nil, count: max(1, handles.count))
        for (index, handle) in handles.enumerated() { array[index] = handle }
        outStores.pointee = array
        outCount?.pointee = Int32(handles.count)
    }
}
