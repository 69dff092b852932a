import Synchronization

/// Owns a feature's state and runs the loop: intent → reducer → state + effects → intents.
///
/// There is no main actor: the state lives behind the store's own lock, so any thread may
/// call ``send(_:)``, which reduces synchronously (when it returns, ``state`` reflects the
/// intent). Effects run as tasks. Each effect holds a token; an intent it sends is reduced
/// only if, checked inside the store's lock together with the reduce, the effect still holds
/// its token. Replacing (`.run` with the same id), cancelling (`.cancel(id)`) or closing
/// therefore drops late answers by construction.
///
/// ```swift
/// let store = Store(initialState: SearchState(), reducer: SearchReducer(...))
/// store.send(.queryChanged("dune"))
/// await store.settle()
/// print(store.state.results)
/// ```
public final class Store<R: Reducer>: Sendable {
    /// The feature's state type.
    public typealias State = R.State
    /// The feature's intent type.
    public typealias Intent = R.Intent

    private let reducer: R
    private let core: Mutex<StoreCore<R.State, R.Intent>>
    private let didReduce: (@Sendable () -> Void)?
    private let executor: (any TaskExecutor)?
    private let willReceive: (@Sendable () -> Void)?

    /// Creates a store. `historyCapacity` > 0 keeps a bounded debug history (see ``history``);
    /// the default, 0, keeps none and costs nothing. `didReduce`, when given, runs on the
    /// reducing thread after every reduce, once the store's lock is released and observers
    /// have been handed the new state, before the intent's effects start: the place to deliver
    /// what observers queued (it may call back into the store). `executor`, when given, is
    /// where effects continue after their first suspension (default: the global concurrent
    /// executor).
    public init(initialState: State, reducer: R, historyCapacity: Int = 0,
                didReduce: (@Sendable () -> Void)? = nil) {
        self.reducer = reducer
        self.core = Mutex(StoreCore(state: initialState, historyCapacity: historyCapacity))
        self.didReduce = didReduce
        self.executor = nil
        self.willReceive = nil
    }

    /// Creates a store whose effects run on `executor` after their first suspension (a
    /// runtime's own thread, for instance); otherwise as ``init(initialState:reducer:historyCapacity:didReduce:)``.
    ///
    /// `willReceive` is a test seam: it runs on an effect's thread each time one of its
    /// intents arrives, with no lock held, just before the store's single locked step that
    /// checks the effect is still current and reduces. A test lands a cancellation there, the
    /// point where MVIKit 1.0.0 had a gap between its check and the reduce, and proves,
    /// deterministically, that the intent is dropped.
    package init(initialState: State, reducer: R, historyCapacity: Int = 0, executor: (any TaskExecutor)?,
                 didReduce: (@Sendable () -> Void)? = nil, willReceive: (@Sendable () -> Void)? = nil) {
        self.reducer = reducer
        self.core = Mutex(StoreCore(state: initialState, historyCapacity: historyCapacity))
        self.didReduce = didReduce
        self.executor = executor
        self.willReceive = willReceive
    }

    deinit { shutDown() }

    /// A snapshot of the current state.
    public var state: State { core.withLock { $0.state } }

    /// True while any effect that can still send intents is in flight (a test seam, `package`: asserts
    /// quiescence, e.g. that a repeated task started no duplicate work).
    package var hasPendingEffects: Bool { core.withLock { !$0.records.isEmpty } }

    /// How many effects that can still send intents are in flight.
    public var pendingEffectCount: Int { core.withLock { $0.records.count } }

    /// True once ``close()`` has run; a closed store ignores intents.
    public var isClosed: Bool { core.withLock { $0.isClosed } }

    /// Reduces `intent` now, on the calling thread, hands the new state to observers, then
    /// starts the effects it described. Ignored after ``close()``.
    public func send(_ intent: Intent) {
        let work = core.withLock { core -> EffectWork<Intent> in
            guard !core.isClosed else { return EffectWork() }
            return core.apply(intent, with: reducer)
        }
        perform(work)
    }

