/*
 * Callback delivery and threads: "immediate" delivery from many threads is never concurrent
 * and in order per store; another thread's dispatch returns at once with 0 while one is
 * dispatching; two threads replacing a store's callback at once leave exactly one.
 */
#include "delivery.h"

/* ---- Immediate delivery from many threads: never concurrent, in order per store. ---- */

#define STORES 4
#define SENDS 150

typedef struct {
    cinematic_store *store;
    int index;
} sender_arg;

static void *sender_main(void *arg) {
    sender_arg *a = arg;
    for (int n = 1; n <= SENDS; n++) {
        char query[64];
        snprintf(query, sizeof query, "s%d-%04d", a->index, n);
        CHECK_EQ_INT(send_query(a->store, query), CINEMATIC_OK);
        if (n % 25 == 0) CHECK_EQ_INT(send_submitted(a->store), CINEMATIC_OK); /* provider + result states */
    }
    return NULL;
}

/* The sequence number in a state's query "sK-NNNN", or -1. */
static int sequence_of(const char *state) {
    char query[64];
    if (!json_get(state, "query", query, sizeof query)) return -1;
    const char *dash = strchr(query, '-');
    return dash ? atoi(dash + 1) : -1;
}

static void test_immediate_never_concurrent_and_ordered(void) {
    cinematic_runtime *rt = open_runtime(IMMEDIATE_CONFIG);
    atomic_int in_callback;
    atomic_init(&in_callback, 0);
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    p.shared_in_callback = &in_callback;
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *stores[STORES];
    recorder recorders[STORES];
    sender_arg args[STORES];
    pthread_t threads[STORES];
    for (int i = 0; i < STORES; i++) {
        stores[i] = open_search(rt);
        recorder_init(&recorders[i]);
        recorders[i].shared_in_callback = &in_callback;
        recorders[i].spin = 2000;
        CHECK_STATUS(cinematic_store_observe(stores[i], recorder_fn, &recorders[i]), CINEMATIC_OK);
        args[i] = (sender_arg){stores[i], i};
    }
    for (int i = 0; i < STORES; i++) pthread_create(&threads[i], NULL, sender_main, &args[i]);
    for (int i = 0; i < STORES; i++) pthread_join(threads[i], NULL);

    int overlaps = atomic_load(&p.overlaps);
    for (int i = 0; i < STORES; i++) {
        CHECK_STATUS(cinematic_store_settle(stores[i], 10000), CINEMATIC_OK);
        overlaps += atomic_load(&recorders[i].overlaps);
    }
    CHECK_EQ_INT(overlaps, 0);
    for (int i = 0; i < STORES; i++) {
        recorder *r = &recorders[i];
        int n = recorder_count(r);
        /* The initial state, one per query, and per submitted a loading and a loaded state,
         * unless the next query replaced the search first (then the results stay "loading"
         * and the next submitted's loading state is no distinct state). The first loading
         * and the last loaded state always happen. */
        CHECK_MSG(n >= 1 + SENDS + 2 && n <= 1 + SENDS + 2 * (SENDS / 25),
                  "store %d: %d states", i, n);
        int last = 0, in_order = 1, right_store = 1;
        for (int k = 1; k < n && k < RECORDER_MAX; k++) {
            int seq = sequence_of(recorder_state(r, k));
            if (seq < last) in_order = 0;
            last = seq;
            if (r->stores[k] != stores[i]) right_store = 0;
        }
        CHECK_MSG(in_order, "store %d: states out of order", i);
        CHECK_MSG(right_store, "store %d: callback got another store's handle", i);
        char *state = state_of(stores[i]);
        CHECK_STR_EQ(recorder_state(r, -1), state); /* the last state delivered is the current one */
        char expected[64];
        snprintf(expected, sizeof expected, "s%d-%04d", i, SENDS);
        CHECK_JSON_EQ(state, "query", expected);
        CHECK_JSON_EQ(state, "results.phase", "loaded");
        cinematic_free(state);
    }
    CHECK_EQ_INT(provider_count(&p, "search"), STORES * (SENDS / 25));
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
    for (int i = 0; i < STORES; i++) recorder_destroy(&recorders[i]);
}

/* ---- Another thread's dispatch returns at once with 0 while one is dispatching. ---- */

typedef struct {
    cinematic_runtime *rt;
    int rc;
    int count;
} other_dispatch;

static void *other_dispatch_main(void *arg) {
    other_dispatch *o = arg;
    o->count = 42;
    o->rc = cinematic_runtime_dispatch(o->rt, &o->count);
    return NULL;
}

typedef struct {
    cinematic_runtime *rt;
    int calls;
    other_dispatch other;
} blocking;

static void blocking_fn(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    blocking *b = userdata;
    if (b->calls++ == 1 && strstr(state_json, "\"du\"")) {
        /* Still inside dispatch on this thread: another thread tries to dispatch. */
        b->other.rt = b->rt;
        b->other.rc = -1;
        pthread_t thread;
        pthread_create(&thread, NULL, other_dispatch_main, &b->other);
        pthread_join(thread, NULL);
    }
}

static void test_concurrent_dispatch_returns_zero(void) {
    cinematic_runtime *rt = open_runtime(QUEUED_CONFIG);
    cinematic_store *store = open_search(rt);
    blocking b = {.rt = rt};
    CHECK_STATUS(cinematic_store_observe(store, blocking_fn, &b), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "du"), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "dun"), CINEMATIC_OK);
    CHECK_EQ_INT(dispatch(rt), 3);
    CHECK_EQ_INT(b.calls, 3);
    CHECK_EQ_INT(b.other.rc, CINEMATIC_OK);
    CHECK_EQ_INT(b.other.count, 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Two threads replacing a store's callback at once must leave exactly one registered: each
 * later state reaches one callback, once. */
typedef struct {
    cinematic_store *store;
    recorder *mine;
} observer_thread_arg;

static void *observe_many_times(void *arg) {
    observer_thread_arg *a = arg;
    for (int i = 0; i < 300; i++)
        if (cinematic_store_observe(a->store, recorder_fn, a->mine) != CINEMATIC_OK) break;
    return NULL;
}

static void test_concurrent_observe_leaves_one_callback(void) {
    for (int round = 0; round < 5; round++) {
        cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
        cinematic_store *store = open_search(rt);
        recorder first, second;
        recorder_init(&first);
        recorder_init(&second);
        observer_thread_arg a = {store, &first}, b = {store, &second};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, observe_many_times, &a);
        pthread_create(&tb, NULL, observe_many_times, &b);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        int before = recorder_count(&first) + recorder_count(&second);
        char intent[64];
        for (int i = 0; i < 3; i++) {
            snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"q%d\"}", i);
            CHECK_STATUS(cinematic_store_send(store, intent), CINEMATIC_OK);
        }
        int delivered = recorder_count(&first) + recorder_count(&second) - before;
        CHECK_MSG(delivered == 3, "round %d: 3 new states reached the callbacks %d times", round, delivered);
        CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
        recorder_destroy(&first);
        recorder_destroy(&second);
    }
}

int main(void) {
    RUN_TEST(test_immediate_never_concurrent_and_ordered);
    RUN_TEST(test_concurrent_dispatch_returns_zero);
    RUN_TEST(test_concurrent_observe_leaves_one_callback);
    return TEST_SUMMARY();
}
