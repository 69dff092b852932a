package cinematic.tests

import cinematic.*
import java.io.File
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
 * `replace`s of /isFavorite and /isSaving; random intent sequences over every
 * feature of the generated ALL_FEATURES.
 */
object PatchesTest : Suite("patches") {
    private const val DUNE = 15249L

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
        test("random intent sequences over every feature (ALL_FEATURES) rebuild every state") {
            withTempDir { dir ->
                val seed = System.getenv("CINEMATIC_PATCH_SEED")?.toLong() ?: 20L
                val random = Random(seed)
                withAudit(Json.write(mapOf("clock" to "manual", "favorites" to File(dir, "favorites.sqlite").path))) { runtime, audit ->
                    // A store of every generated feature (its sample args), and three more Details.
                    val opened: List<Store<*>> = ALL_FEATURES.map { it.open(runtime, it.sampleArgs) }
                    val details = opened.filterIsInstance<DetailStore>() + listOf(1L, 2L, 11L).map { runtime.openDetail(it) }
                    val stores = (opened + details).distinct()
                    val watches = stores.map { audit.watch(it) }
                    // Every send helper of every store with its sample values, and some with random ones.
                    @Suppress("UNCHECKED_CAST")
                    val sampled: List<Pair<String, () -> Unit>> = stores.flatMap { store ->
                        (store.definition.sampleCalls as List<Pair<String, (Store<*>) -> Unit>>).map { (wire, call) -> "${store.feature}.$wire" to { call(store) } }
                    }
                    val search = opened.filterIsInstance<SearchStore>().single()
                    val discover = opened.filterIsInstance<DiscoverStore>().single()
                    val favorites = opened.filterIsInstance<FavoritesStore>().single()
                    val queries = listOf("", "d", "du", "dune", "star", "the", "a", "zzzz", "love")
                    val actions: List<Pair<String, () -> Unit>> = sampled + listOf(
                        "search.queryChanged(random)" to { search.queryChanged(queries.random(random)) },
                        "clock" to { runtime.advanceClock(random.nextLong(0, 400)) },
                        "discover.loadMore(random)" to { discover.loadMore(DiscoverState.SECTIONS.random(random)) },
                        "favorites.removed(a favorite)" to { favorites.removed(favoriteIds(audit.tree(favorites)).let { if (it.isEmpty()) DUNE else it.random(random) }) },
                        "detail.task(random)" to { details.random(random).task() },
                        "detail.favoriteToggled(random)" to { details.random(random).favoriteToggled() })
                    val steps = ArrayList<String>()
                    for (step in 1..160) {
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
                    expect(patched.values.all { it > 0 } && patched.keys == ALL_FEATURES.map { it.name }.toSet()) { "patches per feature: $patched" }
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

    private fun operations(envelope: Map<*, *>): List<Map<*, *>> = (envelope["patch"] as? List<*>)?.map { it as Map<*, *> } ?: emptyList()

    private fun favoriteIds(state: Map<*, *>): List<Long> =
        ((state["favorites"] as Map<*, *>)["value"] as? List<*>)?.map { (it as Map<*, *>)["id"] as Long } ?: emptyList()
}
