package cinematic.tests

import cinematic.*
import java.util.Collections
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicReference

/** Subscriptions, queued delivery with dispatch, callback rules and callback lifetimes. */
object DeliveryTest : Suite("delivery") {
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""
    private const val QUEUED = """{"clock":"manual","catalog":"host","delivery":"queued","offlineCache":false}"""

    private fun phases(states: List<SearchState>) = states.map { it.phase.name }

    init {
        test("queued: callbacks run only in dispatch, on the dispatching thread, in order") {
            withRuntime(QUEUED) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                expect(runtime.fd >= 0) { "fd ${runtime.fd}" }
                runtime.openSearch().use { search ->
                    val states = Collections.synchronizedList(ArrayList<SearchState>())
                    val threads = Collections.synchronizedSet(HashSet<Thread>())
                    search.subscribe { states.add(it); threads.add(Thread.currentThread()) }
                    expect(states.isEmpty()) { "delivered before dispatch: $states" }
                    expect(runtime.awaitCallbacks(2_000)) { "fd not readable with a state waiting" }
                    expectEqual(1, runtime.dispatch(), "callbacks run by the first dispatch")
                    expect(!runtime.awaitCallbacks(0)) { "fd still readable after dispatch" }

                    search.queryChanged("dune")
                    expectEqual(1, runtime.dispatch(), "callbacks waiting after send (its state)")
                    runtime.advanceClock(250)
                    expect(runtime.awaitCallbacks(5_000)) { "nothing became ready after the debounce" }
                    expect(provider.requests.isEmpty()) { "the provider ran outside dispatch" }
                    // The loading state and the request arrive from an effect thread: dispatch until
                    // the request has reached the provider (which answers at once).
                    val deadline = System.currentTimeMillis() + 5_000
                    while (provider.searches.isEmpty() && System.currentTimeMillis() < deadline) {
                        if (runtime.awaitCallbacks(100)) runtime.dispatch()
                    }
                    expectEqual(listOf("dune"), provider.searches, "searches after dispatch")
                    search.settle(5_000)
                    while (runtime.awaitCallbacks(0)) runtime.dispatch()

                    expectEqual(listOf("idle", "idle", "loading", "loaded"), phases(states), "phases delivered")
                    expectEqual(listOf("", "dune", "dune", "dune"), states.map { it.query }, "queries delivered")
                    threads.addAll(provider.requests.map { it.thread })
                    expectEqual(setOf(Thread.currentThread()), threads.toSet(), "callback threads")
                }
            }
        }

        test("immediate: the subscriber gets the current state, then every state; unsubscribe stops it") {
            withRuntime(HOST) { runtime ->
                ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    val states = Collections.synchronizedList(ArrayList<SearchState>())
                    val subscription = search.subscribe { states.add(it) }
                    expect(eventually { states.size == 1 }) { "no current state: $states" }
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expectEqual(listOf("idle", "idle", "loading", "loaded"), phases(states), "phases delivered")
                    subscription.close()
                    search.queryChanged("x")
                    search.settle(5_000)
                    expectEqual(4, states.size, "states after unsubscribing")
                    subscription.close() // twice is fine
                }
            }
        }

        test("subscribe replaces the previous subscriber") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val first = AtomicInteger()
                    val second = AtomicInteger()
                    val old = search.subscribe { first.incrementAndGet() }
                    search.subscribe { second.incrementAndGet() }
                    search.queryChanged("x")
                    search.settle(5_000)
                    expectEqual(1, first.get(), "states seen by the replaced subscriber")
                    expectEqual(2, second.get(), "states seen by the new subscriber")
                    old.close() // no effect on the current one
                    search.queryChanged("y")
                    search.settle(5_000)
                    expectEqual(3, second.get(), "states after closing the old handle")
                }
            }
        }

        test("a callback may send, read the state, unsubscribe and close its store") {
            withRuntime(HOST) { runtime ->
                ScriptedProvider(runtime).install()
                val search = runtime.openSearch()
                val seen = Collections.synchronizedList(ArrayList<SearchState>())
                val handle = AtomicReference<AutoCloseable>()
                handle.set(search.subscribe { state ->
                    seen.add(state)
                    if (state.query == "" ) search.queryChanged("du")
                    if (state.phase is Phase.Loaded) {
                        expectEqual(state, search.state, "state read inside the callback")
                        handle.get()?.close()
                        search.close()
                    }
                })
                expect(eventually { search.state.query == "du" }) { "the callback did not send" }
                search.submitted()
                expect(eventually { search.isClosed }) { "the callback did not close the store" }
                expectCinematicError("closed") { search.state }
                expectEqual("loaded", phases(seen).last(), "last phase seen")
            }
        }

        test("settle, dispatch and subscribe are refused inside a callback") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val errors = Collections.synchronizedList(ArrayList<String>())
                    search.subscribe {
                        for (call in listOf<() -> Unit>({ search.settle(10) }, { runtime.dispatch() }, { search.subscribe { } })) {
                            try { call(); errors.add("none") } catch (e: CinematicException) { errors.add(e.statusName) }
                        }
                    }
                    expect(eventually { errors.size == 3 }) { "callback did not run: $errors" }
                    expectEqual(listOf("misuse", "misuse", "misuse"), errors.toList(), "statuses inside the callback")
                }
            }
        }

        test("an exception in a callback is reported and the store keeps working") {
            Runtime(HOST).use { runtime ->
                val reported = Collections.synchronizedList(ArrayList<Throwable>())
                runtime.callbackErrorHandler = { reported.add(it) }
                runtime.setProvider { _, _ -> throw IllegalStateException("provider boom") }
                runtime.openSearch().use { search ->
                    search.subscribe { throw IllegalStateException("subscriber boom") }
                    search.queryChanged("x")
                    expectEqual("x", search.state.query, "query")
                    expect(eventually { reported.any { it.message == "subscriber boom" } }) { "reported: $reported" }
                }
            }
        }

        test("registered callbacks survive garbage collection") {
            withRuntime(HOST) { runtime ->
                ScriptedProvider(runtime).install() // referenced only by the runtime
                runtime.openSearch().use { search ->
                    val count = AtomicInteger()
                    search.subscribe { count.incrementAndGet() }
                    repeat(3) {
                        @Suppress("UNUSED_VARIABLE") val garbage = Array(2_000) { ByteArray(1_000) }
                        System.gc()
                        Thread.sleep(5)
                    }
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expectEqual(listOf("Dune"), search.state.movies.map { it.title }, "titles")
                    expectEqual(4, count.get(), "states delivered")
                }
            }
        }

        test("closing a store from another thread while states flow") {
            withRuntime(HOST) { runtime ->
                ScriptedProvider(runtime).install()
                repeat(20) { round ->
                    val search = runtime.openSearch()
                    val count = AtomicInteger()
                    val failure = AtomicReference<Throwable>()
                    search.subscribe { count.incrementAndGet() }
                    val typist = Thread {
                        try {
                            for (i in 0 until 50) { search.queryChanged("query $round $i"); search.submitted() }
                        } catch (e: CinematicException) {
                            if (e.statusName != "closed") failure.set(e)
                        } catch (e: Throwable) {
                            failure.set(e)
                        }
                    }
                    typist.start()
                    Thread.sleep(1)
                    search.close()
                    val after = count.get()
                    typist.join()
                    Thread.sleep(2)
                    failure.get()?.let { throw it }
                    expectEqual(after, count.get(), "states delivered after close returned")
                }
            }
        }
    }
}
