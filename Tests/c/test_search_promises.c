/*
 * The four search promises (seed 004) through the C ABI, with a host catalog whose provider
 * records requests, holds answers back and ignores cancellation; then the embedded catalog.
 */
#include "harness.h"

#define HOST_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\"}"


/* True when any state the observer received contains text. */
static int any_state_contains(recorder *r, const char *text) {
    for (int i = 0; i < recorder_count(r); i++) {
        const char *state = recorder_state(r, i);
        if (state && strstr(state, text)) return 1;
    }
    return 0;
}

/* Promise 1: keystrokes collapse into one request, for the last query. */
/* Lets the 250 ms debounce elapse, waits for the index-th search request and checks that it
 * asks for query. */
static provider_call debounced_search(fixture *f, int index, const char *query) {
    provider_call call = {0};
    CHECK_STATUS(cinematic_runtime_advance_clock(f->rt, 250), CINEMATIC_OK);
    CHECK(provider_wait(&f->provider, "search", index + 1, 5000));
    CHECK(provider_call_at(&f->provider, "search", index, &call));
    CHECK_STR_EQ(call.query, query);
    return call;
}

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

/* Answers a held search for query (via submitted) with answer; returns the state. */
static char *answer_search(fixture *f, const char *query, const char *answer, int expected_status) {
    int before = provider_count(&f->provider, "search");
    CHECK_STATUS(send_query(f->store, query), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f->store), CINEMATIC_OK);
    CHECK(provider_wait(&f->provider, "search", before + 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f->provider, "search", before, &call));
    CHECK_STR_EQ(call.query, query);
    CHECK_STATUS(cinematic_runtime_respond(f->rt, call.id, answer), expected_status);
    CHECK_STATUS(cinematic_store_settle(f->store, 5000), CINEMATIC_OK);
    return state_of(f->store);
}

/* Promise 4: failures are typed. */
static void test_failures_are_typed(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    char *state = answer_search(&f, "dune", "{\"error\":{\"code\":\"network\",\"message\":\"timed out\"}}", CINEMATIC_OK);
    CHECK_JSON_EQ(state, "query", "dune");
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "network");
    CHECK_JSON_EQ(state, "results.error.message", "timed out");
    cinematic_free(state);

    const char *codes[] = {"notFound", "invalidResponse", "storage", "network"};
    for (int i = 0; i < 4; i++) {
        char answer[256];
        snprintf(answer, sizeof answer, "{\"error\":{\"code\":\"%s\",\"message\":\"m%d\"}}", codes[i], i);
        state = answer_search(&f, i % 2 ? "alien" : "aliens", answer, CINEMATIC_OK);
        CHECK_JSON_EQ(state, "results.phase", "failed");
        CHECK_JSON_EQ(state, "results.error.code", codes[i]);
        char message[256];
        CHECK(json_get(state, "results.error.message", message, sizeof message));
        cinematic_free(state);
    }

    /* A code outside the closed set becomes invalidResponse, naming the code. */
    state = answer_search(&f, "dune", "{\"error\":{\"code\":\"teapot\",\"message\":\"short and stout\"}}", CINEMATIC_OK);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    char message[256];
    CHECK(json_get(state, "results.error.message", message, sizeof message));
    CHECK_STR_CONTAINS(message, "teapot");
    cinematic_free(state);

    /* The store recovers: the next search loads. */
    state = answer_search(&f, "dune", "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984}]}", CINEMATIC_OK);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Answers that cannot be decoded fail the request with invalidResponse (nothing waits
 * forever) and return the decoding status; unknown members in answers are ignored. */
static void test_bad_answers(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    char *state = answer_search(&f, "dune", "{\"movies\":\"nope\"}", CINEMATIC_ERR_INVALID);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);

    state = answer_search(&f, "dune", "{\"movies\":[", CINEMATIC_ERR_JSON);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);

    state = answer_search(&f, "dune", "{\"movies\":[{\"id\":1}]}", CINEMATIC_ERR_INVALID); /* no title */
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);

    state = answer_search(&f, "dune", "{}", CINEMATIC_ERR_INVALID);
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);

    /* Unknown members are ignored; missing movie fields default to 0, [] and null. */
    state = answer_search(&f, "dune",
                          "{\"movies\":[{\"id\":7,\"title\":\"Bare\",\"poster\":\"x.jpg\"}],\"next\":2}",
                          CINEMATIC_OK);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_STR_CONTAINS(state, "{\"id\":7,\"title\":\"Bare\",\"year\":0,\"runtime\":0,\"rating\":0");
    CHECK_JSON_EQ(state, "results.value[0].votes", "0");
    CHECK_JSON_EQ(state, "results.value[0].genres", "[]");
    CHECK_JSON_EQ(state, "results.value[0].mpaa", "null");
    CHECK_STR_LACKS(state, "poster");
    cinematic_free(state);

    /* A full movie round-trips. */
    state = answer_search(&f, "godfather",
                          "{\"movies\":[{\"id\":20545,\"title\":\"The Godfather\",\"year\":1972,\"runtime\":175,"
                          "\"rating\":9.1,\"votes\":122755,\"genres\":[\"Drama\"],\"mpaa\":\"R\"}]}",
                          CINEMATIC_OK);
    CHECK_STR_CONTAINS(state, "{\"id\":20545,\"title\":\"The Godfather\",\"year\":1972,\"runtime\":175,"
                              "\"rating\":9.1,\"votes\":122755,\"genres\":[\"Drama\"],\"mpaa\":\"R\"}");
    cinematic_free(state);
    CHECK_EQ_INT(atomic_load(&f.provider.respond_errors), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* A request made while no provider is registered fails at once with "network". */
static void test_no_provider_fails_with_network(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "network");
    cinematic_free(state);

    /* Registered, then removed with NULL: the same. */
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "aliens"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "network");
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&p, "search"), 1);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
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

/* The embedded catalog: "dune" finds Dune (1984) first. */
static void test_embedded_catalog_finds_dune(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
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
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
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
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
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
    RUN_TEST(test_keystrokes_collapse);
    RUN_TEST(test_query_is_trimmed);
    RUN_TEST(test_short_query_resets);
    RUN_TEST(test_short_query_cancels_request_in_flight);
    RUN_TEST(test_stale_answer_dropped);
    RUN_TEST(test_stale_answer_before_current_dropped);
    RUN_TEST(test_failures_are_typed);
    RUN_TEST(test_bad_answers);
    RUN_TEST(test_no_provider_fails_with_network);
    RUN_TEST(test_configured_debounce);
    RUN_TEST(test_embedded_catalog_finds_dune);
    RUN_TEST(test_embedded_submitted_skips_debounce);
    return TEST_SUMMARY();
}
