package cinematic

// The runtime: opening it and its stores, the clock, callback delivery, the host catalog's
// provider, the logger (RuntimeLogger.kt) and closing.

/**
 * A libcinematic runtime: configuration, clock, catalog, favorites and callback delivery for
 * its [Store]s (`cinematic_runtime`). Close it when done; closing also closes its stores.
 *
 * [config] is the runtime's JSON configuration (null for all defaults), for example
 * `{"clock":"manual","catalog":"host","delivery":"queued","search":{"debounceMs":250}}`;
 * see `cinematic_runtime_open` in cinematic/runtime.h for every key. For debugging,
 * `"history": 100` makes each store keep its last 100 intents and states ([Store.history],
 * [Store.revert]) and `"record": "/tmp/session.jsonl"` records the session to that file
 * (complete once [close] returns) for [Cinematic.replay]; see also [setLogger].
 *
 * ```
 * Runtime("""{"clock":"manual"}""").use { runtime ->
 *     runtime.openSearch().use { search ->
 *         search.queryChanged("dune")
 *         runtime.advanceClock(250)
 *         search.settle(5_000)
 *         println(search.state.results)
 *     }
 * }
 * ```
 *
 * Thread safety: every member may be called from any thread. Callbacks (providers,
 * subscribers, the logger) follow the runtime's delivery mode: "immediate" runs them on
 * library threads, "queued" on whichever thread calls [dispatch]. An open runtime, its stores
 * and every callback registered with them stay strongly reachable until [close], so nothing
 * the library may still call is collected.
 *
 * Patched delivery: by default ([patches] true) stores observe in patch mode
 * (`cinematic_store_observe_patches`, docs/wire.md "Patched delivery"): the library sends the
 * whole state once, then only what changed (an RFC 6902 JSON Patch), and each store rebuilds
 * every state from the previous one ([JsonPatch]) before decoding it for its subscriber.
 * Subscribers see the same states either way; `Runtime(config, patches = false)` receives
 * whole states (`cinematic_store_observe`).
 *
 * @throws CinematicException "json"/"too_large" for a malformed config, "invalid" for an
 *   unknown key or bad value, "io" when the catalog cannot be opened.
 */
