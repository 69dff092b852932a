package cinematic.tests

import cinematic.*
import java.io.File
import java.nio.file.Files
import java.util.Collections

// What PatchesTest checks patched deliveries with: [Audit], the platform's library recording
// every patched envelope and applying it with [ReferenceApplier], an RFC 6902 applier written
// independently of the binding's; [Watch], the states a subscriber received; [shapeProblem],
// the patchedDelivery shape; [withAudit], a runtime on the audited library.

/** How long [Audit.caughtUp] and [Audit.until] wait for a store's rebuilt state. */
private const val AUDIT_WAIT_MS = 5_000L

/**
 * The platform's library, and for every patched delivery (one store per feature at a
 * time): its envelope, checked for shape and applied by the independent
 * [ReferenceApplier]; the binding's rebuilt state is compared with that one at each
 * delivery ([watch]).
 */
internal class Audit(private val real: NativeLibrary) : NativeLibrary by real {
    val problems: MutableList<String> = Collections.synchronizedList(ArrayList<String>())
    private val lock = Any()
    /** Per state callback made (one per subscription), in order: its envelopes and reference state. */
    private val callbacks = ArrayList<Registration>()
    /** The registration whose delivery runs on this thread. */
    private val delivering = ThreadLocal<Registration?>()

    private class Registration {
        val envelopes = ArrayList<Map<*, *>>()
        val reference = ReferenceApplier()
    }

    override val recording: Boolean get() = true

    override fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback {
        val registration = Registration()
        synchronized(lock) { callbacks.add(registration) }
        return real.stateCallback { json ->
            val outer = delivering.get()
            delivering.set(registration)
            try { body(json) } finally { delivering.set(outer) }
        }
    }

    override fun record(kind: String, feature: String?, json: String) {
        real.record(kind, feature, json)
        if (kind != "patched") return
        val registration = delivering.get() ?: run { problems.add("$feature: a patched delivery outside a callback"); return }
        val envelope = Json.parse(json) as Map<*, *>
        synchronized(lock) {
            registration.envelopes.add(envelope)
            shapeProblem(envelope)?.let { problems.add("$feature: $it in $json") }
            try {
                registration.reference.receive(envelope)
            } catch (e: Exception) {
                problems.add("$feature: the reference applier refused ${json.take(300)}: $e")
            }
        }
    }

    private val watched = HashMap<Store<*>, Registration>()

    /** The envelopes [store]'s watched subscription received so far. */
    fun envelopes(store: Store<*>): List<Map<*, *>> = synchronized(lock) { watched[store]!!.envelopes.toList() }

    fun deliveries(): Int = synchronized(lock) { callbacks.sumBy { it.envelopes.size } }


    /** The binding's rebuilt state of [store] (fails when there is none). */
    fun tree(store: Store<*>): Map<String, Any?> = store.deliveredTree ?: throw ExpectationFailed("${store.feature}: no delivered state")

    /**
     * Subscribes to [store] (typed, so every rebuilt state is decoded), checking at each
     * delivery that the binding's rebuilt state is the reference applier's, and keeping
     * each state with its encoding at delivery time.
     */
    fun <S> watch(store: Store<S>): Watch {
        val watch = Watch(store.feature)
        val made = synchronized(lock) { callbacks.size }
        store.subscribe { typed ->
            val tree = store.deliveredTree
            if (tree == null) { problems.add("${store.feature}: a state delivered without a rebuilt tree"); return@subscribe }
            val expected = synchronized(lock) { delivering.get()?.reference?.state }
            if (expected != tree) problems.add("${store.feature}: rebuilt ${Json.write(tree).take(300)}\n   reference ${Json.write(expected).take(300)}")
            val encoded = Json.write(tree)
            // The typed state read from the tree is the one read from its JSON text.
            if (store.definition.decodeState(encoded) != typed) problems.add("${store.feature}: decodeStateTree gives $typed")
            synchronized(watch.seen) { watch.seen.add(tree to encoded) }
        }
        synchronized(lock) {
            expectEqual(made + 1, callbacks.size, "state callbacks made by subscribe")
            watched[store] = callbacks[made]
        }
        return watch
    }

    /**
     * Waits (with a deadline: favorites and detail never settle) until [store]'s rebuilt
     * state is the state `cinematic_store_state` returns, then checks they are the same
     * bytes once written compactly; returns it.
     */
    fun caughtUp(store: Store<*>, context: String = ""): Map<String, Any?> {
        var current = ""
        var rebuilt: Map<String, Any?>? = null
        val ok = eventually(AUDIT_WAIT_MS) {
            current = store.stateJson
            rebuilt = store.deliveredTree
            rebuilt == Json.parse(current)
        }
        expect(ok) { "${store.feature} $context: the patched state never caught up\n  patched ${rebuilt?.let { Json.write(it) }?.take(400)}\n  state   ${current.take(400)}" }
        expectEqual(current, Json.write(rebuilt), "${store.feature} $context: the rebuilt state written compactly")
        return rebuilt!!
    }

    /** Waits until [store]'s rebuilt state satisfies [predicate] and has caught up; returns it. */
    fun until(store: Store<*>, what: String, predicate: (Map<String, Any?>) -> Boolean): Map<String, Any?> {
        expect(eventually(AUDIT_WAIT_MS) { store.deliveredTree?.let(predicate) == true }) { "timed out waiting for $what" }
        return caughtUp(store, what)
    }
}

/** The states a subscriber received, each with its encoding when it was delivered. */
internal class Watch(val feature: String) {
    val seen = ArrayList<Pair<Map<String, Any?>, String>>()

