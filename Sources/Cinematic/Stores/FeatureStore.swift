import CJansson
import MVIKit
import Synchronization

/// A store seen through the C API: JSON in, JSON out, whatever the feature.
protocol FeatureStore: AnyObject, Sendable {
    /// The store's handle serial (its key in the runtime's delivery queue).
    var serial: UInt64 { get }
    /// Decodes and sends a host intent.
    func send(_ document: JSONDocument) throws(APIError)
    /// The current state as malloc'd JSON (owned by the caller).
    func stateJSON() -> UnsafeMutablePointer<CChar>
    /// Replaces the state callback (nil removes it). The new callback first gets the current
    /// state, then each distinct state.
    func observe(_ callback: StateCallback?)
    /// Calls `body` once no effect is in flight.
    func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation
    /// How many effects are in flight.
    var pendingEffectCount: Int { get }
    /// Stops every effect and every callback. Idempotent.
    func close()
}

/// A host's state callback and its userdata (the host owns whatever userdata points at).
struct StateCallback: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void
    let function: Function
    let userdata: UnsafeMutableRawPointer?
    let handle: OpaquePointer
}

/// The last state one observation delivered (its events run one at a time).
final class LastDelivered: Sendable {
    private let last = Mutex<JSONFragment?>(nil)

    /// Records `json`; false when it equals the last one delivered.
    func replace(with json: JSONFragment) -> Bool {
        last.withLock { last in
            guard last != json else { return false }
            last = json
            return true
        }
    }
}

/// A typed ``Store`` with its codec, delivering states through its runtime's queue.
final class CodecStore<Codec: FeatureCodec>: FeatureStore {
    let serial: UInt64
    private let store: Store<Codec.Reducer>
    private let codec: Codec
    private let queue: DeliveryQueue
    private let observation = Mutex<StoreObservation?>(nil)

    init(serial: UInt64, initialState: Codec.Reducer.State, reducer: Codec.Reducer, codec: Codec, queue: DeliveryQueue) {
        self.serial = serial
        self.codec = codec
        self.queue = queue
        self.store = Store(initialState: initialState, reducer: reducer) { [queue] in queue.deliverIfImmediate() }
    }

    func send(_ document: JSONDocument) throws(APIError) {
        let intent = try codec.decodeIntent(IntentReader(document))
        store.send(intent)
    }

    func stateJSON() -> UnsafeMutablePointer<CChar> {
        codec.encodeState(store.state).mallocCopy()
    }

    func observe(_ callback: StateCallback?) {
        observation.withLock { current in
            current?.cancel()
            current = nil
        }
        queue.purge(store: serial)
        guard let callback else { return }
        let codec = codec, serial = serial, queue = queue
        // States that differ only in fields the wire format leaves out encode alike: the host
        // gets each distinct JSON state once.
        let lastDelivered = LastDelivered()
        let next = store.observe(emitCurrent: true) { state in
            queue.enqueue(DeliveryQueue.Event(store: serial) {
                let json = codec.encodeState(state)
                guard lastDelivered.replace(with: json) else { return false }
                json.text.withCString { callback.function(callback.userdata, callback.handle, $0) }
                return true
            })
        }
        observation.withLock { $0 = next }
        queue.deliverIfImmediate()
    }

    func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation { store.whenSettled(body) }

    var pendingEffectCount: Int { store.pendingEffectCount }

    func close() {
        store.close()
        queue.purge(store: serial)
    }
}