    /// Stops every effect, long-lived streams included, and ends every observation. Intents
    /// sent afterwards are ignored. Idempotent.
    public func close() { shutDown() }

    // MARK: Observation

    /// Calls `observer` with each distinct state, exactly once and in order. Observers are
    /// called with no lock held, by one thread at a time: usually the thread that changed the
    /// state, or, when another thread is notifying at that moment, that thread (so `send` may
    /// return before a concurrent sender's notifier has handed its state over). An observer
    /// may call back into the store. With `emitCurrent`, it first receives the current state.
    /// Ends with ``StoreObservation/cancel()`` or ``close()``; an observer cancelled while
    /// another thread is notifying may be called once more by that thread.
    @discardableResult
    public func observe(emitCurrent: Bool = false, _ observer: @escaping @Sendable (State) -> Void) -> StoreObservation {
        let key = core.withLock { core -> UInt64? in
            guard !core.isClosed else { return nil }
            return core.addObserver(emitCurrent: emitCurrent, observer)
        }
        notifyObservers()
        guard let key else { return StoreObservation {} }
        return StoreObservation { [weak self] in
            _ = self?.core.withLock { $0.observers.removeValue(forKey: key) }
        }
    }

    /// The current state, then each distinct state, in order; finishes when the store closes.
    ///
    /// ```swift
    /// for await state in store.states { render(state) }
    /// ```
    public var states: AsyncStream<State> {
        AsyncStream { continuation in
            let observation = observe(emitCurrent: true) { continuation.yield($0) }
            let finisher = core.withLock { core -> UInt64? in
                guard !core.isClosed else { return nil }
                return core.addFinisher { continuation.finish() }
            }
            guard let finisher else {
                continuation.finish()
                return
            }
            continuation.onTermination = { [weak self] _ in
                observation.cancel()
                _ = self?.core.withLock { $0.finishers.removeValue(forKey: finisher) }
            }
        }
    }

    // MARK: Test hooks

