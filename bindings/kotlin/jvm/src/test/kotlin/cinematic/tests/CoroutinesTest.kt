package cinematic.tests

import cinematic.*
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/** The coroutine API: states() as a channel, suspending settle(), a suspending provider. */
object CoroutinesTest : Suite("coroutines") {
    private const val EMBEDDED = """{"clock":"manual"}"""
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""

    private fun dune() = ScriptedProvider.movies(Movie(id = 15249, title = "Dune", year = 1984))

    init {
        test("states() gives the current state, then each state in order, and closes with the store") {
            withRuntime(EMBEDDED) { runtime ->
                val search = runtime.openSearch()
                runBlocking {
                    withTimeout(10_000) {
                        val states = search.states()
                        expectEqual("idle", states.receive().phase.name, "first state")
                        search.queryChanged("dune")
                        runtime.advanceClock(250)
                        val seen = ArrayList<String>()
                        while (seen.lastOrNull() != "loaded") seen.add(states.receive().phase.name)
                        expectEqual(listOf("idle", "loading", "loaded"), seen, "phases after typing \"dune\"")
                        search.close()
                        // Ends only because the channel closed with the store (else the timeout fails the test).
                        for (extra in states) { /* drains what was delivered before the close */ }
                    }
                }
            }
        }

        test("cancelling the consuming coroutine unsubscribes, no callback afterwards") {
            withRuntime(EMBEDDED) { runtime ->
                runtime.openSearch().use { search ->
                    val received = AtomicInteger()
                    runBlocking {
                        val first = CompletableDeferred<Unit>()
                        val consumer = launch(Dispatchers.Default) {
                            val states = search.states()
                            try {
                                for (state in states) { received.incrementAndGet(); first.complete(Unit) }
                            } finally {
                                states.cancel() // what consumeEach does when its coroutine is cancelled
                            }
                        }
                        withTimeout(5_000) { first.await() }
                        consumer.cancelAndJoin()
                    }
                    expect(!search.hasActiveSubscriber) { "the store still forwards states to a cancelled consumer" }
                    val before = received.get()
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(10_000)
                    expect(search.state.phase is Phase.Loaded) { "the search did not run" }
                    expectEqual(before, received.get(), "states received after the consumer was cancelled")
                }
            }
        }

        test("suspending settle() waits for the search") {
            withRuntime(EMBEDDED) { runtime ->
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    runBlocking { withTimeout(10_000) { search.settle() } }
                    expectEqual("Dune (1984)", search.state.movies.first().label, "first result")
                }
            }
        }

        test("cancelling a coroutine waiting in settle() ends the wait") {
            withRuntime(HOST) { runtime ->
                runtime.setProvider { _, _ -> } // never answers: the search never settles
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    runBlocking {
                        val waiter = launch(Dispatchers.Default) { search.settle() }
                        expect(eventually { search.pendingEffects > 0 }) { "no search in flight" }
                        withTimeout(5_000) { waiter.cancelAndJoin() }
                        expect(waiter.isCancelled) { "the waiter was not cancelled" }
                    }
                }
            }
        }

        test("closing the store while a coroutine waits in settle() ends it with closed") {
            withRuntime(HOST) { runtime ->
                runtime.setProvider { _, _ -> }
                val search = runtime.openSearch()
                search.queryChanged("dune")
                runtime.advanceClock(250)
                runBlocking {
                    val outcome = async(Dispatchers.Default) {
                        try {
                            search.settle()
                            "returned"
                        } catch (e: CinematicException) {
                            e.statusName
                        }
                    }
                    expect(eventually { search.pendingEffects > 0 }) { "no search in flight" }
                    search.close()
                    expectEqual("closed", withTimeout(5_000) { outcome.await() }, "settle() after the store closed")
                }
            }
        }

        test("a suspending provider answers; a replaced request's coroutine is cancelled") {
            withRuntime(HOST) { runtime ->
                val scope = CoroutineScope(Dispatchers.Default + Job())
                val duCancelled = AtomicBoolean(false)
                val duStarted = CompletableDeferred<Unit>()
                runtime.setProvider(scope, object : SuspendingProvider {
                    override suspend fun answer(requestJson: String): String {
                        val query = (Json.parse(requestJson) as Map<*, *>)["query"]
                        if (query == "du") {
                            try {
                                duStarted.complete(Unit)
                                CompletableDeferred<String>().await() // an answer that never comes
                            } finally {
                                duCancelled.set(true)
                            }
                        }
                        return dune()
                    }
                })
                runtime.openSearch().use { search ->
                    search.queryChanged("du")
                    runtime.advanceClock(250)
                    runBlocking { withTimeout(5_000) { duStarted.await() } }
                    search.queryChanged("dune") // replaces "du": the library cancels its request
                    expect(eventually { duCancelled.get() }) { "the coroutine answering \"du\" was not cancelled" }
                    runtime.advanceClock(250)
                    runBlocking { withTimeout(10_000) { search.settle() } }
                    expectEqual(listOf("Dune (1984)"), search.state.movies.map { it.label }, "results")
                }
                scope.coroutineContext[Job]!!.cancel()
            }
        }

        test("a provider that throws answers network") {
            withRuntime(HOST) { runtime ->
                val scope = CoroutineScope(Dispatchers.Default + Job())
                runtime.setProvider(scope, object : SuspendingProvider {
                    override suspend fun answer(requestJson: String): String = throw IllegalStateException("server down")
                })
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    runBlocking { withTimeout(10_000) { search.settle() } }
                    val phase = search.state.phase
                    expect(phase is Phase.Failed && phase.error.code == "network" && phase.error.message == "server down") { "$phase" }
                }
                scope.coroutineContext[Job]!!.cancel()
            }
        }
    }
}
