package cinematic

// The store: its public surface (send, state, history, revert, subscribe, scope, settle,
// close). Its subscriber machinery is StoreCallbacks.kt; child handles are opened in Scopes.kt.

/**
 * One feature's state machine (`cinematic_store`), opened with [Runtime.openSearch],
 * [Runtime.openDetail], ... (typed stores: [SearchStore], [DetailStore], ... with one send
 * helper per intent) or [Runtime.openStore]. Its [state] is the feature's state type [S]
 * ([SearchState], ...), [stateJson] the same as JSON text; [subscribe] to its states. Close
 * it when done (closing its runtime closes it too); afterwards every call throws "closed".
 *
 * ```
 * runtime.openSearch().use { search ->
 *     search.subscribe { state -> println(state.query) }
 *     search.queryChanged("dune")
 *     search.submitted()
 *     search.settle(5_000)
 *     println(search.state.movies.first().label)   // Dune (1984)
 * }
 * ```
 *
 * Every member may be called from any thread; [send] has reduced the intent when it returns.
 *
 * A store that composes others (the app: [AppStore]) also gives **child handles**, each a
 * store showing one part of its state ([scope]): `app.scope(AppScopes.search)` is a
 * [SearchStore] whose [state] is the app's `search`, whose helpers send through the app, and
 * which closes with it ([parent], [scopeName]).
 */
