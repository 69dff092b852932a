@file:OptIn(ExperimentalForeignApi::class)

package cinematic

import cinematic.c.cinematic_free
import cinematic.c.cinematic_state_fn
import cinematic.c.cinematic_store
import cinematic.c.cinematic_store_close
import cinematic.c.cinematic_store_observe
import cinematic.c.cinematic_store_pending_effects
import cinematic.c.cinematic_store_send
import cinematic.c.cinematic_store_settle
import cinematic.c.cinematic_store_state
import kotlin.concurrent.AtomicInt
import kotlin.concurrent.AtomicReference
import kotlinx.cinterop.ByteVar
import kotlinx.cinterop.COpaquePointer
import kotlinx.cinterop.CPointer
import kotlinx.cinterop.CPointerVar
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.IntVar
import kotlinx.cinterop.StableRef
import kotlinx.cinterop.alloc
import kotlinx.cinterop.asStableRef
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.ptr
import kotlinx.cinterop.staticCFunction
import kotlinx.cinterop.toKString
import kotlinx.cinterop.value

/** The one C state function; userdata is a StableRef to the receiving [Store.Subscription]. */
private val stateTrampoline: cinematic_state_fn =
    staticCFunction { userdata: COpaquePointer?, _: CPointer<cinematic_store>?, stateJson: CPointer<ByteVar>? ->
        if (userdata == null || stateJson == null) return@staticCFunction
        userdata.asStableRef<Store.Subscription>().get().deliver(stateJson.toKString())
    }

/**
 * One feature's state machine (`cinematic_store`), opened with [Runtime.openStore]; mirrors
 * the JVM binding's `Store`. Intents and states are JSON strings.
 */
class Store internal constructor(
    /** The runtime that owns this store. */
    val runtime: Runtime,
    private val handle: CPointer<cinematic_store>,
    /** The feature name, e.g. "search". */
    val feature: String
) : AutoCloseable {
    private val closing = AtomicInt(0)   // close() has started
    private val released = AtomicInt(0)  // no callback of this store can run any more
    private val observeLock = Mutex()
    // The registered subscriber. Whoever swaps a subscription out of here disposes its
    // StableRef, exactly once.
    private val current = AtomicReference<Subscription?>(null)

    /** True once this store or its runtime has been closed. */
    val isClosed: Boolean get() = closing.value != 0 || released.value != 0 || runtime.isClosed

    /** Sends an intent; it is reduced before this returns. */
    fun send(intentJson: String) = checkStatus(cinematic_store_send(handle, json(intentJson)))

    /** Search: the user edited the query (debounced search). */
    fun queryChanged(query: String) = send("{\"type\":\"queryChanged\",\"query\":${quote(query)}}")

    /** Search: search now, skipping the debounce. */
    fun submitted() = send("{\"type\":\"submitted\"}")

    /** A snapshot of the current state as JSON (copied, then freed with cinematic_free). */
    val state: String
        get() = memScoped {
            val out = alloc<CPointerVar<ByteVar>>()
            val status = cinematic_store_state(handle, out.ptr)
            val pointer = out.value
            val text = try {
                pointer?.toKString()
            } finally {
                cinematic_free(pointer)
            }
            checkStatus(status)
            text ?: throw CinematicException(Status.MISUSE, "misuse", "the library returned no state")
        }

    /**
     * Calls [callback] with the current state, then every distinct state. One subscriber at
     * a time: subscribing again replaces the previous one. Close the result to unsubscribe.
     */
    fun subscribe(callback: (state: String) -> Unit): AutoCloseable {
        if (Delivery.insideCallback) {
            throw CinematicException(Status.MISUSE, "misuse", "subscribe cannot be called from inside a callback")
        }
        val subscription = Subscription(this, callback)
        observeLock.withLock {
            val status = cinematic_store_observe(handle, stateTrampoline, subscription.ref.asCPointer())
            if (status != Status.OK) {
                val failure = CinematicException.fromLastError(status)
                subscription.release()
                throw failure
            }
            // The library dropped the previous registration and waited for its callback.
            current.getAndSet(subscription)?.release()
            // Closed meanwhile (after the library's close returned): nothing calls us any more.
            if (released.value != 0) current.getAndSet(null)?.release()
        }
        return subscription
    }

    /** Waits until no effect is in flight (at most [timeoutMs]; negative: no limit). */
    fun settle(timeoutMs: Long = 10_000) = checkStatus(cinematic_store_settle(handle, timeoutMs))

    /** How many effects are in flight. */
    val pendingEffects: Int
        get() = memScoped {
            val out = alloc<IntVar>()
            out.value = 0
            checkStatus(cinematic_store_pending_effects(handle, out.ptr))
            out.value
        }

    /** Closes the store; no callback for it runs after this returns. Idempotent. */
    override fun close() {
        if (!closing.compareAndSet(0, 1)) return
        val status = cinematic_store_close(handle)
        if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
        releaseCallbacks()
        runtime.forget(this)
    }

    /** Called once the library's close has returned: no callback of this store runs any more. */
    internal fun releaseCallbacks() {
        // Deliberately not under observeLock: a subscribe may hold it while the library waits
        // for a callback of ours, and that callback may be the one closing this store.
        released.value = 1
        current.getAndSet(null)?.release()
    }

    private fun unsubscribe(subscription: Subscription) {
        subscription.active.value = 0
        if (Delivery.insideCallback) return // observe is not callback-safe: dropped at the next subscribe/close
        observeLock.withLock {
            if (current.value !== subscription || released.value != 0) return
            val status = cinematic_store_observe(handle, null, null)
            if (status != Status.OK && status != Status.CLOSED) throw CinematicException.fromLastError(status)
            if (current.compareAndSet(subscription, null)) subscription.release()
        }
    }

    /** A registered subscriber; its StableRef is the C callback's userdata. */
    internal class Subscription(private val store: Store, private val callback: (String) -> Unit) : AutoCloseable {
        val active = AtomicInt(1)
        val ref: StableRef<Subscription> = StableRef.create(this)

        fun deliver(state: String) {
            if (active.value == 0) return
            Delivery.run(store.runtime) { if (active.value != 0) callback(state) }
        }

        /** Disposes the StableRef; only once the library can no longer call with it. */
        fun release() {
            active.value = 0
            ref.dispose()
        }

        override fun close() = store.unsubscribe(this)
    }

    private companion object {
        /** [text] as a JSON string literal. */
        fun quote(text: String): String = buildString {
            append('"')
            for (c in text) {
                when {
                    c == '"' -> append("\\\"")
                    c == '\\' -> append("\\\\")
                    c < ' ' -> append("\\u").append(c.code.toString(16).padStart(4, '0'))
                    else -> append(c)
                }
            }
            append('"')
        }
    }
}
