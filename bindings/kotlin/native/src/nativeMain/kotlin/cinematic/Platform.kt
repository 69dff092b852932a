@file:OptIn(ExperimentalForeignApi::class, ExperimentalNativeApi::class)

package cinematic

import kotlin.experimental.ExperimentalNativeApi
import kotlin.native.concurrent.ThreadLocal
import kotlin.native.ref.createCleaner
import kotlinx.cinterop.*
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.IO
import kotlinx.coroutines.channels.SendChannel
import platform.posix.*

// Kotlin/Native's actuals for the shared code's platform seam (common/.../Platform.kt).

/** `kotlin.AutoCloseable` (Kotlin 2.0), so `use { }` works. */
actual typealias AutoCloseable = kotlin.AutoCloseable

internal actual val nativeLibrary: NativeLibrary get() = CinteropLibrary

/** A pthread mutex (Kotlin/Native has no `synchronized`), freed when collected. */
internal actual class Lock actual constructor() {
    private val mutex = nativeHeap.alloc<pthread_mutex_t>().also { pthread_mutex_init(it.ptr, null) }

    @Suppress("unused") // Frees the mutex once this object is unreachable.
    private val cleaner = createCleaner(mutex) { m ->
        pthread_mutex_destroy(m.ptr)
        nativeHeap.free(m)
    }

    actual fun <T> locked(body: () -> T): T {
        pthread_mutex_lock(mutex.ptr)
        try {
            return body()
        } finally {
            pthread_mutex_unlock(mutex.ptr)
        }
    }

    actual fun tryLocked(body: () -> Unit): Boolean {
        if (pthread_mutex_trylock(mutex.ptr) != 0) return false
        try {
            body()
        } finally {
            pthread_mutex_unlock(mutex.ptr)
        }
        return true
    }
}

@ThreadLocal
internal actual object CallbackDepth {
    actual var value: Int = 0
}

internal actual val blockingDispatcher: CoroutineDispatcher get() = Dispatchers.IO

internal actual fun <T> SendChannel<T>.push(value: T) {
    trySend(value)
}
