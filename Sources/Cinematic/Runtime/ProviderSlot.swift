import CinematicData
import Synchronization

/// The host's catalog provider callback and its userdata.
struct ProviderCallback: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?) -> Void
    let function: Function
    let userdata: UnsafeMutableRawPointer?
}

/// The runtime's current provider, shared with the catalog's request closures.
final class ProviderSlot: Sendable {
    private let callback = Mutex<ProviderCallback?>(nil)
    /// The catalog whose requests fail when no provider is registered (cleared at close).
    let catalog = Mutex<HostMovieCatalog?>(nil)

    var current: ProviderCallback? { callback.withLock { $0 } }

    func set(_ value: ProviderCallback?) { callback.withLock { $0 = value } }

    /// Hands request `id` to the provider; with none registered the request fails at once
    /// with a `network` error rather than waiting forever.
    func request(id: UInt64, json: String) {
        guard let callback = current else {
            let catalog = catalog.withLock { $0 }
            catalog?.respond(to: id, with: .failure(.network("no catalog provider is registered")))
            return
        }
        json.withCString { callback.function(callback.userdata, id, $0) }
    }

    /// Tells the provider that request `id` is no longer needed.
    func cancel(id: UInt64) {
        guard let callback = current else { return }
        HostRequestJSON.cancel.withCString { callback.function(callback.userdata, id, $0) }
    }
}