open class Store<S> internal constructor(
    /** The runtime that owns this store. */
    val runtime: Runtime,
    internal val handle: Long,
    /** The feature this store was opened with; it decodes the states. */
    val definition: Feature<S, *>
) : AutoCloseable {

    internal val library = runtime.library
    /** Held while (un)registering the subscriber with the library. */
    internal val observeLock = Lock()
    /** Guards the fields below; never held while calling the library or a callback. */
    internal val stateLock = Lock()
    private var closing = false   // close() has started
    internal var released = false  // no callback of this store can run any more
    internal var current: Subscription? = null // the registered subscriber
    internal var delivered: Any? = null // patch mode: the last state rebuilt
    internal val closeListeners = ArrayList<() -> Unit>()
    internal val children = ArrayList<Store<*>>() // the child handles open on this store
    // A child handle's parent and scope: set once, before the child is handed out.
    internal var parentStore: Store<*>? = null
    internal var scopeOf: String? = null

    /**
     * The store this one is a child handle of ([scope]), or null for a store opened in a
     * runtime. A child's [settle], [pendingEffects], [history], [revert] and snapshot act on
     * its parent (a part has no effects, history or snapshot of its own).
     */
    val parent: Store<*>? get() = stateLock.locked { parentStore }

    /** The part of [parent]'s state this child handle shows ("search", ...), or null for a store opened in a runtime. */
    val scopeName: String? get() = stateLock.locked { scopeOf }

    /** The feature name this store was opened with, e.g. "search" (a child handle: its part's feature). */
    val feature: String get() = definition.name

    /** True once this store or its runtime has been closed. */
    val isClosed: Boolean get() = stateLock.locked { closing || released } || runtime.isClosed

    /**
     * Sends an intent, e.g. `{"type":"queryChanged","query":"dune"}`; typed stores have a
     * helper per intent ([SearchStore.queryChanged]). It is reduced before this returns (so
     * [state] reflects it) and its effects start. With "immediate" delivery the subscriber
     * may run on this thread before `send` returns: do not hold a lock the subscriber needs
     * while sending.
     *
     * @throws CinematicException "json"/"too_large" for bad JSON; "invalid" for an unknown
     *   or internal intent type, a missing, mistyped or unknown member; "closed".
     */
    fun send(intentJson: String) = checkStatus(library.storeSend(handle, jsonText(intentJson)))

    /** Sends an intent given as a map, e.g. `mapOf("type" to "submitted")` or a generated intent's `toJson()`. */
    fun send(intent: Map<String, Any?>) = send(Json.write(intent))

    /**
     * A snapshot of the current state, decoded by the feature ([Feature.decodeState]), e.g. a
     * [SearchState] for a [SearchStore].
     *
     * @throws CinematicException "closed".
     */
    val state: S
        get() = definition.decodeState(stateJson)

    /**
     * A snapshot of the current state as JSON, e.g.
     * `{"query":"dune","results":{"phase":"loaded","value":[...]}}`.
     *
     * @throws CinematicException "closed".
     */
    val stateJson: String
        get() = ownedJson("state") { out -> library.storeState(handle, out) }.also { recordState(it) }

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
     *     val search = runtime.openSearch()
     *     search.queryChanged("dune")
     *     search.history.last()   // HistoryEntry(seq=1, intent={type=queryChanged, query=dune}, ..., changed=[query])
     * }
     * ```
     *
     * A property, like [state] (a fresh list each read).
     *
     * @throws CinematicException "closed".
     */
    val history: List<HistoryEntry>
        get() = (Json.parse(historyJson()) as List<*>).map { HistoryEntry.fromJson(it) }

    /** The [history] property, by its old name (a function until 0.2). */
    @Deprecated("history is a property now, like state", ReplaceWith("history"))
    fun history(): List<HistoryEntry> = history

    /**
     * [history] as the library's JSON text: an array, oldest first, of
     * `{"seq":12,"intent":{...},"state":{...},"changed":["results"]}` (`[]` when the runtime
     * keeps no history).
     *
     * @throws CinematicException "closed".
     */
    fun historyJson(): String =
        ownedJson("history") { out -> library.storeHistory(handle, out) }.also { library.record("history", feature, it) }

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
        if (seq < 0) throw CinematicException.of(Status.INVALID, "no history entry $seq (seq numbers start at 1)")
        checkStatus(library.storeRevert(handle, seq))
    }

    /**
     * Time travel to [entry], one of this store's [history] entries: `revert(entry.seq)`.
     *
     * @throws CinematicException "invalid" when the entry is no longer in the history; "closed".
     */
    fun revert(entry: HistoryEntry) = revert(entry.seq.toLong())

    /**
     * Calls [callback] with the current state, then with every distinct state in order,
     * decoded ([Feature.decodeState]; a state that fails to decode goes to
     * [Runtime.callbackErrorHandler]), following the runtime's delivery mode (a library
     * thread with "immediate" delivery, the [Runtime.dispatch] caller with "queued").
     * Callbacks of one runtime never run concurrently. The callback may call [send], [state],
     * [close] and [Runtime.respond].
     *
     * In patch mode ([Runtime.patches], the default) the store rebuilds each state from the
     * previous one and the patch the library sent ([JsonPatch]), then decodes it
     * ([Feature.decodeStateTree]): the callback sees the same states as with whole-state
     * delivery.
     *
     * A store has one subscriber at a time, as in the C API: subscribing again (here or with
     * [subscribeJson]) replaces the previous subscriber (whose handle then does nothing).
     * Close the returned handle to unsubscribe; from inside a callback that takes effect at
     * once (nothing more is forwarded), the native registration is dropped at the next
     * subscribe or close.
     *
     * @throws CinematicException "closed"; "misuse" when called from inside a callback.
     */
    fun subscribe(callback: (state: S) -> Unit): AutoCloseable = register(Subscription(this,
        whole = { json -> callback(definition.decodeState(json)) },
        patched = { tree -> callback(definition.decodeTree(tree)) }))

    /**
     * [subscribe], with each state as JSON text. With whole-state delivery that is the
     * library's text; in patch mode it is the rebuilt state written compactly ([Json.write]),
     * the same document (same members, same order) as `cinematic_store_state` gives for it.
     * (Writing it costs in proportion to the whole state: a host that wants only what changed
     * decodes nothing, see [deliveredTree].)
     *
     * @throws CinematicException "closed"; "misuse" when called from inside a callback.
     */
    fun subscribeJson(callback: (stateJson: String) -> Unit): AutoCloseable =
        register(Subscription(this, whole = callback, patched = { tree -> callback(Json.write(tree)) }))

    /**
     * In patch mode, the state the last delivery rebuilt, as parsed JSON (maps and lists, as
     * [Json.parse] reads them): what the subscriber last received (also while it runs);
     * null before the first delivery and with whole-state delivery (and while a child
     * handle's part is `null`: no Detail shown). A delivered tree is never changed afterwards
     * (later states share its unchanged parts): treat it as read-only.
     */
    val deliveredTree: Map<String, Any?>?
        @Suppress("UNCHECKED_CAST")
        get() = stateLock.locked { delivered } as? Map<String, Any?>

    /**
     * A child handle showing the part [part] of this store's state (`cinematic_store_scope`),
     * typed: `app.scope(AppScopes.search)` is a [SearchStore], `app.scope(AppScopes.detail)` a
     * [ShownDetailStore] (state `null` while no Detail is open). The child is a store like any
     * other: its [state] is the part (exactly what the part's own store would show), [subscribe]
     * and `states()` deliver it (patched or whole, like this store; a change elsewhere in the
     * parent delivers nothing), and its helpers send the part's intents through this store,
     * whose history and recording show them wrapped (`{"type":"search","intent":{...}}`).
     *
     * ```
     * val search = app.scope(AppScopes.search)
     * search.queryChanged("alien")                  // the app's history: {"type":"search","intent":{...}}
     * println(search.state.query)                   // alien, = app.state.search.query
     * ```
     *
     * Close it when done (only its subscriber stops); closing this store (or the runtime)
     * closes it too, after which its calls throw "closed".
     *
     * @throws CinematicException "invalid" for a part the library does not have; "closed".
     */
    @Suppress("UNCHECKED_CAST") // the part's feature wraps the handle in a T
    fun <C, T : Store<C>> scope(part: Scope<S, C, T>): T = openChild(part.name, part.feature) as T

    /**
     * A child handle of the part named [name] ("search", "discover", "favorites", "detail" of
     * an [AppStore]; see the typed [scope]), typed at run time like [Runtime.openStore]: a
     * [SearchStore] for the app's "search", a [ShownDetailStore] for its "detail".
     *
     * @throws CinematicException "invalid" for a scope this store's feature does not have (the
     *   message lists its scopes; a child handle has none), "closed".
     */
    fun scope(name: String): Store<*> {
        val part = scopesOf(definition).firstOrNull { it.name == name }
        return if (part != null) openChild(name, part.feature) else openChild(name, UntypedFeature(name))
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
    fun settle(timeoutMs: Long) = checkStatus(library.storeSettle(handle, timeoutMs))

    /**
     * How many effects are in flight (0 when quiescent).
     *
     * @throws CinematicException "closed".
     */
    val pendingEffects: Int
        get() {
            val out = intArrayOf(0)
            checkStatus(library.storePendingEffects(handle, out))
            return out[0]
        }

    /**
     * Closes the store: its effects are cancelled and no callback for it runs after this
     * returns; its child handles ([scope]) close with it. A child handle's close stops only
     * its own subscriber. May be called from inside a callback. Calling it again, or after
     * the runtime (or a child's parent) was closed, does nothing.
     */
    override fun close() {
        val first = stateLock.locked { (!closing && !released).also { closing = true } }
        if (!first) return
        val status = library.storeClose(handle)
        if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
        releaseCallbacks()
        parent?.forgetChild(this)
        runtime.forget(this)
    }

    override fun toString(): String =
        "Store(${parent?.let { "${it.feature}." } ?: ""}${scopeName ?: feature}, ${if (isClosed) "closed" else "open"})"

    /** Writes a state this store received to the wire log (not a part that is no feature's state: [Feature.isWireState]). */
    internal fun recordState(json: String) {
        if (definition.isWireState) library.record("state", feature, json)
    }
}
