/*
 * Lifecycle and callbacks: closing a store or the runtime from inside a callback (the
 * runtime's descriptor is closed when that close returns), and a close that waits for a
 * callback running on another thread.
 */
#include "lifecycle.h"

#include <fcntl.h>
#include <unistd.h>

/* The runtime closed from inside a queued callback: when cinematic_runtime_close returns,
 * the descriptor is closed (the header: "it is closed by cinematic_runtime_close"). */
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

int main(void) {
    RUN_TEST(test_fd_closed_by_close_inside_callback);
    RUN_TEST(test_close_store_inside_its_callback);
    RUN_TEST(test_close_store_inside_its_callback_queued);
    RUN_TEST(test_close_runtime_inside_callback);
    RUN_TEST(test_store_close_waits_for_running_callback);
    RUN_TEST(test_runtime_close_waits_for_running_callback);
    return TEST_SUMMARY();
}
