package cinematic.tests

import cinematic.*
import java.util.Collections
import java.util.concurrent.atomic.AtomicInteger

/**
 * Debugging, the runtime's logger (`Runtime.setLogger`): the lines it receives, replacing and
 * removing it (also from inside itself and from other threads), queued delivery, exceptions
 * and garbage collection. History, record and replay: DebugTest.
 */
object DebugLoggerTest : Suite("debug") {
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""
    private const val QUEUED = """{"clock":"manual","catalog":"host","delivery":"queued","offlineCache":false}"""

    init {
        test("the logger receives intents with their changes and effects; setLogger(null) stops it") {
            withRuntime(HOST) { runtime ->
                ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    val lines = Collections.synchronizedList(ArrayList<String>())
                    search.queryChanged("du") // before the logger: not logged
                    runtime.setLogger { lines.add(it) }
                    search.queryChanged("dune") // "immediate" delivery: logged before send returns
                    expect(lines.any { it.contains("intent #") && it.contains("queryChanged") && it.contains("changed: query") }) {
                        "no intent line: $lines"
                    }
                    expect(lines.none { it.contains("\"du\"") }) { "the intent sent before the logger was logged: $lines" }
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expect(lines.any { it.contains("[250 ms]") && it.contains("searchNow") && it.contains("changed: results") }) {
                        "no searchNow line: $lines"
                    }
                    expect(lines.any { it.contains("effect finished \"search\"") }) { "no effect line: $lines" }
                    expect(lines.none { it.contains('\n') }) { "a line with a newline: $lines" }

                    runtime.setLogger(null)
                    val count = lines.size
                    search.queryChanged("dunes")
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expectEqual(count, lines.size, "lines after setLogger(null)")
                }
                runtime.setLogger(null) // removing twice is fine
            }
            val closed = Runtime(HOST)
            closed.close()
            expectCinematicError("closed") { closed.setLogger { } }
        }

        test("a replaced logger is never called again") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val first = AtomicInteger()
                    val second = AtomicInteger()
                    runtime.setLogger { first.incrementAndGet() }
                    search.queryChanged("du")
                    runtime.setLogger { second.incrementAndGet() }
                    val before = first.get()
                    expect(before > 0) { "the first logger got nothing" }
                    search.queryChanged("dune")
                    expectEqual(before, first.get(), "lines of the replaced logger")
                    expect(second.get() > 0) { "the second logger got nothing" }
                }
            }
        }

        test("a logger may replace or remove itself, even while another thread sets loggers") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    // Removing itself from inside a line: that line is the last.
                    val once = Collections.synchronizedList(ArrayList<String>())
                    runtime.setLogger { line -> once.add(line); runtime.setLogger(null) }
                    search.queryChanged("du")
                    search.queryChanged("dune")
                    expectEqual(1, once.size, "lines of a logger that removed itself: $once")

                    // Lines (on the typist's thread) set the logger while another thread does too.
                    val lines = AtomicInteger()
                    lateinit var logger: (String) -> Unit
                    logger = { _ -> if (lines.incrementAndGet() % 2 == 0) runtime.setLogger(logger) }
                    runtime.setLogger(logger)
                    val failures = Collections.synchronizedList(ArrayList<Throwable>())
                    val typist = Thread {
                        try { repeat(300) { search.queryChanged("query $it") } } catch (e: Throwable) { failures.add(e) }
                    }
                    val setter = Thread {
                        try { repeat(300) { runtime.setLogger(logger) } } catch (e: Throwable) { failures.add(e) }
                    }
                    typist.start()
                    setter.start()
                    typist.join(10_000)
                    setter.join(10_000)
                    expect(!typist.isAlive && !setter.isAlive) { "deadlock: typist alive ${typist.isAlive}, setter alive ${setter.isAlive}" }
                    expectEqual(emptyList<Throwable>(), failures.toList(), "failures")
                    expect(lines.get() >= 300) { "lines: ${lines.get()}" }
                    runtime.setLogger(null)
                    val count = lines.get()
                    search.queryChanged("dune")
                    expectEqual(count, lines.get(), "lines after setLogger(null)")
                }
            }
        }

        test("queued: log lines run only in dispatch, on the dispatching thread, in order") {
            withRuntime(QUEUED) { runtime ->
                runtime.openSearch().use { search ->
                    while (runtime.awaitCallbacks(0)) runtime.dispatch()
                    val lines = Collections.synchronizedList(ArrayList<String>())
                    val threads = Collections.synchronizedSet(HashSet<Thread>())
                    runtime.setLogger { lines.add(it); threads.add(Thread.currentThread()) }
                    search.queryChanged("du")
                    search.queryChanged("dune")
                    expect(lines.isEmpty()) { "logged before dispatch: $lines" }
                    expect(runtime.awaitCallbacks(2_000)) { "fd not readable with lines waiting" }
                    while (runtime.awaitCallbacks(0)) runtime.dispatch()
                    val intents = lines.filter { it.contains("intent #") }
                    expectEqual(2, intents.size, "intent lines: $lines")
                    expect(intents[0].contains("\"du\"") && intents[1].contains("\"dune\"")) { "order: $intents" }
                    expectEqual(setOf(Thread.currentThread()), threads.toSet(), "logger threads")
                }
            }
        }

        test("an exception in the logger is reported and logging goes on") {
            Runtime(HOST).use { runtime ->
                val reported = Collections.synchronizedList(ArrayList<Throwable>())
                runtime.callbackErrorHandler = { reported.add(it) }
                val calls = AtomicInteger()
                runtime.setLogger { calls.incrementAndGet(); throw IllegalStateException("logger boom") }
                runtime.openSearch().use { search ->
                    search.queryChanged("du")
                    search.queryChanged("dune")
                    expectEqual("dune", search.state.query, "query")
                    expect(eventually { reported.size >= 2 }) { "reported: $reported" }
                    expect(reported.all { it.message == "logger boom" }) { "reported: $reported" }
                    expectEqual(calls.get(), reported.size, "exceptions reported per call")
                }
            }
        }

        test("the logger survives garbage collection") {
            withRuntime(HOST) { runtime ->
                val count = AtomicInteger()
                runtime.setLogger { count.incrementAndGet() } // referenced only by the runtime
                repeat(3) {
                    @Suppress("UNUSED_VARIABLE") val garbage = Array(2_000) { ByteArray(1_000) }
                    System.gc()
                    Thread.sleep(5)
                }
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    expect(count.get() > 0) { "no line after a collection" }
                }
            }
        }
    }
}
