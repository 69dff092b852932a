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

// The JNA layer: one static native method per C function (JNA "direct mapping", the fastest
// kind), plus the helpers that turn C strings and statuses into Kotlin values. Everything in
// this file is internal; the public API is Runtime, Store and CinematicException.

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
        if (System.getProperty("jna.tmpdir") == null) System.setProperty("jna.tmpdir", System.getProperty("java.io.tmpdir"))
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

    /** Loads the library (runs this object's initializer) before anything else of JNA is
     *  touched, so JNA's first use sees `jna.tmpdir`. */
    fun load() {}

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
    @JvmStatic external fun cinematic_store_close(store: Pointer): Int
    @JvmStatic external fun cinematic_store_send(store: Pointer, intentJson: ByteArray): Int
    @JvmStatic external fun cinematic_store_state(store: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_store_observe(store: Pointer, fn: StateCallback?, userdata: Pointer?): Int
    @JvmStatic external fun cinematic_store_settle(store: Pointer, timeoutMs: Long): Int
    @JvmStatic external fun cinematic_store_pending_effects(store: Pointer, outCount: IntByReference): Int
    @JvmStatic external fun cinematic_store_history(store: Pointer, outJson: PointerByReference): Int
    @JvmStatic external fun cinematic_store_revert(store: Pointer, seq: Long): Int

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

    private const val POLLIN: Short = 1

    /** Waits up to [timeoutMs] (negative: forever) for [fd] to be readable. */
    fun awaitReadable(fd: Int, timeoutMs: Int): Boolean {
        val pollfd = Memory(8) // struct pollfd { int fd; short events; short revents; }
        pollfd.setInt(0, fd)
        pollfd.setShort(4, POLLIN)
        pollfd.setShort(6, 0)
        while (true) {
            val n = poll(pollfd, NativeLong(1), timeoutMs)
            if (n >= 0) return n > 0 && (pollfd.getShort(6).toInt() and POLLIN.toInt()) != 0
            if (Native.getLastError() != 4 /* EINTR */) return false
        }
    }
}

private const val UTF8 = "UTF-8"

/** A borrowed C string (a callback argument or a static string) as a Kotlin string. */
internal fun Pointer.readUtf8(): String = getString(0, UTF8)

/**
 * Takes ownership of a string the library handed out through an out-pointer: copies it and
 * releases it with `cinematic_free` (never anything else), even if copying fails.
 */
internal fun takeOwnedString(pointer: Pointer?): String? {
    if (pointer == null) return null
    try {
        return pointer.readUtf8()
    } finally {
        CLib.cinematic_free(pointer)
    }
}

/**
 * Runs [call], which hands out a JSON string through its out-pointer, and takes that string
 * ([takeOwnedString]). On failure the library's error is read first (before `cinematic_free`,
 * which would clear it) and thrown once the string, if any, is released.
 */
internal fun ownedJson(what: String, call: (PointerByReference) -> Int): String {
    CLib.load()
    val out = PointerByReference()
    val status = call(out)
    val failure = if (status != Status.OK) CinematicException.fromLastError(status) else null
    val json = takeOwnedString(out.value) // copied, then freed with cinematic_free
    if (failure != null) throw failure
    return json ?: throw CinematicException(Status.MISUSE, "misuse", "the library returned no $what")
}

/**
 * A Kotlin string as a NUL-terminated UTF-8 buffer. C strings cannot contain NUL, so a
 * string with one is refused here (with [nulStatus]) instead of being silently cut short.
 */
internal fun cString(text: String, nulStatus: Int, what: String): ByteArray {
    if (text.indexOf('\u0000') >= 0) {
        throw CinematicException(nulStatus, Cinematic.statusName(nulStatus), "$what contains a NUL character")
    }
    val bytes = text.toByteArray(Charsets.UTF_8)
    return bytes.copyOf(bytes.size + 1)
}

/** A JSON document as a C string (a NUL inside makes it malformed JSON: "json"). */
internal fun jsonCString(json: String): ByteArray = cString(json, Status.JSON, "the JSON text")

/**
 * Throws the [CinematicException] for [status] unless it is `CINEMATIC_OK`. Must be called
 * right after the failing call, on the same thread, so that `cinematic_last_error` still
 * describes it.
 */
internal fun checkStatus(status: Int) {
    if (status != Status.OK) throw CinematicException.fromLastError(status)
}
