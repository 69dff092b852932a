/*
 * test_store.h: a TestStore for C tests (header-only, on top of harness.h; docs/testing.md).
 *
 * A store on a runtime built for tests (manual clock, host catalog with canned answers,
 * in-memory favorites, history on). Each step asserts exactly which state members the intent
 * changed (from the store's history) and, optionally, their values ("path=value", strings
 * without quotes), then moves on; failures name the step, the members and the paths:
 *
 *     ts_store ts;
 *     ts_open(&ts, "search", NULL);
 *     ts_answer(&ts, "\"query\":\"dune\"", "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984}]}");
 *     TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"dune\"}", "query", "query=dune");
 *     ts_advance(&ts, 250);
 *     TS_RECEIVE(&ts, "searchNow", "results", "results.phase=loading");
 *     TS_RECEIVE(&ts, "resultsLoaded", "results,pagesLoaded,isExhausted", "results.value[0].title=Dune");
 *     TS_FINISH(&ts);   // no effect running, every fed-back intent received; closes
 *
 * The `changed` argument is the exact set of members, comma-separated ("" for none): a
 * member changed but not named fails, as does one named but unchanged.
 */
#ifndef CINEMATIC_TEST_STORE_H
#define CINEMATIC_TEST_STORE_H

#include "harness.h"

#define TS_CANNED_MAX 32
#define TS_WAIT_MS 5000

typedef struct {
    const char *contains; /* the request JSON contains this text */
    const char *answer;   /* NULL: held (answer with ts_respond) */
    int used;
} ts_canned;

typedef struct {
    cinematic_runtime *rt;
    cinematic_store *store;
    const char *feature;
    long long seen; /* the last history seq consumed */
    pthread_mutex_t lock;
    ts_canned canned[TS_CANNED_MAX];
    int canned_count;
    uint64_t held[TS_CANNED_MAX];
    char held_json[TS_CANNED_MAX][256];
    int held_count;
} ts_store;

static inline void ts_provider(void *userdata, uint64_t id, const char *request) {
    ts_store *ts = (ts_store *)userdata;
    h_wire_log("request", NULL, request);
    if (strstr(request, "\"op\":\"cancel\"")) return; /* ignored, as many network layers do */
    const char *answer = NULL;
    pthread_mutex_lock(&ts->lock);
    int found = 0;
    for (int i = 0; i < ts->canned_count; i++) {
        if (!ts->canned[i].used && strstr(request, ts->canned[i].contains)) {
            ts->canned[i].used = 1;
            answer = ts->canned[i].answer;
            found = 1;
            break;
        }
    }
    if ((!found || !answer) && ts->held_count < TS_CANNED_MAX) {
        ts->held[ts->held_count] = id;
        snprintf(ts->held_json[ts->held_count], sizeof ts->held_json[0], "%s", request);
        ts->held_count++;
    }
    pthread_mutex_unlock(&ts->lock);
    if (answer) cinematic_runtime_respond(ts->rt, id, answer);
}

/* Opens a store of feature (args: JSON or NULL) on a fresh test runtime. Returns 1 on success. */
static inline int ts_open(ts_store *ts, const char *feature, const char *args) {
    memset(ts, 0, sizeof *ts);
    pthread_mutex_init(&ts->lock, NULL);
    ts->feature = feature;
    int ok = CHECK_MSG(cinematic_runtime_open("{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false,\"history\":10000}",
                                              &ts->rt) == CINEMATIC_OK, "ts_open: runtime");
    ok = ok && CHECK_MSG(cinematic_runtime_set_provider(ts->rt, ts_provider, ts) == CINEMATIC_OK, "ts_open: provider");
    ok = ok && CHECK_MSG(cinematic_store_open(ts->rt, feature, args, &ts->store) == CINEMATIC_OK, "ts_open: store %s", feature);
    if (ok) h_wire_note(ts->store, feature);
    return ok;
}

/* A canned answer, used once, for the first request whose JSON contains `contains`
 * (answer NULL: hold that request until ts_respond). Register before the request comes. */
