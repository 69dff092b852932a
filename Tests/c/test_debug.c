/*
 * Debugging through the C ABI: the bounded history and time travel (off by default). The
 * readable log: test_debug_log.c; record and replay: test_debug_replay.c and
 * test_debug_sessions.c.
 */
#include "harness.h"

static void test_history_is_bounded_and_numbered(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":100}");
    cinematic_store *store = open_search(rt);
    char query[32];
    for (int i = 1; i <= 10000; i++) {
        snprintf(query, sizeof query, "q%d", i);
        CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
    }
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &r), CINEMATIC_OK);
    char *history = NULL;
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    h_wire_log("history", NULL, history); /* validated against the schema after the suite */
    CHECK_EQ_INT(json_array_len(history, ""), 100);
    CHECK_JSON_EQ(history, "[0].seq", "9901");
    CHECK_JSON_EQ(history, "[0].intent.type", "queryChanged");
    CHECK_JSON_EQ(history, "[0].intent.query", "q9901");
    CHECK_JSON_EQ(history, "[0].state.query", "q9901");
    CHECK_JSON_EQ(history, "[0].changed[0]", "query");
    CHECK_JSON_EQ(history, "[99].seq", "10000");
    CHECK_JSON_EQ(history, "[99].state.query", "q10000");
    cinematic_free(history);

    /* Revert notifies the state callback like any other state. */
    int before = recorder_count(&r);
    CHECK_STATUS(cinematic_store_revert(store, 9950), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "q9950");
    cinematic_free(state);
    CHECK_EQ_INT(recorder_count(&r), before + 1);
    CHECK_JSON_EQ(recorder_state(&r, recorder_count(&r) - 1), "query", "q9950");

    /* Entries that dropped out, or never existed, are refused and change nothing. */
    CHECK_STATUS(cinematic_store_revert(store, 9900), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("no history entry 9900");
    CHECK_STATUS(cinematic_store_revert(store, 10001), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_revert(store, 0), CINEMATIC_ERR_INVALID);
    state = state_of(store);
    CHECK_JSON_EQ(state, "query", "q9950");
    cinematic_free(state);
    CHECK_EQ_INT(recorder_count(&r), before + 1);

    /* Time travel is not an intent: the history is unchanged, and numbering goes on. */
    CHECK_STATUS(send_query(store, "next"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    CHECK_JSON_EQ(history, "[99].seq", "10001");
    CHECK_JSON_EQ(history, "[99].state.query", "next");
    cinematic_free(history);

    CHECK_STATUS(cinematic_store_history(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_history(NULL, &history), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_revert(store, 10001), CINEMATIC_ERR_CLOSED);
    recorder_destroy(&r);
    cinematic_runtime_close(rt);
}

static void test_history_off_by_default(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    char *history = NULL;
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    CHECK_STR_EQ(history, "[]");
    cinematic_free(history);
    CHECK_STATUS(cinematic_store_revert(store, 1), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("keeps no history");
    cinematic_runtime_close(rt);

    cinematic_runtime *bad = NULL;
    CHECK_STATUS(cinematic_runtime_open("{\"history\":-1}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"history\":100001}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"history\":\"10\"}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"record\":\"\"}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"record\":\"/nonexistent-dir/x.jsonl\"}", &bad), CINEMATIC_ERR_IO);
    CHECK(bad == NULL);
}


int main(void) {
    RUN_TEST(test_history_is_bounded_and_numbered);
    RUN_TEST(test_history_off_by_default);
    return TEST_SUMMARY();
}