    /** Fails when a state delivered earlier has changed since. */
    fun expectUnchanged() = synchronized(seen) {
        expect(seen.isNotEmpty()) { "$feature: no state delivered" }
        for ((index, entry) in seen.withIndex()) {
            expectEqual(entry.second, Json.write(entry.first), "$feature state #${index + 1} (of ${seen.size}) now")
        }
    }
}

/**
 * An RFC 6902 applier written independently of the binding's: it deep-copies the state,
 * then changes the copy in place; strict like the binding's (gaps, missing paths).
 */
internal class ReferenceApplier {
    var state: Map<String, Any?>? = null
    private var seq = 0L

    @Suppress("UNCHECKED_CAST")
    fun receive(envelope: Map<*, *>) {
        val n = envelope["seq"] as Long
        if (envelope.containsKey("state")) {
            require(n == 1L) { "a whole state with seq $n" }
            state = envelope["state"] as Map<String, Any?>
            seq = 1
            return
        }
        require(state != null && n == seq + 1) { "seq $n after $seq" }
        val copy = deepCopy(state) as MutableMap<String, Any?>
        var root: Any? = copy
        for (operation in envelope["patch"] as List<*>) {
            operation as Map<*, *>
            val path = operation["path"] as String
            val tokens = if (path.length == 0) emptyList() else path.removePrefix("/").split("/").map { it.replace("~1", "/").replace("~0", "~") }
            require(tokens.isNotEmpty()) { "patch at the root" }
            var parent: Any? = root
            for (token in tokens.dropLast(1)) {
                parent = when (parent) {
                    is MutableMap<*, *> -> { require(parent.containsKey(token)) { "no $token in $path" }; parent[token] }
                    is MutableList<*> -> parent[token.toInt()]
                    else -> throw IllegalArgumentException("through a value: $path")
                }
            }
            val last = tokens.last()
            val value = deepCopy(operation["value"])
            when (parent) {
                is MutableMap<*, *> -> {
                    parent as MutableMap<String, Any?>
                    when (operation["op"]) {
                        "add" -> parent[last] = value
                        "replace" -> { require(parent.containsKey(last)) { "no $path" }; parent[last] = value }
                        "remove" -> { require(parent.containsKey(last)) { "no $path" }; parent.remove(last) }
                        else -> throw IllegalArgumentException("op ${operation["op"]}")
                    }
                }
                is MutableList<*> -> {
                    parent as MutableList<Any?>
                    when (operation["op"]) {
                        "add" -> if (last == "-") parent.add(value) else parent.add(last.toInt(), value)
                        "replace" -> parent[last.toInt()] = value
                        "remove" -> parent.removeAt(last.toInt())
                        else -> throw IllegalArgumentException("op ${operation["op"]}")
                    }
                }
                else -> throw IllegalArgumentException("through a value: $path")
            }
        }
        state = root as Map<String, Any?>
        seq = n
    }

    private fun deepCopy(value: Any?): Any? = when (value) {
        is Map<*, *> -> LinkedHashMap<String, Any?>().also { copy -> value.forEach { (k, v) -> copy[k as String] = deepCopy(v) } }
        is List<*> -> value.mapTo(ArrayList()) { deepCopy(it) }
        else -> value
    }
}

/** Whether [envelope] has the patchedDelivery shape (the schema check itself is wirecheck.py's). */
internal fun shapeProblem(envelope: Map<*, *>): String? {
    val seq = envelope["seq"] as? Long ?: return "no integer seq"
    if (envelope.containsKey("state")) {
        return when {
            envelope.keys != setOf("seq", "state") -> "members ${envelope.keys}"
            seq != 1L -> "a whole state with seq $seq"
            envelope["state"] !is Map<*, *> -> "a state that is not an object"
            else -> null
        }
    }
    if (envelope.keys != setOf("seq", "patch")) return "members ${envelope.keys}"
    if (seq < 2) return "a patch with seq $seq"
    val patch = envelope["patch"] as? List<*> ?: return "a patch that is not an array"
    if (patch.isEmpty()) return "an empty patch"
    for (operation in patch) {
        val members = operation as? Map<*, *> ?: return "an operation that is not an object"
        val op = members["op"]
        if (op !in setOf("add", "remove", "replace") || members["path"] !is String) return "operation $members"
        val expected = if (op == "remove") setOf("op", "path") else setOf("op", "path", "value")
        if (members.keys != expected) return "operation $members"
    }
    return null
}

/** The platform's library (a runtime's, taken from one opened and closed at once). */
internal fun nativeLibraryOf(): NativeLibrary = Runtime().use { it.library }

/**
 * Opens a runtime whose library is the platform's with [Audit] watching every patched
 * delivery; fails the test when a callback threw or a delivery did not apply.
 */
internal fun withAudit(config: String?, body: (Runtime, Audit) -> Unit) {
    val audit = Audit(nativeLibraryOf())
    val errors = Collections.synchronizedList(ArrayList<Throwable>())
    val runtime = Runtime(config, audit)
    runtime.callbackErrorHandler = { errors.add(it) }
    try {
        body(runtime, audit)
    } finally {
        runtime.close()
    }
    synchronized(errors) { errors.firstOrNull()?.let { throw ExpectationFailed("a callback threw: $it").apply { initCause(it) } } }
    synchronized(audit.problems) { audit.problems.firstOrNull()?.let { throw ExpectationFailed(it) } }
}

/** Runs [body] with a scratch directory, deleted afterwards. */
internal fun withTempDir(body: (File) -> Unit) {
    val dir = Files.createTempDirectory("cinematic-patches").toFile()
    try {
        body(dir)
    } finally {
        dir.deleteRecursively()
    }
}
