/*
 * Callback delivery: "queued" (the fd, dispatch, a host poll() loop on its own thread) and
 * "immediate" (no fd); observe: replacing and removing the callback, and the states queued
 * for a replaced one dropped. Threads are in test_delivery_threads.c, what callbacks may call
 * in test_delivery_callbacks.c.
 */
#include "delivery.h"

#include <poll.h>

/* True when fd is readable within timeout_ms (0: right now). */
static int readable(int fd, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, timeout_ms);
    return n == 1 && (p.revents & POLLIN);
}

static void test_queued_fd_and_dispatch(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    provider p;
    provider_init(&p, rt, PROVIDER_HOLD);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    int fd = -1, fd2 = -1;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_OK);
    CHECK(fd >= 0);
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd2), CINEMATIC_OK);
    CHECK_EQ_INT(fd2, fd);
    CHECK(!readable(fd, 0)); /* nothing waits */
    CHECK_EQ_INT(dispatch(rt), 0);

    cinematic_store *store = open_search(rt);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &r), CINEMATIC_OK);
    CHECK(readable(fd, 0)); /* the current state waits */
    CHECK_EQ_INT(recorder_count(&r), 0);
    CHECK_EQ_INT(dispatch(rt), 1);
    CHECK_EQ_INT(recorder_count(&r), 1);
    CHECK(pthread_equal(r.last_thread, pthread_self()));
    CHECK_STR_EQ(recorder_state(&r, 0), "{\"query\":\"\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    CHECK(!readable(fd, 0));

    /* A send: reduced at once, its state waits for dispatch. */
    CHECK_STATUS(send_query(store, "du"), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "du");
    cinematic_free(state);
    CHECK(readable(fd, 0));
    CHECK_EQ_INT(recorder_count(&r), 1);
    CHECK_EQ_INT(dispatch(rt), 1);
    CHECK_JSON_EQ(recorder_state(&r, 1), "query", "du");
    CHECK(!readable(fd, 0));
    CHECK_EQ_INT(dispatch(rt), 0);

    /* Several states wait, and run in order. */
    CHECK_STATUS(send_query(store, "dun"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK(readable(fd, 0));
    CHECK_EQ_INT(dispatch(rt), 2);
    CHECK_JSON_EQ(recorder_state(&r, 2), "query", "dun");
    CHECK_JSON_EQ(recorder_state(&r, 3), "query", "dune");
    CHECK(!readable(fd, 0));
    CHECK_STATUS(cinematic_runtime_dispatch(rt, NULL), CINEMATIC_OK); /* count is optional */

    /* Provider requests wait in the same queue and run on the dispatching thread. */
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK(readable(fd, 0));
    CHECK_EQ_INT(provider_count(&p, "search"), 0);
    CHECK_EQ_INT(dispatch(rt), 2); /* the loading state and the request */
    CHECK_EQ_INT(provider_count(&p, "search"), 1);
    CHECK_JSON_EQ(recorder_state(&r, -1), "results.phase", "loading");
    provider_call call = {0};
    CHECK(provider_call_at(&p, "search", 0, &call));
    CHECK_STATUS(cinematic_runtime_respond(rt, call.id, "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984}]}"),
                 CINEMATIC_OK);
    /* With "queued" delivery settle waits for the effects, not for the dispatch. */
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK(readable(fd, 0));
    int before = recorder_count(&r);
    CHECK_EQ_INT(dispatch(rt), 1);
    CHECK_EQ_INT(recorder_count(&r), before + 1);
    CHECK_JSON_EQ(recorder_state(&r, -1), "results.value[0].title", "Dune");
    CHECK(!readable(fd, 0));

    /* Work produced on a library thread (the debounce's effect) makes the fd readable too. */
    CHECK_STATUS(send_query(store, "alien"), CINEMATIC_OK);
    CHECK_EQ_INT(dispatch(rt), 1);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    for (int i = 0; i < 100 && provider_count(&p, "search") < 2; i++) {
        if (readable(fd, 5000)) dispatch(rt);
    }
    CHECK_EQ_INT(provider_count(&p, "search"), 2);
    CHECK(provider_call_at(&p, "search", 1, &call));
    CHECK_STR_EQ(call.query, "alien");
    CHECK(pthread_equal(r.last_thread, pthread_self()));
    CHECK_EQ_INT(atomic_load(&r.overlaps), 0);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
    recorder_destroy(&r);
}

/* A host poll() loop on its own thread; the test thread settles. */
typedef struct {
    cinematic_runtime *rt;
    int fd;
    atomic_int stop;
    pthread_t thread;
    atomic_int dispatched;
} poll_loop;

static void *poll_loop_main(void *arg) {
    poll_loop *loop = arg;
    while (!atomic_load(&loop->stop)) {
        if (readable(loop->fd, 10)) {
            int count = 0;
            if (cinematic_runtime_dispatch(loop->rt, &count) == CINEMATIC_OK)
                atomic_fetch_add(&loop->dispatched, count);
        }
    }
    return NULL;
}

static void test_queued_poll_loop_thread(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO); /* answers from inside its callback */
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *store = open_search(rt);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &r), CINEMATIC_OK);
    poll_loop loop = {.rt = rt};
    atomic_init(&loop.stop, 0);
    atomic_init(&loop.dispatched, 0);
    CHECK_STATUS(cinematic_runtime_fd(rt, &loop.fd), CINEMATIC_OK);
    pthread_create(&loop.thread, NULL, poll_loop_main, &loop);

    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    /* The request waits for the loop thread's dispatch, the answer for the provider. */
    CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", "dune");
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&p, "search"), 1);

    atomic_store(&loop.stop, 1);
    pthread_join(loop.thread, NULL);
    /* Whatever the loop had not dispatched yet is dispatched here. */
    while (readable(loop.fd, 0)) dispatch(rt);
    CHECK_JSON_EQ(recorder_state(&r, -1), "results.phase", "loaded");
    CHECK(pthread_equal(r.last_thread, loop.thread) || pthread_equal(r.last_thread, pthread_self()));
    CHECK(atomic_load(&loop.dispatched) >= 3);
    CHECK_EQ_INT(atomic_load(&p.respond_errors), 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
    recorder_destroy(&r);
}

