@file:OptIn(ExperimentalForeignApi::class)

package cinematic

import cinematic.c.cinematic_request_fn
import cinematic.c.cinematic_runtime
import cinematic.c.cinematic_runtime_advance_clock
import cinematic.c.cinematic_runtime_close
import cinematic.c.cinematic_runtime_dispatch
import cinematic.c.cinematic_runtime_fd
import cinematic.c.cinematic_runtime_open
import cinematic.c.cinematic_runtime_respond
import cinematic.c.cinematic_runtime_set_provider
import cinematic.c.cinematic_store
import cinematic.c.cinematic_store_open
import kotlinx.cinterop.ByteVar
import kotlinx.cinterop.COpaquePointer
import kotlinx.cinterop.CPointer
import kotlinx.cinterop.CPointerVar
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.IntVar
import kotlinx.cinterop.StableRef
import kotlinx.cinterop.alloc
import kotlinx.cinterop.asStableRef
import kotlinx.cinterop.convert
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.ptr
import kotlinx.cinterop.staticCFunction
import kotlinx.cinterop.toKString
import kotlinx.cinterop.value
import platform.posix.EINTR
import platform.posix.POLLIN
import platform.posix.errno
import platform.posix.poll
import platform.posix.pollfd

/** What a provider's userdata points at: the runtime and the host's provider function. */
private class ProviderBox(val runtime: Runtime, val provider: (Long, String) -> Unit)

/** The one C provider function; the StableRef in userdata says whose provider to call. */
private val requestTrampoline: cinematic_request_fn =
    staticCFunction { userdata: COpaquePointer?, requestId: ULong, requestJson: CPointer<ByteVar>? ->
        if (userdata == null || requestJson == null) return@staticCFunction
        val box = userdata.asStableRef<ProviderBox>().get()
        val json = requestJson.toKString() // borrowed for the call: copy it now
        Delivery.run(box.runtime) { box.provider(requestId.toLong(), json) }
    }

/**
 * A libcinematic runtime (`cinematic_runtime`); see the JVM binding's `Runtime` for the full
 * story, which this mirrors. [config] is the JSON configuration (null for defaults).
 *
 * ```
 * Runtime("""{"clock":"manual"}""").use { runtime ->
 *     runtime.openStore("search").use { search ->
 *         search.queryChanged("dune")
 *         runtime.advanceClock(250)
 *         search.settle(5_000)
 *         println(search.state)
 *     }
 * }
 * ```
 */
class Runtime(config: String? = null) : AutoCloseable {
    internal val handle: CPointer<cinematic_runtime> = memScoped {
        val out = alloc<CPointerVar<cinematic_runtime>>()
        checkStatus(cinematic_runtime_open(config?.let(::json), out.ptr))
        out.value ?: throw CinematicException(Status.MISUSE, "misuse", "the library returned no runtime")
    }

    private val lock = Mutex()
    // Guarded by `lock`:
    private val stores = ArrayList<Store>()
    private var provider: StableRef<ProviderBox>? = null
    // Replaced providers stay valid until close: a delivery on another thread may already
    // have read the old provider when set_provider returns.
    private val retiredProviders = ArrayList<StableRef<ProviderBox>>()
    private var closed = false

    /** True once [close] has been called. */
    val isClosed: Boolean get() = lock.withLock { closed }

    /** Receives exceptions thrown by callbacks (they must not reach the library). */
    var callbackErrorHandler: (Throwable) -> Unit = { it.printStackTrace() }

    /** Opens a store of [feature] ("search") with JSON [argsJson] (null when it takes none). */
    fun openStore(feature: String, argsJson: String? = null): Store {
        val storeHandle = memScoped {
            val out = alloc<CPointerVar<cinematic_store>>()
            checkStatus(cinematic_store_open(handle, requireNoNul(feature, Status.UNKNOWN_FEATURE, "the feature name"),
                argsJson?.let(::json), out.ptr))
            out.value ?: throw CinematicException(Status.MISUSE, "misuse", "the library returned no store")
        }
        val store = Store(this, storeHandle, feature)
        lock.withLock { if (!closed) stores.add(store) }
        return store
    }

    /** Moves a "manual" clock forward by [milliseconds]. */
    fun advanceClock(milliseconds: Long) = checkStatus(cinematic_runtime_advance_clock(handle, milliseconds))

    /** With "queued" delivery, the fd that is readable while callbacks wait (owned by the runtime). */
    val fd: Int
        get() = memScoped {
            val out = alloc<IntVar>()
            out.value = -1
            checkStatus(cinematic_runtime_fd(handle, out.ptr))
            out.value
        }

    /** Runs the waiting callbacks on this thread; returns how many ran. */
    fun dispatch(): Int = memScoped {
        val count = alloc<IntVar>()
        count.value = 0
        checkStatus(cinematic_runtime_dispatch(handle, count.ptr))
        count.value
    }

    /** With "queued" delivery, waits up to [timeoutMs] (negative: forever) for callbacks to wait. */
    fun awaitCallbacks(timeoutMs: Int): Boolean {
        val descriptor = fd
        return memScoped {
            val entry = alloc<pollfd>()
            entry.fd = descriptor
            entry.events = POLLIN.convert()
            entry.revents = 0
            var ready: Int
            do {
                ready = poll(entry.ptr, 1.convert(), timeoutMs)
            } while (ready < 0 && errno == EINTR)
            ready > 0 && (entry.revents.toInt() and POLLIN) != 0
        }
    }

    /**
     * Registers the provider of a "host" catalog (null removes it). It gets each request's id
     * and JSON and answers with [respond], now or later, from any thread. It must not block.
     */
    fun setProvider(provider: ((requestId: Long, requestJson: String) -> Unit)?) {
        val ref = provider?.let { StableRef.create(ProviderBox(this, it)) }
        lock.withLock {
            val status = cinematic_runtime_set_provider(handle, ref?.let { requestTrampoline }, ref?.asCPointer())
            if (status != Status.OK) {
                val failure = CinematicException.fromLastError(status)
                ref?.dispose()
                throw failure
            }
            this.provider?.let { retiredProviders.add(it) }
            this.provider = ref
        }
    }

    /** Answers provider request [requestId] with [responseJson]; late answers are accepted and dropped. */
    fun respond(requestId: Long, responseJson: String) =
        checkStatus(cinematic_runtime_respond(handle, requestId.toULong(), json(responseJson)))

    /** Closes the runtime and its stores; no callback runs after this returns. Idempotent. */
    override fun close() {
        val open = lock.withLock {
            if (closed) return
            closed = true
            stores.toList().also { stores.clear() }
        }
        val status = cinematic_runtime_close(handle)
        val failure = if (status != Status.OK && status != Status.CLOSED) CinematicException.fromLastError(status) else null
        if (failure == null) {
            // No callback runs any more: every StableRef handed to the library may go.
            open.forEach { it.releaseCallbacks() }
            lock.withLock {
                provider?.dispose()
                provider = null
                retiredProviders.forEach { it.dispose() }
                retiredProviders.clear()
            }
        }
        if (failure != null) throw failure
    }

    internal fun forget(store: Store) {
        lock.withLock { stores.remove(store) }
    }

    internal fun reportCallbackError(error: Throwable) {
        try {
            callbackErrorHandler(error)
        } catch (ignored: Throwable) {
        }
    }
}
