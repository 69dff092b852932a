import CinematicData
import CinematicDomain

/// `cinematic_catalog_build_index`: documented in include/cinematic.h (ownership, threads,
/// every status). What build/bin/cinematic-index runs.
@_cdecl("cinematic_catalog_build_index")
public func cinematic_catalog_build_index(_ moviePath: UnsafePointer<CChar>?, _ indexPath: UnsafePointer<CChar>?) -> Int32 {
    apiCall { () throws(APIError) in
        guard let indexPath else { throw .misuse("NULL index_path") }
        let destination = try pathArgument(indexPath, "index_path")
        guard !destination.isEmpty else { throw .invalid("empty index_path", at: "index_path") }
        let source = try moviePath.map { pointer throws(APIError) in try pathArgument(pointer, "movie_path") }
        guard source?.isEmpty != true else { throw .invalid("empty movie_path", at: "movie_path") }
        do throws(MovieError) {
            if let source {
                try MovieFile.buildIndex(from: source, to: destination, libraryVersion: "\(libraryVersion)")
            } else {
                try MovieFile.buildEmbeddedIndex(to: destination, libraryVersion: "\(libraryVersion)")
            }
        } catch {
            throw APIError(.io, error.message)
        }
    }
}

/// `cinematic_runtime_catalog_state`: documented in include/cinematic.h (ownership, threads,
/// every status).
@_cdecl("cinematic_runtime_catalog_state")
public func cinematic_runtime_catalog_state(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    apiCall { () throws(APIError) in
        let out = try requireOut(out, "out_json")
        out.pointee = JSONBuilder.dump(consuming: CatalogStateJSON.encode(try lookupRuntime(handle).catalogLoadState))
    }
}
