@file:OptIn(ExperimentalForeignApi::class, ExperimentalNativeApi::class)

package cinematic

import cinematic.c.cinematic_last_error
import cinematic.c.cinematic_status_name
import cinematic.c.cinematic_version
import kotlin.experimental.ExperimentalNativeApi
import kotlin.native.concurrent.ThreadLocal
import kotlin.native.ref.createCleaner
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.alloc
import kotlinx.cinterop.free
import kotlinx.cinterop.nativeHeap
import kotlinx.cinterop.ptr
import kotlinx.cinterop.toKString
import platform.posix.pthread_mutex_destroy
import platform.posix.pthread_mutex_init
import platform.posix.pthread_mutex_lock
import platform.posix.pthread_mutex_t
import platform.posix.pthread_mutex_unlock

// Kotlin/Native binding of libcinematic: the same API as the JVM binding (bindings/kotlin/jvm),
// over the cinterop stubs generated from cinematic.def (package cinematic.c).
//
// Not compiled on the machines this was written on: the Kotlin/Native toolchain cannot be
// downloaded there. See README.md.

// Status and WireVersion come from the shared source set (bindings/kotlin/common, Wire.kt),
// generated from the schema; the C enum cinematic_status is not used (its Kotlin type depends
// on the C compiler's choice of Int or UInt).

/** Library-wide facts: the loaded library's version and the names of statuses. */
object Cinematic {
    /** The loaded library's version, e.g. "0.2.0". */
    val version: String get() = cinematic_version()?.toKString() ?: ""

    /** The name of [status], e.g. "invalid"; "unknown" for a value that is no status. */
    fun statusName(status: Int): String = cinematic_status_name(status)?.toKString() ?: "unknown"
}

/**
 * A failed libcinematic call: the [status] code, its [statusName] and the library's
 * [message]; [envelope] is the full JSON from `cinematic_last_error`.
 */
class CinematicException(
    /** The status code, one of the [Status] constants. */
    val status: Int,
    /** The status name, e.g. "invalid". */
    val statusName: String,
    /** The library's message. */
    override val message: String,
    /** The JSON error envelope, when the library gave one. */
    val envelope: String? = null
) : RuntimeException("$statusName: $message") {
    internal companion object {
        /** The exception for [status], from this thread's `cinematic_last_error` (read first). */
        fun fromLastError(status: Int): CinematicException {
            val envelope = cinematic_last_error()?.toKString()
            return CinematicException(status, Cinematic.statusName(status), envelope?.let(::messageOf) ?: envelope
                ?: "failed with status $status", envelope)
        }

        /** The "message" member of an error envelope (a JSON string), unescaped. */
        private fun messageOf(envelope: String): String? {
            val key = "\"message\":\""
            var i = envelope.indexOf(key).takeIf { it >= 0 }?.plus(key.length) ?: return null
            val out = StringBuilder()
            while (i < envelope.length) {
                val c = envelope[i++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' && i < envelope.length -> when (val e = envelope[i++]) {
                        'n' -> out.append('\n')
                        't' -> out.append('\t')
                        'r' -> out.append('\r')
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000C')
                        'u' -> {
                            envelope.substring(i, minOf(i + 4, envelope.length)).toIntOrNull(16)?.let { out.append(it.toChar()) }
                            i += 4
                        }
                        else -> out.append(e)
                    }
                    else -> out.append(c)
                }
            }
            return null
        }
    }
}

/** Throws the [CinematicException] for [status] unless it is OK; call right after the call. */
internal fun checkStatus(status: Int) {
    if (status != Status.OK) throw CinematicException.fromLastError(status)
}

/** Refuses strings with a NUL (C would cut them short) with [status]. */
internal fun requireNoNul(text: String, status: Int, what: String): String {
    if (text.indexOf('\u0000') >= 0) throw CinematicException(status, Cinematic.statusName(status), "$what contains a NUL character")
    return text
}

/** JSON text for a `const char *` argument (cinterop converts String to UTF-8). */
internal fun json(text: String): String = requireNoNul(text, Status.JSON, "the JSON text")

/** A pthread mutex (Kotlin/Native has no `synchronized`), freed when collected. */
internal class Mutex {
    @PublishedApi
    internal val mutex = nativeHeap.alloc<pthread_mutex_t>().also { pthread_mutex_init(it.ptr, null) }

    @Suppress("unused") // Frees the mutex once this object is unreachable.
    private val cleaner = createCleaner(mutex) { m ->
        pthread_mutex_destroy(m.ptr)
        nativeHeap.free(m)
    }

    inline fun <T> withLock(body: () -> T): T {
        pthread_mutex_lock(mutex.ptr)
        try {
            return body()
        } finally {
            pthread_mutex_unlock(mutex.ptr)
        }
    }
}

/** Which threads are running a libcinematic callback right now. */
@ThreadLocal
internal object Delivery {
    private var depth = 0

    /** True while a callback runs on this thread. */
    val insideCallback: Boolean get() = depth > 0

    /**
     * Runs a host callback: marks the thread, and keeps exceptions out of the library (an
     * exception crossing a staticCFunction would terminate the process).
     */
    fun run(runtime: Runtime, body: () -> Unit) {
        depth++
        try {
            body()
        } catch (error: Throwable) {
            runtime.reportCallbackError(error)
        } finally {
            depth--
        }
    }
}
