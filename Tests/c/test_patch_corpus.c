/*
 * The C host's RFC 6902 applier (examples/c/json_patch.h) passes every case of the corpus all
 * four hosts' appliers share (schema/golden/patches.json): each good patch gives exactly the
 * case's result, each bad one is refused (jp_apply returns 0).
 */
#include "harness.h"
#include "../../examples/c/json_patch.h"

#define CORPUS "schema/golden/patches.json"

static void test_every_case_of_the_shared_corpus(void) {
    json_error_t error;
    json_t *corpus = json_load_file(CORPUS, 0, &error);
    if (!CHECK_MSG(corpus != NULL, "cannot read %s (run from the repository root): %s", CORPUS, error.text)) return;
    json_t *cases = json_object_get(corpus, "cases"), *item;
    size_t index;
    int good = 0, bad = 0;
    json_array_foreach(cases, index, item) {
        const char *name = json_string_value(json_object_get(item, "name"));
        json_t *doc = json_deep_copy(json_object_get(item, "doc")), *result = json_object_get(item, "result");
        int applied = jp_apply(&doc, json_object_get(item, "patch"));
        if (result) {
            good++;
            CHECK_MSG(applied && json_equal(doc, result), "%s: %s", name, applied ? "a different document" : "refused");
        } else {
            bad++;
            CHECK_MSG(!applied, "%s: applied, but the corpus says it must be refused", name);
        }
        json_decref(doc);
    }
    CHECK_MSG(good >= 15 && bad >= 15, "%d good and %d bad cases", good, bad);
    json_decref(corpus);
}

int main(void) {
    RUN_TEST(test_every_case_of_the_shared_corpus);
    return TEST_SUMMARY();
}
