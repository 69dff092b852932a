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
    /// state, then each distinct state: whole, or with `patches`, as ``PatchedDelivery``
    /// envelopes (the state, then JSON Patches from each delivered state to the next).
    func observe(_ callback: StateCallback?, patches: Bool)
    /// Calls `body` once no effect is in flight.
    func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation
    /// How many effects are in flight.
    var pendingEffectCount: Int { get }
    /// The debug history as a malloc'd JSON array (owned by the caller), oldest first:
    /// `{"seq":n,"intent":{…},"state":{…},"changed":["results"]}`; `[]` when history is off.
    func historyJSON() -> UnsafeMutablePointer<CChar>
    /// Time travel to the state after history entry `sequence`; false when not in the history.
    func revert(toSequence sequence: UInt64) -> Bool
    /// Traces the store into `hub` while the hub has a sink, or stops tracing.
    func updateTracing(_ hub: DebugHub)
    /// Stops every effect and every callback. Idempotent.
    func close()
    /// What the store was opened from (Snapshots/SnapshotSupport.swift).
    var origin: StoreOrigin { get }
    /// The feature's name (`"search"`).
    var featureName: String { get }
    /// The feature's snapshot data of the current state (docs/wire.md, "Snapshots").
    func snapshotData() -> JSONFragment
    /// A child handle showing part of this store (``FeatureCodec/scopes``), under handle
    /// `serial`; `invalid` for a scope the feature does not have.
    func scope(_ name: String, serial: UInt64) throws(APIError) -> any FeatureStore
}

/// A host's state callback and its userdata (the host owns whatever userdata points at).
struct StateCallback: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void
    let function: Function
    let userdata: UnsafeMutableRawPointer?
    let handle: OpaquePointer
}

/// Which state callback of a store is current. Each `observe` starts a new generation;
/// states queued for an older one are skipped, so concurrent or reentrant `observe` calls can
/// never leave two callbacks registered.
final class CallbackRegistration: Sendable {
    private let current = Mutex<(generation: UInt64, observation: StoreObservation?)>((0, nil))

    /// Starts a new generation; returns the previous observation (to cancel) and the new
    /// generation.
    func retire() -> (StoreObservation?, UInt64) {
        current.withLock { current in
            let previous = current.observation
            current = (current.generation + 1, nil)
            return (previous, current.generation)
        }
    }

    /// Records the observation of `generation`; false when a newer generation started.
    func install(_ observation: StoreObservation, generation: UInt64) -> Bool {
        current.withLock { current in
            guard current.generation == generation else { return false }
            current.observation = observation
            return true
        }
    }

    /// True while `generation` is the current one.
    func isCurrent(_ generation: UInt64) -> Bool { current.withLock { $0.generation == generation } }
}

/// The text of the last state one observation delivered, and the buffer the next one is
/// written into: each state is written straight into reused bytes (no string is made for
/// it) and compared with the last.
final class LastDelivered: Sendable {
    private struct Texts: ~Copyable {
        var last = JSONTextWriter()
        var next = JSONTextWriter()
    }

    private let texts = Mutex(Texts())

    /// Writes `node` as NUL-terminated JSON text and calls `deliver` with it (borrowed for the
    /// call), unless it equals the last text delivered; returns whether it called. No lock is
    /// held while `deliver` runs: the text stays put until the observation's next event, and
    /// an observation's events run one at a time (``DeliveryQueue``).
    func deliver(_ node: StateNode, _ deliver: (UnsafePointer<CChar>) -> Void) -> Bool {
        let text = texts.withLock { texts -> UnsafePointer<UInt8>? in
            texts.next.removeAll()
            node.write(into: &texts.next)
            texts.next.terminate()
            guard !texts.next.hasSameText(as: texts.last) else { return nil }
            swap(&texts.last, &texts.next)
            return texts.last.bytes.baseAddress
        }
        guard let text else { return false }
        text.withMemoryRebound(to: CChar.self, capacity: 1) { deliver($0) }
        return true
    }
}

/// A typed ``Store`` with its codec, delivering states through its runtime's queue.
final class CodecStore<Codec: FeatureCodec>: FeatureStore {
    let serial: UInt64
    private let store: Store<Codec.Reducer>
    private let codec: Codec
    /// Decodes a host intent: made where the feature is known, so the decoding is specialized
    /// for it (no generic dispatch on a keystroke).
    private let decodeIntent: @Sendable (IntentReader) throws(APIError) -> Codec.Reducer.Intent
    private let queue: DeliveryQueue
    private let registration = CallbackRegistration()
    /// True while a logger traces this store's effects.
    private let logsEffects = Atomic<Bool>(false)
    let origin = StoreOrigin()

    init(serial: UInt64, initialState: Codec.Reducer.State, reducer: Codec.Reducer, codec: Codec, delivery: StoreDelivery) {
        self.serial = serial
        self.codec = codec
        self.decodeIntent = { [codec] intent throws(APIError) in try codec.decodeIntent(intent) }
        let queue = delivery.queue
        self.queue = queue
        self.store = Store(initialState: initialState, reducer: reducer, historyCapacity: delivery.historyCapacity,
                           executor: delivery.effects) { [queue] in queue.deliver() }
    }

    func send(_ document: JSONDocument) throws(APIError) {
        let intent = try decodeIntent(IntentReader(document))
        store.send(intent)
        // With a logger, what the intent's effects traced while starting on this thread (an
        // effect that finished at once) is delivered before `send` returns.
        if logsEffects.load(ordering: .relaxed) { queue.deliver() }
    }

    /// Sends an intent the library makes itself (a restored store's first intents).
    func start(_ intent: Codec.Reducer.Intent) { store.send(intent) }

