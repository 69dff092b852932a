/*
 * Detail through the C ABI: the embedded catalog, its arguments, loading and failures, and a
 * host catalog ({"op":"movie"}); then the internal intents (effect results) a host may not
 * send to Discover, Detail or Favorites. Favorites (and Detail's heart) are in
 * test_favorites.c.
 */
#include "harness.h"

/* Checks that the value at path is an array of 10 numbers, each a share in 0...100. */
static void check_distribution(const char *state, const char *path) {
    CHECK_EQ_INT(json_array_len(state, path), 10);
    int bad = -1;
    for (int k = 0; k < 10; k++) {
        char p[128];
        snprintf(p, sizeof p, "%s[%d]", path, k);
        double share = json_double(state, p, -1);
        if (share < 0 || share > 100) bad = k;
    }
    CHECK_MSG(bad < 0, "ratingDistribution[%d] is not a number in 0...100", bad);
}

static void test_detail_embedded(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_feature(rt, "detail", "{\"movieId\":15249}");
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "movieId", "15249");
    CHECK_JSON_EQ(state, "detail.phase", "idle");
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    state = wait_json_eq(store, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_JSON_EQ(state, "detail.value.id", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.year", "1984");
    CHECK_JSON_EQ(state, "detail.value.budget", "45000000");
    CHECK_JSON_EQ(state, "detail.value.genres", "[\"Action\"]");
    check_distribution(state, "detail.value.ratingDistribution");
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);

    /* An unknown id fails with notFound. */
    cinematic_store *missing = open_feature(rt, "detail", "{\"movieId\":999999}");
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"task\"}"), CINEMATIC_OK);
    state = wait_json_eq(missing, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "movieId", "999999");
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "notFound");
    char message[256] = "";
    CHECK(json_get(state, "detail.error.message", message, sizeof message) && message[0] != '\0');
    cinematic_free(state);
    /* Toggling an unloaded movie is ignored. */
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = state_of(missing);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_detail_args_invalid(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    struct {
        const char *args;
        const char *path;
    } cases[] = {
        {NULL, NULL},                                  /* missing args */
        {"{}", "\"path\":\"$.movieId\""},             /* missing member */
        {"{\"movieId\":\"x\"}", "\"path\":\"$.movieId\""},
        {"{\"movieId\":1,\"extra\":2}", "\"path\":\"$.extra\""},
        {"{\"movieId\":null}", "\"path\":\"$.movieId\""},
        {"{\"movieId\":1.5}", "\"path\":\"$.movieId\""},
        {"{\"movie_id\":15249}", "\"path\":\"$.movie_id\""}, /* 0.1.0's spelling */
        {"[15249]", NULL},
        {"15249", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cinematic_store *store = (cinematic_store *)0x1;
        CHECK_STATUS(cinematic_store_open(rt, "detail", cases[i].args, &store), CINEMATIC_ERR_INVALID);
        CHECK_MSG(store == NULL, "case %zu (%s): out not set to NULL", i, cases[i].args ? cases[i].args : "NULL");
        if (cases[i].path) CHECK_ENVELOPE_CONTAINS(cases[i].path);
    }
    /* Malformed args are a JSON error. */
    cinematic_store *store = (cinematic_store *)0x1;
    CHECK_STATUS(cinematic_store_open(rt, "detail", "{\"movieId\":", &store), CINEMATIC_ERR_JSON);
    CHECK(store == NULL);
    /* The runtime keeps working: a valid open succeeds. */
    store = open_feature(rt, "detail", "{\"movieId\":1}");
    CHECK(store != NULL);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The detail of a host catalog: requested with {"op":"movie","id":N}. */
static void test_detail_host_catalog(void) {
    fixture f;
    fixture_open(&f, "{\"catalog\":\"host\"}", PROVIDER_HOLD, "detail", "{\"movieId\":15249}");
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "movie", 0, &call));
    CHECK_JSON_EQ(call.json, "op", "movie");
    CHECK_JSON_EQ(call.json, "id", "15249");
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "detail.phase", "loading");
    cinematic_free(state);
    /* Ignored until the movie has loaded. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    cinematic_free(state);

    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id,
                     "{\"movie\":{\"id\":15249,\"title\":\"Dune\",\"year\":1984,\"runtime\":137,\"rating\":6.5,"
                     "\"votes\":1200,\"genres\":[\"Action\"],\"mpaa\":\"PG-13\",\"budget\":null,"
                     "\"ratingDistribution\":[1,2,3,4,5,6,7,8,9,55],\"tagline\":\"ignored\"}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(f.store, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_JSON_EQ(state, "detail.value.id", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.runtime", "137");
    CHECK_JSON_EQ(state, "detail.value.mpaa", "PG-13");
    CHECK_JSON_EQ(state, "detail.value.budget", "null");
    check_distribution(state, "detail.value.ratingDistribution");
    CHECK(json_double(state, "detail.value.ratingDistribution[0]", -1) == 1);
    CHECK(json_double(state, "detail.value.ratingDistribution[8]", -1) == 9);
    CHECK(json_double(state, "detail.value.ratingDistribution[9]", -1) == 55);
    CHECK_STR_LACKS(state, "tagline");
    cinematic_free(state);

    /* An error answer: failed with that code and message. */
    cinematic_store *missing = open_feature(f.rt, "detail", "{\"movieId\":424242}");
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 2, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 1, &call));
    CHECK_JSON_EQ(call.json, "id", "424242");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"error\":{\"code\":\"notFound\",\"message\":\"no such movie\"}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(missing, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "notFound");
    /* notFound carries the library's own message (the host's is not kept, as for search). */
    char message[256] = "";
    CHECK(json_get(state, "detail.error.message", message, sizeof message) && message[0] != '\0');
    cinematic_free(state);

    /* A list answer to a movie request cannot be decoded: invalid, and the detail fails with
     * invalidResponse (nothing waits forever). */
    cinematic_store *wrong = open_feature(f.rt, "detail", "{\"movieId\":7}");
    CHECK_STATUS(cinematic_store_send(wrong, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 3, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 2, &call));
    CHECK_JSON_EQ(call.json, "id", "7");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    state = wait_json_eq(wrong, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "invalidResponse");
    cinematic_free(state);
    /* task retries a failed detail. */
    CHECK_STATUS(cinematic_store_send(wrong, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 4, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 3, &call));
    CHECK_JSON_EQ(call.json, "id", "7");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movie\":{\"id\":7,\"title\":\"Seven\",\"budget\":1000,"
                                                          "\"ratingDistribution\":[0,0,0,0,0,0,0,0,0,100]}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(wrong, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.value.title", "Seven");
    CHECK_JSON_EQ(state, "detail.value.budget", "1000");
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* ------------------------------------------------------------------------------------ */
/* Internal intents                                                                      */

