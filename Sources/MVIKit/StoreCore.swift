/// The mutable part of a ``Store``, only ever touched inside the store's lock.
struct StoreCore<State: Equatable & Sendable, Intent: Sendable> {
    /// One effect that can still send intents.
    struct Record {
        let id: EffectID?
        var task: Task<Void, Never>?
    }

    /// An observer and the first state sequence number it is due.
    struct Observer {
        let since: UInt64
        let body: @Sendable (State) -> Void
    }

    /// A state waiting to be handed to observers, outside the lock; `only` names the one
    /// observer it is for (an `emitCurrent` first state), nil for every observer due.
    struct Notification {
        let sequence: UInt64
        let state: State
        let only: UInt64?
    }

    /// Something waiting to be handed out with no lock held, in the order it happened.
    enum Outgoing {
        /// A state for observers.
        case state(Notification)
        /// An event for the tracer (boxed: a state notification stays small).
        case trace(TraceBox<State, Intent>)
    }

    /// States to hand to observers and events for the tracer, with the observers and the
    /// tracer as they were when taken.
    struct NotificationBatch {
        let outgoing: [Outgoing]
        let observers: [(key: UInt64, observer: Observer)]
        let tracer: (@Sendable (StoreTrace<State, Intent>) -> Void)?
    }

    var state: State
    var isClosed = false
    var records: [UInt64: Record] = [:]
    var holders: [EffectID: UInt64] = [:]
    var observers: [UInt64: Observer] = [:]
    /// The sequence number of `state`: +1 per distinct state.
    private(set) var sequence: UInt64 = 0
    /// Distinct states and trace events not yet handed out, oldest first.
    private var outbox: [Outgoing] = []
    /// True while a thread is handing states to observers (one at a time, in order).
    private var isNotifying = false
    var settleWaiters: [UInt64: @Sendable () -> Void] = [:]
    var finishers: [UInt64: @Sendable () -> Void] = [:]
    var history: HistoryRing<State, Intent>?
    /// Receives every ``StoreTrace`` event; nil (the default) records nothing.
    var tracer: (@Sendable (StoreTrace<State, Intent>) -> Void)?
    /// Whether the tracer wants effects started, cancelled and finished.
    var tracesEffects = true
    /// How many intents this store has reduced (the last history entry's number).
    private(set) var reducedCount: UInt64 = 0
    private var nextKey: UInt64 = 0

    init(state: State, historyCapacity: Int) {
        self.state = state
        self.history = historyCapacity > 0 ? HistoryRing(capacity: historyCapacity) : nil
    }

    /// Reduces, records history, notifies observers and schedules the resulting effects.
    mutating func apply<R: Reducer>(_ intent: Intent, with reducer: R) -> EffectWork<Intent>
    where R.State == State, R.Intent == Intent {
        let before = state
        let effect = reducer.reduce(&state, intent)
        reducedCount += 1
        history?.record(HistoryEntry(sequence: reducedCount, intent: intent, before: before, after: state))
        if tracer != nil { outbox.append(.trace(TraceBox(.reduced(sequence: reducedCount, intent: intent, before: before, after: state)))) }
        if state != before { notify() }
        var work = EffectWork<Intent>()
        work.reduced = true
        for kind in effect.kinds { schedule(kind, into: &work) }
        work.settled = takeSettleWaitersIfIdle()
        return work
    }

    /// Time travel: sets the state to the one after history entry `number`; false when the
    /// history does not hold it.
    /// The reducer then brings what lives outside the state in line (``Reducer/reverted(_:)``):
    /// its effects are scheduled like a reduce's.
    mutating func revert<R: Reducer>(toEntry number: UInt64, with reducer: R) -> EffectWork<Intent>?
    where R.State == State, R.Intent == Intent {
        guard let entry = history?.entry(numbered: number) else { return nil }
        let before = state
        state = entry.after
        let effect = reducer.reverted(&state)
        if tracer != nil { outbox.append(.trace(TraceBox(.reverted(sequence: number, before: before, after: state)))) }
        if state != before { notify() }
        var work = EffectWork<Intent>()
        for kind in effect.kinds { schedule(kind, into: &work) }
        work.settled = takeSettleWaitersIfIdle()
        return work
    }

    /// Queues an effect's trace event (when a tracer wants effects); true when one was queued.
    mutating func traceEffect(_ event: @autoclosure () -> StoreTrace<State, Intent>) -> Bool {
        guard tracer != nil, tracesEffects, !isClosed else { return false }
        outbox.append(.trace(TraceBox(event())))
        return true
    }

