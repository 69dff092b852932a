package cinematic.tests

import cinematic.*

/**
 * The shared code's promise to the platforms: every native callback it makes is disposed
 * exactly once, and only when the library can no longer call it. On the JVM disposing does
 * nothing, but Kotlin/Native frees the callback's StableRef there, so disposing too early
 * would be a use-after-free in a binding that cannot be run here. The real library runs
 * underneath; [Tracking] watches the calls.
 */
object CallbackLifetimeTest : Suite("callback lifetimes") {

    /** The platform's library, with every callback's registrations and disposals recorded. */
    private class Tracking(private val real: NativeLibrary) : NativeLibrary by real {
        val problems = ArrayList<String>()
        val made = ArrayList<Tracked>()
        private val registered = HashMap<String, Tracked?>() // "observe@store", "provider", "logger"
        private var runtimeClosed = false

        inner class Tracked(val kind: String, val inner: NativeCallback) : NativeCallback {
            var disposals = 0
            /** Providers and the logger may be called until the runtime closes, even once replaced. */
            var everRegistered = false

            override fun dispose() {
                synchronized(this@Tracking) {
                    disposals++
                    if (disposals > 1) problems.add("$kind callback disposed $disposals times")
                    if (registered.containsValue(this)) problems.add("$kind callback disposed while registered")
                    if (kind != "state" && everRegistered && !runtimeClosed) problems.add("$kind callback disposed before the runtime closed")
                }
                inner.dispose()
            }
        }

        private fun track(kind: String, inner: NativeCallback) = synchronized(this) { Tracked(kind, inner).also { made.add(it) } }

        private fun register(key: String, callback: NativeCallback?, status: Int): Int {
            if (status == Status.OK) synchronized(this) {
                (callback as Tracked?)?.everRegistered = true
                registered[key] = callback
            }
            return status
        }

        override fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback = track("state", real.stateCallback(body))
        override fun requestCallback(body: (requestId: Long, requestJson: String) -> Unit): NativeCallback = track("provider", real.requestCallback(body))
        override fun logCallback(body: (line: String) -> Unit): NativeCallback = track("logger", real.logCallback(body))

        override fun storeObserve(store: Long, callback: NativeCallback?) =
            register("observe@$store", callback, real.storeObserve(store, (callback as Tracked?)?.inner))
        override fun storeObservePatches(store: Long, callback: NativeCallback?) =
            register("observe@$store", callback, real.storeObservePatches(store, (callback as Tracked?)?.inner))
        override fun runtimeSetProvider(runtime: Long, callback: NativeCallback?) =
            register("provider", callback, real.runtimeSetProvider(runtime, (callback as Tracked?)?.inner))
        override fun runtimeSetLogger(runtime: Long, callback: NativeCallback?) =
            register("logger", callback, real.runtimeSetLogger(runtime, (callback as Tracked?)?.inner))

        override fun storeClose(store: Long): Int = real.storeClose(store).also { synchronized(this) { registered.remove("observe@$store") } }
        override fun runtimeClose(runtime: Long): Int = real.runtimeClose(runtime).also {
            synchronized(this) { runtimeClosed = true; registered.clear() }
        }
    }

    /** The platform's library (JNA here), reached through a runtime of the real kind. */
    private fun platformLibrary(): NativeLibrary = Runtime().use { it.library }

    init {
        test("every callback is disposed once, never while the library may call it") {
            val tracking = Tracking(platformLibrary())
            val runtime = Runtime("""{"clock":"manual","catalog":"host","offlineCache":false}""", tracking)
            try {
                runtime.setProvider { id, _ -> runtime.respond(id, """{"movies":[]}""") }
                runtime.setProvider { id, _ -> runtime.respond(id, """{"movies":[{"id":1,"title":"Dune"}]}""") } // the first is retired
                runtime.setLogger { }
                runtime.setLogger(null)
                runtime.setLogger { }
                val search = runtime.openSearch()
                val first = search.subscribe { }
                search.subscribe { }         // replaces the first: it may go
                first.close()                // a replaced handle does nothing
                search.queryChanged("dune")
                runtime.advanceClock(250)
                search.settle(5_000)
                val third = search.subscribe { }
                third.close()                // unsubscribed: it may go
                val detail = runtime.openDetail(15249)
                detail.subscribe { }
                detail.close()               // its subscriber may go
                runtime.openFavorites().subscribe { } // left for the runtime's close
                synchronized(tracking) {
                    expectEqual(emptyList<String>(), tracking.problems, "problems before close")
                    expectEqual(4, tracking.made.count { it.kind == "state" && it.disposals == 1 }, "state callbacks released before close")
                }
            } finally {
                runtime.close()
            }
            synchronized(tracking) {
                expectEqual(emptyList<String>(), tracking.problems, "problems")
                expectEqual(tracking.made.size, tracking.made.count { it.disposals == 1 }, "callbacks disposed once of ${tracking.made.map { it.kind }}")
                expectEqual(listOf("logger", "provider", "provider", "state", "state", "state", "state", "state"),
                    tracking.made.map { it.kind }.sorted(), "callbacks made")
            }
        }
    }
}