static inline void ts_answer(ts_store *ts, const char *contains, const char *answer) {
    pthread_mutex_lock(&ts->lock);
    if (ts->canned_count < TS_CANNED_MAX) ts->canned[ts->canned_count++] = (ts_canned){contains, answer, 0};
    pthread_mutex_unlock(&ts->lock);
}

/* Answers the first held request whose JSON contains `contains` (waiting for it, bounded). */
static inline int ts_respond(ts_store *ts, const char *contains, const char *answer) {
    long long deadline = h_now_ms() + TS_WAIT_MS;
    for (;;) {
        uint64_t id = 0;
        pthread_mutex_lock(&ts->lock);
        for (int i = 0; i < ts->held_count; i++) {
            if (ts->held[i] && strstr(ts->held_json[i], contains)) { id = ts->held[i]; ts->held[i] = 0; break; }
        }
        pthread_mutex_unlock(&ts->lock);
        if (id) return cinematic_runtime_respond(ts->rt, id, answer) == CINEMATIC_OK;
        if (h_now_ms() > deadline) return CHECK_MSG(0, "ts_respond: no held request contains %s", contains);
        h_sleep_ms(1);
    }
}

/* Moves the manual clock. */
static inline void ts_advance(ts_store *ts, long long ms) {
    CHECK_MSG(cinematic_runtime_advance_clock(ts->rt, ms) == CINEMATIC_OK, "ts_advance(%lld)", ms);
}

/* The history entries after ts->seen: owned JSON text of the history, and the index of the
 * first new entry and the count of new ones. */
static inline char *ts_history(ts_store *ts, int *first, int *count) {
    char *history = NULL;
    *first = 0;
    *count = 0;
    if (cinematic_store_history(ts->store, &history) != CINEMATIC_OK) return NULL;
    int n = json_array_len(history, "");
    char path[32];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "[%d].seq", i);
        if (json_int(history, path, 0) > ts->seen) {
            if (*count == 0) *first = i;
            (*count)++;
        }
    }
    return history;
}

/* Checks entry `index` of history: the changed set, then each "path=value" check. */
static inline void ts_check(ts_store *ts, const char *file, int line, const char *label, const char *history, int index,
                            const char *changed, va_list checks) {
    char path[64], got[1024], want[256];
    snprintf(path, sizeof path, "[%d].seq", index);
    ts->seen = json_int(history, path, ts->seen);
    /* The changed members, as a comma list, compared as a set. */
    char actual[512] = "";
    snprintf(path, sizeof path, "[%d].changed", index);
    int members = json_array_len(history, path);
    for (int i = 0; i < members; i++) {
        snprintf(path, sizeof path, "[%d].changed[%d]", index, i);
        json_get(history, path, got, sizeof got);
        if (i) strncat(actual, ",", sizeof actual - strlen(actual) - 1);
        strncat(actual, got, sizeof actual - strlen(actual) - 1);
    }
    int same = 1;
    char unasserted[512] = "", unchanged[512] = "";
    for (char *p = actual; *p;) { /* every member that changed is named */
        size_t len = strcspn(p, ",");
        snprintf(want, sizeof want, "%.*s", (int)len, p);
        char padded[600];
        snprintf(padded, sizeof padded, ",%s,", changed);
        char needle[300];
        snprintf(needle, sizeof needle, ",%s,", want);
        if (!strstr(padded, needle)) { same = 0; strncat(unasserted, " ", 2); strncat(unasserted, want, 255); }
        p += len + (p[len] == ',');
    }
    for (const char *p = changed; *p;) { /* every member named changed */
        size_t len = strcspn(p, ",");
        snprintf(want, sizeof want, "%.*s", (int)len, p);
        char padded[600];
        snprintf(padded, sizeof padded, ",%s,", actual);
        char needle[300];
        snprintf(needle, sizeof needle, ",%s,", want);
        if (!strstr(padded, needle)) { same = 0; strncat(unchanged, " ", 2); strncat(unchanged, want, 255); }
        p += len + (p[len] == ',');
    }
    h_record(same, file, line, "TestStore(%s) %s: members changed: [%s], expected [%s]%s%s%s%s", ts->feature, label, actual,
             changed, *unasserted ? "; changed but not asserted:" : "", unasserted, *unchanged ? "; asserted but unchanged:" : "",
             unchanged);
    for (const char *check = va_arg(checks, const char *); check; check = va_arg(checks, const char *)) {
        const char *eq = strchr(check, '=');
        if (!eq) { h_record(0, file, line, "TestStore(%s) %s: bad check \"%s\" (path=value)", ts->feature, label, check); continue; }
        snprintf(path, sizeof path, "[%d].state.%.*s", index, (int)(eq - check), check);
        int found = json_get(history, path, got, sizeof got);
        h_record(found && strcmp(got, eq + 1) == 0, file, line, "TestStore(%s) %s: %.*s: expected %s, actual %s", ts->feature,
                 label, (int)(eq - check), check, eq + 1, found ? got : "(absent)");
    }
}

