package cinematic

/**
 * libcinematic's C functions, one member per function, in platform-neutral types: the only
 * part of the binding that differs between the JVM (JNA, `bindings/kotlin/jvm`) and
 * Kotlin/Native (cinterop, `bindings/kotlin/native`). Everything else (runtime, stores,
 * features, coroutines, JSON) is shared code in this source set.
 *
 * Conventions, the same as the C API's (include/cinematic.h):
 * - handles (`cinematic_runtime *`, `cinematic_store *`) and owned strings are addresses
 *   ([Long]); 0 is NULL;
 * - out-pointers are one-element arrays the implementation writes to;
 * - Kotlin strings go in as NUL-terminated UTF-8 (callers have refused strings with a NUL);
 * - a string handed out through an out-pointer is owned by the caller: read it with
 *   [readString], then release it with [free] (the shared code does both, after reading
 *   [lastError] when the call failed);
 * - a callback is a [NativeCallback] made by [stateCallback], [requestCallback] or
 *   [logCallback]: the shared code keeps it reachable while registered and [disposes][NativeCallback.dispose]
 *   it once the library can no longer call it.
 *
 * Implementations do no more than call the C function: no locks, no retries, no JSON.
 */
interface NativeLibrary {
    /** `cinematic_version`: a static string. */
    fun version(): String?
    /** `cinematic_status_name`: a static string. */
    fun statusName(status: Int): String?
    /** `cinematic_last_error`: this thread's last error envelope (borrowed, copied here). */
    fun lastError(): String?
    /** Copies the NUL-terminated UTF-8 string at [pointer] (not 0). */
    fun readString(pointer: Long): String
    /** `cinematic_free(pointer)`; 0 is a no-op. */
    fun free(pointer: Long)

    /** `cinematic_runtime_open(config_json, &out[0])`. */
    fun runtimeOpen(configJson: String?, out: LongArray): Int
    /** `cinematic_runtime_close(rt)`. */
    fun runtimeClose(runtime: Long): Int
    /** `cinematic_runtime_fd(rt, &out[0])`. */
    fun runtimeFd(runtime: Long, out: IntArray): Int
    /** `cinematic_runtime_dispatch(rt, &out[0])`. */
    fun runtimeDispatch(runtime: Long, out: IntArray): Int
    /** `cinematic_runtime_advance_clock(rt, milliseconds)`. */
    fun runtimeAdvanceClock(runtime: Long, milliseconds: Long): Int
    /** `cinematic_runtime_set_provider(rt, fn, userdata)` with a [requestCallback] (null: none). */
    fun runtimeSetProvider(runtime: Long, callback: NativeCallback?): Int
    /** `cinematic_runtime_respond(rt, request_id, response_json)`; [requestId] is a uint64 bit for bit. */
    fun runtimeRespond(runtime: Long, requestId: Long, responseJson: String): Int
    /** `cinematic_runtime_set_logger(rt, fn, userdata)` with a [logCallback] (null: none). */
    fun runtimeSetLogger(runtime: Long, callback: NativeCallback?): Int
    /** `cinematic_runtime_catalog_state(rt, &out[0])`: an owned string. */
    fun runtimeCatalogState(runtime: Long, out: LongArray): Int

    /** `cinematic_store_open(rt, feature, args_json, &out[0])`. */
    fun storeOpen(runtime: Long, feature: String, argsJson: String?, out: LongArray): Int
    /** `cinematic_store_scope(store, scope, &out[0])`: a child handle showing one part of [store]'s state. */
    fun storeScope(store: Long, scope: String, out: LongArray): Int
    /** `cinematic_store_close(store)`. */
    fun storeClose(store: Long): Int
    /** `cinematic_store_send(store, intent_json)`. */
    fun storeSend(store: Long, intentJson: String): Int
    /** `cinematic_store_state(store, &out[0])`: an owned string. */
    fun storeState(store: Long, out: LongArray): Int
    /** `cinematic_store_observe(store, fn, userdata)` with a [stateCallback] (null: none). */
    fun storeObserve(store: Long, callback: NativeCallback?): Int
    /**
     * `cinematic_store_observe_patches(store, fn, userdata)` with a [stateCallback] (null:
     * none): the callback receives `{"seq":1,"state":{...}}`, then `{"seq":n,"patch":[...]}`.
     */
    fun storeObservePatches(store: Long, callback: NativeCallback?): Int
    /** `cinematic_store_settle(store, timeout_ms)`. */
    fun storeSettle(store: Long, timeoutMs: Long): Int
    /** `cinematic_store_pending_effects(store, &out[0])`. */
    fun storePendingEffects(store: Long, out: IntArray): Int
    /** `cinematic_store_history(store, &out[0])`: an owned string. */
    fun storeHistory(store: Long, out: LongArray): Int
    /** `cinematic_store_revert(store, seq)`; [seq] is a uint64 bit for bit. */
    fun storeRevert(store: Long, seq: Long): Int

    /** `cinematic_store_snapshot(store, &out[0])`: an owned string. */
    fun storeSnapshot(store: Long, out: LongArray): Int
    /** `cinematic_store_restore(rt, snapshot_json, &out[0])`. */
    fun storeRestore(runtime: Long, snapshotJson: String, out: LongArray): Int
    /** `cinematic_runtime_snapshot(rt, &out[0])`: an owned string. */
    fun runtimeSnapshot(runtime: Long, out: LongArray): Int
    /**
     * `cinematic_runtime_restore(rt, snapshot_json, &stores, &count)`: on success the new
     * store handles, in order, are appended to [handles] and the C array is freed.
     */
    fun runtimeRestore(runtime: Long, snapshotJson: String, handles: MutableList<Long>): Int

    /** `cinematic_replay(path, NULL, &out[0])`: an owned string. */
    fun replay(path: String, out: LongArray): Int
    /** `cinematic_catalog_build_index(movie_path, index_path)`. */
    fun catalogBuildIndex(moviePath: String?, indexPath: String): Int

    /** A `cinematic_state_fn` calling [body] with a copy of the state JSON. */
    fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback
    /** A `cinematic_request_fn` calling [body] with the request id and a copy of its JSON. */
    fun requestCallback(body: (requestId: Long, requestJson: String) -> Unit): NativeCallback
    /** A `cinematic_log_fn` calling [body] with a copy of the line. */
    fun logCallback(body: (line: String) -> Unit): NativeCallback

    /** poll(2): waits up to [timeoutMs] (negative: no limit) until [fd] is readable; true if it is. */
    fun awaitReadable(fd: Int, timeoutMs: Int): Boolean

    /**
     * A debugging hook, not a C function: sees every state, error envelope, provider request
     * and report the binding receives ([kind] "state", "patched", "envelope", "request", ...). The JVM
     * binding writes them to the file named by `-Dcinematic.wireLog`; the default ignores them.
     */
    fun record(kind: String, feature: String?, json: String) {}

    /** True when [record] keeps what it is given (so a caller may skip encoding it otherwise). */
    val recording: Boolean get() = false

    /** Where an exception thrown by a host callback goes when no handler is set (stderr on the JVM). */
    fun reportUncaught(error: Throwable) {
        println("cinematic: exception in a callback: $error")
    }
}

/**
 * A host function registered with the library (made by [NativeLibrary.stateCallback] and its
 * siblings). Keep it reachable while the library may call it; [dispose] it once it cannot
 * (on Kotlin/Native that frees its `StableRef`; on the JVM it does nothing).
 */
interface NativeCallback {
    /** Releases what the callback holds; called once, when the library can no longer call it. */
    fun dispose()
}
