package cinematic

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.channels.SendChannel

// What the shared code needs from its platform besides the C functions (NativeLibrary).
// Actuals: bindings/kotlin/jvm/src/main/kotlin/cinematic/Platform.kt and
// bindings/kotlin/native/src/nativeMain/kotlin/cinematic/Platform.kt.

/**
 * Something to close when done: a [Runtime], a [Store], a subscription. On the JVM this is
 * `java.lang.AutoCloseable` (so `use { }` works), on Kotlin/Native `kotlin.AutoCloseable`.
 */
expect interface AutoCloseable {
    /** Releases what this holds; calling it again does nothing. */
    fun close()
}

/** This platform's libcinematic. */
internal expect val nativeLibrary: NativeLibrary

/** A mutual-exclusion lock (not reentrant: never take it again while holding it). */
internal expect class Lock() {
    /** Runs [body] holding the lock. */
    fun <T> locked(body: () -> T): T

    /** Runs [body] holding the lock if it is free now (never waits); false when it was not. */
    fun tryLocked(body: () -> Unit): Boolean
}

/** How many libcinematic callbacks the current thread is running (a thread-local counter). */
internal expect object CallbackDepth {
    /** The current thread's count. */
    var value: Int
}

/** Where the suspending `settle()` blocks, one slice at a time (Dispatchers.IO). */
internal expect val blockingDispatcher: CoroutineDispatcher

/** Adds [value] to an unlimited channel without suspending (`offer`, or `trySend` in newer kotlinx-coroutines). */
internal expect fun <T> SendChannel<T>.push(value: T)
