package cinematic.tests

import cinematic.*
import java.io.File
import java.nio.file.Files
import java.util.Collections
import kotlin.random.Random

/**
 * Patched delivery (docs/wire.md "Patched delivery"): stores observe in patch mode by default
 * and rebuild each state from the previous one. Checked here: the applier is strict and never
 * changes a state it returned; for every patched delivery the binding receives, the envelope
 * is well formed (and, through the wire log, valid against the schema's patchedDelivery, the
 * rebuilt state against the feature's state: tools/wirecheck.py), the binding's rebuilt state
 * equals what an independent applier (deep copies, [ReferenceApplier]) makes of the same
 * envelopes, and once the store caught up it equals `cinematic_store_state` byte for byte;
 * a page appended is 20 `add`s at `…/-`, a removed favorite one `remove`, a heart tap
 * `replace`s of /isFavorite and /isSaving; random intent sequences over all four features.
 */
object PatchesTest : Suite("patches") {
    private const val DUNE = 15249L
    private const val WAIT_MS = 5_000L

    init {
        // ---------------------------------------------------------------- the applier

        test("the applier copies only what it changes and shares the rest") {
            val state = Json.parse("""{"query":"a","results":{"phase":"loaded","value":[{"id":1},{"id":2}]},"flags":{"x":1}}""") as Map<*, *>
            val before = Json.write(state)
            val after = JsonPatch.apply(state, Json.parse("""[
                {"op":"add","path":"/results/value/-","value":{"id":3}},
                {"op":"replace","path":"/query","value":"b"},
                {"op":"remove","path":"/results/value/0"},
                {"op":"add","path":"/results/value/0","value":{"id":0}},
                {"op":"add","path":"/new","value":null}]""") as List<*>) as Map<*, *>
            expectEqual(before, Json.write(state), "the old state after the patch")
            expectEqual("""{"query":"b","results":{"phase":"loaded","value":[{"id":0},{"id":2},{"id":3}]},"flags":{"x":1},"new":null}""",
                Json.write(after), "the patched state")
            expect(after["flags"] === state["flags"]) { "an untouched member was copied" }
            val oldItems = (state["results"] as Map<*, *>)["value"] as List<*>
            val newItems = (after["results"] as Map<*, *>)["value"] as List<*>
            expect(newItems[1] === oldItems[1]) { "an untouched list item was copied" }
            expect(newItems !== oldItems && after["results"] !== state["results"]) { "a patched container was not copied" }
        }
        test("the applier unescapes ~1 and ~0 in pointers, and replaces the root") {
            val state = Json.parse("""{"a/b":1,"m~n":2,"~1":3}""")
            val after = JsonPatch.apply(state, Json.parse("""[
                {"op":"replace","path":"/a~1b","value":10},
                {"op":"replace","path":"/m~0n","value":20},
                {"op":"remove","path":"/~01"}]""") as List<*>)
            expectEqual("""{"a/b":10,"m~n":20}""", Json.write(after), "after ~1/~0 pointers")
            expectEqual("""[1]""", Json.write(JsonPatch.apply(state, Json.parse("""[{"op":"replace","path":"","value":[1]}]""") as List<*>)), "root replaced")
        }
        test("the applier refuses what does not apply and leaves the state unchanged") {
            val refused = listOf(
                """[{"op":"replace","path":"/missing","value":1}]""",
                """[{"op":"remove","path":"/missing"}]""",
                """[{"op":"remove","path":"/list/2"}]""",
                """[{"op":"replace","path":"/list/2","value":1}]""",
                """[{"op":"add","path":"/list/3","value":1}]""",
                """[{"op":"add","path":"/list/01","value":1}]""",
                """[{"op":"add","path":"/list/-1","value":1}]""",
                """[{"op":"remove","path":"/list/-"}]""",
                """[{"op":"add","path":"/a/b/c","value":1}]""",
                """[{"op":"add","path":"/missing/b","value":1}]""",
                """[{"op":"add","path":"/list/x/y","value":1}]""",
                """[{"op":"move","path":"/a","from":"/list"}]""",
                """[{"op":"copy","path":"/b","from":"/a"}]""",
                """[{"op":"test","path":"/a","value":1}]""",
                """[{"op":"remove","path":""}]""",
                """[{"op":"replace","path":"list/0","value":1}]""",
                """[{"op":"replace","path":"/a~2","value":1}]""",
                """[{"op":"add","path":"/b"}]""",
                """[{"path":"/a","value":1}]""",
                """[{"op":"replace","path":"/a","value":2},{"op":"remove","path":"/list/9"}]""",
                """[1]""")
            for (patch in refused) {
                val state = Json.parse("""{"a":1,"list":[1,2]}""")
                val thrown = try { JsonPatch.apply(state, Json.parse(patch) as List<*>); null } catch (e: PatchException) { e }
                expect(thrown != null) { "applied: $patch" }
                expectEqual("""{"a":1,"list":[1,2]}""", Json.write(state), "the state after refusing $patch")
            }
        }
        test("a gap in seq is refused; afterwards only a whole state is taken") {
            val rebuilt = PatchedState()
            expectEqual(mapOf("a" to 1L), rebuilt.receive("""{"seq":1,"state":{"a":1}}"""), "seq 1")
            expectEqual(mapOf("a" to 2L), rebuilt.receive("""{"seq":2,"patch":[{"op":"replace","path":"/a","value":2}]}"""), "seq 2")
            refusedDelivery(rebuilt, """{"seq":4,"patch":[{"op":"replace","path":"/a","value":3}]}""")
            refusedDelivery(rebuilt, """{"seq":5,"patch":[{"op":"replace","path":"/a","value":3}]}""")
            refusedDelivery(rebuilt, """{"seq":2,"state":{"a":1}}""")
            expectEqual(mapOf("a" to 7L), rebuilt.receive("""{"seq":1,"state":{"a":7}}"""), "a new seq 1")
            refusedDelivery(rebuilt, """{"seq":2,"patch":[{"op":"replace","path":"/b","value":3}]}""")
            refusedDelivery(PatchedState(), """{"seq":2,"patch":[{"op":"replace","path":"/a","value":3}]}""")
        }
        test("a delivery that does not apply is reported and the store observes again") {
            // A library whose second delivery of each registration goes missing: the binding
            // sees a gap, reports it, registers again and catches up with the whole state.
            val dropper = object : NativeLibrary by nativeLibraryOf() {
                var dropped = 0
                val real = nativeLibraryOf()
                override fun stateCallback(body: (stateJson: String) -> Unit): NativeCallback = real.stateCallback { json ->
                    if (json.startsWith("{\"seq\":2,") && dropped < 1) dropped++ else body(json)
                }
            }
            val errors = Collections.synchronizedList(ArrayList<Throwable>())
            Runtime("""{"clock":"manual"}""", dropper).use { runtime ->
                runtime.callbackErrorHandler = { errors.add(it) }
                runtime.openSearch().use { search ->
                    val states = Collections.synchronizedList(ArrayList<SearchState>())
                    search.subscribe { states.add(it) }
                    search.queryChanged("d")
                    search.queryChanged("du")
                    search.queryChanged("dun")
                    expect(eventually { search.deliveredTree == Json.parse(search.stateJson) }) { "never caught up" }
                    expectEqual(1, dropper.dropped, "deliveries dropped")
                    expectEqual(1, errors.size, "errors reported: $errors")
                    expect(errors[0] is PatchException && errors[0].message!!.contains("observing again")) { "reported: ${errors[0]}" }
                    expectEqual("dun", states.last().query, "the last state the subscriber saw")
                }
            }
        }
        test("whole-state delivery is still there: Runtime(config, patches = false)") {
            val runtime = Runtime("""{"clock":"manual"}""", patches = false)
            runtime.use {
                expect(!runtime.patches) { "patches is on" }
                expect(Runtime().use { it.patches }) { "patch mode is not the default" }
                runtime.openSearch().use { search ->
                    val states = Collections.synchronizedList(ArrayList<String>())
                    search.subscribeJson { states.add(it) }
                    search.queryChanged("dune")
                    expectEqual(search.stateJson, states.last(), "the last state")
                    expectEqual(null, search.deliveredTree, "deliveredTree with whole states")
                }
            }
        }

        // ---------------------------------------------------------------- every feature

        test("search: typing and paging; a page is 20 adds at /results/value/-") {
            withAudit(null) { runtime, audit ->
                runtime.openSearch().use { search ->
                    val watch = audit.watch(search)
                    for (prefix in listOf("s", "st", "sta", "star")) {
                        search.queryChanged(prefix)
                        audit.caughtUp(search)
                    }
                    search.submitted()
                    search.settle(30_000)
                    expect(audit.caughtUp(search)["results"].let { it is Map<*, *> && it["phase"] == "loaded" }) { "results not loaded" }
                    for (page in 2..4) {
                        val before = audit.envelopes(search).size
                        search.loadMore()
                        search.settle(30_000)
                        expectEqual(page.toLong(), audit.caughtUp(search)["pagesLoaded"], "pagesLoaded")
                        val ops = audit.envelopes(search).drop(before).flatMap { operations(it) }
                        val adds = ops.filter { it["op"] == "add" }
                        expectEqual(20, adds.size, "films added by page $page")
                        expect(adds.all { it["path"] == "/results/value/-" }) { "adds: ${adds.map { it["path"] }.toSet()}" }
                        expect(ops.none { it["op"] == "remove" || (it["path"] as String).startsWith("/results/value/") && it["op"] != "add" }) {
                            "page $page rewrote results: ${ops.map { "${it["op"]} ${it["path"]}" }.take(5)}"
                        }
                    }
                    expectEqual(80, search.state.movies.size, "films after 4 pages")
                    watch.expectUnchanged()
                }
            }
        }
        test("discover: paging Comedy adds only under /sections/<comedy>/movies/value/-") {
            withAudit(null) { runtime, audit ->
                runtime.openDiscover().use { discover ->
                    val watch = audit.watch(discover)
                    discover.task()
                    discover.settle(30_000)
                    audit.caughtUp(discover)
                    val comedy = DiscoverState.SECTIONS.indexOf("comedy")
                    expect(comedy >= 0) { "no comedy section" }
                    for (page in 2..4) {
                        val before = audit.envelopes(discover).size
                        discover.loadMore("comedy")
                        discover.settle(30_000)
                        audit.caughtUp(discover)
                        val ops = audit.envelopes(discover).drop(before).flatMap { operations(it) }
                        val adds = ops.filter { it["op"] == "add" }
                        expectEqual(20, adds.size, "films added by Comedy page $page")
                        expectEqual(setOf("/sections/$comedy/movies/value/-"), adds.map { it["path"] }.toSet(), "add paths")
                        expect(ops.all { (it["path"] as String).startsWith("/sections/$comedy/") }) {
                            "page $page touched other sections: ${ops.map { it["path"] }.toSet()}"
                        }
                    }
                    expectEqual(80, discover.state["comedy"]!!.loadedMovies.size, "Comedy films after 4 pages")
                    watch.expectUnchanged()
                }
            }
        }
        test("favorites and detail: a heart tap replaces /isFavorite and /isSaving; a removal is one remove") {
            withTempDir { dir ->
                withAudit(Json.write(mapOf("favorites" to File(dir, "favorites.sqlite").path))) { runtime, audit ->
                    val favorites = runtime.openFavorites()
                    val favoritesWatch = audit.watch(favorites)
                    favorites.task()
                    for (movieId in listOf(DUNE, 1L, 2L)) {
                        runtime.openDetail(movieId).use { detail ->
                            val watch = audit.watch(detail)
                            detail.task()
                            audit.until(detail, "detail $movieId to load") { (it["detail"] as Map<*, *>)["phase"] == "loaded" }
                            val before = audit.envelopes(detail).size
                            detail.favoriteToggled()
                            audit.until(detail, "the heart of $movieId to be saved") { it["isFavorite"] == true && it["isSaving"] == false }
                            val ops = audit.envelopes(detail).drop(before).flatMap { operations(it) }
                            expect(ops.isNotEmpty()) { "no patch for the heart tap" }
                            expect(ops.all { it["op"] == "replace" && (it["path"] == "/isFavorite" || it["path"] == "/isSaving") }) {
                                "heart tap patches: ${ops.map { "${it["op"]} ${it["path"]}" }}"
                            }
                            watch.expectUnchanged()
                        }
                    }
                    val three = audit.until(favorites, "three favorites") { favoriteIds(it).size == 3 }
                    val index = favoriteIds(three).indexOf(1L)
                    val before = audit.envelopes(favorites).size
                    favorites.removed(1)
                    audit.until(favorites, "two favorites") { favoriteIds(it).size == 2 }
                    val patches = audit.envelopes(favorites).drop(before).map { operations(it) }
                    expectEqual(listOf(listOf(mapOf("op" to "remove", "path" to "/favorites/value/$index"))), patches, "the removal's patches")
                    favoritesWatch.expectUnchanged()
                    favorites.close()
                }
            }
        }
        test("random intent sequences over all four features rebuild every state") {
            withTempDir { dir ->
                val seed = System.getenv("CINEMATIC_PATCH_SEED")?.toLong() ?: 20L
                val random = Random(seed)
                withAudit(Json.write(mapOf("clock" to "manual", "favorites" to File(dir, "favorites.sqlite").path))) { runtime, audit ->
                    val search = runtime.openSearch()
                    val discover = runtime.openDiscover()
                    val favorites = runtime.openFavorites()
                    val details = listOf(DUNE, 1L, 2L, 11L).map { runtime.openDetail(it) }
                    val stores: List<Store<*>> = listOf(search, discover, favorites) + details
                    val watches = stores.map { audit.watch(it) }
                    val queries = listOf("", "d", "du", "dune", "star", "the", "a", "zzzz", "love")
                    val actions: List<Pair<String, () -> Unit>> = listOf(
                        "search.queryChanged" to { search.queryChanged(queries.random(random)) },
                        "search.submitted" to { search.submitted() },
                        "search.loadMore" to { search.loadMore() },
                        "clock" to { runtime.advanceClock(random.nextLong(0, 400)) },
                        "discover.task" to { discover.task() },
                        "discover.loadMore" to { discover.loadMore(DiscoverState.SECTIONS.random(random)) },
                        "discover.refresh" to { discover.refresh() },
                        "favorites.task" to { favorites.task() },
                        "favorites.removed" to { favorites.removed(favoriteIds(audit.tree(favorites)).let { if (it.isEmpty()) DUNE else it.random(random) }) },
                        "detail.task" to { details.random(random).task() },
                        "detail.favoriteToggled" to { details.random(random).favoriteToggled() })
                    val steps = ArrayList<String>()
                    for (step in 1..120) {
                        val (name, action) = actions.random(random)
                        steps.add(name)
                        try {
                            action()
                        } catch (e: CinematicException) {
                            throw ExpectationFailed("seed $seed, step $step ($name): $e")
                        }
                        if (step % 10 == 0) {
                            for (store in stores) audit.caughtUp(store, "seed $seed after ${steps.takeLast(10)}")
                        }
                    }
                    runtime.advanceClock(1_000)
                    for (store in stores) audit.caughtUp(store, "seed $seed at the end")
                    watches.forEach { it.expectUnchanged() }
                    // How many deliveries there are depends on timing (the library may deliver
                    // several changes at once); every feature must have had patches.
                    val patched = stores.groupBy { it.feature }.mapValues { (_, group) ->
                        group.sumBy { store -> audit.envelopes(store).count { it.containsKey("patch") } }
                    }
                    println("     seed $seed: ${audit.deliveries()} patched deliveries, patches per feature $patched")
                    expect(patched.values.all { it > 0 } && patched.size == 4) { "patches per feature: $patched" }
                    stores.forEach { it.close() }
                }
            }
        }
        test("every patched delivery of this run is in the wire log (validated by wirecheck.py)") {
            val path = System.getProperty("cinematic.wireLog") ?: return@test
            val kinds = File(path).readLines().map { Json.parse(it) as Map<*, *> }.filter { it["kind"] == "patched" }.map { it["feature"] }.toSet()
            expectEqual(ALL_FEATURES.map { it.name }.toSet(), kinds, "features with patched deliveries in the wire log")
        }
    }

