package cinematic

import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.Job
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.ReceiveChannel
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

// Coroutine-friendly API (kotlinx-coroutines; on the JVM Debian's libkotlinx-coroutines-java,
// needed on the class path only when used).

/** How long one blocking slice of the suspending [settle] waits before checking cancellation. */
private const val SETTLE_SLICE_MS = 50L

/**
 * The store's states as a channel, decoded ([Store.state]'s type): the current state first,
 * then every distinct state, in order (unbounded buffer: the library's delivery never waits
 * for the consumer).
 *
 * The channel is closed when the store (or its runtime) closes. Cancelling it (`cancel()`, or
 * `consumeEach` in a coroutine that is then cancelled) unsubscribes: no callback runs for it
 * afterwards. This is the store's subscriber (a store has one at a time, see [Store.subscribe]).
 *
 * ```
 * scope.launch {
 *     val states = search.states()
 *     try { for (state in states) render(state.movies) } finally { states.cancel() }
 * }
 * ```
 *
 * @throws CinematicException "closed"; "misuse" from inside a callback.
 */
@UseExperimental(ExperimentalCoroutinesApi::class) // Channel.invokeOnClose
fun <S> Store<S>.states(): ReceiveChannel<S> {
    val channel = Channel<S>(Channel.UNLIMITED)
    val subscription = subscribe { state -> channel.push(state) }
    channel.invokeOnClose {
        // The consumer cancelled (or the store closed): forward nothing more.
        runCatching { subscription.close() }
    }
    whenClosed { channel.close() }
    return channel
}

/**
 * Suspends until the store has no effect in flight (see the blocking `settle(timeoutMs)`),
 * without holding a thread of the caller's dispatcher: it waits on Dispatchers.IO in 50 ms
 * slices, so cancelling the calling coroutine ends the wait within one slice.
 *
 * @throws CinematicException "closed" when the store closes meanwhile; "misuse" from inside a
 *   callback.
 */
suspend fun Store<*>.settle() {
    withContext(blockingDispatcher) {
        while (true) {
            try {
                settle(SETTLE_SLICE_MS)
                // The library reports a store closed meanwhile as settled (no effect is left).
                if (isClosed) throw CinematicException.of(Status.CLOSED, "the store was closed while settle() waited")
                return@withContext
            } catch (e: CinematicException) {
                if (e.status != Status.TIMEOUT) throw e
            }
            yield() // a cancellation point between slices
        }
    }
}

/** A host catalog whose answers may suspend (an HTTP client's call, a database query). */
interface SuspendingProvider {
    /**
     * Answers one request (`{"op":"search",...}`, `{"op":"discover",...}` or
     * `{"op":"movie",...}`) with the response JSON [Runtime.respond] takes. Throwing, other
     * than by cancellation, answers `{"error":{"code":"network",...}}`. Cancelled when the
     * library cancels the request (a newer keystroke, a closed store).
     */
    suspend fun answer(requestJson: String): String
}

/**
 * Registers [provider] as the runtime's catalog: each request is answered by a coroutine
 * launched in [scope], which is cancelled when the library sends `{"op":"cancel"}` for that
 * request. Cancelling [scope] abandons every request in flight (the library then sees no
 * answer for them until their stores close).
 *
 * @throws CinematicException "misuse" when the catalog is not "host", "closed".
 */
fun Runtime.setProvider(scope: CoroutineScope, provider: SuspendingProvider) {
    val lock = Lock()
    val inFlight = HashMap<Long, Job>()
    setProvider { id, request ->
        if (runCatching { ProviderRequest.fromJson(request) }.getOrNull() is CancelRequest) {
            lock.locked { inFlight.remove(id) }?.cancel()
        } else {
            val job = scope.launch(start = CoroutineStart.LAZY) {
                val answer = try {
                    provider.answer(request)
                } catch (e: CancellationException) {
                    throw e
                } catch (e: Exception) {
                    Json.write(ErrorAnswer(HostError(code = "network", message = e.message ?: e.toString())).toJson())
                }
                runCatching { respond(id, answer) }
            }
            lock.locked { inFlight[id] = job }
            job.invokeOnCompletion { lock.locked { if (inFlight[id] === job) inFlight.remove(id) } }
            job.start()
        }
    }
}
