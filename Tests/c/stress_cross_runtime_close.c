/*
 * Scenario 2 of the runtime issue: callbacks of two runtimes closing each other's stores.
 *
 * Runtime A's state callback (store a, on host thread 1) closes store b of runtime B while
 * B's callback (store b, on host thread 2) closes store a, at the same moment. In 0.1.0 each
 * close waited for the other store's running callback: both sends hung forever. Now a close
 * made from inside a callback does not wait for a callback running on another thread (see
 * THREADS in cinematic.h). The callbacks meet before closing, so every round really overlaps.
 */
#include "stress.h"

typedef struct {
    cinematic_store *victim;        /* the other runtime's store this callback closes */
    atomic_int *entered;            /* callbacks of this round that have started */
    atomic_int closes;              /* closes made */
} closer_ctx;

static void close_other(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    closer_ctx *ctx = userdata;
    if (!strstr(state_json, "\"go\"")) return;
    atomic_fetch_add(ctx->entered, 1);
    long long until = h_now_ms() + 200;   /* meet the other callback (bounded) */
    while (atomic_load(ctx->entered) < 2 && h_now_ms() < until) sched_yield();
    int rc = cinematic_store_close(ctx->victim);
    if (rc == CINEMATIC_OK || rc == CINEMATIC_ERR_CLOSED) atomic_fetch_add(&ctx->closes, 1);
}

typedef struct {
    cinematic_store *store;
    pthread_barrier_t *barrier;
    int status;
} sender_ctx;

static void *send_go(void *userdata) {
    sender_ctx *ctx = userdata;
    pthread_barrier_wait(ctx->barrier);
    ctx->status = cinematic_store_send(ctx->store, "{\"type\":\"queryChanged\",\"query\":\"go\"}");
    return NULL;
}

/* Sends "go" to a and b from two threads released at the same moment. */
static void send_go_at_once(cinematic_store *a, cinematic_store *b, int *status_a, int *status_b) {
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    sender_ctx ca = {a, &barrier, -1}, cb = {b, &barrier, -1};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, send_go, &ca);
    pthread_create(&tb, NULL, send_go, &cb);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&barrier);
    *status_a = ca.status;
    *status_b = cb.status;
}

static void test_callbacks_close_each_others_stores(void) {
    cinematic_runtime *a = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    cinematic_runtime *b = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    const char *names[] = {"rounds (two senders whose callbacks close each other's store)"};
    stress_begin(1, names);
    long overlapped = 0;
    while (stress_running()) {
        cinematic_store *sa = open_search(a), *sb = open_search(b);
        atomic_int entered = 0;
        closer_ctx in_a = {.victim = sb, .entered = &entered}, in_b = {.victim = sa, .entered = &entered};
        atomic_init(&in_a.closes, 0);
        atomic_init(&in_b.closes, 0);
        CHECK_STATUS(cinematic_store_observe(sa, close_other, &in_a), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_observe(sb, close_other, &in_b), CINEMATIC_OK);
        int status_a, status_b;
        send_go_at_once(sa, sb, &status_a, &status_b);
        CHECK(status_a == CINEMATIC_OK || status_a == CINEMATIC_ERR_CLOSED);
        CHECK(status_b == CINEMATIC_OK || status_b == CINEMATIC_ERR_CLOSED);
        if (atomic_load(&entered) == 2) overlapped++;
        /* Whichever callback ran, its close took effect: a store closed here answers CLOSED. */
        int closed_a = cinematic_store_close(sa) == CINEMATIC_ERR_CLOSED;
        int closed_b = cinematic_store_close(sb) == CINEMATIC_ERR_CLOSED;
        CHECK_EQ_INT(closed_a, atomic_load(&in_b.closes) > 0);
        CHECK_EQ_INT(closed_b, atomic_load(&in_a.closes) > 0);
        stress_tick(0);
    }
    stress_finish(0);
    printf("     %ld rounds, %ld with both callbacks inside at once\n", stress_rounds(0), overlapped);
    CHECK(overlapped > 0);
    CHECK_STATUS(cinematic_runtime_close(a), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(b), CINEMATIC_OK);
    stress_end();
}

/* The same from runtime_close: each callback closes the other's whole runtime. */
typedef struct {
    cinematic_runtime *victim;
    atomic_int *entered;
} runtime_closer_ctx;

static void close_other_runtime(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    runtime_closer_ctx *ctx = userdata;
    if (!strstr(state_json, "\"go\"")) return;
    atomic_fetch_add(ctx->entered, 1);
    long long until = h_now_ms() + 200;
    while (atomic_load(ctx->entered) < 2 && h_now_ms() < until) sched_yield();
    int rc = cinematic_runtime_close(ctx->victim);
    CHECK(rc == CINEMATIC_OK || rc == CINEMATIC_ERR_CLOSED);
}

static void test_callbacks_close_each_others_runtimes(void) {
    const char *names[] = {"rounds (callbacks closing each other's runtime)"};
    stress_begin(1, names);
    while (stress_running()) {
        cinematic_runtime *a = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
        cinematic_runtime *b = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
        cinematic_store *sa = open_search(a), *sb = open_search(b);
        atomic_int entered = 0;
        runtime_closer_ctx in_a = {b, &entered}, in_b = {a, &entered};
        CHECK_STATUS(cinematic_store_observe(sa, close_other_runtime, &in_a), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_observe(sb, close_other_runtime, &in_b), CINEMATIC_OK);
        int status_a, status_b;
        send_go_at_once(sa, sb, &status_a, &status_b);
        CHECK(status_a == CINEMATIC_OK || status_a == CINEMATIC_ERR_CLOSED);
        CHECK(status_b == CINEMATIC_OK || status_b == CINEMATIC_ERR_CLOSED);
        int rc = cinematic_runtime_close(a);
        CHECK(rc == CINEMATIC_OK || rc == CINEMATIC_ERR_CLOSED);
        rc = cinematic_runtime_close(b);
        CHECK(rc == CINEMATIC_OK || rc == CINEMATIC_ERR_CLOSED);
        stress_tick(0);
    }
    stress_finish(0);
    printf("     %ld rounds\n", stress_rounds(0));
    stress_end();
}

int main(void) {
    RUN_TEST(test_callbacks_close_each_others_stores);
    RUN_TEST(test_callbacks_close_each_others_runtimes);
    return TEST_SUMMARY();
}
