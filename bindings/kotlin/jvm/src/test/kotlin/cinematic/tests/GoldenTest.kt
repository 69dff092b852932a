package cinematic.tests

import cinematic.*
import java.io.File

/**
 * The golden files every suite reads (schema/golden/): each host intent with the status it
 * must get, and each feature's initial state, which must also read into the generated type
 * and write back to the same JSON. The C and Python suites read the same files. Features
 * come from the generated list ([ALL_FEATURES]), never from a list kept here: a new feature
 * is covered at once, or fails by name (no golden state, or a state its decoder cannot read).
 */
object GoldenTest : Suite("golden") {
    private val root = File(System.getProperty("cinematic.root") ?: ".")
    private const val HOST_CATALOG = """{"clock":"manual","catalog":"host"}"""

    private fun feature(name: String): Feature<*, *> =
        ALL_FEATURES.firstOrNull { it.name == name } ?: throw ExpectationFailed("no generated feature named \"$name\"")

    init {
        test("the generated feature list is the schema's") {
            val schema = Json.parse(File(root, "schema/cinematic.schema.json").readText()) as Map<*, *>
            val declared = ((schema["x-cinematic"] as Map<*, *>)["features"] as List<*>).map { (it as Map<*, *>)["name"] }
            expectEqual(declared, ALL_FEATURES.map { it.name }, "features")
            expectEqual(declared, FEATURES, "feature names in Wire.kt")
        }
        test("an intent's type is its class's; a union of its own members is sealed") {
            // The type is no constructor parameter: the JSON is the wire's, byte for byte.
            expectEqual("queryChanged", QueryChanged(query = "dune").type, "QueryChanged.type")
            expectEqual("""{"type":"queryChanged","query":"dune"}""", Json.write(QueryChanged(query = "dune").toJson()), "QueryChanged")
            expectEqual("""{"type":"submitted"}""", Json.write(Submitted().toJson()), "Submitted")
            expectEqual(Submitted(), SearchIntent.fromJson("""{"type":"submitted"}"""), "Submitted read back")
            expectEqual(AppQueryChanged(query = "x"), AppSearchIntent.fromJson("""{"type":"queryChanged","query":"x"}"""), "the app's queryChanged")
            val refused = try { QueryChanged.fromJson("""{"type":"submitted","query":"x"}"""); null } catch (e: IllegalArgumentException) { e }
            expect(refused != null) { "QueryChanged read a submitted" }
            // A sealed class: this `when` has no else, so a new request kind fails to compile here.
            val ops = listOf("""{"op":"search","query":"dune","page":1}""", """{"op":"cancel"}""").map { json ->
                when (val request = ProviderRequest.fromJson(json)) {
                    is SearchRequest -> "${request.op} ${request.query}"
                    is DiscoverRequest -> request.op
                    is MovieRequest -> request.op
                    is CancelRequest -> request.op
                }
            }
            expectEqual(listOf("search dune", "cancel"), ops, "requests")
        }
        test("every intent gets its status") {
            Runtime(HOST_CATALOG).use { runtime ->
                val lines = File(root, "schema/golden/intents.jsonl").readLines().filter { it.isNotBlank() }
                expect(lines.size >= 30) { "golden intents: ${lines.size}" }
                for (line in lines) {
                    val case = Json.parse(line) as Map<*, *>
                    val feature = feature(case["feature"] as String)
                    val intent = Json.write(case["intent"])
                    feature.open(runtime, feature.sampleArgs).use { store ->
                        val refusal = try { store.send(intent); null } catch (e: CinematicException) { e }
                        expectEqual(case["status"], refusal?.statusName ?: "ok", "${feature.name} $intent")
                        // A refusal names the member it is about: the envelope's path is the line's.
                        expectEqual(case["path"], refusal?.path, "${feature.name} $intent: the refusal's path")
                    }
                }
            }
        }
        test("initial states, through the generated decoders and back") {
            val golden = Json.parse(File(root, "schema/golden/initial-states.json").readText()) as Map<*, *>
            Runtime(HOST_CATALOG).use { runtime ->
                for (feature in ALL_FEATURES) {
                    expect(golden.containsKey(feature.name)) { "schema/golden/initial-states.json has no \"${feature.name}\" state" }
                    val (json, typed) = roundTrip(runtime, feature)
                    expectEqual(Json.write(golden[feature.name]), json, "${feature.name} initial state")
                    expectEqual(json, typed, "${feature.name} through its generated type")
                }
            }
        }
        test("every generated send helper's intent is accepted by a real store") {
            Runtime(HOST_CATALOG).use { runtime ->
                val sent = ALL_FEATURES.sumBy { feature -> sendEach(runtime, feature) { _, _ -> } }
                expect(sent >= 10) { "only $sent helpers sent" }
            }
        }
        test("a generated helper sends the wire type it is named after") {
            Runtime("""{"clock":"manual","catalog":"host","history":10}""").use { runtime ->
                for (feature in ALL_FEATURES) {
                    sendEach(runtime, feature) { wireType, store ->
                        expectEqual(wireType, store.history.firstOrNull()?.intent?.get("type"), "${feature.name}.$wireType(...) sent")
                    }
                }
            }
        }
    }

    /** A new store's state as JSON, and as its generated decoder reads it and its encoder writes it back. */
    private fun <S> roundTrip(runtime: Runtime, feature: Feature<S, *>): Pair<String, String> =
        feature.open(runtime, feature.sampleArgs).use { store ->
            val json = store.stateJson
            expectEqual(feature.decodeState(json), store.state, "${feature.name}: the store's state is its feature's decoding")
            json to Json.write(feature.encodeState(feature.decodeState(json)))
        }

    /**
     * Opens a store of [feature] per generated send helper, calls the helper with its sample
     * values (a refusal fails the test, naming the helper), then [check]s the store; returns
     * how many helpers ran.
     */
    private fun <T : Store<*>> sendEach(runtime: Runtime, feature: Feature<*, T>, check: (String, T) -> Unit): Int {
        expect(feature.sampleCalls.isNotEmpty()) { "${feature.name} has no send helper" }
        for ((wireType, call) in feature.sampleCalls) {
            feature.open(runtime, feature.sampleArgs).use { store ->
                try {
                    call(store)
                } catch (e: CinematicException) {
                    throw ExpectationFailed("${feature.name}.$wireType(...) was refused: ${e.statusName}: ${e.message}")
                }
                check(wireType, store)
            }
        }
        return feature.sampleCalls.size
    }
}
