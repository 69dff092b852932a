package cinematic

import com.sun.jna.Pointer
import com.sun.jna.ptr.IntByReference
import java.util.concurrent.atomic.AtomicBoolean

/**
 * One feature's state machine (`cinematic_store`), opened with [Runtime.openStore]. Send it
 * intents as JSON, read its [state] as JSON, [subscribe] to its states. Close it when done
 * (closing its runtime closes it too); afterwards every call throws "closed".
 *
 * ```
 * runtime.openStore("search").use { search ->
 *     search.subscribe { state -> println(state) }
 *     search.queryChanged("dune")
 *     search.submitted()
 *     search.settle(5_000)
 * }
 * ```
 *
 * Every member may be called from any thread; [send] has reduced the intent when it returns.
 */
class Store internal constructor(
    /** The runtime that owns this store. */
    val runtime: Runtime,
    internal val handle: Pointer,
    /** The feature name this store was opened with, e.g. "search". */
    val feature: String
) : AutoCloseable {

    private val closed = AtomicBoolean(false)
    private val observeLock = Any()
    /** Run once when no callback of this store can run any more ([whenClosed]). */
    private val closeListeners = java.util.concurrent.CopyOnWriteArrayList<() -> Unit>()
    @Volatile
    private var current: Subscription? = null

    /** True once this store or its runtime has been closed. */
    val isClosed: Boolean get() = closed.get() || runtime.isClosed

    /**
     * Sends an intent, e.g. `{"type":"queryChanged","query":"dune"}`. It is reduced before
     * this returns (so [state] reflects it) and its effects start. With "immediate" delivery
     * the subscriber may run on this thread before `send` returns: do not hold a lock the
     * subscriber needs while sending.
     *
     * @throws CinematicException "json"/"too_large" for bad JSON; "invalid" for an unknown
     *   or internal intent type, a missing, mistyped or unknown member; "closed".
     */
    fun send(intentJson: String) = checkStatus(CLib.cinematic_store_send(handle, jsonCString(intentJson)))

    /** Sends an intent given as a map, e.g. `mapOf("type" to "submitted")`. */
    fun send(intent: Map<String, Any?>) = send(Json.write(intent))

    /** Search: the user edited the query; the search runs after the debounce. */
    fun queryChanged(query: String) = send("{\"type\":\"queryChanged\",\"query\":${Json.quote(query)}}")

    /** Search: the user submitted the query; search now, skipping the debounce. */
    fun submitted() = send("{\"type\":\"submitted\"}")

    /**
     * A snapshot of the current state as JSON, e.g.
     * `{"query":"dune","results":{"phase":"loaded","value":[...]}}`.
     *
     * @throws CinematicException "closed".
     */
    val state: String
        get() = ownedJson("state") { CLib.cinematic_store_state(handle, it) }.also { WireLog.record("state", feature, it) }

    /**
     * The store's debug history (`cinematic_store_history`), oldest first: one entry per
     * intent the store reduced, internal ones (effect results) included, with the state after
     * it and the top-level members it changed. It holds at most the runtime config's
     * `"history"` entries and is empty when the runtime keeps none (the default). A snapshot:
     * later intents do not change the returned list. Intents and states are parsed JSON
     * (maps): `SearchState.fromJson(entry.state)` reads a state into its type.
     *
     * ```
     * Runtime("""{"history":100}""").use { runtime ->
     *     val search = runtime.openStore("search")
     *     search.queryChanged("dune")
     *     search.history().last()   // HistoryEntry(seq=1, intent={type=queryChanged, query=dune}, ..., changed=[query])
     * }
     * ```
     *
     * @throws CinematicException "closed".
     */
    fun history(): List<HistoryEntry> = (Json.parse(historyJson()) as List<*>).map { HistoryEntry.fromJson(it) }

    /**
     * [history] as the library's JSON text: an array, oldest first, of
     * `{"seq":12,"intent":{...},"state":{...},"changed":["results"]}` (`[]` when the runtime
     * keeps no history).
     *
     * @throws CinematicException "closed".
     */
    fun historyJson(): String =
        ownedJson("history") { CLib.cinematic_store_history(handle, it) }.also { WireLog.record("history", feature, it) }

    /**
     * Time travel (`cinematic_store_revert`): sets the state to the one after history entry
     * [seq] ([HistoryEntry.seq]) and delivers it to the subscriber like any other state.
     * Effects in flight keep running (their results are reduced on the reverted state); the
     * history itself is unchanged and its numbering goes on.
     *
     * @throws CinematicException "invalid" for a [seq] not (or no longer) in the history, or
     *   when the runtime keeps none; "closed".
     */
    fun revert(seq: Long) {
        if (seq < 0) throw CinematicException(Status.INVALID, "invalid", "no history entry $seq (seq numbers start at 1)")
        checkStatus(CLib.cinematic_store_revert(handle, seq))
    }

    /**
     * Time travel to [entry], one of this store's [history] entries: `revert(entry.seq)`.
     *
     * @throws CinematicException "invalid" when the entry is no longer in the history; "closed".
     */
    fun revert(entry: HistoryEntry) = revert(entry.seq.toLong())

    /**
     * Calls [callback] with the current state, then with every distinct state in order,
     * following the runtime's delivery mode (a library thread with "immediate" delivery, the
     * [Runtime.dispatch] caller with "queued"). Callbacks of one runtime never run
     * concurrently. The callback may call [send], [state], [close] and [Runtime.respond].
     *
     * A store has one subscriber at a time, as in the C API: subscribing again replaces the
     * previous subscriber (whose handle then does nothing). Close the returned handle to
     * unsubscribe; from inside a callback that takes effect at once (nothing more is
     * forwarded), the native registration is dropped at the next subscribe or close.
     *
     * @throws CinematicException "closed"; "misuse" when called from inside a callback.
     */
    fun subscribe(callback: (state: String) -> Unit): AutoCloseable {
        if (Delivery.insideCallback) {
            throw CinematicException(Status.MISUSE, "misuse",
                "subscribe cannot be called from inside a callback (cinematic_store_observe is not callback-safe)")
        }
        val subscription = Subscription(callback)
        synchronized(observeLock) {
            checkStatus(CLib.cinematic_store_observe(handle, subscription.native, null))
            // The library has dropped the previous callback and waited for it: it may go.
            current?.active = false
            current = subscription
        }
        return subscription
    }

    /**
     * Blocks until the store has no effect in flight (including effects started by effect
     * results) and, with "immediate" delivery, its states have been delivered; at most
     * [timeoutMs] milliseconds (negative: no limit). With a manual clock a pending debounce
     * waits for [Runtime.advanceClock]; with a host catalog a request waits for its answer.
     *
     * From a coroutine, the suspending `settle()` (Coroutines.kt) waits without holding a thread
     * of the caller's dispatcher.
     *
     * @throws CinematicException "timeout"; "misuse" from inside a callback; "closed".
     */
    fun settle(timeoutMs: Long) = checkStatus(CLib.cinematic_store_settle(handle, timeoutMs))

    /**
     * How many effects are in flight (0 when quiescent).
     *
     * @throws CinematicException "closed".
     */
    val pendingEffects: Int
        get() {
            val out = IntByReference(0)
            checkStatus(CLib.cinematic_store_pending_effects(handle, out))
            return out.value
        }

    /**
     * Closes the store: its effects are cancelled and no callback for it runs after this
     * returns. May be called from inside a callback. Calling it again, or after the runtime
     * was closed, does nothing.
     */
    override fun close() {
        if (!closed.compareAndSet(false, true)) return
        val status = CLib.cinematic_store_close(handle)
        if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
        releaseCallbacks()
        runtime.forget(this)
    }

    override fun toString(): String = "Store($feature, ${if (isClosed) "closed" else "open"})"

    /** Called once no callback of this store can run any more (store or runtime closed). */
    internal fun releaseCallbacks() {
        closed.set(true)
        for (listener in closeListeners) if (closeListeners.remove(listener)) listener()
        // Not under observeLock: a subscribe may hold it while the library waits for a
        // callback of ours to return, and that callback may be the one closing the store.
        current?.active = false
        current = null
    }

    /** Calls [listener] once this store is closed (at once if it already is). */
    internal fun whenClosed(listener: () -> Unit) {
        closeListeners.add(listener)
        if (isClosed && closeListeners.remove(listener)) listener()
    }

    /** True while a subscriber is registered and forwarding states (a test seam). */
    internal val hasActiveSubscriber: Boolean get() = current?.active == true

    private fun unsubscribe(subscription: Subscription) {
        subscription.active = false
        if (Delivery.insideCallback) return // observe() is not callback-safe: drop it later
        synchronized(observeLock) {
            if (current !== subscription || closed.get()) return
            val status = CLib.cinematic_store_observe(handle, null, null)
            if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
            current = null
        }
    }

    private inner class Subscription(private val callback: (String) -> Unit) : AutoCloseable {
        @Volatile
        var active = true

        /** The native callback; referenced from here (and the store) while registered. */
        val native: StateCallback = object : StateCallback {
            override fun invoke(userdata: Pointer?, store: Pointer?, stateJson: Pointer?) {
                if (!active) return
                val json = stateJson?.readUtf8() ?: return
                WireLog.record("state", feature, json)
                Delivery.run(runtime) { if (active) callback(json) }
            }
        }

        override fun close() = unsubscribe(this)
    }
}