    private fun refusedDelivery(rebuilt: PatchedState, envelope: String) {
        val thrown = try { rebuilt.receive(envelope); null } catch (e: PatchException) { e }
        expect(thrown != null) { "took $envelope" }
    }

    private fun nativeLibraryOf(): NativeLibrary = Runtime().use { it.library }

    private fun operations(envelope: Map<*, *>): List<Map<*, *>> = (envelope["patch"] as? List<*>)?.map { it as Map<*, *> } ?: emptyList()

    private fun favoriteIds(state: Map<*, *>): List<Long> =
        ((state["favorites"] as Map<*, *>)["value"] as? List<*>)?.map { (it as Map<*, *>)["id"] as Long } ?: emptyList()

    /**
     * Opens a runtime whose library is the platform's with [Audit] watching every patched
     * delivery; fails the test when a callback threw or a delivery did not apply.
     */
    private fun withAudit(config: String?, body: (Runtime, Audit) -> Unit) {
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

    /**
     * The platform's library, and for every patched delivery (one store per feature at a
     * time): its envelope, checked for shape and applied by the independent
     * [ReferenceApplier]; the binding's rebuilt state is compared with that one at each
     * delivery ([watch]).
     */
    private class Audit(private val real: NativeLibrary) : NativeLibrary by real {
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
            val ok = eventually(WAIT_MS) {
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
            expect(eventually(WAIT_MS) { store.deliveredTree?.let(predicate) == true }) { "timed out waiting for $what" }
            return caughtUp(store, what)
        }
    }

    /** The states a subscriber received, each with its encoding when it was delivered. */
    private class Watch(val feature: String) {
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
    private class ReferenceApplier {
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
    private fun shapeProblem(envelope: Map<*, *>): String? {
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

    private fun withTempDir(body: (File) -> Unit) {
        val dir = Files.createTempDirectory("cinematic-patches").toFile()
        try {
            body(dir)
        } finally {
            dir.deleteRecursively()
        }
    }
}
