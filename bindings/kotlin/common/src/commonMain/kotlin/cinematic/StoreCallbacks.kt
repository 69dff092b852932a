package cinematic

// A store's subscriber machinery: registering a subscriber with the library (one at a time),
// forwarding whole or patched states while it is active, unsubscribing, and releasing every
// callback once the store is closed. Extensions of [Store], whose fields they share.

/** Registers [subscription] as this store's one subscriber, replacing (and releasing) the previous one. */
internal fun Store<*>.register(subscription: Subscription): AutoCloseable {
    if (Delivery.insideCallback) {
        subscription.release()
        throw CinematicException.of(Status.MISUSE,
            "subscribe cannot be called from inside a callback (cinematic_store_observe is not callback-safe)")
    }
    observeLock.locked {
        val status = observe(subscription)
        if (status != Status.OK) {
            val failure = CinematicException.fromLastError(status)
            subscription.release() // never registered
            throw failure
        }
        // The library has dropped the previous callback and waited for it: it may go.
        val previous = stateLock.locked { current.also { current = subscription } }
        previous?.release()
        // Closed meanwhile (after the library's close returned): nothing calls it any more.
        stateLock.locked { if (released) current.also { current = null } else null }?.release()
    }
    return subscription
}

/** Registers [subscription]'s native callback in the runtime's mode. */
internal fun Store<*>.observe(subscription: Subscription): Int =
    if (runtime.patches) library.storeObservePatches(handle, subscription.native)
    else library.storeObserve(handle, subscription.native)

/** Called once no callback of this store can run any more (store or runtime closed). */
internal fun Store<*>.releaseCallbacks() {
    // Not under observeLock: a subscribe may hold it while the library waits for a
    // callback of ours to return, and that callback may be the one closing the store.
    val (listeners, subscription) = stateLock.locked {
        released = true
        val listeners = closeListeners.toList()
        closeListeners.clear()
        (listeners to current).also { current = null }
    }
    subscription?.release()
    // The library closed this store's child handles with it.
    stateLock.locked { children.toList().also { children.clear() } }.forEach { it.releaseCallbacks() }
    listeners.forEach { it() }
}

/** Calls [listener] once this store is closed (at once if it already is). */
internal fun Store<*>.whenClosed(listener: () -> Unit) {
    val now = stateLock.locked { released.also { if (!it) closeListeners.add(listener) } }
    if (now) listener()
}

/** True while a subscriber is registered and forwarding states (a test seam). */
internal val Store<*>.hasActiveSubscriber: Boolean get() = stateLock.locked { current }?.isActive == true

/** Stops [subscription] and, unless inside a callback, drops its native registration. */
internal fun Store<*>.unsubscribe(subscription: Subscription) {
    subscription.deactivate()
    if (Delivery.insideCallback) return // observe is not callback-safe: dropped at the next subscribe or close
    observeLock.locked {
        if (stateLock.locked { current === subscription && !released }) {
            val status = library.storeObserve(handle, null)
            // "closed": the close releases it.
            if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
            val mine = status == Status.OK && stateLock.locked { (current === subscription).also { if (it) current = null } }
            if (mine) subscription.release()
        }
    }
}

/**
 * A registered subscriber: its native callback forwards states while it is active, given
 * whole ([whole], the library's JSON) or, in patch mode, rebuilt from patches ([patched]).
 */
internal class Subscription(
    /** The store whose states it forwards. */
    private val store: Store<*>,
    private val whole: (String) -> Unit,
    private val patched: (Any?) -> Unit
) : AutoCloseable {
    private val flag = Lock()
    private var active = true
    /** Patch mode: the states rebuilt so far (touched by deliveries only, which never overlap). */
    private val rebuilt = PatchedState()
    /** Patch mode: what the callback last received ([NOTHING] before the first delivery). */
    private var last: Any? = NOTHING
    /** Patch mode: a delivery failed to apply and registering again has not happened yet. */
    private var broken = false

    val isActive: Boolean get() = flag.locked { active }

    fun deactivate() = flag.locked { active = false }

    /** The native callback; referenced from here (and the store) while registered. */
    val native: NativeCallback = store.library.stateCallback { json ->
        if (isActive) {
            if (store.runtime.patches) receivePatched(json) else {
                store.recordState(json)
                Delivery.run(store.runtime) { if (isActive) whole(json) }
            }
        }
    }

    private fun receivePatched(envelope: String) {
        if (store.definition.isWireState) store.library.record("patched", store.feature, envelope)
        val state = try {
            val parsed = Json.parse(envelope)
            if (broken && (parsed as? Map<*, *>)?.containsKey("state") != true) {
                resync() // still waiting for the whole state: try registering again
                return
            }
            rebuilt.receive(parsed)
        } catch (failure: IllegalArgumentException) { // a PatchException, or malformed JSON
            broken = true
            store.runtime.reportCallbackError(PatchException("${store.feature} store: a patched delivery did not apply (${failure.message}); observing again"))
            resync()
            return
        }
        broken = false
        if (store.library.recording) store.recordState(Json.write(state))
        val previous = last.also { last = state }
        // The same state again after registering again: not a new state.
        if (previous !== NOTHING && (previous === state || (rebuilt.seq == 1L && previous == state))) return
        store.stateLock.locked { if (isActive) store.delivered = state }
        Delivery.run(store.runtime) { if (isActive) patched(state) }
    }

    /**
     * Registers this callback again, from inside its own delivery, so the library starts
     * over with the whole state. Never waits: when another thread holds the observe lock it
     * is (un)subscribing, and the next delivery tries again.
     */
    private fun resync() {
        store.observeLock.tryLocked {
            if (isActive && store.stateLock.locked { store.current === this && !store.released }) {
                store.library.storeObservePatches(store.handle, native)
            }
        }
    }

    /** Stops forwarding and frees the native callback: only once the library can no longer call it. */
    fun release() {
        deactivate()
        native.dispose()
    }

    override fun close() = store.unsubscribe(this)
}

/** What a patch-mode subscriber has received before its first delivery (a state may be null). */
private val NOTHING = Any()