static void test_immediate_has_no_fd(void) {
    cinematic_runtime *rt = open_runtime(IMMEDIATE_CONFIG);
    int fd = 42;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(fd, -1);
    CHECK_ENVELOPE_CONTAINS("immediate");
    int count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK); /* nothing ever waits */
    CHECK_EQ_INT(count, 0);
    /* The default delivery is "immediate" too. */
    cinematic_runtime *rt2 = open_runtime("{\"catalog\":\"host\"}");
    fd = 42;
    CHECK_STATUS(cinematic_runtime_fd(rt2, &fd), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(fd, -1);
    CHECK_STATUS(cinematic_runtime_close(rt2), CINEMATIC_OK);

    /* Immediate states caused by send run on the sending thread before send returns. */
    cinematic_store *store = open_search(rt);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &r), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "du"), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&r), 2);
    CHECK(pthread_equal(r.last_thread, pthread_self()));
    CHECK_JSON_EQ(recorder_state(&r, -1), "query", "du");
    count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    recorder_destroy(&r);
}

/* ---- observe: replacing and removing the callback. ---- */

static void test_observe_replace_and_remove(void) {
    cinematic_runtime *rt = open_runtime(IMMEDIATE_CONFIG);
    cinematic_store *store = open_search(rt);
    recorder a, b;
    recorder_init(&a);
    recorder_init(&b);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &a), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&a), 1); /* the current state first */
    CHECK_STATUS(send_query(store, "a"), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&a), 2);
    /* The same state again is not a distinct state. */
    CHECK_STATUS(send_query(store, "a"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&a), 2);

    /* Replace (same function, other userdata): b gets the current state, a nothing more. */
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &b), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&b), 1);
    CHECK_JSON_EQ(recorder_state(&b, 0), "query", "a");
    CHECK_STATUS(send_query(store, "b"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&b), 2);
    CHECK_EQ_INT(recorder_count(&a), 2);

    /* Remove: nobody hears "c". */
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "c"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&a), 2);
    CHECK_EQ_INT(recorder_count(&b), 2);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK); /* removing twice is fine */

    /* Observing again starts from the current state. */
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &a), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&a), 3);
    CHECK_JSON_EQ(recorder_state(&a, -1), "query", "c");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    recorder_destroy(&a);
    recorder_destroy(&b);
}

static void test_observe_replace_drops_queued_states(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    cinematic_store *store = open_search(rt);
    recorder a, b;
    recorder_init(&a);
    recorder_init(&b);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &a), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "a"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "b"), CINEMATIC_OK);
    /* Three states wait for a; replacing the callback drops them. */
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &b), CINEMATIC_OK);
    CHECK_EQ_INT(dispatch(rt), 1);
    CHECK_EQ_INT(recorder_count(&a), 0);
    CHECK_EQ_INT(recorder_count(&b), 1);
    CHECK_JSON_EQ(recorder_state(&b, 0), "query", "b");
    /* Removing drops what waits as well. */
    CHECK_STATUS(send_query(store, "c"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    CHECK_EQ_INT(dispatch(rt), 0);
    CHECK_EQ_INT(recorder_count(&b), 1);
    int fd = -1;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_OK);
    CHECK(!readable(fd, 0));
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    recorder_destroy(&a);
    recorder_destroy(&b);
}

int main(void) {
    RUN_TEST(test_queued_fd_and_dispatch);
    RUN_TEST(test_queued_poll_loop_thread);
    RUN_TEST(test_immediate_has_no_fd);
    RUN_TEST(test_observe_replace_and_remove);
    RUN_TEST(test_observe_replace_drops_queued_states);
    return TEST_SUMMARY();
}