    /// Waits until no effect is in flight, including effects started by the intents those
    /// effects send. A store fed by a long-lived stream never settles.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenSettled { continuation.resume() }
        }
    }

    /// Calls `body` once no effect is in flight: at once on this thread if none is, otherwise
    /// on the thread that finishes the last effect (or closes the store). Cancel the returned
    /// waiter to give up waiting; `body` then never runs.
    @discardableResult
    public func whenSettled(_ body: @escaping @Sendable () -> Void) -> StoreObservation {
        let key = core.withLock { core -> UInt64? in
            guard !core.records.isEmpty else { return nil }
            return core.addSettleWaiter(body)
        }
        guard let key else {
            body()
            return StoreObservation {}
        }
        return StoreObservation { [weak self] in
            _ = self?.core.withLock { $0.settleWaiters.removeValue(forKey: key) }
        }
    }

    // MARK: Debug history

    /// The debug history, oldest first: each reduced intent with the states before and after.
    /// Empty unless the store was created with a `historyCapacity`.
    public var history: [HistoryEntry<State, Intent>] { core.withLock { $0.history?.entries ?? [] } }

    /// Time travel: sets the state to the state after history entry `index` (an index into
    /// ``history``) and notifies observers. Effects keep running. Returns false for an index
    /// outside the history.
    @discardableResult
    public func revert(to index: Int) -> Bool {
        let entries = history
        guard entries.indices.contains(index) else { return false }
        return revert(toSequence: entries[index].sequence)
    }

    /// Time travel: sets the state to the state after the history entry numbered `sequence`
    /// (``HistoryEntry/sequence``), lets the reducer bring what lives outside the state in
    /// line (``Reducer/reverted(_:)``: a notice's timer, storage read again) and notifies
    /// observers; the tracer sees ``StoreTrace/reverted(sequence:before:after:)``. Effects keep
    /// running, and the history is not changed. Returns false when the history does not hold
    /// that entry.
    @discardableResult
    public func revert(toSequence sequence: UInt64) -> Bool {
        let work = core.withLock { core -> EffectWork<Intent>? in
            guard !core.isClosed else { return nil }
            return core.revert(toEntry: sequence, with: reducer)
        }
        guard let work else { return false }
        perform(work)
        return true
    }

    // MARK: Tracing

    /// Sets (or with nil removes) the store's tracer: from now on it receives every
    /// ``StoreTrace`` event, in order, with no lock held, one at a time, on the thread that
    /// hands states to observers; without `effects`, only reduces and reverts. Without a
    /// tracer a store records nothing.
    public func trace(effects: Bool = true, _ tracer: (@Sendable (StoreTrace<State, Intent>) -> Void)?) {
        core.withLock { core in
            guard !core.isClosed else { return }
            core.tracer = tracer
            core.tracesEffects = effects
        }
    }

    // MARK: Running effects

    /// What a reduce asked for, done with no lock held: cancel the replaced effects, hand
    /// the new state to observers and `didReduce`, then start the new effects (so the state an
    /// intent produced is delivered before any of its effects runs).
    private func perform(_ work: EffectWork<Intent>) {
        for task in work.cancelled { task.cancel() }
        notifyObservers()
        if work.reduced { didReduce?() }
        for launch in work.launches { start(launch) }
        for waiter in work.settled { waiter() }
    }

    /// Hands waiting states to observers, unless another thread is doing so (it then hands
    /// over these states too). One notifier at a time keeps every observer's order.
    private func notifyObservers() {
        var batch = core.withLock { $0.beginNotifying() }
        while let current = batch {
            for outgoing in current.outgoing {
                switch outgoing {
                case let .state(notification):
                    for (key, observer) in current.observers {
                        let due = notification.only.map { $0 == key } ?? (observer.since <= notification.sequence)
                        if due { observer.body(notification.state) }
                    }
                case let .trace(box):
                    current.tracer?(box.event)
                }
            }
            batch = core.withLock { $0.continueNotifying() }
        }
    }

    private func start(_ launch: EffectLaunch<Intent>) {
        let token = launch.token
        let send = Send<Intent> { [weak self] intent in self?.receive(intent, from: token) }
        let operation = launch.operation
        // `immediate` runs the operation on this thread up to its first suspension, so a
        // debounce is registered with its clock before `send` returns: a manual clock advanced
        // right after `send` always sees it.
        let task = Task.immediate(executorPreference: executor) { [weak self] in
            await operation(send)
            self?.finish(token)
        }
        let stillRunning = core.withLock { core -> Bool in
            guard core.records[token] != nil else { return false }
            core.records[token]?.task = task
            return true
        }
        if !stillRunning { task.cancel() }
    }

    /// The single stale-intent check: inside the lock, atomically with the reduce.
    private func receive(_ intent: Intent, from token: UInt64) {
        willReceive?()
        let work = core.withLock { core -> EffectWork<Intent> in
            guard !core.isClosed, core.records[token] != nil else { return EffectWork() }
            return core.apply(intent, with: reducer)
        }
        perform(work)
    }

    private func finish(_ token: UInt64) {
        let (waiters, traced) = core.withLock { core -> ([@Sendable () -> Void], Bool) in
            let id = core.records[token]?.id
            let traced = core.records[token] != nil && core.traceEffect(.effectFinished(effect: token, id: id))
            core.remove(token)
            return (core.takeSettleWaitersIfIdle(), traced)
        }
        if traced { notifyObservers() }
        for waiter in waiters { waiter() }
    }

    private func shutDown() {
        let (tasks, callbacks) = core.withLock { core in core.close() }
        for task in tasks { task.cancel() }
        for callback in callbacks { callback() }
    }
}

/// A handle that stops an observation or a settle waiter. Idempotent.
public final class StoreObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

    /// Stops observing (or waiting). Safe to call more than once and from any thread.
    public func cancel() {
        let body = onCancel.withLock { body -> (@Sendable () -> Void)? in
            defer { body = nil }
            return body
        }
        body?()
    }
}
