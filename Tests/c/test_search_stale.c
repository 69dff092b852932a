/*
 * The third search promise (seed 004) through the C ABI: a stale answer is dropped, whether
 * it arrives after the current one or while the current request is in flight, with a host
 * catalog whose provider holds answers back and ignores cancellation.
 */
#include "search_promises.h"

/* Promise 3: a stale answer that arrives after the current one is dropped. */
static void test_stale_answer_dropped(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    provider_call du = debounced_search(&f, 0, "du");

    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", du.id));
    /* Cancelling du's request is silent: the screen keeps "loading" until dune's turn. */
    CHECK_STATUS(cinematic_store_settle(f.store, 20), CINEMATIC_ERR_TIMEOUT); /* dune's debounce */
    char *waiting = state_of(f.store);
    CHECK_STR_EQ(waiting, "{\"query\":\"dune\",\"results\":{\"phase\":\"loading\",\"query\":\"du\"}" SEARCH_FIRST_PAGE_FLAGS);
    cinematic_free(waiting);
    provider_call dune = debounced_search(&f, 1, "dune");
    CHECK(dune.id != du.id);

    /* dune's answer first... */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, dune.id,
                     "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984},"
                     "{\"id\":15251,\"title\":\"Dune Warriors\",\"year\":1990}]}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    char *shown = state_of(f.store);
    CHECK_JSON_EQ(shown, "query", "dune");
    CHECK_JSON_EQ(shown, "results.phase", "loaded");
    CHECK_EQ_INT(json_array_len(shown, "results.value"), 2);
    CHECK_JSON_EQ(shown, "results.value[0].title", "Dune");
    CHECK_JSON_EQ(shown, "results.value[0].year", "1984");
    int delivered = recorder_count(&f.states);

    /* ...then the late "du" answer: accepted, dropped. */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, du.id,
                     "{\"movies\":[{\"id\":15235,\"title\":\"Dumb & Dumber\",\"year\":1994}]}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    h_sleep_ms(50); /* settle does not wait for cancelled effects: give a wrong delivery time */
    char *after = state_of(f.store);
    CHECK_STR_EQ(after, shown);
    CHECK_STR_LACKS(after, "Dumb & Dumber");
    CHECK(!any_state_contains(&f.states, "Dumb & Dumber"));
    CHECK_EQ_INT(recorder_count(&f.states), delivered);
    cinematic_free(after);
    cinematic_free(shown);

    /* A second answer to an answered request is dropped as well; a never-issued id is not. */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, dune.id, "{\"movies\":[]}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, 987654321, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("987654321");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, 0, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    char *final_state = state_of(f.store);
    CHECK_JSON_EQ(final_state, "results.value[0].title", "Dune");
    CHECK_EQ_INT(json_array_len(final_state, "results.value"), 2);
    cinematic_free(final_state);
    /* Only the replaced request was cancelled, and no state ever showed a failure. */
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 1);
    CHECK(!any_state_contains(&f.states, "failed"));
    CHECK(!provider_has(&f.provider, "cancel", dune.id));
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Promise 3, other order: the stale answer arrives while the current request is in flight. */
static void test_stale_answer_before_current_dropped(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK); /* no debounce */
    CHECK(provider_wait(&f.provider, "search", 1, 5000));
    provider_call du = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &du));
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 2, 5000));
    provider_call dune = {0};
    CHECK(provider_call_at(&f.provider, "search", 1, &dune));
    CHECK_STR_EQ(dune.query, "dune");
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", du.id));

    CHECK_STATUS(cinematic_runtime_respond(f.rt, du.id, "{\"movies\":[{\"id\":9,\"title\":\"Stale\"}]}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 50), CINEMATIC_ERR_TIMEOUT); /* dune still held */
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "query", "dune");
    CHECK_JSON_EQ(state, "results.phase", "loading");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, dune.id, "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984}]}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);
    CHECK(!any_state_contains(&f.states, "Stale"));
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}


int main(void) {
    RUN_TEST(test_stale_answer_dropped);
    RUN_TEST(test_stale_answer_before_current_dropped);
    return TEST_SUMMARY();
}
