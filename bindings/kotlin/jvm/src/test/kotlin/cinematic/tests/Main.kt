package cinematic.tests

import kotlin.system.exitProcess

/** Every suite, in the order they run. */
val suites: List<Suite> = listOf(ErrorsTest, CallbackLifetimeTest, SearchPromisesTest, EmbeddedCatalogTest, DeliveryTest, DetailFavoritesTest, DiscoverTest, AppTest, PatchesTest, PatchCorpusTest, TestStoreTest, TestStoreDocTest, GoldenTest, CoroutinesTest, DebugTest, DebugLoggerTest, OfflineCacheTest, SnapshotsTest)

/**
 * Runs the binding's tests (all, or those whose name contains one of the arguments) and
 * prints one line per test and a final `N passed, N failed`; exits 1 on any failure.
 */
fun main(args: Array<String>) {
    val selected = suites.flatMap { it.tests }.filter { test -> args.isEmpty() || args.any { test.name.contains(it) } }
    var passed = 0
    var failed = 0
    val watchdogSeconds = (System.getenv("CINEMATIC_TEST_TIMEOUT") ?: "120").toLong()
    val current = arrayOf("")
    Thread {
        Thread.sleep(watchdogSeconds * 1_000)
        synchronized(current) {
            println("FAIL ${current[0]}: still running after ${watchdogSeconds}s (watchdog)")
            println("$passed passed, ${failed + 1} failed")
        }
        System.out.flush()
        java.lang.Runtime.getRuntime().halt(1)
    }.apply { isDaemon = true }.start()

    for (test in selected) {
        synchronized(current) { current[0] = test.name }
        val start = System.nanoTime()
        val failure = try {
            test.body()
            null
        } catch (t: Throwable) {
            t
        }
        val ms = (System.nanoTime() - start) / 1_000_000
        synchronized(current) {
            if (failure == null) {
                passed++
                println("ok   ${test.name} (${ms} ms)")
            } else {
                failed++
                println("FAIL ${test.name} (${ms} ms): $failure")
                if (failure !is ExpectationFailed) failure.printStackTrace(System.out)
                failure.cause?.let { println("     caused by: $it") }
            }
        }
    }
    println("$passed passed, $failed failed")
    System.out.flush()
    exitProcess(if (failed == 0 && passed > 0) 0 else 1)
}
