package cinematic.tests

import cinematic.*
import java.io.File
import java.nio.file.Files
import java.util.Collections
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/** Debugging: store history and time travel, record and replay (the logger: DebugLoggerTest). */
object DebugTest : Suite("debug") {
    private const val HISTORY = """{"clock":"manual","catalog":"host","history":50,"offlineCache":false}"""
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""

    private val queries = listOf("du", "dun", "dune", "dunes")

    /** A scratch directory for one test, deleted afterwards. */
    private fun <T> withTempDir(body: (File) -> T): T {
        val dir = Files.createTempDirectory("cinematic-debug").toFile()
        try {
            return body(dir)
        } finally {
            dir.deleteRecursively()
        }
    }

    /** Records a short search session ("dune", answered with Dune (1984)) into [path]. */
    private fun recordSession(path: File) {
        val config = mapOf("clock" to "manual", "catalog" to "host", "offlineCache" to false, "record" to path.path)
        val runtime = Runtime(config)
        try {
            val provider = ScriptedProvider(runtime)
            provider.answers["dune"] = ScriptedProvider.movies(Movie(15249, "Dune", 1984))
            provider.install()
            val search = runtime.openSearch()
            search.queryChanged("du")
            search.queryChanged("dune")
            runtime.advanceClock(250) // the debounce elapses: the search is requested and answered
            search.settle(5_000)
            expectEqual(listOf("dune"), provider.searches, "search requests")
            expectEqual(listOf("Dune"), search.state.movies.map { it.title }, "titles")
        } finally {
            runtime.close() // the recording is complete once close returns
        }
    }