    /// Queues the new state for observers; ``Store`` hands it over once the lock is left.
    private mutating func notify() {
        sequence += 1
        guard !observers.isEmpty else { return }
        outbox.append(.state(Notification(sequence: sequence, state: state, only: nil)))
    }

    /// Starts handing states to observers: nil when another thread is doing it (it will hand
    /// over these states too) or nothing waits.
    mutating func beginNotifying() -> NotificationBatch? {
        guard !isNotifying else { return nil }
        return continueNotifying()
    }

    /// The next states to hand over, or nil (and the notifier role released) when none waits.
    mutating func continueNotifying() -> NotificationBatch? {
        guard !outbox.isEmpty, !isClosed else {
            outbox = []
            isNotifying = false
            return nil
        }
        isNotifying = true
        defer { outbox = [] }
        return NotificationBatch(outgoing: outbox, observers: observers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                 tracer: tracer)
    }

    private mutating func schedule(_ kind: Effect<Intent>.Kind, into work: inout EffectWork<Intent>) {
        switch kind {
        case let .cancel(id):
            if let token = holders[id] { cancel(token, into: &work) }
        case let .run(id, operation):
            if let id, let token = holders[id] { cancel(token, into: &work) }
            let token = makeKey()
            records[token] = Record(id: id, task: nil)
            if let id { holders[id] = token }
            _ = traceEffect(.effectStarted(effect: token, id: id))
            work.launches.append(EffectLaunch(token: token, operation: operation))
        case let .merge(children):
            for child in children { for kind in child.kinds { schedule(kind, into: &work) } }
        }
    }

    /// Forgets a replaced or cancelled effect and queues its task for cancellation.
    private mutating func cancel(_ token: UInt64, into work: inout EffectWork<Intent>) {
        let id = records[token]?.id
        if let task = remove(token) { work.cancelled.append(task) }
        _ = traceEffect(.effectCancelled(effect: token, id: id))
    }

    /// Forgets an effect; returns its task (if attached yet) so the caller can cancel it.
    @discardableResult
    mutating func remove(_ token: UInt64) -> Task<Void, Never>? {
        guard let record = records.removeValue(forKey: token) else { return nil }
        if let id = record.id, holders[id] == token { holders[id] = nil }
        return record.task
    }

    mutating func takeSettleWaitersIfIdle() -> [@Sendable () -> Void] {
        guard records.isEmpty, !settleWaiters.isEmpty else { return [] }
        defer { settleWaiters = [:] }
        return Array(settleWaiters.values)
    }

    /// Registers `observer` for every state after the current one; with `emitCurrent` it is
    /// first handed the current state.
    mutating func addObserver(emitCurrent: Bool, _ observer: @escaping @Sendable (State) -> Void) -> UInt64 {
        let key = makeKey()
        observers[key] = Observer(since: sequence + 1, body: observer)
        if emitCurrent { outbox.append(.state(Notification(sequence: sequence, state: state, only: key))) }
        return key
    }

    mutating func addFinisher(_ finisher: @escaping @Sendable () -> Void) -> UInt64 {
        let key = makeKey()
        finishers[key] = finisher
        return key
    }

    mutating func addSettleWaiter(_ waiter: @escaping @Sendable () -> Void) -> UInt64 {
        let key = makeKey()
        settleWaiters[key] = waiter
        return key
    }

    /// Marks the store closed; returns the tasks to cancel and the callbacks to run.
    mutating func close() -> ([Task<Void, Never>], [@Sendable () -> Void]) {
        guard !isClosed else { return ([], []) }
        isClosed = true
        tracer = nil
        let tasks = records.values.compactMap(\.task)
        records = [:]
        holders = [:]
        observers = [:]
        outbox = []
        let callbacks = Array(settleWaiters.values) + Array(finishers.values)
        settleWaiters = [:]
        finishers = [:]
        return (tasks, callbacks)
    }

    private mutating func makeKey() -> UInt64 {
        nextKey &+= 1
        return nextKey
    }
}

/// What a reduce asks the store to do once it has left its lock.
struct EffectWork<Intent: Sendable> {
    var cancelled: [Task<Void, Never>] = []
    var launches: [EffectLaunch<Intent>] = []
    var settled: [@Sendable () -> Void] = []
    /// True when an intent was reduced (false for a dropped or ignored intent).
    var reduced = false
}

/// A `.run` effect registered under `token`, waiting to be started.
struct EffectLaunch<Intent: Sendable> {
    let token: UInt64
    let operation: Effect<Intent>.Operation
}

/// A trace event in a store's outbox, boxed so the outbox's elements stay state-sized.
final class TraceBox<State: Sendable, Intent: Sendable> {
    let event: StoreTrace<State, Intent>

    init(_ event: StoreTrace<State, Intent>) { self.event = event }
}