    /// Sends a host's intent decoded elsewhere (a child handle's), as ``send(_:)`` does.
    func send(intent: Codec.Reducer.Intent) {
        store.send(intent)
        if logsEffects.load(ordering: .relaxed) { queue.deliver() }
    }

    /// The current state.
    var state: Codec.Reducer.State { store.state }

    /// The delivery queue this store's states go through.
    var deliveryQueue: DeliveryQueue { queue }

    /// What runs when the store closes, before its effects stop (an app's last save).
    private let closing = Mutex<[@Sendable () -> Void]>([])

    /// Runs `body` when the store closes (once), before its effects stop.
    func onClose(_ body: @escaping @Sendable () -> Void) { closing.withLock { $0.append(body) } }

    /// Calls `body` after every state change, on the thread that made it (keep it short).
    func observeChanges(_ body: @escaping @Sendable () -> Void) -> StoreObservation {
        store.observe(emitCurrent: false) { _ in body() }
    }

    /// The child handles open on this store (closed with it).
    private let children = Mutex<[UInt64: ChildStore<Codec>]>([:])

    /// A child handle of scope `name` (``FeatureCodec/scopes``), under handle `serial`.
    func scope(_ name: String, serial: UInt64) throws(APIError) -> any FeatureStore {
        guard Codec.scopes.contains(name) else {
            let scopes = Codec.scopes.isEmpty ? "the \(Codec.name) feature has none" : "scopes: \(Codec.scopes.joined(separator: ", "))"
            throw .invalid("unknown scope \"\(name)\"; \(scopes)", at: "scope")
        }
        let child = ChildStore(parent: self, scope: name, serial: serial)
        children.withLock { $0[serial] = child }
        return child
    }

    /// Forgets a child handle that closed.
    func childClosed(_ serial: UInt64) { _ = children.withLock { $0.removeValue(forKey: serial) } }

    func snapshotData() -> JSONFragment { Codec.snapshotData(of: store.state, origin: origin) }

    var featureName: String { Codec.name }

    func historyJSON() -> UnsafeMutablePointer<CChar> {
        let debugCodec = Codec()
        let entries = store.history.map { entry in
            let members = debugCodec.stateMembers(entry.after)
            let after = StateNode.object(members).json
            let changed = JSONDiff.changedKeys(debugCodec.stateMembers(entry.before), members)
            return JSONFragment.object([
                "seq": .int(Int(clamping: entry.sequence)), "intent": Codec.encodeIntent(entry.intent).json, "state": after,
                "changed": .array(changed.map(JSONFragment.string)),
            ])
        }
        return JSONFragment.array(entries).mallocCopy()
    }

    func revert(toSequence sequence: UInt64) -> Bool {
        let reverted = store.revert(toSequence: sequence)
        queue.deliver()
        return reverted
    }

    func updateTracing(_ hub: DebugHub) {
        let sinks = hub.sinks, effects = hub.currentLogger != nil
        logsEffects.store(effects, ordering: .relaxed)
        guard !sinks.isEmpty else {
            store.trace(nil)
            return
        }
        let debugCodec = Codec(), serial = serial, clock = hub.clock
        store.trace(effects: effects) { event in
            let traced = TracedEvent.from(event, codec: debugCodec, store: serial, time: clock.elapsed)
            for sink in sinks { sink.receive(traced) }
        }
    }

    func stateJSON() -> UnsafeMutablePointer<CChar> {
        codec.encodeState(store.state).mallocCopy()
    }

    func observe(_ callback: StateCallback?, patches: Bool) {
        let codec = codec
        observe(callback, patches: patches, serial: serial, registration: registration) { codec.stateNode($0) }
    }

    /// Delivers `node` of each state to `callback` (nil: stops) through the queue under
    /// `serial`, `registration` keeping one callback at a time: the store's own observation,
    /// or a child handle's (``ChildStore``) of a part of the state.
    func observe(_ callback: StateCallback?, patches: Bool, serial: UInt64, registration: CallbackRegistration,
                 node: @escaping @Sendable (Codec.Reducer.State) -> StateNode) {
        // Retire the previous callback: from now on its waiting states are skipped, and it is
        // not running on another thread when this returns.
        let (previous, generation) = registration.retire()
        previous?.cancel()
        queue.waitUntilNotRunning(store: serial)
        guard let callback else { return }
        let queue = queue
        // States that differ only in fields the wire format leaves out encode alike: the host
        // gets each distinct JSON state once.
        let lastDelivered = LastDelivered(), patched = PatchedDelivery()
        let next = store.observe(emitCurrent: true) { state in
            queue.enqueue(DeliveryQueue.Event(store: serial) {
                guard registration.isCurrent(generation) else { return false }
                guard patches else {
                    return lastDelivered.deliver(node(state)) { callback.function(callback.userdata, callback.handle, $0) }
                }
                guard let envelope = patched.next(node(state)) else { return false }
                envelope.text.withCString { callback.function(callback.userdata, callback.handle, $0) }
                return true
            })
        }
        // A concurrent observe may have retired this one meanwhile: then it never delivers.
        if !registration.install(next, generation: generation) { next.cancel() }
        queue.deliver()
    }

    func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation { store.whenSettled(body) }

    var pendingEffectCount: Int { store.pendingEffectCount }

    func close() {
        for child in children.withLock({ children in defer { children = [:] }; return Array(children.values) }) {
            HandleTable.shared.remove(child.serial)
            child.close()
        }
        for body in closing.withLock({ hooks in defer { hooks = [] }; return hooks }) { body() }
        store.close()
        queue.purge(store: serial)
    }
}
