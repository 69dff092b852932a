package cinematic.tests

import cinematic.*
import java.io.File

/**
 * The binding's RFC 6902 applier ([JsonPatch]) passes every case of the corpus all four hosts'
 * appliers share (schema/golden/patches.json): each good patch gives exactly the case's
 * result, each bad one throws [PatchException], and the input is never written to.
 */
object PatchCorpusTest : Suite("patch corpus") {
    private val root = File(System.getProperty("cinematic.root") ?: ".")

    init {
        test("every case of the shared corpus") {
            val corpus = Json.parse(File(root, "schema/golden/patches.json").readText()) as Map<*, *>
            val cases = corpus["cases"] as List<*>
            var good = 0
            var bad = 0
            for (item in cases) {
                val case = item as Map<*, *>
                val name = case["name"]
                val doc = case["doc"]
                val before = Json.write(doc)
                val applied = try { Result.success<Any?>(JsonPatch.apply(doc, case["patch"] as List<*>)) } catch (e: PatchException) { Result.failure<Any?>(e) }
                if (case.containsKey("result")) {
                    good++
                    expect(applied.isSuccess) { "$name: refused (${applied.exceptionOrNull()?.message})" }
                    expect(applied.getOrNull() == case["result"]) { "$name: ${Json.write(applied.getOrNull())}, not ${Json.write(case["result"])}" }
                } else {
                    bad++
                    expect(applied.isFailure) { "$name: applied, but the corpus says it must be refused" }
                }
                expectEqual(before, Json.write(doc), "$name: the input after the patch")
            }
            expect(good >= 15 && bad >= 15) { "$good good and $bad bad cases" }
        }
    }
}
