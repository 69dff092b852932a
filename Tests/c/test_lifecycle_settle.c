/*
 * Lifecycle: double close, settle timeouts, a settle that waits for an answer from another
 * thread, pending effect counts, and many runtimes and stores opened and closed.
 */
#include "harness.h"

#include <unistd.h>

static void test_double_close(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
    CHECK_ENVELOPE_CONTAINS("store");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    CHECK_ENVELOPE_CONTAINS("runtime");
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
}

static void test_settle_timeout(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(cinematic_store_settle(f.store, 0), CINEMATIC_OK); /* nothing in flight */
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    long long start = h_now_ms();
    CHECK_STATUS(cinematic_store_settle(f.store, 50), CINEMATIC_ERR_TIMEOUT);
    long long elapsed = h_now_ms() - start;
    CHECK_MSG(elapsed >= 45 && elapsed < 2000, "settle(50) took %lld ms", elapsed);
    CHECK_ENVELOPE_CONTAINS("\"status\":\"timeout\"");
    CHECK_STATUS(cinematic_store_settle(f.store, 0), CINEMATIC_ERR_TIMEOUT);
    CHECK_EQ_INT(pending(f.store), 1); /* a timeout changes nothing */
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    /* Advance, then wait without limit. */
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, -1), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 0);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_settle(f.store, -1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, INT32_MIN), CINEMATIC_OK);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

/* A host answers from another thread while the test waits in settle(-1). */
typedef struct {
    fixture *f;
} answerer_arg;

static void *answerer_main(void *arg) {
    answerer_arg *a = arg;
    if (!provider_wait(&a->f->provider, "search", 1, 5000)) return NULL;
    provider_call call = {0};
    provider_call_at(&a->f->provider, "search", 0, &call);
    CHECK_EQ_INT(cinematic_runtime_respond(a->f->rt, call.id, "{\"movies\":[{\"id\":3,\"title\":\"Async\"}]}"),
                 CINEMATIC_OK);
    return NULL;
}

static void test_settle_waits_for_answer_from_another_thread(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    answerer_arg a = {&f};
    pthread_t thread;
    pthread_create(&thread, NULL, answerer_main, &a);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, -1), CINEMATIC_OK);
    pthread_join(thread, NULL);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.value[0].title", "Async");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

static void test_pending_effects_counts(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(send_query(f.store, "dunes"), CINEMATIC_OK); /* replaces, no duplicate work */
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(send_query(f.store, "dunes"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(send_query(f.store, "d"), CINEMATIC_OK); /* cancels */
    CHECK_EQ_INT(pending(f.store), 0);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK); /* the request replaces the debounce */
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK(provider_wait(&f.provider, "search", 1, 5000));
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK); /* a new request replaces the first */
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK(provider_wait(&f.provider, "search", 2, 5000));
    CHECK_EQ_INT(pending(f.store), 1);
    /* The advance wakes nothing: the debounce was replaced by the requests. */
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 20), CINEMATIC_ERR_TIMEOUT);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 2);
    provider_call first = {0}, second = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &first));
    CHECK(provider_call_at(&f.provider, "search", 1, &second));
    CHECK_STATUS(cinematic_runtime_respond(f.rt, first.id, "{\"movies\":[]}"), CINEMATIC_OK); /* stale */
    CHECK_EQ_INT(pending(f.store), 1);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, second.id, "{\"movies\":[]}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 0);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

/* Opening and closing many runtimes and stores leaves everything working. */
static void test_open_close_cycles(void) {
    for (int i = 0; i < 200; i++) {
        cinematic_runtime *rt = NULL;
        int rc = cinematic_runtime_open(i % 2 ? QUEUED_CONFIG : HOST_CONFIG, &rt);
        if (rc != CINEMATIC_OK) { CHECK_EQ_INT(rc, CINEMATIC_OK); break; }
        cinematic_store *store = NULL;
        rc = cinematic_store_open(rt, "search", NULL, &store);
        if (rc != CINEMATIC_OK) { CHECK_EQ_INT(rc, CINEMATIC_OK); break; }
        send_query(store, "dune");
        if (i % 3 == 0) cinematic_store_close(store);
        rc = cinematic_runtime_close(rt);
        if (rc != CINEMATIC_OK) { CHECK_EQ_INT(rc, CINEMATIC_OK); break; }
    }
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

int main(void) {
    RUN_TEST(test_double_close);
    RUN_TEST(test_settle_timeout);
    RUN_TEST(test_settle_waits_for_answer_from_another_thread);
    RUN_TEST(test_pending_effects_counts);
    RUN_TEST(test_open_close_cycles);
    return TEST_SUMMARY();
}
