/* Callback delivery: "queued" (fd + dispatch) and "immediate", reentrancy, observe. */
#include "harness.h"

#include <poll.h>

#define QUEUED_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\",\"delivery\":\"queued\"}"
#define IMMEDIATE_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\"}"

/* True when fd is readable within timeout_ms (0: right now). */
static int readable(int fd, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, timeout_ms);
    return n == 1 && (p.revents & POLLIN);
}

static int dispatch(cinematic_runtime *rt) {
    int count = -1;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    return count;
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

/* ---- Reentrancy: a callback may call send and state. ---- */

typedef struct {
    cinematic_store *store;
    atomic_int depth;
    atomic_int max_depth;
    int calls;
    char seen[8][64];
    int send_rc;
    int state_rc;
    char state_inside[256];
    const char *envelope_after_send; /* must be NULL */
} reentrant;

static void reentrant_fn(void *userdata, cinematic_store *store, const char *state_json) {
    reentrant *r = userdata;
    int depth = atomic_fetch_add(&r->depth, 1) + 1;
    if (depth > atomic_load(&r->max_depth)) atomic_store(&r->max_depth, depth);
    if (r->calls < 8) json_get(state_json, "query", r->seen[r->calls], sizeof r->seen[0]);
    r->calls++;
    char query[64];
    json_get(state_json, "query", query, sizeof query);
    if (strcmp(query, "p") == 0) {
        r->send_rc = send_query(store, "q");
        r->envelope_after_send = cinematic_last_error();
        char *inside = NULL;
        r->state_rc = cinematic_store_state(store, &inside);
        if (inside) snprintf(r->state_inside, sizeof r->state_inside, "%s", inside);
        cinematic_free(inside);
    }
    atomic_fetch_sub(&r->depth, 1);
}

static void check_reentrancy(const char *config) {
    cinematic_runtime *rt = open_runtime(config);
    int queued = strstr(config, "queued") != NULL;
    cinematic_store *store = open_search(rt);
    reentrant r = {.store = store, .send_rc = -1, .state_rc = -1};
    atomic_init(&r.depth, 0);
    atomic_init(&r.max_depth, 0);
    CHECK_STATUS(cinematic_store_observe(store, reentrant_fn, &r), CINEMATIC_OK);
    /* One-letter queries start no search, so settle has nothing to wait for. */
    int rc = send_query(store, "p");
    CHECK_EQ_INT(rc, CINEMATIC_OK); /* the envelope is checked in test_last_error_not_leaked */
    if (queued) {
        for (int i = 0; i < 10; i++) if (dispatch(rt) == 0) break;
    }
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(r.send_rc, CINEMATIC_OK);
    CHECK(r.envelope_after_send == NULL);
    CHECK_EQ_INT(r.state_rc, CINEMATIC_OK);
    CHECK_JSON_EQ(r.state_inside, "query", "q"); /* send reduced before returning */
    CHECK_EQ_INT(r.calls, 3);
    CHECK_STR_EQ(r.seen[0], "");
    CHECK_STR_EQ(r.seen[1], "p");
    CHECK_STR_EQ(r.seen[2], "q");
    CHECK_EQ_INT(atomic_load(&r.max_depth), 1); /* q was delivered after p's callback returned */
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "q");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_reentrancy_immediate(void) { check_reentrancy(IMMEDIATE_CONFIG); }
static void test_reentrancy_queued(void) { check_reentrancy(QUEUED_CONFIG); }

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

/* ---- Callbacks must not dispatch or settle. ---- */

typedef struct {
    cinematic_runtime *rt;
    cinematic_store *store;
    int calls;
    int dispatch_rc;
    int dispatch_count;
    int settle_rc;
    int respond_rc;
    char dispatch_envelope[512];
    char settle_envelope[512];
} forbidden;

static void forbidden_state_fn(void *userdata, cinematic_store *store, const char *state_json) {
    (void)state_json;
    forbidden *f = userdata;
    f->calls++;
    f->dispatch_count = 42;
    f->dispatch_rc = cinematic_runtime_dispatch(f->rt, &f->dispatch_count);
    const char *e = cinematic_last_error();
    snprintf(f->dispatch_envelope, sizeof f->dispatch_envelope, "%s", e ? e : "NULL");
    f->settle_rc = cinematic_store_settle(store, 100);
    e = cinematic_last_error();
    snprintf(f->settle_envelope, sizeof f->settle_envelope, "%s", e ? e : "NULL");
}

static void check_forbidden_in_state_callback(const char *config) {
    forbidden f = {.dispatch_rc = -1, .settle_rc = -1};
    f.rt = open_runtime(config);
    f.store = open_search(f.rt);
    /* Only the statuses here: the envelope after these is test_last_error_not_leaked's. */
    CHECK_EQ_INT(cinematic_store_observe(f.store, forbidden_state_fn, &f), CINEMATIC_OK);
    if (strstr(config, "queued")) {
        int count = -1;
        CHECK_EQ_INT(cinematic_runtime_dispatch(f.rt, &count), CINEMATIC_OK);
        CHECK_EQ_INT(count, 1);
    }
    CHECK_EQ_INT(f.calls, 1);
    CHECK_EQ_INT(f.dispatch_rc, CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(f.dispatch_count, 0);
    CHECK_JSON_EQ(f.dispatch_envelope, "status", "misuse");
    CHECK_EQ_INT(f.settle_rc, CINEMATIC_ERR_MISUSE);
    CHECK_JSON_EQ(f.settle_envelope, "status", "misuse");
    /* Outside a callback both work again. */
    CHECK_STATUS(cinematic_store_settle(f.store, 1000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_dispatch(f.rt, NULL), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe(f.store, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(f.rt), CINEMATIC_OK);
}

static void test_dispatch_and_settle_inside_callback_queued(void) { check_forbidden_in_state_callback(QUEUED_CONFIG); }
static void test_dispatch_and_settle_inside_callback_immediate(void) { check_forbidden_in_state_callback(IMMEDIATE_CONFIG); }

/* The same inside a provider callback. */
static forbidden provider_forbidden;

static void forbidden_provider_fn(void *userdata, uint64_t id, const char *request_json) {
    (void)userdata;
    forbidden *f = &provider_forbidden;
    if (!strstr(request_json, "\"search\"")) return;
    f->calls++;
    f->dispatch_rc = cinematic_runtime_dispatch(f->rt, NULL);
    f->settle_rc = cinematic_store_settle(f->store, 100);
    const char *e = cinematic_last_error();
    snprintf(f->settle_envelope, sizeof f->settle_envelope, "%s", e ? e : "NULL");
    /* respond is allowed from inside */
    f->respond_rc = cinematic_runtime_respond(f->rt, id, "{\"movies\":[]}");
}

static void test_dispatch_and_settle_inside_provider(void) {
    forbidden *f = &provider_forbidden;
    *f = (forbidden){.dispatch_rc = -1, .settle_rc = -1, .respond_rc = -1};
    f->rt = open_runtime(IMMEDIATE_CONFIG);
    CHECK_STATUS(cinematic_runtime_set_provider(f->rt, forbidden_provider_fn, NULL), CINEMATIC_OK);
    f->store = open_search(f->rt);
    CHECK_STATUS(send_query(f->store, "dune"), CINEMATIC_OK);
    CHECK_EQ_INT(send_submitted(f->store), CINEMATIC_OK); /* may run the provider: rc only */
    CHECK_EQ_INT(cinematic_store_settle(f->store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(f->calls, 1);
    CHECK_EQ_INT(f->dispatch_rc, CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(f->settle_rc, CINEMATIC_ERR_MISUSE);
    CHECK_JSON_EQ(f->settle_envelope, "status", "misuse");
    CHECK_EQ_INT(f->respond_rc, CINEMATIC_OK);
    char *state = state_of(f->store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_EQ_INT(json_array_len(state, "results.value"), 0);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(f->rt), CINEMATIC_OK);
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

/* ---- A call that ran callbacks reports its own outcome, not theirs. ---- */

static void failing_fn(void *userdata, cinematic_store *store, const char *state_json) {
    (void)userdata;
    (void)state_json;
    /* A call that fails inside the callback (an unknown intent). */
    (void)cinematic_store_send(store, "{\"type\":\"nope\"}");
}

static void test_last_error_not_leaked_from_callbacks(void) {
    /* "Every status-returning call clears it first, so after a success it is NULL": a call
     * that succeeds must not report the error of a call a callback made during it. */
    cinematic_runtime *rt = open_runtime(IMMEDIATE_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(cinematic_store_observe(store, failing_fn, NULL), CINEMATIC_OK); /* runs it (current state) */
    CHECK_STATUS(send_query(store, "a"), CINEMATIC_OK);                          /* runs it again */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    rt = open_runtime(QUEUED_CONFIG);
    store = open_search(rt);
    CHECK_STATUS(cinematic_store_observe(store, failing_fn, NULL), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "a"), CINEMATIC_OK);
    int count = -1;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK); /* runs both */
    CHECK_EQ_INT(count, 2);
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
    RUN_TEST(test_queued_fd_and_dispatch);
    RUN_TEST(test_queued_poll_loop_thread);
    RUN_TEST(test_immediate_has_no_fd);
    RUN_TEST(test_immediate_never_concurrent_and_ordered);
    RUN_TEST(test_reentrancy_immediate);
    RUN_TEST(test_reentrancy_queued);
    RUN_TEST(test_observe_replace_and_remove);
    RUN_TEST(test_observe_replace_drops_queued_states);
    RUN_TEST(test_dispatch_and_settle_inside_callback_queued);
    RUN_TEST(test_dispatch_and_settle_inside_callback_immediate);
    RUN_TEST(test_dispatch_and_settle_inside_provider);
    RUN_TEST(test_concurrent_dispatch_returns_zero);
    RUN_TEST(test_last_error_not_leaked_from_callbacks);
    RUN_TEST(test_concurrent_observe_leaves_one_callback);
    return TEST_SUMMARY();
}
