package cinematic.tests

import cinematic.*

/** Bad input and misuse raise CinematicException with the library's status and message. */
object ErrorsTest : Suite("errors") {
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""

    init {
        test("version and status names") {
            expectEqual(Cinematic.BINDING_VERSION.substringBefore('.'), Cinematic.version.substringBefore('.'), "major version")
            expectEqual("ok", Cinematic.statusName(Status.OK), "name of 0")
            expectEqual("invalid", Cinematic.statusName(Status.INVALID), "name of 2")
            expectEqual("unknown_feature", Cinematic.statusName(Status.UNKNOWN_FEATURE), "name of 3")
            expectEqual("too_large", Cinematic.statusName(Status.TOO_LARGE), "name of 8")
            expectEqual("unknown", Cinematic.statusName(99), "name of 99")
        }

        test("malformed JSON raises \"json\" with the library's message, line and column") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val e = expectCinematicError("json") { search.send("{\"type\":") }
                    expectEqual(Status.JSON, e.status, "status")
                    expect(e.message.contains("JSON", ignoreCase = true)) { "message: ${e.message}" }
                    expect(e.line == 1 && e.column != null) { "line/column: ${e.line}/${e.column} in ${e.envelope}" }
                    expectCinematicError("json") { search.send("not json") }
                    expectCinematicError("json") { search.send("{\"type\":\"submitted\",\"type\":\"submitted\"}") }
                    expectCinematicError("json") { search.send("{\"type\":\"queryChanged\",\"query\":\"a\u0000b\"}") }
                }
            }
        }

        test("an unknown intent raises \"invalid\"; so do internal intents and bad members") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val e = expectCinematicError("invalid") { search.send("""{"type":"explode"}""") }
                    expectEqual(Status.INVALID, e.status, "status")
                    expect(e.envelope?.contains("\"status\":\"invalid\"") == true) { "envelope: ${e.envelope}" }
                    expectCinematicError("invalid") { search.send("""{"type":"searchNow"}""") }
                    expectCinematicError("invalid") { search.send("""{"type":"resultsLoaded","movies":[]}""") }
                    expectCinematicError("invalid") { search.send("[1,2]") }
                    val missing = expectCinematicError("invalid") { search.send("""{"type":"queryChanged"}""") }
                    expectEqual("$.query", missing.path, "path of the missing member")
                    expectCinematicError("invalid") { search.send("""{"type":"queryChanged","query":7}""") }
                    expectCinematicError("invalid") { search.send("""{"type":"queryChanged","query":"x","qeury":"y"}""") }
                    // The store keeps working.
                    search.queryChanged("still fine")
                    expectEqual("still fine", search.state.query, "query after the errors")
                }
            }
        }

        test("an unknown feature raises \"unknown_feature\"") {
            withRuntime(HOST) { runtime ->
                val e = expectCinematicError("unknown_feature") { runtime.openStore("nope") }
                expectEqual(Status.UNKNOWN_FEATURE, e.status, "status")
                expectCinematicError("invalid") { runtime.openStore("search", """{"page":2}""") }
            }
        }

        test("a bad config raises \"json\" or \"invalid\"") {
            expectCinematicError("json") { Runtime("{clock}") }
            expectCinematicError("invalid") { Runtime("""{"clock":"sundial"}""") }
            val typo = expectCinematicError("invalid") { Runtime("""{"colck":"manual"}""") }
            expect(typo.message.isNotBlank() && typo.path != null) { "no path in ${typo.envelope}" }
            expectCinematicError("invalid") { Runtime(mapOf("search" to mapOf("debounceMs" to -1))) }
        }

        test("a closed store raises \"closed\"; closing again does nothing") {
            withRuntime(HOST) { runtime ->
                val search = runtime.openSearch()
                search.close()
                expect(search.isClosed) { "isClosed" }
                val e = expectCinematicError("closed") { search.queryChanged("dune") }
                expectEqual(Status.CLOSED, e.status, "status")
                expectCinematicError("closed") { search.state }
                expectCinematicError("closed") { search.pendingEffects }
                expectCinematicError("closed") { search.settle(100) }
                expectCinematicError("closed") { search.subscribe { } }
                search.close()
            }
        }

        test("closing the runtime closes its stores") {
            val runtime = Runtime(HOST)
            val search = runtime.openSearch()
            val subscription = search.subscribe { }
            runtime.close()
            expect(runtime.isClosed && search.isClosed) { "isClosed" }
            expectCinematicError("closed") { search.send("""{"type":"submitted"}""") }
            expectCinematicError("closed") { runtime.openSearch() }
            expectCinematicError("closed") { runtime.advanceClock(1) }
            expectCinematicError("closed") { runtime.dispatch() }
            subscription.close()
            search.close()
            runtime.close()
        }

        test("misuse and invalid arguments") {
            withRuntime("""{"catalog":"host"}""") { runtime ->
                expectCinematicError("misuse") { runtime.advanceClock(10) } // system clock
                expectCinematicError("misuse") { runtime.fd } // immediate delivery
                expectEqual(0, runtime.dispatch(), "dispatch count with immediate delivery")
                expectCinematicError("invalid") { runtime.respond(424242, """{"movies":[]}""") }
            }
            withRuntime("""{"clock":"manual"}""") { runtime ->
                expectCinematicError("invalid") { runtime.advanceClock(-1) }
                expectCinematicError("misuse") { runtime.setProvider { _, _ -> } } // embedded catalog
                expectCinematicError("misuse") { runtime.respond(1, """{"movies":[]}""") }
            }
        }

        test("input over 1 MiB raises \"too_large\"") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    val huge = "x".repeat(1_100_000)
                    expectCinematicError("too_large") { search.queryChanged(huge) }
                }
            }
        }

        test("settle raises \"timeout\" while an answer is held") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime)
                provider.held += "dune"
                provider.install()
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    search.submitted()
                    provider.awaitSearch("dune")
                    expectCinematicError("timeout") { search.settle(30) }
                    provider.release("dune")
                    search.settle(5_000)
                    expectEqual(listOf("Dune"), search.state.movies.map { it.title }, "titles")
                }
            }
        }
    }
}
