/*
 * recording_callbacks.h: the callbacks the C tests register, each recording what it receives:
 * a catalog provider (provider_fn: every request, answered later by the test or at once) and
 * a state observer (recorder_fn: every state, copied, and the thread it ran on). Both count
 * callbacks that overlap, which the delivery rules forbid.
 *
 * Part of harness.h (tests include harness.h, which includes this file after what it needs).
 */
#ifndef CINEMATIC_TEST_RECORDING_CALLBACKS_H
#define CINEMATIC_TEST_RECORDING_CALLBACKS_H

#ifndef CINEMATIC_TEST_HARNESS_H
#error "include harness.h, which includes this file after what it needs"
#endif

/* ------------------------------------------------------------------------------------ */
/* A recording catalog provider                                                          */

/* One movie list answer: {"movies":[{"id":id,"title":title,"year":year}]}. */
static inline void movies_answer(char *buf, size_t size, int id, const char *title, int year) {
    snprintf(buf, size, "{\"movies\":[{\"id\":%d,\"title\":\"%s\",\"year\":%d}]}", id, title, year);
}

/* A catalog provider that records every call. In PROVIDER_HOLD mode it answers nothing (the
 * test answers later); in PROVIDER_AUTO mode it answers every search at once, from inside
 * the callback, with {"movies":[{"id":1,"title":"<query>","year":2000}]}. It never reacts
 * to {"op":"cancel"}: it only records it. */
enum { PROVIDER_HOLD = 0, PROVIDER_AUTO = 1 };
#define PROVIDER_MAX 4096

/* One request the provider received. */
typedef struct {
    uint64_t id;
    char op[16];
    char query[128];
    char json[256]; /* the request as received */
} provider_call;

/* The provider's calls so far and its callback checks (see above). */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    cinematic_runtime *rt;
    int mode;
    int count;
    provider_call calls[PROVIDER_MAX];
    atomic_int in_callback;
    atomic_int overlaps;      /* callbacks that found another one running */
    atomic_int respond_errors; /* AUTO answers that did not return OK */
    atomic_int *shared_in_callback; /* optional: one flag for every callback of a runtime */
} provider;

/* Starts p for runtime rt in mode (PROVIDER_HOLD or PROVIDER_AUTO), with no call recorded. */
static inline void provider_init(provider *p, cinematic_runtime *rt, int mode) {
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    p->rt = rt;
    p->mode = mode;
    atomic_init(&p->in_callback, 0);
    atomic_init(&p->overlaps, 0);
    atomic_init(&p->respond_errors, 0);
}

/* Releases what provider_init made (not the runtime). */
static inline void provider_destroy(provider *p) {
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
}

/* The cinematic_request_fn to register with userdata a provider *. */
static inline void provider_fn(void *userdata, uint64_t request_id, const char *request_json) {
    provider *p = userdata;
    atomic_int *flag = p->shared_in_callback ? p->shared_in_callback : &p->in_callback;
    if (atomic_exchange(flag, 1) != 0) atomic_fetch_add(&p->overlaps, 1);
    h_wire_log("request", NULL, request_json);
    provider_call call = {.id = request_id};
    if (!json_get(request_json, "op", call.op, sizeof call.op)) snprintf(call.op, sizeof call.op, "?");
    json_get(request_json, "query", call.query, sizeof call.query);
    snprintf(call.json, sizeof call.json, "%s", request_json ? request_json : "(null)");
    pthread_mutex_lock(&p->lock);
    int mode = p->mode;
    if (p->count < PROVIDER_MAX) p->calls[p->count++] = call;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    if (mode == PROVIDER_AUTO && strcmp(call.op, "search") == 0) {
        char answer[256];
        movies_answer(answer, sizeof answer, 1, call.query, 2000);
        int rc = cinematic_runtime_respond(p->rt, request_id, answer);
        if (rc != CINEMATIC_OK) atomic_fetch_add(&p->respond_errors, 1);
    }
    atomic_store(flag, 0);
}

/* Switches p between PROVIDER_HOLD and PROVIDER_AUTO for the calls to come. */
static inline void provider_set_mode(provider *p, int mode) {
    pthread_mutex_lock(&p->lock);
    p->mode = mode;
    pthread_mutex_unlock(&p->lock);
}

