package cinematic

import com.sun.jna.Callback
import com.sun.jna.Library
import com.sun.jna.Memory
import com.sun.jna.Native
import com.sun.jna.NativeLibrary
import com.sun.jna.NativeLong
import com.sun.jna.Platform
import com.sun.jna.Pointer
import com.sun.jna.ptr.IntByReference
import com.sun.jna.ptr.PointerByReference

// The JVM's NativeLibrary: one static native method per C function (JNA "direct mapping", the
// fastest kind) and JnaLibrary, which maps the shared code's platform-neutral calls (handles
// and owned strings as Long addresses, strings as Kotlin strings) onto them. This and
// Platform.kt are all the JVM binding has of its own; the rest is bindings/kotlin/common.

/** `cinematic_request_fn`: `void (*)(void *userdata, uint64_t request_id, const char *request_json)`. */
internal interface RequestCallback : Callback {
    fun invoke(userdata: Pointer?, requestId: Long, requestJson: Pointer?)
}

/** `cinematic_state_fn`: `void (*)(void *userdata, cinematic_store *store, const char *state_json)`. */
internal interface StateCallback : Callback {
    fun invoke(userdata: Pointer?, store: Pointer?, stateJson: Pointer?)
}

/** `cinematic_log_fn`: `void (*)(void *userdata, const char *line)`. */
internal interface LogCallback : Callback {
    fun invoke(userdata: Pointer?, line: Pointer?)
}

/**
 * libcinematic, mapped directly. The library is loaded from the file named by the system
 * property `cinematic.library` when it is set; otherwise looked up as "cinematic" on
 * `jna.library.path`, the system paths, then the class path (`linux-x86-64/libcinematic.so`,
 * as `make jar` packages it). A library extracted from the class path goes to the system's
 * temporary directory (`java.io.tmpdir`) unless `jna.tmpdir` says otherwise: JNA's default
 * would create ~/.cache/JNA, and opening the catalog writes nothing under the user's home
 * (its index is inside the library).
 */
internal object CLib {
    init {
        val explicit = System.getProperty("cinematic.library")
        val library = try {
            // The binding's own class loader, so a jar that carries linux-x86-64/libcinematic.so
            // is found even when the thread's context loader is a launcher's (`kotlin -cp`).
            NativeLibrary.getInstance(explicit ?: "cinematic", mapOf(Library.OPTION_CLASSLOADER to CLib::class.java.classLoader))
        } catch (e: UnsatisfiedLinkError) {
            throw UnsatisfiedLinkError(
                "libcinematic not found (${e.message}); run with -Djna.library.path=<dir of libcinematic.so> " +
                    "or -Dcinematic.library=<path of libcinematic.so.0>")
        }
        Native.register(CLib::class.java, library)
    }

    @JvmStatic external fun cinematic_version(): Pointer?
    @JvmStatic external fun cinematic_status_name(status: Int): Pointer?
    @JvmStatic external fun cinematic_last_error(): Pointer?
    @JvmStatic external fun cinematic_free(p: Pointer?)

    @JvmStatic external fun cinematic_runtime_open(configJson: ByteArray?, out: PointerByReference): Int
    @JvmStatic external fun cinematic_runtime_close(rt: Pointer): Int
    @JvmStatic external fun cinematic_runtime_fd(rt: Pointer, outFd: IntByReference): Int
    @JvmStatic external fun cinematic_runtime_dispatch(rt: Pointer, outCount: IntByReference?): Int
    @JvmStatic external fun cinematic_runtime_advance_clock(rt: Pointer, milliseconds: Long): Int
    @JvmStatic external fun cinematic_runtime_set_provider(rt: Pointer, fn: RequestCallback?, userdata: Pointer?): Int
    @JvmStatic external fun cinematic_runtime_respond(rt: Pointer, requestId: Long, responseJson: ByteArray): Int
    @JvmStatic external fun cinematic_runtime_set_logger(rt: Pointer, fn: LogCallback?, userdata: Pointer?): Int

