/*
 * The fourth search promise (seed 004) through the C ABI: failures are typed. A provider's
 * errors keep their code, answers that cannot be decoded fail the request with
 * invalidResponse, and a request with no provider registered fails with "network".
 */
#include "harness.h"

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


int main(void) {
    RUN_TEST(test_failures_are_typed);
    RUN_TEST(test_bad_answers);
    RUN_TEST(test_no_provider_fails_with_network);
    return TEST_SUMMARY();
}
