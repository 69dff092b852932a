import MVIKit
import Synchronization

/// A child handle (`cinematic_store_scope`): one part of a parent store's state, observed and
/// sent to as if it were a store of its own, while the parent stays the one store.
///
/// - Its state is the parent's part (``FeatureCodec/scopeNode(_:of:)``): whole, or patched
///   from its own previous delivery (paths relative to the part).
/// - An intent sent to it is the child feature's intent, wrapped into the parent's
///   (``FeatureCodec/scopeIntent(_:_:)``) and sent through the parent: the parent's history,
///   recording and replay see it as the parent's.
/// - Settling, effects, history, time travel and snapshots are the parent's.
/// - Closing it stops its callback only; closing the parent closes it (its handle then
///   answers `closed`).
final class ChildStore<Codec: FeatureCodec>: FeatureStore {
    let serial: UInt64
    private let parent: CodecStore<Codec>
    private let name: String
    private let codec = Codec()
    private let registration = CallbackRegistration()

    init(parent: CodecStore<Codec>, scope name: String, serial: UInt64) {
        self.parent = parent
        self.name = name
        self.serial = serial
    }

    func send(_ document: JSONDocument) throws(APIError) {
        parent.send(intent: try codec.scopeIntent(name, JSONValueReader(document.root, path: "$")))
    }

    func stateJSON() -> UnsafeMutablePointer<CChar> { codec.scopeNode(name, of: parent.state).json.mallocCopy() }

    func observe(_ callback: StateCallback?, patches: Bool) {
        let codec = codec, name = name
        parent.observe(callback, patches: patches, serial: serial, registration: registration) { codec.scopeNode(name, of: $0) }
    }

    func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation { parent.whenSettled(body) }
    var pendingEffectCount: Int { parent.pendingEffectCount }
    func historyJSON() -> UnsafeMutablePointer<CChar> { parent.historyJSON() }
    func revert(toSequence sequence: UInt64) -> Bool { parent.revert(toSequence: sequence) }
    func updateTracing(_ hub: DebugHub) {}
    var origin: StoreOrigin { parent.origin }
    var featureName: String { parent.featureName }
    func snapshotData() -> JSONFragment { parent.snapshotData() }

    func scope(_ name: String, serial: UInt64) throws(APIError) -> any FeatureStore {
        throw .invalid("a child handle has no scopes of its own; scope its parent", at: "scope")
    }

    func close() {
        let (previous, _) = registration.retire()
        previous?.cancel()
        parent.deliveryQueue.waitUntilNotRunning(store: serial)
        parent.deliveryQueue.purge(store: serial)
        parent.childClosed(serial)
    }
}