    @JvmStatic external fun cinematic_store_open(rt: Pointer, feature: ByteArray, argsJson: ByteArray?, out: PointerByReference): Int
    @JvmStatic external fun cinematic_store_scope(store: Pointer, scope: ByteArray, out: PointerByReference): Int
    @JvmStatic external fun cinematic_store_close(store: Pointer): Int
    @JvmStatic external fun cinematic_store_send(store: Pointer, intentJson: ByteArray): Int
    @JvmStatic external fun cinematic_store_state(store: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_store_observe(store: Pointer, fn: StateCallback?, userdata: Pointer?): Int
    @JvmStatic external fun cinematic_store_observe_patches(store: Pointer, fn: StateCallback?, userdata: Pointer?): Int
    @JvmStatic external fun cinematic_store_settle(store: Pointer, timeoutMs: Long): Int
    @JvmStatic external fun cinematic_store_pending_effects(store: Pointer, outCount: IntByReference): Int
    @JvmStatic external fun cinematic_store_history(store: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_store_revert(store: Pointer, seq: Long): Int

    @JvmStatic external fun cinematic_store_snapshot(store: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_store_restore(rt: Pointer, snapshotJson: ByteArray, out: PointerByReference): Int
    @JvmStatic external fun cinematic_runtime_snapshot(rt: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_runtime_restore(rt: Pointer, snapshotJson: ByteArray, outStores: PointerByReference,
                                                      outCount: IntByReference?): Int

    @JvmStatic external fun cinematic_replay(path: ByteArray, outMatched: IntByReference?, outReport: PointerByReference?): Int

    @JvmStatic external fun cinematic_catalog_build_index(moviePath: ByteArray?, indexPath: ByteArray): Int
    @JvmStatic external fun cinematic_runtime_catalog_state(rt: Pointer, outJson: PointerByReference): Int
}

/** The one libc function the binding needs: poll(2), to wait on a runtime's fd. */
internal object LibC {
    init {
        Native.register(LibC::class.java, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME))
    }

    @JvmStatic external fun poll(fds: Pointer, nfds: NativeLong, timeout: Int): Int
}

private const val UTF8 = "UTF-8"
private const val POLLIN: Short = 1

/** A Kotlin string as a NUL-terminated UTF-8 buffer (the shared code refused NULs). */
private fun String.cString(): ByteArray = toByteArray(Charsets.UTF_8).let { it.copyOf(it.size + 1) }

private fun pointer(address: Long): Pointer? = if (address == 0L) null else Pointer(address)

private fun Pointer?.address(): Long = Pointer.nativeValue(this)

/** Writes what a `char **` / `T **` out-pointer received into [out]. */
private inline fun outPointer(out: LongArray, call: (PointerByReference) -> Int): Int {
    val reference = PointerByReference()
    val status = call(reference)
    out[0] = reference.value.address()
    return status
}

private inline fun outInt(out: IntArray, call: (IntByReference) -> Int): Int {
    val reference = IntByReference(out[0])
    val status = call(reference)
    out[0] = reference.value
    return status
}

/** A callback: the JNA Callback the library calls, and nothing to dispose (the JVM collects it). */
private class JnaStateCallback(private val body: (String) -> Unit) : StateCallback, NativeCallback {
    override fun invoke(userdata: Pointer?, store: Pointer?, stateJson: Pointer?) {
        body(stateJson?.getString(0, UTF8) ?: return)
    }
    override fun dispose() {}
}

private class JnaRequestCallback(private val body: (Long, String) -> Unit) : RequestCallback, NativeCallback {
    override fun invoke(userdata: Pointer?, requestId: Long, requestJson: Pointer?) {
        body(requestId, requestJson?.getString(0, UTF8) ?: return)
    }
    override fun dispose() {}
}

private class JnaLogCallback(private val body: (String) -> Unit) : LogCallback, NativeCallback {
    override fun invoke(userdata: Pointer?, line: Pointer?) {
        body(line?.getString(0, UTF8) ?: return)
    }
    override fun dispose() {}
}

/**
 * libcinematic through JNA. A library extracted from the class path goes to the system's
 * temporary directory (`java.io.tmpdir`) unless `jna.tmpdir` says otherwise: JNA's default
 * would create ~/.cache/JNA, and opening the catalog writes nothing under the user's home.
 */
internal object JnaLibrary : cinematic.NativeLibrary {
    init {
        // Before anything of JNA is touched, so JNA's first use sees it.
        if (System.getProperty("jna.tmpdir") == null) System.setProperty("jna.tmpdir", System.getProperty("java.io.tmpdir"))
    }

    override fun version() = CLib.cinematic_version()?.getString(0, UTF8)
    override fun statusName(status: Int) = CLib.cinematic_status_name(status)?.getString(0, UTF8)
    override fun lastError() = CLib.cinematic_last_error()?.getString(0, UTF8)
    override fun readString(pointer: Long): String = Pointer(pointer).getString(0, UTF8)
    override fun free(pointer: Long) = CLib.cinematic_free(pointer(pointer))

    override fun runtimeOpen(configJson: String?, out: LongArray) = outPointer(out) { CLib.cinematic_runtime_open(configJson?.cString(), it) }
    override fun runtimeClose(runtime: Long) = CLib.cinematic_runtime_close(Pointer(runtime))
    override fun runtimeFd(runtime: Long, out: IntArray) = outInt(out) { CLib.cinematic_runtime_fd(Pointer(runtime), it) }
    override fun runtimeDispatch(runtime: Long, out: IntArray) = outInt(out) { CLib.cinematic_runtime_dispatch(Pointer(runtime), it) }
    override fun runtimeAdvanceClock(runtime: Long, milliseconds: Long) = CLib.cinematic_runtime_advance_clock(Pointer(runtime), milliseconds)
    override fun runtimeSetProvider(runtime: Long, callback: NativeCallback?) =
        CLib.cinematic_runtime_set_provider(Pointer(runtime), callback as RequestCallback?, null)
    override fun runtimeRespond(runtime: Long, requestId: Long, responseJson: String) =
        CLib.cinematic_runtime_respond(Pointer(runtime), requestId, responseJson.cString())
    override fun runtimeSetLogger(runtime: Long, callback: NativeCallback?) =
        CLib.cinematic_runtime_set_logger(Pointer(runtime), callback as LogCallback?, null)
    override fun runtimeCatalogState(runtime: Long, out: LongArray) = outPointer(out) { CLib.cinematic_runtime_catalog_state(Pointer(runtime), it) }

    override fun storeOpen(runtime: Long, feature: String, argsJson: String?, out: LongArray) =
        outPointer(out) { CLib.cinematic_store_open(Pointer(runtime), feature.cString(), argsJson?.cString(), it) }
    override fun storeScope(store: Long, scope: String, out: LongArray) =
        outPointer(out) { CLib.cinematic_store_scope(Pointer(store), scope.cString(), it) }
    override fun storeClose(store: Long) = CLib.cinematic_store_close(Pointer(store))
    override fun storeSend(store: Long, intentJson: String) = CLib.cinematic_store_send(Pointer(store), intentJson.cString())
    override fun storeState(store: Long, out: LongArray) = outPointer(out) { CLib.cinematic_store_state(Pointer(store), it) }
    override fun storeObserve(store: Long, callback: NativeCallback?) =
        CLib.cinematic_store_observe(Pointer(store), callback as StateCallback?, null)
    override fun storeObservePatches(store: Long, callback: NativeCallback?) =
        CLib.cinematic_store_observe_patches(Pointer(store), callback as StateCallback?, null)
    override fun storeSettle(store: Long, timeoutMs: Long) = CLib.cinematic_store_settle(Pointer(store), timeoutMs)
    override fun storePendingEffects(store: Long, out: IntArray) = outInt(out) { CLib.cinematic_store_pending_effects(Pointer(store), it) }
    override fun storeHistory(store: Long, out: LongArray) = outPointer(out) { CLib.cinematic_store_history(Pointer(store), it) }
    override fun storeRevert(store: Long, seq: Long) = CLib.cinematic_store_revert(Pointer(store), seq)

    override fun storeSnapshot(store: Long, out: LongArray) = outPointer(out) { CLib.cinematic_store_snapshot(Pointer(store), it) }
    override fun storeRestore(runtime: Long, snapshotJson: String, out: LongArray) =
        outPointer(out) { CLib.cinematic_store_restore(Pointer(runtime), snapshotJson.cString(), it) }
    override fun runtimeSnapshot(runtime: Long, out: LongArray) = outPointer(out) { CLib.cinematic_runtime_snapshot(Pointer(runtime), it) }
    override fun runtimeRestore(runtime: Long, snapshotJson: String, handles: MutableList<Long>): Int {
        val array = PointerByReference()
        val count = IntByReference(0)
        val status = CLib.cinematic_runtime_restore(Pointer(runtime), snapshotJson.cString(), array, count)
        val stores = array.value
        if (status == 0 && stores != null) {
            for (index in 0 until count.value) handles.add(stores.getPointer(index.toLong() * Native.POINTER_SIZE).address())
        }
        CLib.cinematic_free(stores)
        return status
    }

    override fun replay(path: String, out: LongArray) = outPointer(out) { CLib.cinematic_replay(path.cString(), null, it) }
    override fun catalogBuildIndex(moviePath: String?, indexPath: String) =
        CLib.cinematic_catalog_build_index(moviePath?.cString(), indexPath.cString())

    override fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback = JnaStateCallback(body)
    override fun requestCallback(body: (requestId: Long, requestJson: String) -> Unit): NativeCallback = JnaRequestCallback(body)
    override fun logCallback(body: (line: String) -> Unit): NativeCallback = JnaLogCallback(body)

    override fun awaitReadable(fd: Int, timeoutMs: Int): Boolean {
        val pollfd = Memory(8) // struct pollfd { int fd; short events; short revents; }
        pollfd.setInt(0, fd)
        pollfd.setShort(4, POLLIN)
        pollfd.setShort(6, 0)
        while (true) {
            val n = LibC.poll(pollfd, NativeLong(1), timeoutMs)
            if (n >= 0) return n > 0 && (pollfd.getShort(6).toInt() and POLLIN.toInt()) != 0
            if (Native.getLastError() != 4 /* EINTR */) return false
        }
    }

    override fun record(kind: String, feature: String?, json: String) = WireLog.record(kind, feature, json)
    override val recording: Boolean get() = WireLog.enabled

    override fun reportUncaught(error: Throwable) {
        System.err.println("cinematic: exception in a callback")
        error.printStackTrace()
    }
}