class Runtime internal constructor(
    config: String?,
    /** The C functions this runtime and its stores call (a test may wrap the platform's). */
    internal val library: NativeLibrary,
    /**
     * True (the default) when the stores of this runtime observe in patch mode and rebuild
     * their states from patches; false for whole-state delivery.
     */
    val patches: Boolean = true
) : AutoCloseable {

    /** Opens a runtime from its JSON [config] (null for all defaults); [patches]: see [Runtime.patches]. */
    constructor(config: String? = null, patches: Boolean = true) : this(config, nativeLibrary, patches)

    /** Opens a runtime from a config given as a map, e.g. `mapOf("clock" to "manual")`. */
    constructor(config: Map<String, Any?>, patches: Boolean = true) : this(Json.write(config), patches)

    /**
     * Opens a runtime from the generated [RuntimeConfig], e.g.
     * `RuntimeConfig(clock = "manual", history = 100, record = "/tmp/session.jsonl")`;
     * members left null are left out (the library's defaults).
     */
    constructor(config: RuntimeConfig, patches: Boolean = true) : this(Json.write(withoutNulls(config.toJson())), patches)

    internal val handle: Long = openedHandle("runtime") { out -> library.runtimeOpen(config?.let(::jsonText), out) }

    private val lock = Lock()
    // Guarded by `lock`:
    private val stores = LinkedHashSet<Store<*>>() // Store keeps identity equality
    private var provider: NativeCallback? = null
    // Replaced providers are kept until close: the C API lets a delivery that already read
    // the old provider call it right after set_provider returns, so it must stay alive.
    private val retiredProviders = ArrayList<NativeCallback>()
    private var closed = false
    /** The host's logger and the native callback that calls it (RuntimeLogger.kt). */
    private val logger = RuntimeLogger(this, library)

    /** True once [close] has been called. */
    val isClosed: Boolean get() = lock.locked { closed }

    /**
     * Receives any exception thrown by a provider, subscriber or logger callback (such
     * exceptions must not cross into the library), and a [PatchException] when a patched
     * delivery did not apply (never from this library; the store then observes again and
     * gets the whole state). The default prints it (stderr on the JVM).
     */
    var callbackErrorHandler: (Throwable) -> Unit
        get() = lock.locked { errorHandler }
        set(handler) = lock.locked { errorHandler = handler }
    private var errorHandler: (Throwable) -> Unit = { error -> library.reportUncaught(error) }

    init {
        registry.locked { openRuntimes.add(this) }
    }

    /**
     * Opens a store of [feature] ([SearchFeature], [DetailFeature], ...; see [ALL_FEATURES])
     * with its JSON [argsJson] (null when the feature takes none). The generated
     * `openSearch()`, `openDetail(movieId)`, ... call this.
     *
     * ```
     * val detail: DetailStore = runtime.open(DetailFeature, """{"movieId":15249}""")
     * ```
     *
     * @throws CinematicException "unknown_feature" (a library without it), "json"/"invalid"
     *   for bad args, "closed".
     */
    fun <S, T : Store<S>> open(feature: Feature<S, T>, argsJson: String? = null): T =
        register(feature.wrap(this, openHandle(feature.name, argsJson)))

    /**
     * Opens a store of the feature named [feature] ("search", "discover", "favorites",
     * "detail"; see cinematic.h) with its JSON [argsJson] (null when the feature takes none;
     * "detail" needs `{"movieId":15249}`). The store is the feature's typed store
     * ([SearchStore], ...) when this binding knows the feature; one it does not know has
     * its state read as [Json.parse] reads it.
     *
     * @throws CinematicException "unknown_feature", "json"/"invalid" for bad args, "closed".
     */
    fun openStore(feature: String, argsJson: String? = null): Store<*> {
        val definition: Feature<*, *> = ALL_FEATURES.firstOrNull { it.name == feature } ?: UntypedFeature(feature)
        return register(definition.wrap(this, openHandle(feature, argsJson)))
    }

    /** Opens a store of [feature] with arguments given as a map. */
    fun openStore(feature: String, args: Map<String, Any?>): Store<*> = openStore(feature, Json.write(args))

    /**
     * Moves a "manual" clock forward by [milliseconds] and wakes the effects whose sleep (a
     * search debounce, say) has elapsed; use [Store.settle] to wait for what they start.
     *
     * @throws CinematicException "invalid" for a negative value, "misuse" with the system
     *   clock, "closed".
     */
    fun advanceClock(milliseconds: Long) = checkStatus(library.runtimeAdvanceClock(handle, milliseconds))

    /**
     * With "queued" delivery, a file descriptor that is readable while callbacks wait: watch
     * it in an event loop and call [dispatch] when it is. It belongs to the runtime: never
     * read, write or close it. See also [awaitCallbacks].
     *
     * @throws CinematicException "misuse" with "immediate" delivery, "closed".
     */
    val fd: Int
        get() {
            val out = intArrayOf(-1)
            checkStatus(library.runtimeFd(handle, out))
            return out[0]
        }

    /**
     * Runs every waiting callback on the calling thread, in order, and returns how many ran
     * (0 with "immediate" delivery, or when another thread is dispatching).
     *
     * @throws CinematicException "misuse" from inside a callback, "closed".
     */
    fun dispatch(): Int {
        val count = intArrayOf(0)
        checkStatus(library.runtimeDispatch(handle, count))
        return count[0]
    }

    /**
     * With "queued" delivery, waits up to [timeoutMs] (negative: no limit) until callbacks
     * are waiting, i.e. until [fd] is readable; true when they are. A host without an
     * fd-based event loop can run `while (awaitCallbacks(-1)) dispatch()` on its UI thread,
     * or wait here on a helper thread and post [dispatch] to its UI thread.
     */
    fun awaitCallbacks(timeoutMs: Int): Boolean = library.awaitReadable(fd, timeoutMs)

    /**
     * Registers the provider of a "host" catalog, replacing any previous one (null removes
     * it). It receives each request's id and JSON, e.g. `{"op":"search","query":"dune","page":1}`
     * or `{"op":"cancel"}`, and answers, now or later and from any thread, with [respond].
     * It must not block. Register it before opening stores: requests made while none is
     * registered fail with "network".
     *
     * ```
     * runtime.setProvider { id, request -> executor.execute { runtime.respond(id, lookUp(request)) } }
     * ```
     *
     * @throws CinematicException "misuse" when the catalog is not "host", "closed".
     */
    fun setProvider(provider: ((requestId: Long, requestJson: String) -> Unit)?) {
        val callback = provider?.let { host ->
            library.requestCallback { id, json ->
                library.record("request", null, json)
                Delivery.run(this) { host(id, json) }
            }
        }
        lock.locked {
            val status = library.runtimeSetProvider(handle, callback)
            if (status != Status.OK) {
                val failure = CinematicException.fromLastError(status)
                callback?.dispose() // never registered
                throw failure
            }
            this.provider?.let { retiredProviders.add(it) }
            this.provider = callback
        }
    }

    /**
     * Registers the runtime's logger (`cinematic_runtime_set_logger`), replacing any previous
     * one; null removes it. It receives one readable line (no newline) for every intent any
     * store of the runtime reduces, every [Store.revert] and every effect started, cancelled
     * and finished, e.g. `[250 ms] search#2 intent #3 searchNow {"type":"searchNow"} changed: results`.
     * Lines follow the runtime's delivery mode, in order, like subscribers (never on an
     * effect's thread); exceptions go to [callbackErrorHandler]. Off by default, and free
     * when off. Once this returns the previous logger is never called again.
     *
     * ```
     * runtime.setLogger { line -> println(line) }
     * ```
     *
     * @throws CinematicException "closed".
     */
    fun setLogger(logger: ((line: String) -> Unit)?) = this.logger.set(handle, logger)

    /**
     * Answers provider request [requestId] with [responseJson]: `{"movies":[...]}`,
     * `{"movie":{...}}` or `{"error":{"code":"network","message":"..."}}`. Any thread, any
     * time; an answer to a cancelled or already answered request is accepted and dropped.
     *
     * @throws CinematicException "json"/"invalid" for an answer that cannot be decoded (the
     *   request then fails with "invalidResponse") or an id that was never issued; "misuse"
     *   when the catalog is not "host"; "closed".
     */
    fun respond(requestId: Long, responseJson: String) =
        checkStatus(library.runtimeRespond(handle, requestId, jsonText(responseJson)))

    /**
     * Where the catalog is in its loading (`cinematic_runtime_catalog_state`), as JSON:
     * `{"phase":"loading","progress":0.42}`, `{"phase":"loaded"}` or
     * `{"phase":"failed","error":{...}}`. Never waits.
     */
    fun catalogStateJson(): String = ownedJson("catalog state") { out -> library.runtimeCatalogState(handle, out) }

    /**
     * Closes the runtime and every store it still has: effects stop, outstanding provider
     * requests are abandoned, and no callback runs after this returns. Calling it again does
     * nothing; afterwards the runtime and its stores throw "closed".
     */
    override fun close() {
        val open = lock.locked {
            val first = !closed
            closed = true
            stores.toList().also { stores.clear() }.takeIf { first }
        } ?: return
        val status = library.runtimeClose(handle)
        val failure = if (status != Status.OK && status != Status.CLOSED) CinematicException.fromLastError(status) else null
        // No callback runs any more: the callbacks may go.
        open.forEach { it.releaseCallbacks() }
        logger.clear()
        val callbacks = lock.locked {
            val all = retiredProviders + listOfNotNull(provider)
            provider = null
            retiredProviders.clear()
            all
        }
        if (failure == null) (callbacks + logger.callback).forEach { it.dispose() }
        registry.locked { openRuntimes.remove(this) }
        if (failure != null) throw failure
    }

    override fun toString(): String = "Runtime(${if (isClosed) "closed" else "open"})"

    private fun openHandle(feature: String, argsJson: String?): Long = openedHandle("store") { out ->
        library.storeOpen(handle, cText(feature, Status.UNKNOWN_FEATURE, "the feature name"), argsJson?.let(::jsonText), out)
    }

    internal fun <T : Store<*>> register(store: T): T {
        lock.locked { if (!closed) stores.add(store) }
        return store
    }

    internal fun forget(store: Store<*>) {
        lock.locked { stores.remove(store) }
    }

    internal fun reportCallbackError(error: Throwable) {
        try {
            callbackErrorHandler(error)
        } catch (ignored: Throwable) {
            // A failing handler must not throw into the library either.
        }
    }

    private companion object {
        val registry = Lock()
        /** Open runtimes stay reachable (with their callbacks) until closed. */
        val openRuntimes = LinkedHashSet<Runtime>()
    }
}
