/*
 * Threads: 8 threads send at once to one shared store and to their own stores; callbacks of
 * the runtime never run concurrently, each store's states arrive in order, and everything
 * still works afterwards.
 */
#include "harness.h"

#include <poll.h>

#define THREADS 8
#define SENDS 300

typedef struct {
    int index;
    cinematic_store *shared;
    cinematic_store *own;
    pthread_barrier_t *start;
    int failures;
} worker;

static int parse_query(const char *query, int *thread, int *seq) {
    return sscanf(query, "t%d-%d", thread, seq) == 2;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    pthread_barrier_wait(w->start);
    for (int n = 1; n <= SENDS; n++) {
        char query[32];
        snprintf(query, sizeof query, "t%d-%04d", w->index, n);
        if (send_query(w->shared, query) != CINEMATIC_OK) w->failures++;
        if (send_query(w->own, query) != CINEMATIC_OK) w->failures++;
        if (n % 50 == 0) {
            /* Readers race with the writers: every snapshot is a whole, valid state. */
            char *state = NULL;
            if (cinematic_store_state(w->shared, &state) != CINEMATIC_OK || !json_valid(state)) w->failures++;
            cinematic_free(state);
            int pending = -1;
            if (cinematic_store_pending_effects(w->shared, &pending) != CINEMATIC_OK || pending < 0 || pending > 1)
                w->failures++;
        }
    }
    return NULL;
}

/* Checks one store's recorded states: in order for each sending thread. */
static void check_order(recorder *r, const char *what) {
    int last[THREADS] = {0};
    int in_order = 1, parsed = 1;
    int n = recorder_count(r);
    for (int k = 1; k < n && k < RECORDER_MAX; k++) {
        char query[64];
        int thread, seq;
        if (!json_get(recorder_state(r, k), "query", query, sizeof query) || !parse_query(query, &thread, &seq) ||
            thread < 0 || thread >= THREADS) {
            parsed = 0;
            continue;
        }
        if (seq < last[thread]) in_order = 0;
        last[thread] = seq;
    }
    CHECK_MSG(parsed, "%s: a state without a sent query", what);
    CHECK_MSG(in_order, "%s: states out of order", what);
}

/* The host's event loop for "queued" delivery: poll the fd, dispatch. */
typedef struct {
    cinematic_runtime *rt;
    int fd;
    atomic_int stop;
    pthread_t thread;
} event_loop;

static void *event_loop_main(void *arg) {
    event_loop *loop = arg;
    while (!atomic_load(&loop->stop)) {
        struct pollfd pfd = {.fd = loop->fd, .events = POLLIN};
        if (poll(&pfd, 1, 10) == 1) cinematic_runtime_dispatch(loop->rt, NULL);
    }
    return NULL;
}

static void event_loop_start(event_loop *loop, cinematic_runtime *rt) {
    loop->rt = rt;
    atomic_init(&loop->stop, 0);
    CHECK_STATUS(cinematic_runtime_fd(rt, &loop->fd), CINEMATIC_OK);
    pthread_create(&loop->thread, NULL, event_loop_main, loop);
}

/* Stops the loop and dispatches what still waits on this thread. */
static void event_loop_stop(event_loop *loop) {
    atomic_store(&loop->stop, 1);
    pthread_join(loop->thread, NULL);
    int count = 0;
    do {
        CHECK_STATUS(cinematic_runtime_dispatch(loop->rt, &count), CINEMATIC_OK);
    } while (count > 0);
}

