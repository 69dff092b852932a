package cinematic.tests

import cinematic.*
import java.io.File

/**
 * The golden files every suite reads (schema/golden/): each host intent with the status it
 * must get, and each feature's initial state, which must also read into the generated type
 * and write back to the same JSON. The C and Python suites read the same files.
 */
object GoldenTest : Suite("golden") {
    private val root = File(System.getProperty("cinematic.root") ?: ".")
    private fun args(feature: String) = if (feature == "detail") """{"movieId":15249}""" else null

    init {
        test("every intent gets its status") {
            Runtime("""{"clock":"manual","catalog":"host"}""").use { runtime ->
                val lines = File(root, "schema/golden/intents.jsonl").readLines().filter { it.isNotBlank() }
                expect(lines.size >= 30) { "golden intents: ${lines.size}" }
                for (line in lines) {
                    val case = Json.parse(line) as Map<*, *>
                    val feature = case["feature"] as String
                    val intent = Json.write(case["intent"])
                    runtime.openStore(feature, args(feature)).use { store ->
                        val status = try { store.send(intent); "ok" } catch (e: CinematicException) { e.statusName }
                        expectEqual(case["status"], status, "$feature $intent")
                    }
                }
            }
        }
        test("initial states, through the generated types and back") {
            val golden = Json.parse(File(root, "schema/golden/initial-states.json").readText()) as Map<*, *>
            Runtime("""{"clock":"manual","catalog":"host"}""").use { runtime ->
                for (feature in FEATURES) {
                    runtime.openStore(feature, args(feature)).use { store ->
                        expectEqual(Json.write(golden[feature]), store.state, "$feature initial state")
                        val typed = when (feature) {
                            "search" -> SearchState.fromJson(store.state).toJson()
                            "discover" -> DiscoverState.fromJson(store.state).toJson()
                            "favorites" -> FavoritesState.fromJson(store.state).toJson()
                            else -> DetailState.fromJson(store.state).toJson()
                        }
                        expectEqual(store.state, Json.write(typed), "$feature through its generated type")
                    }
                }
            }
        }
    }
}