    init {
        test("history numbers every intent with its intent, state and changed members") {
            withRuntime(HISTORY) { runtime ->
                runtime.openSearch().use { search ->
                    expectEqual(emptyList<HistoryEntry>(), search.history, "history of a new store")
                    queries.forEach { search.queryChanged(it) }
                    val history = search.history
                    expectEqual(queries.size, history.size, "history size")
                    @Suppress("DEPRECATION") val called = search.history()   // the old spelling still works
                    expectEqual(history, called, "history() is the history property")
                    expectEqual((1..queries.size).toList(), history.map { it.seq }, "seq numbers")
                    for ((entry, query) in history.zip(queries)) {
                        expectEqual(mapOf("type" to "queryChanged", "query" to query), entry.intent, "intent of #${entry.seq}")
                        expectEqual(query, entry.state["query"], "state query of #${entry.seq}")
                        expectEqual(query, SearchState.fromJson(entry.state).query, "typed state of #${entry.seq}")
                        expectEqual(listOf("query"), entry.changed, "changed by #${entry.seq}")
                    }
                    expectEqual(Json.parse(search.stateJson), history.last().state, "last entry's state vs the current state")
                    // The raw JSON says the same.
                    val raw = Json.parse(search.historyJson()) as List<*>
                    expectEqual(history, raw.map { HistoryEntry.fromJson(it) }, "history from historyJson()")

                    // A repeated query changes nothing, and says so; the numbering goes on.
                    search.queryChanged("dunes")
                    val repeated = search.history.last()
                    expectEqual(queries.size + 1, repeated.seq, "seq of the repeated query")
                    expectEqual(emptyList<String>(), repeated.changed, "changed by the repeated query")
                }
            }
        }

        test("history keeps at most the configured entries and counts on; off by default") {
            withRuntime("""{"clock":"manual","catalog":"host","history":3,"offlineCache":false}""") { runtime ->
                runtime.openSearch().use { search ->
                    (1..10).forEach { search.queryChanged("query $it") }
                    expectEqual(listOf(8, 9, 10), search.history.map { it.seq }, "seq numbers kept")
                    expectEqual("query 8", search.history.first().intent["query"], "oldest intent kept")
                }
            }
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    expectEqual("[]", search.historyJson(), "historyJson() without \"history\"")
                    expectEqual(emptyList<HistoryEntry>(), search.history, "history without \"history\"")
                    expectCinematicError("invalid") { search.revert(1) }
                }
            }
            expectCinematicError("invalid") { Runtime(mapOf("history" to -1)) }
            expectCinematicError("invalid") { Runtime("""{"history":"10"}""") }
        }

        test("revert delivers the earlier state to the subscriber; the history is unchanged") {
            withRuntime(HISTORY) { runtime ->
                runtime.openSearch().use { search ->
                    val states = Collections.synchronizedList(ArrayList<String>())
                    search.subscribeJson { states.add(it) }
                    queries.forEach { search.queryChanged(it) }
                    val history = search.history
                    expect(eventually { states.size == queries.size + 1 }) { "states before revert: $states" }

                    val target = history[1] // "dun"
                    search.revert(target)
                    expectEqual("dun", search.state.query, "query after revert")
                    expect(eventually { states.size == queries.size + 2 }) { "no state delivered for the revert: $states" }
                    expectEqual(target.state, Json.parse(states.last()), "state delivered for the revert")
                    expectEqual(history, search.history, "history after revert")

                    // The store goes on from the reverted state.
                    search.queryChanged("dune messiah")
                    expectEqual(queries.size + 1, search.history.last().seq, "seq after revert")
                }
            }
        }

        test("revert reaches a states() channel") {
            withRuntime(HISTORY) { runtime ->
                runtime.openSearch().use { search ->
                    queries.forEach { search.queryChanged(it) }
                    val first = search.history.first()
                    runBlocking {
                        withTimeout(5_000) {
                            val states = search.states()
                            try {
                                expectEqual("dunes", states.receive().query, "current state")
                                search.revert(first.seq.toLong())
                                expectEqual(SearchState.fromJson(first.state), states.receive(), "state received after revert")
                            } finally {
                                states.cancel()
                            }
                        }
                    }
                }
            }
        }

        test("revert to a seq not in the history raises \"invalid\" and changes nothing") {
            withRuntime(HISTORY) { runtime ->
                runtime.openSearch().use { search ->
                    queries.forEach { search.queryChanged(it) }
                    val states = Collections.synchronizedList(ArrayList<String>())
                    search.subscribeJson { states.add(it) }
                    expect(eventually { states.size == 1 }) { "no current state: $states" }
                    val missing = expectCinematicError("invalid") { search.revert(queries.size + 1L) }
                    expectEqual(Status.INVALID, missing.status, "status")
                    expect(missing.message.contains("no history entry")) { "message: ${missing.message}" }
                    expectCinematicError("invalid") { search.revert(0) }
                    expectCinematicError("invalid") { search.revert(-1) }
                    expectEqual("dunes", search.state.query, "query after the failed reverts")
                    expect(!eventually(50) { states.size > 1 }) { "a failed revert delivered a state: $states" }
                    search.close()
                    expectCinematicError("closed") { search.revert(1) }
                    expectCinematicError("closed") { search.history }
                }
            }
        }

        test("a recorded session replays and matches; an edited answer diverges") {
            withTempDir { dir ->
                val path = File(dir, "session.jsonl")
                recordSession(path)
                val lines = path.readLines().filter { it.isNotBlank() }
                expect(lines.size > 5) { "recording: $lines" }
                expect(lines.all { Json.parse(it) is Map<*, *> }) { "a recording line is not a JSON object" }
                lines.forEach { WireLog.record("recording", null, it) } // validated against the schema

                val report = Cinematic.replay(path.path)
                expect(report.matched) { "replay did not match: $report" }
                expectEqual(null, report.divergence, "divergence")
                expectEqual(1, report.stores, "stores replayed")
                expectEqual(lines.size, report.lines, "lines replayed")
                expect(report.states >= 4) { "states compared: $report" }
                expectEqual(report, ReplayReport.fromJson(Cinematic.replayJson(path.path)), "report from replayJson()")

                // Edit the answer the store got for "dune": the replay diverges at the state it made.
                val answer = lines.indexOfFirst { it.startsWith("{\"event\":\"answer\"") && it.contains("\"title\":\"Dune\"") }
                expect(answer >= 0) { "no answer line with Dune: $lines" }
                val edited = lines.toMutableList()
                edited[answer] = lines[answer].replace("\"title\":\"Dune\"", "\"title\":\"Dunk\"")
                path.writeText(edited.joinToString("\n", postfix = "\n"))

                val diverged = Cinematic.replay(path.path)
                expect(!diverged.matched) { "an edited recording matched: $diverged" }
                val divergence = diverged.divergence ?: throw ExpectationFailed("no divergence: $diverged")
                expectEqual("search", divergence.feature, "divergence feature")
                expectEqual("resultsLoaded", divergence.intent?.get("type"), "divergence intent type")
                expect((divergence.line ?: 0) > answer + 1) { "divergence line: $divergence" }
                val expected = SearchState.fromJson(divergence.expected ?: throw ExpectationFailed("no expected state"))
                val actual = SearchState.fromJson(divergence.actual ?: throw ExpectationFailed("no actual state"))
                expectEqual(listOf("Dune"), expected.movies.map { it.title }, "expected titles")
                expectEqual(listOf("Dunk"), actual.movies.map { it.title }, "replayed titles")
                val raw = Json.parse(Cinematic.replayJson(path.path)) as Map<*, *>
                expectEqual(false, raw["matched"], "matched in the JSON report")
                expect(raw["divergence"] is Map<*, *>) { "no divergence in the JSON report: $raw" }
            }
        }

        test("a typed RuntimeConfig passes \"history\" and \"record\"") {
            withTempDir { dir ->
                val path = File(dir, "typed.jsonl")
                Runtime(RuntimeConfig(clock = "manual", catalog = "host", history = 2, record = path.path, offlineCache = false)).use { runtime ->
                    runtime.openSearch().use { search ->
                        queries.forEach { search.queryChanged(it) }
                        expectEqual(listOf(3, 4), search.history.map { it.seq }, "seq numbers kept")
                    }
                }
                val first = RecordingLine.fromJson(path.readLines().first())
                expectEqual("session", first.event, "first recording line")
                expectEqual("manual", first.config?.get("clock"), "recorded clock")
                val report = Cinematic.replay(path.path)
                expect(report.matched && report.states == queries.size) { "replay: $report" }
            }
        }

        test("replay errors: a missing file, a malformed recording, a call from a callback") {
            withTempDir { dir ->
                expectCinematicError("io") { Cinematic.replay(File(dir, "missing.jsonl").path) }
                expectCinematicError("io") { Cinematic.replay("a\u0000b") }
                val bad = File(dir, "bad.jsonl")
                bad.writeText("{\"event\":\"session\",\"t\":0,\"version\":\"0.3.0\",\"config\":{}}\n{\"event\":\"open\"\n{\"event\":\"end\",\"t\":1}\n")
                val malformed = expectCinematicError("json") { Cinematic.replay(bad.path) }
                expect(malformed.message.contains("line 2")) { "message: ${malformed.message}" }

                val recording = File(dir, "session.jsonl")
                recordSession(recording)
                withRuntime(HOST) { runtime ->
                    runtime.openSearch().use { search ->
                        val statuses = Collections.synchronizedList(ArrayList<String>())
                        search.subscribe {
                            statuses.add(try { Cinematic.replay(recording.path); "ok" } catch (e: CinematicException) { e.statusName })
                        }
                        expect(eventually { statuses.isNotEmpty() }) { "the callback did not run" }
                        expectEqual(listOf("misuse"), statuses.toList(), "replay inside a callback")
                    }
                }
            }
            expectCinematicError("io") { Runtime("""{"record":"/nonexistent-dir/session.jsonl"}""") }
        }
    }
}
