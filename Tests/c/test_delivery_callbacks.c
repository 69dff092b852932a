/*
 * What a callback may call: send and state (reentrancy, with either delivery), not dispatch or
 * settle (CINEMATIC_ERR_MISUSE, from a state or a provider callback); and a call that ran
 * callbacks reports its own outcome, not theirs.
 */
#include "delivery.h"

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

int main(void) {
    RUN_TEST(test_reentrancy_immediate);
    RUN_TEST(test_reentrancy_queued);
    RUN_TEST(test_dispatch_and_settle_inside_callback_queued);
    RUN_TEST(test_dispatch_and_settle_inside_callback_immediate);
    RUN_TEST(test_dispatch_and_settle_inside_provider);
    RUN_TEST(test_last_error_not_leaked_from_callbacks);
    return TEST_SUMMARY();
}
