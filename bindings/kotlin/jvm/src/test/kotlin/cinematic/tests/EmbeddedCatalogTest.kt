package cinematic.tests

import cinematic.*

/** Search against the built-in catalog (a manual clock keeps the debounce exact). */
object EmbeddedCatalogTest : Suite("embedded catalog") {
    private const val MANUAL = """{"clock":"manual"}"""

    init {
        test("an index built from a movie file of your own is opened by path; the catalog says it is loaded") {
            val dir = java.nio.file.Files.createTempDirectory("cinematic-index").toFile()
            try {
                val header = "id\ttitle\tyear\tlength\tbudget\trating\tvotes\t" + (1..10).joinToString("\t") { "r$it" } + "\tmpaa\tgenres\n"
                fun film(id: Int, title: String, votes: Int) =
                    "$id\t$title\t1999\t100\t\t7.5\t$votes\t" + List(10) { "4.5" }.joinToString("\t") + "\tPG\tDrama\n"
                val movies = java.io.File(dir, "movies.tsv").apply { writeText(header + film(1, "Matrix, The", 1000) + film(2, "Zardoz", 50)) }
                val index = java.io.File(dir, "movies.idx")
                Cinematic.buildIndex(movies.path, index.path)
                withRuntime("""{"clock":"manual","catalog":{"path":"${index.path}"}}""") { runtime ->
                    runtime.openSearch().use { search ->
                        search.queryChanged("zardos")
                        search.submitted()
                        search.settle(30_000)
                        expectEqual("Zardoz", search.state.movies.firstOrNull()?.title, "first title")
                    }
                    expectEqual("""{"phase":"loaded"}""", runtime.catalogStateJson(), "catalog state")
                }
                java.io.File(dir, "bad.tsv").writeText(header + "1\tBroken\n")
                val error = runCatching { Cinematic.buildIndex(java.io.File(dir, "bad.tsv").path, java.io.File(dir, "bad.idx").path) }.exceptionOrNull()
                expect(error is CinematicException && error.message.contains("line 2")) { "expected an io error naming line 2: $error" }
                expect(!java.io.File(dir, "bad.idx").exists()) { "a failed build left bad.idx" }
            } finally {
                dir.deleteRecursively()
            }
        }

        test("\"dune\" finds Dune (1984) first") {
            withRuntime(MANUAL) { runtime ->
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(30_000)
                    val movies = search.state.movies
                    expect(movies.isNotEmpty()) { "no movies: ${search.state}" }
                    expectEqual("Dune", movies[0].title, "first title")
                    expectEqual(1984, movies[0].year, "first year")
                    expect(movies.size <= 20) { "more than one page: ${movies.size}" }
                }
            }
        }

        test("submitted searches at once; titles carry their article in front") {
            withRuntime(MANUAL) { runtime ->
                runtime.openSearch().use { search ->
                    search.queryChanged("godfather")
                    search.submitted()
                    search.settle(30_000)
                    val movies = search.state.movies
                    expect(movies.any { it.title == "The Godfather" && it.year == 1972 }) { "no The Godfather (1972) in $movies" }
                }
            }
        }

        test("search operators in user text are plain text") {
            withRuntime(MANUAL) { runtime ->
                runtime.openSearch().use { search ->
                    for (query in listOf("\"dune", "dune* OR star", "NEAR(a b)", "st:ar -wars")) {
                        search.queryChanged(query)
                        search.submitted()
                        search.settle(30_000)
                        val results = search.state.phase
                        expect(results is Phase.Loaded) { "query $query gave $results" }
                    }
                }
            }
        }
    }
}
