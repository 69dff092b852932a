/*
 * favorites.h: what the favorites C tests share (test_favorites*.c): two movies, reading a
 * Favorites state (how often an id is listed), bounded waits for a list, a Favorites store
 * opened and loaded, the heart toggle, and the first recorded state with a value.
 *
 * The favorites and detail stores never settle after "task" (they observe the favorites),
 * so these tests wait for states with bounded polls (wait_state and friends in fixtures.h):
 * every wait has a deadline of a few seconds and the assertion after it fails on timeout.
 */
#ifndef CINEMATIC_TEST_FAVORITES_H
#define CINEMATIC_TEST_FAVORITES_H

#include "harness.h"

#define DUNE 15249
#define GODFATHER 20545

/* How many entries of the favorites list have id; -1 when the list is not loaded. */
static inline int count_id(const char *state, long long id) {
    char phase[16];
    if (!json_get(state, "favorites.phase", phase, sizeof phase) || strcmp(phase, "loaded") != 0) return -1;
    int n = json_array_len(state, "favorites.value");
    int count = 0;
    for (int i = 0; i < n; i++) {
        char p[64];
        snprintf(p, sizeof p, "favorites.value[%d].id", i);
        if (json_int(state, p, -1) == id) count++;
    }
    return count;
}

static inline int pred_loaded(const char *state, void *ctx) {
    (void)ctx;
    return json_array_len(state, "favorites.value") >= 0 && count_id(state, 0) >= 0;
}

typedef struct {
    long long id;
    int count;
} id_count;

static inline int pred_id_count(const char *state, void *ctx) {
    const id_count *want = ctx;
    return count_id(state, want->id) == want->count;
}

static inline int pred_len(const char *state, void *ctx) {
    return count_id(state, 0) >= 0 && json_array_len(state, "favorites.value") == *(int *)ctx;
}

/* Waits until the favorites store lists id exactly count times. */
static inline char *wait_listed(cinematic_store *favorites, long long id, int count) {
    id_count want = {id, count};
    return wait_state(favorites, pred_id_count, &want, H_WAIT_MS, NULL);
}

static inline char *wait_len(cinematic_store *favorites, int n) {
    return wait_state(favorites, pred_len, &n, H_WAIT_MS, NULL);
}

/* Opens a favorites store, sends task and waits for the first list; returns it (owned). */
static inline cinematic_store *open_favorites(cinematic_runtime *rt, char **first_state) {
    cinematic_store *store = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = wait_state(store, pred_loaded, NULL, H_WAIT_MS, NULL);
    CHECK_JSON_EQ(state, "favorites.phase", "loaded");
    CHECK_JSON_EQ(state, "removalError", "null");
    if (first_state) *first_state = state;
    else cinematic_free(state);
    return store;
}

static inline int send_toggle(cinematic_store *detail) { return cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"); }

/* The index of the first recorded state from `from` on whose value at path is expected, or -1. */
static inline int first_state_with(recorder *r, int from, const char *path, const char *expected) {
    for (int i = from; i < recorder_count(r); i++) {
        char buf[256];
        const char *state = recorder_state(r, i);
        if (state && json_get(state, path, buf, sizeof buf) && strcmp(buf, expected) == 0) return i;
    }
    return -1;
}

#endif /* CINEMATIC_TEST_FAVORITES_H */