static inline void ts_send_at(const char *file, int line, ts_store *ts, const char *intent, const char *changed, ...) {
    char label[300];
    snprintf(label, sizeof label, "send(%.280s)", intent);
    int first, count;
    char *history = ts_history(ts, &first, &count);
    if (count) h_record(0, file, line, "TestStore(%s) %s: %d intent(s) fed back by effects must be received first", ts->feature, label, count);
    cinematic_free(history);
    if (!h_record(cinematic_store_send(ts->store, intent) == CINEMATIC_OK, file, line, "TestStore(%s) %s: refused: %s",
                  ts->feature, label, cinematic_last_error() ? cinematic_last_error() : "")) return;
    history = ts_history(ts, &first, &count);
    va_list checks;
    va_start(checks, changed);
    if (h_record(count >= 1, file, line, "TestStore(%s) %s: not in the history", ts->feature, label))
        ts_check(ts, file, line, label, history, first, changed, checks);
    va_end(checks);
    cinematic_free(history);
}

static inline void ts_receive_at(const char *file, int line, ts_store *ts, const char *type, const char *changed, ...) {
    char label[128];
    snprintf(label, sizeof label, "receive(%s)", type);
    long long deadline = h_now_ms() + TS_WAIT_MS;
    int first = 0, count = 0;
    char *history = NULL;
    for (;;) { /* bounded wait: effects feed intents back from library threads */
        history = ts_history(ts, &first, &count);
        if (count || h_now_ms() > deadline) break;
        cinematic_free(history);
        h_sleep_ms(1);
    }
    if (h_record(count > 0, file, line, "TestStore(%s) %s: no intent was fed back within %d ms", ts->feature, label, TS_WAIT_MS)) {
        char path[32], got[128];
        snprintf(path, sizeof path, "[%d].intent.type", first);
        json_get(history, path, got, sizeof got);
        if (h_record(strcmp(got, type) == 0, file, line, "TestStore(%s) %s: the next intent fed back was %s", ts->feature, label, got)) {
            va_list checks;
            va_start(checks, changed);
            ts_check(ts, file, line, label, history, first, changed, checks);
            va_end(checks);
        }
    }
    cinematic_free(history);
}

/* Fails if effects still run (after a bounded wait) or fed-back intents were not received; closes. */
static inline void ts_finish_at(const char *file, int line, ts_store *ts) {
    long long deadline = h_now_ms() + 1000;
    int effects = -1;
    while ((cinematic_store_pending_effects(ts->store, &effects), effects) != 0 && h_now_ms() < deadline) h_sleep_ms(1);
    h_record(effects == 0, file, line, "TestStore(%s) finish(): %d effect(s) still running", ts->feature, effects);
    int first, count;
    char *history = ts_history(ts, &first, &count);
    h_record(count == 0, file, line, "TestStore(%s) finish(): %d intent(s) fed back by effects were not received", ts->feature, count);
    cinematic_free(history);
    cinematic_store_close(ts->store);
    cinematic_runtime_close(ts->rt);
    pthread_mutex_destroy(&ts->lock);
}

#define TS_SEND(ts, intent, ...) ts_send_at(__FILE__, __LINE__, ts, intent, __VA_ARGS__, (const char *)NULL)
#define TS_RECEIVE(ts, type, ...) ts_receive_at(__FILE__, __LINE__, ts, type, __VA_ARGS__, (const char *)NULL)
#define TS_FINISH(ts) ts_finish_at(__FILE__, __LINE__, ts)

#endif
