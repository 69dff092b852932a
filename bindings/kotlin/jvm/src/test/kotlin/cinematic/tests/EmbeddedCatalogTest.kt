package cinematic.tests

import cinematic.*

/** Search against the built-in catalog (a manual clock keeps the debounce exact). */
object EmbeddedCatalogTest : Suite("embedded catalog") {
    private const val MANUAL = """{"clock":"manual"}"""

    init {
        test("\"dune\" finds Dune (1984) first") {
            withRuntime(MANUAL) { runtime ->
                runtime.openStore("search").use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(30_000)
                    val movies = search.searchState.movies
                    expect(movies.isNotEmpty()) { "no movies: ${search.state}" }
                    expectEqual("Dune", movies[0].title, "first title")
                    expectEqual(1984, movies[0].year, "first year")
                    expect(movies.size <= 20) { "more than one page: ${movies.size}" }
                }
            }
        }

        test("submitted searches at once; titles carry their article in front") {
            withRuntime(MANUAL) { runtime ->
                runtime.openStore("search").use { search ->
                    search.queryChanged("godfather")
                    search.submitted()
                    search.settle(30_000)
                    val movies = search.searchState.movies
                    expect(movies.any { it.title == "The Godfather" && it.year == 1972 }) { "no The Godfather (1972) in $movies" }
                }
            }
        }

        test("search operators in user text are plain text") {
            withRuntime(MANUAL) { runtime ->
                runtime.openStore("search").use { search ->
                    for (query in listOf("\"dune", "dune* OR star", "NEAR(a b)", "st:ar -wars")) {
                        search.queryChanged(query)
                        search.submitted()
                        search.settle(30_000)
                        val results = search.searchState.phase
                        expect(results is Phase.Loaded) { "query $query gave $results" }
                    }
                }
            }
        }
    }
}