static void run_threads(const char *config, int queued) {
    cinematic_runtime *rt = open_runtime(config);
    atomic_int in_callback;
    atomic_init(&in_callback, 0);
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    p.shared_in_callback = &in_callback;
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *shared = open_search(rt);
    recorder shared_states;
    recorder_init(&shared_states);
    shared_states.shared_in_callback = &in_callback;
    shared_states.spin = 500;
    CHECK_STATUS(cinematic_store_observe(shared, recorder_fn, &shared_states), CINEMATIC_OK);

    static recorder own_states[THREADS];
    worker workers[THREADS];
    pthread_t threads[THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) {
        recorder_init(&own_states[i]);
        own_states[i].shared_in_callback = &in_callback;
        own_states[i].spin = 500;
        workers[i] = (worker){.index = i, .shared = shared, .own = open_search(rt), .start = &start};
        CHECK_STATUS(cinematic_store_observe(workers[i].own, recorder_fn, &own_states[i]), CINEMATIC_OK);
    }
    event_loop loop;
    if (queued) event_loop_start(&loop, rt);
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker_main, &workers[i]);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_EQ_INT(workers[i].failures, 0);
    }
    pthread_barrier_destroy(&start);
    if (queued) event_loop_stop(&loop);

    /* Every query change is a distinct state, delivered once, in order per sender. */
    CHECK_EQ_INT(recorder_count(&shared_states), 1 + THREADS * SENDS);
    check_order(&shared_states, "shared store");
    for (int i = 0; i < THREADS; i++) {
        CHECK_EQ_INT(recorder_count(&own_states[i]), 1 + SENDS);
        check_order(&own_states[i], "own store");
        char expected[32];
        snprintf(expected, sizeof expected, "t%d-%04d", i, SENDS);
        CHECK_JSON_EQ(recorder_state(&own_states[i], -1), "query", expected);
    }

    /* The shared store's state is valid JSON whose query is one of the sent queries, and it
     * is the last state its observer received. */
    char *state = state_of(shared);
    CHECK(json_valid(state));
    char query[64];
    int thread = -1, seq = -1;
    CHECK(json_get(state, "query", query, sizeof query) && parse_query(query, &thread, &seq));
    CHECK(thread >= 0 && thread < THREADS && seq >= 1 && seq <= SENDS);
    CHECK_STR_EQ(recorder_state(&shared_states, -1), state);
    cinematic_free(state);

    /* Every store still works: the debounces run, the provider answers. */
    if (queued) event_loop_start(&loop, rt); /* the requests wait for a dispatch */
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(shared, 10000), CINEMATIC_OK);
    for (int i = 0; i < THREADS; i++) CHECK_STATUS(cinematic_store_settle(workers[i].own, 10000), CINEMATIC_OK);
    if (queued) event_loop_stop(&loop);
    CHECK_JSON_EQ(recorder_state(&shared_states, -1), "results.phase", "loaded");
    CHECK_EQ_INT(provider_count(&p, "search"), THREADS + 1); /* one per store: keystrokes collapsed */
    state = state_of(shared);
    CHECK_JSON_EQ(state, "query", query);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.value[0].title", query);
    cinematic_free(state);
    CHECK_STATUS(send_query(shared, "after"), CINEMATIC_OK);
    state = state_of(shared);
    CHECK_JSON_EQ(state, "query", "after");
    cinematic_free(state);

    CHECK_EQ_INT(atomic_load(&p.overlaps) + atomic_load(&shared_states.overlaps), 0);
    int own_overlaps = 0;
    for (int i = 0; i < THREADS; i++) own_overlaps += atomic_load(&own_states[i].overlaps);
    CHECK_EQ_INT(own_overlaps, 0);
    CHECK_EQ_INT(atomic_load(&p.respond_errors), 0);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
    recorder_destroy(&shared_states);
    for (int i = 0; i < THREADS; i++) recorder_destroy(&own_states[i]);
}

static void test_threads_immediate(void) { run_threads("{\"clock\":\"manual\",\"catalog\":\"host\"}", 0); }

static void test_threads_queued(void) {
    run_threads("{\"clock\":\"manual\",\"catalog\":\"host\",\"delivery\":\"queued\"}", 1);
}

/* Threads opening, using and closing their own stores of one runtime while another thread
 * closes stores it does not own. */
typedef struct {
    cinematic_runtime *rt;
    int failures;
    pthread_barrier_t *start;
} churner;

static void *churn_main(void *arg) {
    churner *c = arg;
    pthread_barrier_wait(c->start);
    for (int i = 0; i < 100; i++) {
        cinematic_store *store = NULL;
        if (cinematic_store_open(c->rt, "search", NULL, &store) != CINEMATIC_OK) { c->failures++; continue; }
        recorder r;
        recorder_init(&r);
        if (cinematic_store_observe(store, recorder_fn, &r) != CINEMATIC_OK) c->failures++;
        if (send_query(store, "dune") != CINEMATIC_OK) c->failures++;
        if (send_submitted(store) != CINEMATIC_OK) c->failures++;
        if (i % 2 && cinematic_store_settle(store, 10000) != CINEMATIC_OK) c->failures++;
        if (cinematic_store_close(store) != CINEMATIC_OK) c->failures++;
        int after = recorder_count(&r);
        if (send_query(store, "x") != CINEMATIC_ERR_CLOSED) c->failures++;
        if (recorder_count(&r) != after) c->failures++; /* no callback after close returned */
        recorder_destroy(&r);
    }
    return NULL;
}

static void test_threads_open_close_churn(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    churner churners[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        churners[i] = (churner){.rt = rt, .start = &start};
        pthread_create(&threads[i], NULL, churn_main, &churners[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_EQ_INT(churners[i].failures, 0);
    }
    pthread_barrier_destroy(&start);
    CHECK_EQ_INT(atomic_load(&p.overlaps), 0);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.value[0].title", "alien");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
}

int main(void) {
    RUN_TEST(test_threads_immediate);
    RUN_TEST(test_threads_queued);
    RUN_TEST(test_threads_open_close_churn);
    return TEST_SUMMARY();
}
