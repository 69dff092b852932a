/*
 * The first two search promises (seed 004) through the C ABI, with a host catalog whose
 * provider records requests, holds answers back and ignores cancellation: keystrokes collapse
 * into one request after the (configured) debounce, and a short query resets at once and
 * cancels the pending search. Stale answers: test_search_stale.c; failures:
 * test_search_failures.c; the embedded catalog: test_search_embedded.c.
 */
#include "search_promises.h"

/* Promise 1: keystrokes collapse into one request, for the last query. */
static void test_keystrokes_collapse(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    const char *typed[] = {"v", "vo", "voy", "voya", "voyag", "voyage"};
    for (int i = 0; i < 6; i++) {
        CHECK_STATUS(send_query(f.store, typed[i]), CINEMATIC_OK);
        char *state = state_of(f.store); /* send reduces before returning */
        CHECK_JSON_EQ(state, "query", typed[i]);
        CHECK_JSON_EQ(state, "results.phase", "idle");
        cinematic_free(state);
        CHECK_EQ_INT(pending(f.store), i == 0 ? 0 : 1); /* one debounce, replaced each time */
    }
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 249), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 50), CINEMATIC_ERR_TIMEOUT); /* not yet */
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);

    CHECK_EQ_INT(provider_count(&f.provider, "search"), 1);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    CHECK_STR_EQ(call.query, "voyage");
    CHECK_JSON_EQ(call.json, "op", "search");
    CHECK_JSON_EQ(call.json, "page", "1");
    CHECK(call.id != 0);

    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "query", "voyage");
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_EQ_INT(json_array_len(state, "results.value"), 1);
    CHECK_JSON_EQ(state, "results.value[0].title", "voyage"); /* the AUTO answer echoes the query */
    /* The observer saw the last state too (settle waits for delivery with "immediate"). */
    CHECK_STR_EQ(recorder_state(&f.states, -1), state);
    cinematic_free(state);
    CHECK_EQ_INT(pending(f.store), 0);

    /* Advancing further starts nothing new. */
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 10000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 1);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* The query is trimmed before it is searched; whitespace does not make a query searchable. */
static void test_query_is_trimmed(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(send_query(f.store, "   d  "), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK_STATUS(send_query(f.store, "  du\\t"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    CHECK_STR_EQ(call.query, "du");
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "query", "  du\\t"); /* the state keeps the query as typed */
    cinematic_free(state);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Promise 2: a short query resets at once and cancels the pending search. */
static void test_short_query_resets(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(send_query(f.store, "d"), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_STR_EQ(state, "{\"query\":\"d\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    cinematic_free(state);
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    /* With the AUTO provider a wrongly surviving debounce would answer and settle at once. */
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    state = state_of(f.store);
    CHECK_STR_EQ(state, "{\"query\":\"d\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    cinematic_free(state);
    /* An empty query too. */
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, ""), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    /* "submitted" with a short query stays idle and asks nothing. */
    CHECK_STATUS(send_query(f.store, "x"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "idle");
    cinematic_free(state);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Promise 2 with the request already in flight: idle at once, a cancel for it, and its late
 * answer is dropped. */
static void test_short_query_cancels_request_in_flight(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    provider_call du = debounced_search(&f, 0, "du");
    CHECK_STATUS(cinematic_store_settle(f.store, 20), CINEMATIC_ERR_TIMEOUT); /* held */
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loading");
    cinematic_free(state);

    CHECK_STATUS(send_query(f.store, "d"), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_STR_EQ(state, "{\"query\":\"d\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    cinematic_free(state);
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", du.id));

    char answer[256];
    movies_answer(answer, sizeof answer, 2, "Late du", 1999);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, du.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    /* A cancelled effect is not waited for by settle: give a wrongly delivered late answer
     * the chance to show up. */
    h_sleep_ms(50);
    state = state_of(f.store);
    CHECK_STR_EQ(state, "{\"query\":\"d\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    cinematic_free(state);
    CHECK(!any_state_contains(&f.states, "Late du"));
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}


/* The debounce comes from the runtime config. */
static void test_configured_debounce(void) {
    fixture f;
    fixture_open(&f, "{\"clock\":\"manual\",\"catalog\":\"host\",\"search\":{\"debounceMs\":1000}}", PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 999), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 30), CINEMATIC_ERR_TIMEOUT);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 1);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);

    fixture_open(&f, "{\"clock\":\"manual\",\"catalog\":\"host\",\"search\":{\"debounceMs\":0}}", PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK); /* no clock needed */
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 1);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    cinematic_free(state);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

int main(void) {
    RUN_TEST(test_keystrokes_collapse);
    RUN_TEST(test_query_is_trimmed);
    RUN_TEST(test_short_query_resets);
    RUN_TEST(test_short_query_cancels_request_in_flight);
    RUN_TEST(test_configured_debounce);
    return TEST_SUMMARY();
}
