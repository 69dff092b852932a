package cinematic.tests

import cinematic.*
import java.util.Collections

/** A named test body. */
class TestCase(val name: String, val body: () -> Unit)

/** A group of tests, declared with [test]. */
abstract class Suite(val name: String) {
    val tests = ArrayList<TestCase>()

    /** Declares a test. */
    fun test(name: String, body: () -> Unit) {
        tests.add(TestCase("${this.name}: $name", body))
    }
}

/** A failed expectation. */
class ExpectationFailed(message: String) : AssertionError(message)

/** Fails with [message] unless [condition] holds. */
fun expect(condition: Boolean, message: () -> String) {
    if (!condition) throw ExpectationFailed(message())
}

/** Fails unless [actual] equals [expected]. */
fun <T> expectEqual(expected: T, actual: T, what: String) {
    if (expected != actual) throw ExpectationFailed("$what: expected <$expected>, got <$actual>")
}

/** Runs [block], which must throw a [CinematicException] named [statusName]; returns it. */
fun expectCinematicError(statusName: String, block: () -> Unit): CinematicException {
    try {
        block()
    } catch (e: CinematicException) {
        expectEqual(statusName, e.statusName, "status name of \"${e.message}\"")
        expect(e.message.isNotBlank()) { "the exception carries no message" }
        return e
    }
    throw ExpectationFailed("expected a CinematicException \"$statusName\", nothing was thrown")
}

/**
 * Opens a runtime for one test, closes it afterwards and fails the test when a callback
 * threw (callback exceptions never reach the test thread otherwise).
 */
fun <T> withRuntime(config: String?, body: (Runtime) -> T): T {
    val errors = Collections.synchronizedList(ArrayList<Throwable>())
    val runtime = Runtime(config)
    runtime.callbackErrorHandler = { errors.add(it) }
    try {
        return body(runtime)
    } finally {
        runtime.close()
        synchronized(errors) {
            errors.firstOrNull()?.let { throw ExpectationFailed("a callback threw: $it").apply { initCause(it) } }
        }
    }
}

/** Polls [condition] every few milliseconds for up to [timeoutMs]; true once it holds. */
fun eventually(timeoutMs: Long = 5_000, condition: () -> Boolean): Boolean {
    val deadline = System.nanoTime() + timeoutMs * 1_000_000
    while (System.nanoTime() < deadline) {
        if (condition()) return true
        Thread.sleep(2)
    }
    return condition()
}