/* How many calls with op ("search", "cancel") were recorded. */
static inline int provider_count(provider *p, const char *op) {
    pthread_mutex_lock(&p->lock);
    int n = 0;
    for (int i = 0; i < p->count; i++) if (strcmp(p->calls[i].op, op) == 0) n++;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* The index-th call with op (0-based), copied to out. Returns 1 when it exists. */
static inline int provider_call_at(provider *p, const char *op, int index, provider_call *out) {
    pthread_mutex_lock(&p->lock);
    int found = 0;
    for (int i = 0, n = 0; i < p->count; i++) {
        if (strcmp(p->calls[i].op, op) != 0) continue;
        if (n++ == index) { *out = p->calls[i]; found = 1; break; }
    }
    pthread_mutex_unlock(&p->lock);
    return found;
}

/* True when a call with op for request id was recorded. */
static inline int provider_has(provider *p, const char *op, uint64_t id) {
    pthread_mutex_lock(&p->lock);
    int found = 0;
    for (int i = 0; i < p->count; i++)
        if (p->calls[i].id == id && strcmp(p->calls[i].op, op) == 0) found = 1;
    pthread_mutex_unlock(&p->lock);
    return found;
}

/* Waits (on a condition, not a sleep loop) until at least n calls with op were recorded.
 * Returns 1 when they were, 0 after timeout_ms. */
static inline int provider_wait(provider *p, const char *op, int n, int timeout_ms) {
    struct timespec deadline = h_deadline(timeout_ms);
    pthread_mutex_lock(&p->lock);
    int ok = 0;
    for (;;) {
        int have = 0;
        for (int i = 0; i < p->count; i++) if (strcmp(p->calls[i].op, op) == 0) have++;
        if (have >= n) { ok = 1; break; }
        if (pthread_cond_timedwait(&p->changed, &p->lock, &deadline) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

/* ------------------------------------------------------------------------------------ */
/* A recording state observer                                                            */

/* A state observer that records every state it receives (copies) and the thread it ran on. */
#define RECORDER_MAX 4096

typedef struct {
    pthread_mutex_t lock;
    int count;
    char *states[RECORDER_MAX];
    cinematic_store *stores[RECORDER_MAX];
    char *overflow_last;            /* the newest state once more than RECORDER_MAX arrived */
    pthread_t last_thread;
    atomic_int in_callback;
    atomic_int overlaps;
    atomic_int *shared_in_callback; /* optional: one flag for every callback of a runtime */
    int spin;                       /* optional: busy iterations inside the callback */
} recorder;

/* Starts r with no state recorded. */
static inline void recorder_init(recorder *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    atomic_init(&r->in_callback, 0);
    atomic_init(&r->overlaps, 0);
}

/* Frees every state r recorded. */
static inline void recorder_destroy(recorder *r) {
    for (int i = 0; i < r->count && i < RECORDER_MAX; i++) free(r->states[i]);
    free(r->overflow_last);
    pthread_mutex_destroy(&r->lock);
}

/* The cinematic_state_fn to register with userdata a recorder *. */
static inline void recorder_fn(void *userdata, cinematic_store *store, const char *state_json) {
    recorder *r = userdata;
    atomic_int *flag = r->shared_in_callback ? r->shared_in_callback : &r->in_callback;
    if (atomic_exchange(flag, 1) != 0) atomic_fetch_add(&r->overlaps, 1);
    h_wire_log("state", h_wire_feature(store), state_json);
    pthread_mutex_lock(&r->lock);
    if (r->count < RECORDER_MAX) {
        r->states[r->count] = strdup(state_json ? state_json : "(null)");
        r->stores[r->count] = store;
    } else {
        free(r->overflow_last);
        r->overflow_last = strdup(state_json ? state_json : "(null)");
    }
    r->count++;
    r->last_thread = pthread_self();
    pthread_mutex_unlock(&r->lock);
    /* Holding the flag a little longer widens the window in which a concurrent callback
     * would be caught. */
    for (volatile int i = 0; i < r->spin; i++) {}
    atomic_store(flag, 0);
}

/* How many states r received (past RECORDER_MAX too). */
static inline int recorder_count(recorder *r) {
    pthread_mutex_lock(&r->lock);
    int n = r->count;
    pthread_mutex_unlock(&r->lock);
    return n;
}

/* The index-th recorded state (borrowed from the recorder), or NULL; -1 is the last one. */
static inline const char *recorder_state(recorder *r, int index) {
    pthread_mutex_lock(&r->lock);
    int n = r->count < RECORDER_MAX ? r->count : RECORDER_MAX;
    const char *state;
    if (index == -1 && r->count > RECORDER_MAX) {
        state = r->overflow_last;
    } else {
        if (index < 0) index += n;
        state = index >= 0 && index < n ? r->states[index] : NULL;
    }
    pthread_mutex_unlock(&r->lock);
    return state;
}

/* The index of the first state identical to the one before it, or -1: the header promises
 * each distinct state once, so a callback never repeats its previous state. */
static inline int recorder_first_repeat(recorder *r) {
    pthread_mutex_lock(&r->lock);
    int n = r->count < RECORDER_MAX ? r->count : RECORDER_MAX, repeat = -1;
    for (int i = 1; i < n && repeat < 0; i++)
        if (strcmp(r->states[i], r->states[i - 1]) == 0) repeat = i;
    pthread_mutex_unlock(&r->lock);
    return repeat;
}

#endif /* CINEMATIC_TEST_RECORDING_CALLBACKS_H */
