@file:OptIn(ExperimentalForeignApi::class)

package cinematic

import cinematic.c.*
import kotlinx.cinterop.*
import platform.posix.*

// Kotlin/Native's NativeLibrary: libcinematic's C functions through the cinterop stubs
// generated from cinematic.def (package cinematic.c). With Platform.kt, all this binding has
// of its own; the rest is bindings/kotlin/common. Never compiled here (README.md).

/** A registered host function: its `StableRef` is the C callback's userdata. */
private class CCallback(body: Any) : NativeCallback {
    val ref = StableRef.create(body)
    override fun dispose() = ref.dispose()
}

private fun userdata(callback: NativeCallback?): COpaquePointer? = (callback as CCallback?)?.ref?.asCPointer()

// One C function per callback type; the StableRef in userdata says whose body to call. The
// bodies (shared code) catch what host code throws; an exception must never cross into C.
private val stateTrampoline: cinematic_state_fn =
    staticCFunction { userdata: COpaquePointer?, _: CPointer<cinematic_store>?, json: CPointer<ByteVar>? ->
        if (userdata != null && json != null) runCatching { userdata.asStableRef<(String) -> Unit>().get()(json.toKString()) }
        Unit
    }
private val requestTrampoline: cinematic_request_fn =
    staticCFunction { userdata: COpaquePointer?, id: ULong, json: CPointer<ByteVar>? ->
        if (userdata != null && json != null) runCatching { userdata.asStableRef<(Long, String) -> Unit>().get()(id.toLong(), json.toKString()) }
        Unit
    }
private val logTrampoline: cinematic_log_fn =
    staticCFunction { userdata: COpaquePointer?, line: CPointer<ByteVar>? ->
        if (userdata != null && line != null) runCatching { userdata.asStableRef<(String) -> Unit>().get()(line.toKString()) }
        Unit
    }

private fun <T : CPointed> handle(address: Long): CPointer<T>? = address.toCPointer()

/** Runs [call] with a `T **` out-pointer and writes what it received into [out]. */
private inline fun outPointer(out: LongArray, call: (CPointerVar<COpaque>) -> Int): Int = memScoped {
    val pointer = alloc<CPointerVar<COpaque>>()
    val status = call(pointer)
    out[0] = pointer.value.toLong()
    status
}

/** Runs [call] with an `int *` out-pointer and writes what it received into [out]. */
private inline fun outInt(out: IntArray, call: (IntVar) -> Int): Int = memScoped {
    val value = alloc<IntVar>().apply { this.value = out[0] }
    val status = call(value)
    out[0] = value.value
    status
}

internal object CinteropLibrary : NativeLibrary {
    override fun version() = cinematic_version()?.toKString()
    override fun statusName(status: Int) = cinematic_status_name(status)?.toKString()
    override fun lastError() = cinematic_last_error()?.toKString()
    override fun readString(pointer: Long) = handle<ByteVar>(pointer)!!.toKString()
    override fun free(pointer: Long) = cinematic_free(handle<COpaque>(pointer))

    override fun runtimeOpen(configJson: String?, out: LongArray) = outPointer(out) { cinematic_runtime_open(configJson, it.ptr.reinterpret()) }
    override fun runtimeClose(runtime: Long) = cinematic_runtime_close(handle(runtime))
    override fun runtimeFd(runtime: Long, out: IntArray) = outInt(out) { cinematic_runtime_fd(handle(runtime), it.ptr) }
    override fun runtimeDispatch(runtime: Long, out: IntArray) = outInt(out) { cinematic_runtime_dispatch(handle(runtime), it.ptr) }
    override fun runtimeAdvanceClock(runtime: Long, milliseconds: Long) = cinematic_runtime_advance_clock(handle(runtime), milliseconds)
    override fun runtimeSetProvider(runtime: Long, callback: NativeCallback?) =
        cinematic_runtime_set_provider(handle(runtime), callback?.let { requestTrampoline }, userdata(callback))
    override fun runtimeRespond(runtime: Long, requestId: Long, responseJson: String) =
        cinematic_runtime_respond(handle(runtime), requestId.toULong(), responseJson)
    override fun runtimeSetLogger(runtime: Long, callback: NativeCallback?) =
        cinematic_runtime_set_logger(handle(runtime), callback?.let { logTrampoline }, userdata(callback))
    override fun runtimeCatalogState(runtime: Long, out: LongArray) =
        outPointer(out) { cinematic_runtime_catalog_state(handle(runtime), it.ptr.reinterpret()) }

