/*
 * Lifecycle: closing stores and runtimes with effects in flight, closing from inside
 * callbacks, double close, settle timeouts, pending effect counts.
 */
#include "harness.h"

#include <fcntl.h>
#include <unistd.h>

#define HOST_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\"}"
#define QUEUED_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\",\"delivery\":\"queued\"}"


static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Every store function answers closed. */
static void check_store_closed(cinematic_store *store) {
    int count = 0;
    char *json = NULL;
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_settle(store, 0), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
}

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

/* The same from inside a callback: when cinematic_runtime_close returns, the descriptor is
 * closed (the header: "it is closed by cinematic_runtime_close"). */
typedef struct {
    cinematic_runtime *rt;
    int fd;
    int close_rc;
    int fd_open_after_close;
} fd_closer;

static void fd_closer_fn(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    (void)state_json;
    fd_closer *c = userdata;
    if (c->close_rc != -1) return;
    c->close_rc = cinematic_runtime_close(c->rt);
    c->fd_open_after_close = fcntl(c->fd, F_GETFD) != -1;
}

static void test_fd_closed_by_close_inside_callback(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    cinematic_store *store = open_search(rt);
    fd_closer c = {.rt = rt, .close_rc = -1};
    CHECK_STATUS(cinematic_runtime_fd(rt, &c.fd), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe(store, fd_closer_fn, &c), CINEMATIC_OK);
    CHECK_EQ_INT(cinematic_runtime_dispatch(rt, NULL), CINEMATIC_OK);
    CHECK_EQ_INT(c.close_rc, CINEMATIC_OK);
    CHECK_MSG(!c.fd_open_after_close, "fd %d still open when cinematic_runtime_close returned", c.fd);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
}

/* ---- Closing from inside callbacks. ---- */

typedef struct {
    cinematic_runtime *rt;
    int calls;
    int close_rc;
    int send_after_close_rc;
    const char *trigger;
    int close_runtime;
} closer;

static void closer_fn(void *userdata, cinematic_store *store, const char *state_json) {
    closer *c = userdata;
    c->calls++;
    char query[64];
    json_get(state_json, "query", query, sizeof query);
    if (strcmp(query, c->trigger) == 0) {
        c->close_rc = c->close_runtime ? cinematic_runtime_close(c->rt) : cinematic_store_close(store);
        c->send_after_close_rc = send_query(store, "after");
    }
}

static void test_close_store_inside_its_callback(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *store = open_search(rt);
    closer c = {.rt = rt, .trigger = "close-me", .close_rc = -1, .send_after_close_rc = -1};
    CHECK_STATUS(cinematic_store_observe(store, closer_fn, &c), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "du"), CINEMATIC_OK);
    CHECK_EQ_INT(c.calls, 2);
    int rc = send_query(store, "close-me"); /* starts a debounce, then the callback closes */
    CHECK_EQ_INT(rc, CINEMATIC_OK);
    CHECK_EQ_INT(c.close_rc, CINEMATIC_OK);
    CHECK_EQ_INT(c.send_after_close_rc, CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(c.calls, 3);
    check_store_closed(store);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1000), CINEMATIC_OK);
    h_sleep_ms(50);
    CHECK_EQ_INT(c.calls, 3);
    CHECK_EQ_INT(provider_count(&p, "search"), 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
}

