/*
 * Lifecycle: closing stores and runtimes with effects in flight (a pending debounce, a held
 * request, queued states and callbacks). Closing from and during callbacks:
 * test_lifecycle_callbacks.c; double close, settle and pending effects:
 * test_lifecycle_settle.c.
 */
#include "lifecycle.h"

#include <fcntl.h>
#include <unistd.h>

static void test_close_store_with_pending_debounce(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_AUTO, "search", NULL);
    cinematic_store *other = open_search(f.rt);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 1);
    int delivered = recorder_count(&f.states);
    CHECK_EQ_INT(delivered, 2);
    CHECK_STATUS(cinematic_store_close(f.store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    /* Give a wrongly surviving debounce a chance: it would ask the AUTO provider and load. */
    CHECK_STATUS(send_query(other, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(other), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(other, 5000), CINEMATIC_OK);
    h_sleep_ms(50);
    CHECK_EQ_INT(recorder_count(&f.states), delivered);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 1); /* only the other store's */
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    CHECK_STR_EQ(call.query, "alien");
    check_store_closed(f.store);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

static void test_close_store_with_held_request(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    CHECK_EQ_INT(pending(f.store), 1);
    int delivered = recorder_count(&f.states);
    CHECK_STATUS(cinematic_store_close(f.store), CINEMATIC_OK);
    /* The provider hears that the answer is no longer needed. */
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", call.id));
    /* The late answer is accepted and dropped. */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movies\":[{\"id\":15249,\"title\":\"Dune\"}]}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_dispatch(f.rt, NULL), CINEMATIC_OK);
    h_sleep_ms(50);
    CHECK_EQ_INT(recorder_count(&f.states), delivered);
    for (int i = 0; i < recorder_count(&f.states); i++)
        CHECK_STR_LACKS(recorder_state(&f.states, i), "loaded");
    check_store_closed(f.store);
    /* The runtime is fine. */
    cinematic_store *other = open_search(f.rt);
    CHECK_STATUS(send_query(other, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(other), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 2, 5000));
    CHECK(provider_call_at(&f.provider, "search", 1, &call));
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movies\":[]}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(other, 5000), CINEMATIC_OK);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

/* Queued: states that wait for a closed store never run. */
static void test_close_store_drops_queued_states(void) {
    fixture f;
    fixture_open(&f, QUEUED_CONFIG, PROVIDER_HOLD, "search", NULL);
    recorder other_states;
    recorder_init(&other_states);
    cinematic_store *other = open_search(f.rt);
    CHECK_STATUS(cinematic_store_observe(other, recorder_fn, &other_states), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_query(other, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(f.store), CINEMATIC_OK);
    int count = -1;
    CHECK_STATUS(cinematic_runtime_dispatch(f.rt, &count), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&f.states), 0);
    CHECK_EQ_INT(recorder_count(&other_states), 2); /* the other store's states are kept */
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    h_sleep_ms(20);
    CHECK_STATUS(cinematic_runtime_dispatch(f.rt, NULL), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&f.states), 0);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
    recorder_destroy(&other_states);
}

static void test_close_runtime_with_effects_in_flight(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "search", NULL);
    cinematic_store *debouncing = open_search(f.rt);
    recorder debouncing_states;
    recorder_init(&debouncing_states);
    CHECK_STATUS(cinematic_store_observe(debouncing, recorder_fn, &debouncing_states), CINEMATIC_OK);
    CHECK_STATUS(send_query(debouncing, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    int delivered = recorder_count(&f.states), delivered_debouncing = recorder_count(&debouncing_states);
    pthread_mutex_lock(&f.provider.lock);
    int provider_calls = f.provider.count;
    pthread_mutex_unlock(&f.provider.lock);

    CHECK_STATUS(cinematic_runtime_close(f.rt), CINEMATIC_OK);
    /* Abandoned: no cancel callbacks, and everything answers closed. */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movies\":[]}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_dispatch(f.rt, NULL), CINEMATIC_ERR_CLOSED);
    h_sleep_ms(50);
    pthread_mutex_lock(&f.provider.lock);
    CHECK_EQ_INT(f.provider.count, provider_calls);
    pthread_mutex_unlock(&f.provider.lock);
    CHECK_EQ_INT(recorder_count(&f.states), delivered);
    CHECK_EQ_INT(recorder_count(&debouncing_states), delivered_debouncing);
    /* The runtime closed its stores. */
    check_store_closed(f.store);
    check_store_closed(debouncing);
    CHECK_STATUS(cinematic_runtime_close(f.rt), CINEMATIC_ERR_CLOSED);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
    recorder_destroy(&debouncing_states);
}

/* Queued callbacks that wait when the runtime closes never run. "The descriptor ... is
 * closed by cinematic_runtime_close." */
static void test_close_queued_runtime(void) {
    fixture f;
    fixture_open(&f, QUEUED_CONFIG, PROVIDER_HOLD, "search", NULL);
    int fd = -1;
    CHECK_STATUS(cinematic_runtime_fd(f.rt, &fd), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK); /* states wait in the queue */
    CHECK_STATUS(cinematic_runtime_close(f.rt), CINEMATIC_OK);
    errno = 0;
    CHECK_MSG(fcntl(fd, F_GETFD) == -1 && errno == EBADF, "fd %d still open after cinematic_runtime_close", fd);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);

    fixture_open(&f, QUEUED_CONFIG, PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK); /* the request waits in the queue too */
    CHECK_STATUS(cinematic_runtime_close(f.rt), CINEMATIC_OK);
    h_sleep_ms(20);
    CHECK_EQ_INT(recorder_count(&f.states), 0);
    CHECK_EQ_INT(provider_count(&f.provider, "search"), 0);
    fixture_close(&f, FIXTURE_RUNTIME_MAY_BE_CLOSED);
}

int main(void) {
    RUN_TEST(test_close_store_with_pending_debounce);
    RUN_TEST(test_close_store_with_held_request);
    RUN_TEST(test_close_store_drops_queued_states);
    RUN_TEST(test_close_runtime_with_effects_in_flight);
    RUN_TEST(test_close_queued_runtime);
    return TEST_SUMMARY();
}