    override fun storeOpen(runtime: Long, feature: String, argsJson: String?, out: LongArray) =
        outPointer(out) { cinematic_store_open(handle(runtime), feature, argsJson, it.ptr.reinterpret()) }
    override fun storeScope(store: Long, scope: String, out: LongArray) =
        outPointer(out) { cinematic_store_scope(handle(store), scope, it.ptr.reinterpret()) }
    override fun storeClose(store: Long) = cinematic_store_close(handle(store))
    override fun storeSend(store: Long, intentJson: String) = cinematic_store_send(handle(store), intentJson)
    override fun storeState(store: Long, out: LongArray) = outPointer(out) { cinematic_store_state(handle(store), it.ptr.reinterpret()) }
    override fun storeObserve(store: Long, callback: NativeCallback?) =
        cinematic_store_observe(handle(store), callback?.let { stateTrampoline }, userdata(callback))
    override fun storeObservePatches(store: Long, callback: NativeCallback?) =
        cinematic_store_observe_patches(handle(store), callback?.let { stateTrampoline }, userdata(callback))
    override fun storeSettle(store: Long, timeoutMs: Long) = cinematic_store_settle(handle(store), timeoutMs)
    override fun storePendingEffects(store: Long, out: IntArray) = outInt(out) { cinematic_store_pending_effects(handle(store), it.ptr) }
    override fun storeHistory(store: Long, out: LongArray) = outPointer(out) { cinematic_store_history(handle(store), it.ptr.reinterpret()) }
    override fun storeSnapshot(store: Long, out: LongArray) = outPointer(out) { cinematic_store_snapshot(handle(store), it.ptr.reinterpret()) }
    override fun storeRestore(runtime: Long, snapshotJson: String, out: LongArray) =
        outPointer(out) { cinematic_store_restore(handle(runtime), snapshotJson, it.ptr.reinterpret()) }
    override fun runtimeSnapshot(runtime: Long, out: LongArray) = outPointer(out) { cinematic_runtime_snapshot(handle(runtime), it.ptr.reinterpret()) }
    override fun runtimeRestore(runtime: Long, snapshotJson: String, handles: MutableList<Long>): Int = memScoped {
        val stores = alloc<CPointerVar<CPointerVar<cinematic_store>>>()
        val count = alloc<IntVar>()
        val status = cinematic_runtime_restore(handle(runtime), snapshotJson, stores.ptr, count.ptr)
        val array = stores.value
        if (status == 0 && array != null) {
            for (index in 0 until count.value) handles.add(array[index].toLong())
        }
        cinematic_free(array)
        status
    }
    override fun storeRevert(store: Long, seq: Long) = cinematic_store_revert(handle(store), seq.toULong())

    override fun replay(path: String, out: LongArray) = outPointer(out) { cinematic_replay(path, null, it.ptr.reinterpret()) }
    override fun catalogBuildIndex(moviePath: String?, indexPath: String) = cinematic_catalog_build_index(moviePath, indexPath)

    override fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback = CCallback(body)
    override fun requestCallback(body: (requestId: Long, requestJson: String) -> Unit): NativeCallback = CCallback(body)
    override fun logCallback(body: (line: String) -> Unit): NativeCallback = CCallback(body)

    override fun awaitReadable(fd: Int, timeoutMs: Int): Boolean = memScoped {
        val entry = alloc<pollfd>()
        entry.fd = fd
        entry.events = POLLIN.convert()
        entry.revents = 0
        var ready: Int
        do {
            ready = poll(entry.ptr, 1.convert(), timeoutMs)
        } while (ready < 0 && errno == EINTR)
        ready > 0 && (entry.revents.toInt() and POLLIN) != 0
    }
}