static void test_close_store_inside_its_callback_queued(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    cinematic_store *store = open_search(rt);
    closer c = {.rt = rt, .trigger = "close-me", .close_rc = -1, .send_after_close_rc = -1};
    CHECK_STATUS(cinematic_store_observe(store, closer_fn, &c), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "close-me"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "later"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "later still"), CINEMATIC_OK);
    int count = -1;
    CHECK_EQ_INT(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, 3); /* "", "du", "close-me": the states after it are dropped */
    CHECK_EQ_INT(c.calls, 3);
    CHECK_EQ_INT(c.close_rc, CINEMATIC_OK);
    CHECK_EQ_INT(c.send_after_close_rc, CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, 0);
    check_store_closed(store);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_close_runtime_inside_callback(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    cinematic_store *store = open_search(rt);
    cinematic_store *other = open_search(rt);
    recorder other_states;
    recorder_init(&other_states);
    closer c = {.rt = rt, .trigger = "bye", .close_runtime = 1, .close_rc = -1, .send_after_close_rc = -1};
    CHECK_STATUS(cinematic_store_observe(store, closer_fn, &c), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "bye"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe(other, recorder_fn, &other_states), CINEMATIC_OK); /* queued after */
    CHECK_STATUS(send_query(other, "du"), CINEMATIC_OK);
    int count = -1;
    CHECK_EQ_INT(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    CHECK_EQ_INT(c.close_rc, CINEMATIC_OK);
    CHECK_EQ_INT(c.send_after_close_rc, CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(c.calls, 2);                         /* "" and "bye": that callback was the last */
    CHECK_EQ_INT(recorder_count(&other_states), 0);   /* nothing after it */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    check_store_closed(store);
    check_store_closed(other);
    recorder_destroy(&other_states);
}

/* ---- Close waits for a callback running on another thread. ---- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int entered;
    atomic_int returned;
    atomic_int calls_after_close;
    atomic_int closed;
} slow;

static void slow_fn(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    slow *s = userdata;
    if (atomic_load(&s->closed)) atomic_fetch_add(&s->calls_after_close, 1);
    if (!strstr(state_json, "\"slow\"")) return;
    pthread_mutex_lock(&s->lock);
    s->entered = 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    h_sleep_ms(40); /* long enough for close to overtake a callback it does not wait for */
    atomic_store(&s->returned, 1);
}

typedef struct {
    cinematic_store *store;
} send_arg;

static void *send_slow_main(void *arg) {
    send_arg *a = arg;
    CHECK_EQ_INT(send_query(a->store, "slow"), CINEMATIC_OK);
    return NULL;
}

static void check_close_waits_for_running_callback(int close_runtime) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    slow s = {.entered = 0};
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.changed, NULL);
    atomic_init(&s.returned, 0);
    atomic_init(&s.calls_after_close, 0);
    atomic_init(&s.closed, 0);
    CHECK_STATUS(cinematic_store_observe(store, slow_fn, &s), CINEMATIC_OK);
    send_arg a = {store};
    pthread_t thread;
    pthread_create(&thread, NULL, send_slow_main, &a);
    struct timespec deadline = h_deadline(5000);
    pthread_mutex_lock(&s.lock);
    while (!s.entered && pthread_cond_timedwait(&s.changed, &s.lock, &deadline) != ETIMEDOUT) {}
    int entered = s.entered;
    pthread_mutex_unlock(&s.lock);
    CHECK(entered);
    int rc = close_runtime ? cinematic_runtime_close(rt) : cinematic_store_close(store);
    atomic_store(&s.closed, 1);
    CHECK_EQ_INT(rc, CINEMATIC_OK);
    CHECK_MSG(atomic_load(&s.returned), "close returned while a callback was still running");
    pthread_join(thread, NULL);
    h_sleep_ms(20);
    CHECK_EQ_INT(atomic_load(&s.calls_after_close), 0);
    if (!close_runtime) CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    pthread_cond_destroy(&s.changed);
    pthread_mutex_destroy(&s.lock);
}

static void test_store_close_waits_for_running_callback(void) { check_close_waits_for_running_callback(0); }
static void test_runtime_close_waits_for_running_callback(void) { check_close_waits_for_running_callback(1); }

/* ---- Double close, settle, pending effects. ---- */

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
    long long start = now_ms();
    CHECK_STATUS(cinematic_store_settle(f.store, 50), CINEMATIC_ERR_TIMEOUT);
    long long elapsed = now_ms() - start;
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
    RUN_TEST(test_close_store_with_pending_debounce);
    RUN_TEST(test_close_store_with_held_request);
    RUN_TEST(test_close_store_drops_queued_states);
    RUN_TEST(test_close_runtime_with_effects_in_flight);
    RUN_TEST(test_close_queued_runtime);
    RUN_TEST(test_fd_closed_by_close_inside_callback);
    RUN_TEST(test_close_store_inside_its_callback);
    RUN_TEST(test_close_store_inside_its_callback_queued);
    RUN_TEST(test_close_runtime_inside_callback);
    RUN_TEST(test_store_close_waits_for_running_callback);
    RUN_TEST(test_runtime_close_waits_for_running_callback);
    RUN_TEST(test_double_close);
    RUN_TEST(test_settle_timeout);
    RUN_TEST(test_settle_waits_for_answer_from_another_thread);
    RUN_TEST(test_pending_effects_counts);
    RUN_TEST(test_open_close_cycles);
    return TEST_SUMMARY();
}
