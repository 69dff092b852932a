/*
 * Search on the embedded catalog through the C ABI: "dune" finds Dune (1984) first,
 * "submitted" skips the debounce, and the results name their query and page on.
 */
#include "harness.h"

/* The embedded catalog: "dune" finds Dune (1984) first. */
static void test_embedded_catalog_finds_dune(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "dune");
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    CHECK_JSON_EQ(state, "results.value[0].year", "1984");
    int count = json_array_len(state, "results.value");
    CHECK(count >= 1 && count <= 20);
    cinematic_free(state);

    /* Titles carry their article in front; 20 movies per page at most. */
    CHECK_STATUS(send_query(store, "godfather"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_STR_CONTAINS(state, "{\"id\":20545,\"title\":\"The Godfather\",\"year\":1972,\"runtime\":175,"
                              "\"rating\":9.1,\"votes\":122755,\"genres\":[\"Drama\"],\"mpaa\":null}");
    cinematic_free(state);
    CHECK_STATUS(send_query(store, "the"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_EQ_INT(json_array_len(state, "results.value"), 20);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* "submitted" skips the debounce. */
static void test_embedded_submitted_skips_debounce(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 30), CINEMATIC_ERR_TIMEOUT); /* debounce waits */
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "idle");
    cinematic_free(state);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    state = state_of(store);
    /* Reduced before send returned: loading, or already loaded (the embedded catalog may
     * answer before send returns); never idle. */
    char phase[32];
    CHECK(json_get(state, "results.phase", phase, sizeof phase) &&
          (strcmp(phase, "loading") == 0 || strcmp(phase, "loaded") == 0));
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK); /* clock never advanced */
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    CHECK_JSON_EQ(state, "results.value[0].year", "1984");
    cinematic_free(state);
    int count = -1;
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The results say which query they answer, so a host can tell results for an older query;
   loadMore appends the next 20, with no overlap, and a new search starts from page 1. */
static void test_results_name_their_query_and_page_on(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(send_query(search, "love"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK);
    char *state = state_of(search);
    CHECK_JSON_EQ(state, "results.query", "love");
    CHECK_EQ_INT(json_array_len(state, "results.value"), 20);
    CHECK_JSON_EQ(state, "pagesLoaded", "1");
    char first[32];
    CHECK(json_get(state, "results.value[0].id", first, sizeof first));
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK);
    state = state_of(search);
    CHECK_EQ_INT(json_array_len(state, "results.value"), 40);
    CHECK_JSON_EQ(state, "pagesLoaded", "2");
    CHECK_JSON_EQ(state, "isLoadingMore", "false");
    CHECK_JSON_EQ(state, "results.value[0].id", first);
    int repeated = 0;
    for (int i = 0; i < 40; i++) {
        for (int j = 0; j < i; j++) {
            char a[32], b[32], pa[64], pb[64];
            snprintf(pa, sizeof pa, "results.value[%d].id", i);
            snprintf(pb, sizeof pb, "results.value[%d].id", j);
            if (json_get(state, pa, a, sizeof a) && json_get(state, pb, b, sizeof b) && strcmp(a, b) == 0) repeated++;
        }
    }
    CHECK_EQ_INT(repeated, 0);
    cinematic_free(state);

    /* Typing on: the state's query moves ahead; the shown results still name "love". */
    CHECK_STATUS(send_query(search, "lovely"), CINEMATIC_OK);
    state = state_of(search);
    CHECK_JSON_EQ(state, "query", "lovely");
    CHECK_JSON_EQ(state, "results.query", "love");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK);
    state = state_of(search);
    CHECK_JSON_EQ(state, "results.query", "lovely");
    CHECK_JSON_EQ(state, "pagesLoaded", "1");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}


int main(void) {
    RUN_TEST(test_results_name_their_query_and_page_on);
    RUN_TEST(test_embedded_catalog_finds_dune);
    RUN_TEST(test_embedded_submitted_skips_debounce);
    return TEST_SUMMARY();
}
