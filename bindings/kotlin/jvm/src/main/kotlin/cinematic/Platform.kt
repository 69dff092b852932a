package cinematic

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.SendChannel

// The JVM's actuals for the shared code's platform seam (common/.../Platform.kt).

/** `java.lang.AutoCloseable`, so `use { }` works on runtimes, stores and subscriptions. */
actual typealias AutoCloseable = java.lang.AutoCloseable

internal actual val nativeLibrary: NativeLibrary get() = JnaLibrary

internal actual class Lock actual constructor() {
    private val lock = java.util.concurrent.locks.ReentrantLock()

    actual fun <T> locked(body: () -> T): T {
        lock.lock()
        try {
            return body()
        } finally {
            lock.unlock()
        }
    }

    actual fun tryLocked(body: () -> Unit): Boolean {
        if (lock.isHeldByCurrentThread || !lock.tryLock()) return false // not reentrant, as documented
        try {
            body()
        } finally {
            lock.unlock()
        }
        return true
    }
}

internal actual object CallbackDepth {
    private val depth = object : ThreadLocal<IntArray>() {
        override fun initialValue() = IntArray(1)
    }

    actual var value: Int
        get() = depth.get()[0]
        set(count) { depth.get()[0] = count }
}

internal actual val blockingDispatcher: CoroutineDispatcher get() = Dispatchers.IO

internal actual fun <T> SendChannel<T>.push(value: T) {
    offer(value)
}
