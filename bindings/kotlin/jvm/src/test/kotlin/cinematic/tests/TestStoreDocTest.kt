package cinematic.tests

// The Kotlin example of docs/testing.md, verbatim from here to the suite below
// (bindings/python/tests/test_docs_testing.py checks they are the same).
import cinematic.*
import cinematic.testing.*

fun typingDuneSearchesOnceAfterTheDebounce() {
    TestStore(SearchFeature).use { store ->
        store.catalog.search("dune", Movie(15249, "Dune", 1984))
        store.send(QueryChanged(query = "du").toJson()) { it.copy(query = "du") }
        store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
        store.advance(249)
        store.expectNothingReceived()
        store.advance(1)
        store.receive("searchNow") { it.copy(results = ResultsLoading(query = "dune")) }
        store.receive("resultsLoaded") {
            it.copy(results = ResultsLoaded(query = "dune", value = listOf(Movie(15249, "Dune", 1984)), source = "live"),
                pagesLoaded = 1, isExhausted = true)
        }
        store.finish()
    }
}

/** Runs docs/testing.md's Kotlin example. */
object TestStoreDocTest : Suite("docs/testing.md") {
    init {
        test("the Kotlin example runs") { typingDuneSearchesOnceAfterTheDebounce() }
    }
}
