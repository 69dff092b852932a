/*
 * Bad calls get a status and an envelope, never a crash: NULL and foreign handles, NULL
 * required pointers, closed handles (from every function), functions used in a mode that
 * does not allow them, and out-pointers reset on failure.
 */
#include "bad_input.h"

/* NULL handles, foreign handles, NULL required pointers. */
static void test_null_and_foreign_handles(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    int value = 0;
    char *json = NULL;
    cinematic_store *out = NULL;

    /* NULL handles. */
    CHECK_STATUS(cinematic_runtime_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_fd(NULL, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_advance_clock(NULL, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_set_provider(NULL, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(NULL, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_open(NULL, "search", NULL, &out), CINEMATIC_ERR_MISUSE);
    CHECK(out == NULL);
    CHECK_STATUS(cinematic_store_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(NULL, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(NULL, &json), CINEMATIC_ERR_MISUSE);
    CHECK(json == NULL);
    CHECK_STATUS(cinematic_store_observe(NULL, recorder_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_settle(NULL, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(NULL, &value), CINEMATIC_ERR_MISUSE);

    /* NULL required pointers. */
    CHECK_STATUS(cinematic_runtime_fd(rt, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(store, NULL), CINEMATIC_ERR_MISUSE);

    /* A store where a runtime is expected and the other way round. */
    cinematic_runtime *store_as_rt = (cinematic_runtime *)(void *)store;
    cinematic_store *rt_as_store = (cinematic_store *)(void *)rt;
    CHECK_STATUS(cinematic_runtime_close(store_as_rt), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_fd(store_as_rt, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(store_as_rt, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_advance_clock(store_as_rt, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_set_provider(store_as_rt, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(store_as_rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_open(store_as_rt, "search", NULL, &out), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_close(rt_as_store), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(rt_as_store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(rt_as_store, &json), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_observe(rt_as_store, recorder_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_settle(rt_as_store, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(rt_as_store, &value), CINEMATIC_ERR_MISUSE);

    /* Pointers that were never handles: a C object's address, small integers, all ones. */
    int local = 0;
    void *garbage[] = {&local, (void *)(uintptr_t)1, (void *)(uintptr_t)2, (void *)(uintptr_t)3,
                       (void *)(uintptr_t)0xdeadbeef, (void *)UINTPTR_MAX, (void *)(UINTPTR_MAX - 1)};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        CHECK_STATUS(cinematic_store_send(garbage[i], "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_store_close(garbage[i]), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_runtime_advance_clock(garbage[i], 1), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_runtime_close(garbage[i]), CINEMATIC_ERR_MISUSE);
    }

    /* Everything still works. */
    CHECK_STORE_WORKS(store);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Closed handles answer closed, from every function. */
static void test_closed_handles(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    cinematic_store *kept = open_search(rt);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    int value = 0;
    char *json = NULL;
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
    CHECK_ENVELOPE_CONTAINS("closed");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_send(store, "not json"), CINEMATIC_ERR_CLOSED); /* handle first */
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK(json == NULL);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_settle(store, 10), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_pending_effects(store, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STORE_WORKS(kept); /* another store of the runtime is unaffected */

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    cinematic_store *out = NULL;
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_fd(rt, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 10), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &out), CINEMATIC_ERR_CLOSED);
    CHECK(out == NULL);
    CHECK_STATUS(cinematic_store_send(kept, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);

    /* Handles are never reused: new objects get new handles. */
    cinematic_runtime *rt2 = open_runtime(HOST_CONFIG);
    cinematic_store *store2 = open_search(rt2);
    CHECK(rt2 != rt && (void *)store2 != (void *)store && (void *)store2 != (void *)kept);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    CHECK_STORE_WORKS(store2);
    CHECK_STATUS(cinematic_runtime_close(rt2), CINEMATIC_OK);
}

/* Runtime functions used in a mode that does not allow them. */
static void test_wrong_mode_and_bad_arguments(void) {
    cinematic_runtime *rt = open_runtime("{\"catalog\":\"host\"}"); /* system clock */
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 10), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("manual");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, -1), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, INT64_MIN), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 0), CINEMATIC_OK);
    /* Bad answers to requests that were never made. */
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_respond(rt, UINT64_MAX, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{"), CINEMATIC_ERR_JSON);
    char *huge = intent_of_size(MIB + 1);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, huge), CINEMATIC_ERR_TOO_LARGE);
    free(huge);
    CHECK_STORE_WORKS(store);
    /* A too-large answer to a real request fails that request with invalidResponse. */
    provider p;
    provider_init(&p, rt, PROVIDER_HOLD);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK(provider_wait(&p, "search", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&p, "search", 0, &call));
    huge = intent_of_size(MIB + 1);
    CHECK_STATUS(cinematic_runtime_respond(rt, call.id, huge), CINEMATIC_ERR_TOO_LARGE);
    free(huge);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);
    /* The request is over: a good answer now is a late one. */
    CHECK_STATUS(cinematic_runtime_respond(rt, call.id, "{\"movies\":[]}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);

    /* The provider functions need a "host" catalog. */
    rt = open_runtime("{\"clock\":\"manual\"}");
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("host");
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, NULL), CINEMATIC_ERR_MISUSE);
    store = open_search(rt);
    CHECK_STORE_WORKS(store);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* "Results go through out-pointers, which are set to NULL / -1 / 0 on failure." */
static void test_out_pointers_reset_on_failure(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    int fd = 42, count = 42;
    char *json = (char *)&fd;
    CHECK_STATUS(cinematic_runtime_fd(NULL, &fd), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(fd, -1);
    count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, &count), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(count, 0);
    count = 42;
    CHECK_STATUS(cinematic_store_pending_effects(NULL, &count), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(count, 0);
    CHECK_STATUS(cinematic_store_state(NULL, &json), CINEMATIC_ERR_MISUSE);
    CHECK(json == NULL);

    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    count = 42;
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(count, 0);
    json = (char *)&fd;
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK(json == NULL);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    fd = 42;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(fd, -1);
    count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(count, 0);
    cinematic_store *out = (cinematic_store *)&fd;
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &out), CINEMATIC_ERR_CLOSED);
    CHECK(out == NULL);
}

int main(void) {
    RUN_TEST(test_null_and_foreign_handles);
    RUN_TEST(test_closed_handles);
    RUN_TEST(test_wrong_mode_and_bad_arguments);
    RUN_TEST(test_out_pointers_reset_on_failure);
    return TEST_SUMMARY();
}
