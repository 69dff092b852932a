/*
 * app.h: what the app store's C tests share (test_app*.c): its configs, child handles, sends
 * that must succeed, and the steps a person takes (search "alien", open a movie).
 */
#ifndef CINEMATIC_TEST_APP_H
#define CINEMATIC_TEST_APP_H

#include "harness.h"

/* A manual-clock runtime with the default debounce, with and without a debug history. */
#define CONFIG "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250}}"
#define HISTORY_CONFIG "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250},\"history\":50}"

/* A child handle of app (NULL, with a failure, if it cannot be had); logged as `feature`'s
 * states (NULL: the shown Detail, which is no feature's state, is not logged). */
static inline cinematic_store *scope_of(cinematic_store *app, const char *scope, const char *feature) {
    cinematic_store *child = NULL;
    int rc = cinematic_store_scope(app, scope, &child);
    if (!CHECK_MSG(rc == CINEMATIC_OK && child != NULL, "cinematic_store_scope(%s): %s %s", scope, cinematic_status_name(rc),
                   cinematic_last_error() ? cinematic_last_error() : ""))
        return NULL;
    if (feature) h_wire_note(child, feature);
    return child;
}

/* The raw text of the value at path in json, as an owned string ("" when absent). */
static inline char *part_of(const char *json, const char *path) {
    const char *start, *end;
    if (!json_find(json, path, &start, &end) || !end) return strdup("");
    return strndup(start, (size_t)(end - start));
}

/* Sends intent, which must succeed. */
static inline void send_ok(cinematic_store *store, const char *intent) {
    int rc = cinematic_store_send(store, intent);
    CHECK_MSG(rc == CINEMATIC_OK, "send %s: %s %s", intent, cinematic_status_name(rc), cinematic_last_error() ? cinematic_last_error() : "");
}

/* Sends {"type":type,"movieId":id}, which must succeed. */
static inline void send_movie(cinematic_store *store, const char *type, long long id) {
    char intent[128];
    snprintf(intent, sizeof intent, "{\"type\":\"%s\",\"movieId\":%lld}", type, id);
    send_ok(store, intent);
}

/* The search results for the query ctx (a string) have loaded. */
static inline int results_for(const char *state, void *ctx) {
    char phase[16], query[64];
    return json_get(state, "search.results.phase", phase, sizeof phase) && strcmp(phase, "loaded") == 0 &&
           json_get(state, "search.results.query", query, sizeof query) && strcmp(query, (const char *)ctx) == 0;
}

/* Types "alien" (through `via`: the app or its Search child), lets the debounce pass and
 * waits for the results; returns the third result's id. */
static inline long long search_alien(cinematic_runtime *rt, cinematic_store *app, cinematic_store *via) {
    send_ok(via, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    int ok = 0;
    char *state = wait_state(app, results_for, "alien", H_WAIT_MS, &ok);
    CHECK_MSG(ok, "the results for alien never came: %.300s", state ? state : "(null)");
    long long id = json_int(state, "search.results.value[2].id", -1);
    cinematic_free(state);
    return id;
}

/* Opens movie id from a list and waits until its Detail (the last of "details") loaded. */
static inline void open_movie(cinematic_store *app, long long id, int depth) {
    send_movie(app, "opened", id);
    char path[64];
    snprintf(path, sizeof path, "details[%d].detail.phase", depth - 1);
    char *state = wait_json_eq(app, path, "loaded", H_WAIT_MS);
    CHECK_JSON_EQ(state, path, "loaded");
    snprintf(path, sizeof path, "details[%d].movieId", depth - 1);
    CHECK_EQ_INT(json_int(state, path, -1), id);
    cinematic_free(state);
}

#endif /* CINEMATIC_TEST_APP_H */
