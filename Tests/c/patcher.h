/*
 * A patch recorder for cinematic_store_observe_patches: rebuilds the state from each
 * delivery's JSON Patch (json_patch.h, strict), checks sequence numbers and shapes, and keeps
 * every operation's path since the last patcher_mark (which parts an intent touched).
 */
#ifndef CINEMATIC_TEST_PATCHER_H
#define CINEMATIC_TEST_PATCHER_H

#include "harness.h"
#include "../../examples/c/json_patch.h"

#define PATCHER_PATHS 256

typedef struct {
    pthread_mutex_t lock;
    json_t *doc;            /* the state rebuilt from the deliveries */
    long long seq;          /* the last delivery's seq */
    int deliveries, bad;    /* bad: a gap, a patch that did not apply, an unknown shape */
    int full_states;        /* deliveries carrying "state" */
    char last[1 << 16];     /* the last envelope (cut) */
    size_t last_bytes, total_bytes;
    char error[256];
    char paths[PATCHER_PATHS][96]; /* each operation's "op path" since patcher_mark, distinct, cut */
    int path_count, paths_dropped;
} patcher;

static inline void patcher_init(patcher *p) {
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
}

static inline void patcher_destroy(patcher *p) {
    json_decref(p->doc);
    pthread_mutex_destroy(&p->lock);
}

static inline void patcher_fail(patcher *p, const char *why, const char *envelope) {
    if (!p->bad++) snprintf(p->error, sizeof p->error, "%s: %.180s", why, envelope);
}

/* Keeps each operation's "op path" (distinct ones, at most PATCHER_PATHS). */
static inline void patcher_keep_paths(patcher *p, json_t *patch) {
    size_t i;
    json_t *each;
    json_array_foreach(patch, i, each) {
        char entry[96];
        snprintf(entry, sizeof entry, "%s %s", json_string_value(json_object_get(each, "op")), json_string_value(json_object_get(each, "path")));
        int known = 0;
        for (int k = 0; k < p->path_count && !known; k++) known = strcmp(p->paths[k], entry) == 0;
        if (known) continue;
        if (p->path_count == PATCHER_PATHS) { p->paths_dropped++; continue; }
        memcpy(p->paths[p->path_count++], entry, sizeof entry);
    }
}

/* Forgets the paths kept so far: what follows is one intent's. */
static inline void patcher_mark(patcher *p) {
    pthread_mutex_lock(&p->lock);
    p->path_count = p->paths_dropped = 0;
    pthread_mutex_unlock(&p->lock);
}

static inline void patcher_fn(void *userdata, cinematic_store *store, const char *envelope) {
    (void)store;
    patcher *p = userdata;
    json_t *root = json_loads(envelope, 0, NULL);
    pthread_mutex_lock(&p->lock);
    p->deliveries++;
    p->last_bytes = strlen(envelope);
    p->total_bytes += p->last_bytes;
    snprintf(p->last, sizeof p->last, "%s", envelope);
    json_t *seq = json_object_get(root, "seq"), *state = json_object_get(root, "state"), *patch = json_object_get(root, "patch");
    if (!root || !json_is_integer(seq) || (state != NULL) == (patch != NULL)) {
        patcher_fail(p, "not a patched delivery", envelope);
    } else if (state) {
        if (json_integer_value(seq) != 1) patcher_fail(p, "a whole state whose seq is not 1", envelope);
        json_decref(p->doc);
        p->doc = json_deep_copy(state);
        p->seq = 1;
        p->full_states++;
    } else {
        if (json_integer_value(seq) != p->seq + 1) patcher_fail(p, "a gap in seq", envelope);
        if (!p->doc || json_array_size(patch) == 0 || !jp_apply(&p->doc, patch)) patcher_fail(p, "a patch that does not apply", envelope);
        patcher_keep_paths(p, patch);
        p->seq = json_integer_value(seq);
    }
    pthread_mutex_unlock(&p->lock);
    json_decref(root);
}

/* The rebuilt state equals cinematic_store_state byte for byte. */
static inline int patcher_matches(patcher *p, cinematic_store *store, const char *where) {
    char *state = state_of(store);
    pthread_mutex_lock(&p->lock);
    char *rebuilt = p->doc ? json_dumps(p->doc, JSON_COMPACT | JSON_REAL_PRECISION(15)) : NULL;
    int ok = CHECK_MSG(state && rebuilt && strcmp(state, rebuilt) == 0, "%s: the patched state differs from cinematic_store_state:\n"
                       "  patched %.300s\n  state   %.300s", where, rebuilt ? rebuilt : "NULL", state ? state : "NULL");
    ok &= CHECK_MSG(p->bad == 0, "%s: %d bad deliveries, the first %s", where, p->bad, p->error);
    pthread_mutex_unlock(&p->lock);
    free(rebuilt);
    cinematic_free(state);
    return ok;
}

/* How many operations of the last delivery are `op` at exactly `path`, and how many in all. */
static inline int last_ops(patcher *p, const char *op, const char *path, int *total) {
    pthread_mutex_lock(&p->lock);
    json_t *root = json_loads(p->last, 0, NULL);
    pthread_mutex_unlock(&p->lock);
    json_t *patch = json_object_get(root, "patch"), *each;
    size_t i;
    int n = 0;
    json_array_foreach(patch, i, each) {
        if (strcmp(json_string_value(json_object_get(each, "op")), op) == 0 &&
            strcmp(json_string_value(json_object_get(each, "path")), path) == 0) n++;
    }
    if (total) *total = (int)json_array_size(patch);
    json_decref(root);
    return n;
}

/* Waits (bounded) until the state rebuilt from the patches is cinematic_store_state's. */
static inline int patcher_caught_up(patcher *p, cinematic_store *store, int timeout_ms) {
    long long until = h_now_ms() + timeout_ms;
    for (;;) {
        char *state = state_of(store);
        pthread_mutex_lock(&p->lock);
        char *rebuilt = p->doc ? json_dumps(p->doc, JSON_COMPACT | JSON_REAL_PRECISION(15)) : NULL;
        pthread_mutex_unlock(&p->lock);
        int same = state && rebuilt && strcmp(state, rebuilt) == 0;
        free(rebuilt);
        cinematic_free(state);
        if (same) return 1;
        if (h_now_ms() > until) {
            char *now = state_of(store);
            pthread_mutex_lock(&p->lock);
            char *rebuilt_now = p->doc ? json_dumps(p->doc, JSON_COMPACT | JSON_REAL_PRECISION(15)) : NULL;
            pthread_mutex_unlock(&p->lock);
            fprintf(stderr, "  state   %.400s\n  patched %.400s\n", now ? now : "NULL", rebuilt_now ? rebuilt_now : "NULL");
            free(rebuilt_now);
            cinematic_free(now);
            return 0;
        }
        h_sleep_ms(2);
    }
}

#endif /* CINEMATIC_TEST_PATCHER_H */