/* Checks that sending each of intents is CINEMATIC_ERR_INVALID naming $.type, and changes
 * nothing. */
static void check_internal_rejected(cinematic_store *store, const char *const *intents, size_t n) {
    char *before = state_of(store);
    for (size_t i = 0; i < n; i++) {
        int rc = cinematic_store_send(store, intents[i]);
        const char *envelope = cinematic_last_error();
        h_check_status(rc, envelope, CINEMATIC_ERR_INVALID, intents[i], __FILE__, __LINE__);
        CHECK_ENVELOPE_CONTAINS("\"path\":\"$.type\"");
    }
    char *after = state_of(store);
    CHECK_STR_EQ(after, before);
    cinematic_free(after);
    cinematic_free(before);
}

static void test_internal_intents_invalid(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *discover = open_feature(rt, "discover", NULL);
    const char *const discover_intents[] = {
        "{\"type\":\"sectionLoaded\"}",
        "{\"type\":\"sectionFailed\"}",
        "{\"type\":\"sectionLoaded\",\"section\":\"popular\",\"page\":1,\"movies\":[]}",
        "{\"type\":\"sectionFailed\",\"section\":\"popular\",\"page\":1,"
        "\"error\":{\"code\":\"network\",\"message\":\"x\"}}",
    };
    check_internal_rejected(discover, discover_intents, sizeof discover_intents / sizeof *discover_intents);
    CHECK_EQ_INT(pending(discover), 0);

    cinematic_store *detail = open_feature(rt, "detail", "{\"movieId\":15249}");
    const char *const detail_intents[] = {
        "{\"type\":\"detailLoaded\"}",
        "{\"type\":\"detailFailed\"}",
        "{\"type\":\"favoritesChanged\"}",
        "{\"type\":\"favoriteSaved\"}",
        "{\"type\":\"favoriteSaveFailed\"}",
        "{\"type\":\"detailLoaded\",\"detail\":{\"id\":15249,\"title\":\"Fake\"}}",
        "{\"type\":\"detailFailed\",\"error\":{\"code\":\"notFound\",\"message\":\"x\"}}",
        "{\"type\":\"favoritesChanged\",\"favorites\":[]}",
        "{\"type\":\"favoriteSaved\",\"isFavorite\":true}",
        "{\"type\":\"favoriteSaveFailed\",\"error\":{\"code\":\"storage\",\"message\":\"x\"}}",
    };
    check_internal_rejected(detail, detail_intents, sizeof detail_intents / sizeof *detail_intents);
    CHECK_EQ_INT(pending(detail), 0);

    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    const char *const favorites_intents[] = {
        "{\"type\":\"favoritesChanged\"}",
        "{\"type\":\"removalFailed\"}",
        "{\"type\":\"favoritesChanged\",\"favorites\":[{\"id\":1,\"title\":\"Fake\"}]}",
        "{\"type\":\"removalFailed\",\"error\":{\"code\":\"storage\",\"message\":\"x\"}}",
    };
    check_internal_rejected(favorites, favorites_intents, sizeof favorites_intents / sizeof *favorites_intents);
    CHECK_EQ_INT(pending(favorites), 0);

    /* Intents of another feature are unknown here. */
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"refresh\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_ERR_INVALID);
    /* Unknown members of host intents are invalid too. */
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\",\"force\":true}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.force\"");
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":\"15249\"}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.movieId\"");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_detail_embedded);
    RUN_TEST(test_detail_args_invalid);
    RUN_TEST(test_detail_host_catalog);
    RUN_TEST(test_internal_intents_invalid);
    return TEST_SUMMARY();
}
