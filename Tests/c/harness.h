/*
 * harness.h: a tiny test harness for the C API tests of libcinematic, plus the fixtures the
 * test programs share (a small JSON reader, a recording catalog provider, a recording state
 * observer).
 *
 * Assertions record a failure with file:line and carry on; every assertion counts as one
 * passed or failed check. main() ends with `return TEST_SUMMARY();`, which prints exactly
 * "N passed, N failed" and returns non-zero on any failure. Assertions are thread-safe (they
 * may run inside library callbacks).
 *
 *     static void test_something(void) { CHECK_EQ_INT(1 + 1, 2); }
 *     int main(void) { RUN_TEST(test_something); return TEST_SUMMARY(); }
 *
 * CHECK_STATUS(call, CINEMATIC_ERR_X) runs the call, then (in a separate statement, so the
 * order is defined) reads cinematic_last_error(): after CINEMATIC_OK it must be NULL, after
 * an error it must be a JSON envelope whose "status" is the status' name. The envelope is
 * copied to h_envelope for further checks (CHECK_ENVELOPE_CONTAINS).
 */
#ifndef CINEMATIC_TEST_HARNESS_H
#define CINEMATIC_TEST_HARNESS_H

#define _GNU_SOURCE 1
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dirent.h>
#include <unistd.h>

#include "cinematic.h"

/* How long a bounded wait for a state lasts before the assertion after it fails. */
#define H_WAIT_MS 3000

/* ------------------------------------------------------------------------------------ */
/* Harness                                                                               */

static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER;
static int h_passed;
static int h_failed;
static const char *h_test = "(none)";
static int h_test_failed_before;
/* The last envelope seen by CHECK_STATUS (copied: the library's is borrowed). */
static _Thread_local char h_envelope[4096];

static inline int h_record(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int h_record(int ok, const char *file, int line, const char *fmt, ...) {
    pthread_mutex_lock(&h_lock);
    if (ok) {
        h_passed++;
    } else {
        h_failed++;
        va_list args;
        va_start(args, fmt);
        fprintf(stderr, "FAIL %s:%d [%s]: ", file, line, h_test);
        vfprintf(stderr, fmt, args);
        fputc('\n', stderr);
        va_end(args);
    }
    pthread_mutex_unlock(&h_lock);
    return ok;
}

#define CHECK(cond) h_record(!!(cond), __FILE__, __LINE__, "CHECK(%s)", #cond)

#define CHECK_MSG(cond, ...) h_record(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_EQ_INT(actual, expected)                                                        \
    do {                                                                                      \
        long long h_a_ = (long long)(actual), h_e_ = (long long)(expected);                   \
        h_record(h_a_ == h_e_, __FILE__, __LINE__, "%s == %s: got %lld, expected %lld",       \
                 #actual, #expected, h_a_, h_e_);                                             \
    } while (0)

#define CHECK_STR_EQ(actual, expected)                                                        \
    do {                                                                                      \
        const char *h_a_ = (actual), *h_e_ = (expected);                                      \
        h_record(h_a_ != NULL && h_e_ != NULL && strcmp(h_a_, h_e_) == 0, __FILE__, __LINE__, \
                 "%s == %s: got \"%s\", expected \"%s\"", #actual, #expected,                 \
                 h_a_ ? h_a_ : "(null)", h_e_ ? h_e_ : "(null)");                             \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                                  \
    do {                                                                                      \
        const char *h_h_ = (haystack), *h_n_ = (needle);                                      \
        h_record(h_h_ != NULL && strstr(h_h_, h_n_) != NULL, __FILE__, __LINE__,              \
                 "%s contains %s: \"%.600s\" lacks \"%s\"", #haystack, #needle,               \
                 h_h_ ? h_h_ : "(null)", h_n_);                                               \
    } while (0)

#define CHECK_STR_LACKS(haystack, needle)                                                     \
    do {                                                                                      \
        const char *h_h_ = (haystack), *h_n_ = (needle);                                      \
        h_record(h_h_ != NULL && strstr(h_h_, h_n_) == NULL, __FILE__, __LINE__,              \
                 "%s lacks %s: \"%.600s\" has \"%s\"", #haystack, #needle,                    \
                 h_h_ ? h_h_ : "(null)", h_n_);                                               \
    } while (0)

static inline int json_valid(const char *text);

/* Checks one status-returning call and its last-error envelope (see the top of the file). */
/* ------------------------------------------------------------------------------------ */
/* Wire log: with CINEMATIC_WIRE_LOG set to a file, every state, error envelope and provider  */
/* request the tests receive is appended as a JSON line, and `make test-c` validates them    */
/* all against schema/cinematic.schema.json (tools/wirecheck.py).                            */

#include <fcntl.h>

#define H_WIRE_STORES 4096
static pthread_mutex_t h_wire_lock = PTHREAD_MUTEX_INITIALIZER;
static cinematic_store *h_wire_handles[H_WIRE_STORES];
static const char *h_wire_features[H_WIRE_STORES];
static int h_wire_count;

/* Remembers which feature a store handle is (for the log; unknown stores log null). */
static inline void h_wire_note(cinematic_store *store, const char *feature) {
    pthread_mutex_lock(&h_wire_lock);
    if (store && h_wire_count < H_WIRE_STORES) {
        h_wire_handles[h_wire_count] = store;
        h_wire_features[h_wire_count++] = feature;
    }
    pthread_mutex_unlock(&h_wire_lock);
}

static inline const char *h_wire_feature(cinematic_store *store) {
    const char *feature = NULL;
    pthread_mutex_lock(&h_wire_lock);
    for (int i = h_wire_count - 1; i >= 0 && !feature; i--)
        if (h_wire_handles[i] == store) feature = h_wire_features[i];
    pthread_mutex_unlock(&h_wire_lock);
    return feature;
}

/* Appends {"kind":kind,"feature":feature|null,"value":json} with one write (O_APPEND). */
static inline void h_wire_log(const char *kind, const char *feature, const char *json) {
    const char *path = getenv("CINEMATIC_WIRE_LOG");
    if (!path || !*path || !json) return;
    size_t size = strlen(json) + strlen(kind) + (feature ? strlen(feature) : 0) + 64;
    char *line = malloc(size);
    if (!line) return;
    int length = snprintf(line, size, "{\"kind\":\"%s\",\"feature\":%s%s%s,\"value\":%s}\n", kind,
                          feature ? "\"" : "", feature ? feature : "null", feature ? "\"" : "", json);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t written = write(fd, line, (size_t)length);
        (void)written;
        close(fd);
    }
    free(line);
}

static inline int h_check_status(int got, const char *envelope, int expected, const char *call,
                                 const char *file, int line) {
    h_wire_log("envelope", NULL, envelope);
    h_envelope[0] = '\0';
    if (envelope) snprintf(h_envelope, sizeof h_envelope, "%s", envelope);
    if (got != expected) {
        return h_record(0, file, line, "%s: got status %d (%s), expected %d (%s); envelope %s", call,
                        got, cinematic_status_name(got), expected, cinematic_status_name(expected),
                        envelope ? envelope : "NULL");
    }
    if (expected == CINEMATIC_OK) {
        return h_record(envelope == NULL, file, line, "%s: OK but last_error is %s", call,
                        envelope ? envelope : "NULL");
    }
    char want[64];
    snprintf(want, sizeof want, "\"status\":\"%s\"", cinematic_status_name(expected));
    return h_record(envelope != NULL && json_valid(envelope) && strstr(envelope, want) != NULL,
                    file, line, "%s: status %s but envelope is %s", call,
                    cinematic_status_name(expected), envelope ? envelope : "NULL");
}

#define CHECK_STATUS(call, expected)                                                          \
    do {                                                                                      \
        int h_rc_ = (call);                                                                   \
        const char *h_env_ = cinematic_last_error();                                          \
        h_check_status(h_rc_, h_env_, (expected), #call, __FILE__, __LINE__);                 \
    } while (0)

/* Checks the envelope of the last CHECK_STATUS on this thread. */
#define CHECK_ENVELOPE_CONTAINS(needle) CHECK_STR_CONTAINS(h_envelope, needle)

static inline void h_run(void (*test)(void), const char *name) {
    pthread_mutex_lock(&h_lock);
    h_test = name;
    h_test_failed_before = h_failed;
    pthread_mutex_unlock(&h_lock);
    test();
    pthread_mutex_lock(&h_lock);
    printf("%s %s\n", h_failed == h_test_failed_before ? "ok  " : "FAIL", name);
    fflush(stdout);
    pthread_mutex_unlock(&h_lock);
}

#define RUN_TEST(fn) h_run(fn, #fn)

static inline int h_summary(void) {
    pthread_mutex_lock(&h_lock);
    int passed = h_passed, failed = h_failed;
    pthread_mutex_unlock(&h_lock);
    fflush(stderr);
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}

#define TEST_SUMMARY() h_summary()

/* Sleeps ms milliseconds: only to give a wrongly delivered callback a chance to show up. */
static inline void h_sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static inline struct timespec h_deadline(int timeout_ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += timeout_ms / 1000;
    t.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
    return t;
}

/* ------------------------------------------------------------------------------------ */
/* A small JSON reader: validation and lookup by path ("results.value[0].title").         */

static inline const char *j_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static inline const char *j_value(const char *p, int depth);

static inline int j_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* p at '"'; returns the character after the closing quote, or NULL. */
static inline const char *j_string(const char *p) {
    if (*p != '"') return NULL;
    p++;
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x20) return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++) if (!j_hex(p[i])) return NULL;
                p += 5;
            } else if (*p && strchr("\"\\/bfnrt", *p)) {
                p++;
            } else {
                return NULL;
            }
        } else {
            p++;
        }
    }
    return p + 1;
}

static inline const char *j_number(const char *p) {
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    return p;
}

static inline const char *j_value(const char *p, int depth) {
    if (depth > 256) return NULL;
    p = j_ws(p);
    switch (*p) {
    case '"': return j_string(p);
    case '{':
        p = j_ws(p + 1);
        if (*p == '}') return p + 1;
        for (;;) {
            p = j_string(j_ws(p));
            if (!p) return NULL;
            p = j_ws(p);
            if (*p != ':') return NULL;
            p = j_value(p + 1, depth + 1);
            if (!p) return NULL;
            p = j_ws(p);
            if (*p == '}') return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    case '[':
        p = j_ws(p + 1);
        if (*p == ']') return p + 1;
        for (;;) {
            p = j_value(p, depth + 1);
            if (!p) return NULL;
            p = j_ws(p);
            if (*p == ']') return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return j_number(p);
    }
}

/* True when text is one well-formed JSON document. */
static inline int json_valid(const char *text) {
    if (!text) return 0;
    const char *end = j_value(text, 0);
    return end != NULL && *j_ws(end) == '\0';
}

/* Finds the value at path (members separated by '.', array elements as [n]); stores its
 * first character and the character after it. Returns 1 when found. */
static inline int json_find(const char *json, const char *path, const char **start, const char **end) {
    if (!json || !json_valid(json)) return 0;
    const char *p = j_ws(json);
    const char *q = path;
    while (*q) {
        if (*q == '.') q++;
        if (*q == '[') {
            long index = strtol(q + 1, (char **)&q, 10);
            if (*q != ']') return 0;
            q++;
            if (*p != '[') return 0;
            p = j_ws(p + 1);
            if (*p == ']') return 0;
            for (long i = 0; i < index; i++) {
                p = j_ws(j_value(p, 0));
                if (*p != ',') return 0;
                p = j_ws(p + 1);
            }
        } else {
            size_t len = strcspn(q, ".[");
            if (*p != '{') return 0;
            p = j_ws(p + 1);
            if (*p == '}') return 0;
            for (;;) {
                const char *key_end = j_string(p);
                int match = (size_t)(key_end - p - 2) == len && strncmp(p + 1, q, len) == 0;
                p = j_ws(j_ws(key_end) + 1); /* past ':' */
                if (match) break;
                p = j_ws(j_value(p, 0));
                if (*p != ',') return 0;
                p = j_ws(p + 1);
            }
            q += len;
        }
    }
    *start = p;
    *end = j_value(p, 0);
    return 1;
}

/* Copies the raw text of the value at path (strings without their quotes, escapes kept)
 * into buf. Returns 1 when found. */
static inline int json_get(const char *json, const char *path, char *buf, size_t size) {
    const char *start, *end;
    if (size) buf[0] = '\0';
    if (!json_find(json, path, &start, &end)) return 0;
    if (*start == '"') { start++; end--; }
    size_t len = (size_t)(end - start);
    if (len >= size) len = size - 1;
    memcpy(buf, start, len);
    buf[len] = '\0';
    return 1;
}

/* The integer at path, or fallback. */
static inline long long json_int(const char *json, const char *path, long long fallback) {
    char buf[64];
    if (!json_get(json, path, buf, sizeof buf)) return fallback;
    char *end;
    long long value = strtoll(buf, &end, 10);
    return *end == '\0' && end != buf ? value : fallback;
}

/* The number of elements of the array at path, or -1. */
static inline int json_array_len(const char *json, const char *path) {
    const char *start, *end;
    if (!json_find(json, path, &start, &end) || *start != '[') return -1;
    const char *p = j_ws(start + 1);
    if (*p == ']') return 0;
    int count = 1;
    for (;;) {
        p = j_ws(j_value(p, 0));
        if (*p != ',') return count;
        p = j_ws(p + 1);
        count++;
    }
}

/* Checks that a JSON value at path has the raw text expected (strings without quotes). */
#define CHECK_JSON_EQ(json, path, expected)                                                   \
    do {                                                                                      \
        char h_buf_[1024];                                                                    \
        const char *h_j_ = (json);                                                            \
        int h_found_ = json_get(h_j_, (path), h_buf_, sizeof h_buf_);                         \
        h_record(h_found_ && strcmp(h_buf_, (expected)) == 0, __FILE__, __LINE__,             \
                 "%s at %s == \"%s\": got %s%s%s in %.600s", #json, (path), (expected),       \
                 h_found_ ? "\"" : "", h_found_ ? h_buf_ : "(missing)", h_found_ ? "\"" : "",  \
                 h_j_ ? h_j_ : "(null)");                                                     \
    } while (0)

/* ------------------------------------------------------------------------------------ */
/* Fixtures                                                                              */

/* A store's current state (owned copy: free with cinematic_free), or NULL. */
static inline char *state_of(cinematic_store *store) {
    char *json = (char *)0x1;
    int rc = cinematic_store_state(store, &json);
    if (rc != CINEMATIC_OK) {
        h_record(0, __FILE__, __LINE__, "cinematic_store_state failed: %s", cinematic_status_name(rc));
        return NULL;
    }
    h_wire_log("state", h_wire_feature(store), json);
    return json;
}

/* The end of a search state with no page loaded yet (the paging flags). */
#define SEARCH_FIRST_PAGE_FLAGS ",\"pagesLoaded\":0,\"isExhausted\":false,\"isLoadingMore\":false,\"loadMoreError\":null,\"hint\":null}"

/* Sends {"type":"queryChanged","query":query}; query must need no escaping. */
static inline int send_query(cinematic_store *store, const char *query) {
    char intent[512];
    snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", query);
    return cinematic_store_send(store, intent);
}

static inline int send_submitted(cinematic_store *store) {
    return cinematic_store_send(store, "{\"type\":\"submitted\"}");
}

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

typedef struct {
    uint64_t id;
    char op[16];
    char query[128];
    char json[256]; /* the request as received */
} provider_call;

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

static inline void provider_destroy(provider *p) {
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
}

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

static inline void recorder_init(recorder *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    atomic_init(&r->in_callback, 0);
    atomic_init(&r->overlaps, 0);
}

static inline void recorder_destroy(recorder *r) {
    for (int i = 0; i < r->count && i < RECORDER_MAX; i++) free(r->states[i]);
    free(r->overflow_last);
    pthread_mutex_destroy(&r->lock);
}

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

/* The suites written before the offline cache test what a provider itself answers: a host
 * catalog they open gets "offlineCache":false unless its config names a cache (the shared
 * default cache would serve one program's answers to another; test_offline_cache.c tests
 * the cache). Returns config, or the amended copy in buf. */
static inline const char *h_without_default_cache(const char *config, char *buf, size_t size) {
    if (!config || !strstr(config, "\"catalog\":\"host\"") || strstr(config, "\"offlineCache\"")) return config;
    size_t n = strlen(config);
    if (n < 2 || config[n - 1] != '}' || n + 24 > size) return config;
    snprintf(buf, size, "%.*s,\"offlineCache\":false}", (int)(n - 1), config);
    return buf;
}

/* Opens a runtime with config, failing the test (and returning NULL) if it cannot. */
static inline cinematic_runtime *open_runtime(const char *config) {
    cinematic_runtime *rt = NULL;
    char amended[1024];
    config = h_without_default_cache(config, amended, sizeof amended);
    int rc = cinematic_runtime_open(config, &rt);
    if (!h_record(rc == CINEMATIC_OK && rt != NULL, __FILE__, __LINE__,
                  "cinematic_runtime_open(%s): %s %s", config ? config : "NULL",
                  cinematic_status_name(rc), cinematic_last_error() ? cinematic_last_error() : ""))
        return NULL;
    return rt;
}

static inline cinematic_store *open_search(cinematic_runtime *rt) {
    cinematic_store *store = NULL;
    int rc = cinematic_store_open(rt, "search", NULL, &store);
    if (!h_record(rc == CINEMATIC_OK && store != NULL, __FILE__, __LINE__,
                  "cinematic_store_open(search): %s", cinematic_status_name(rc)))
        return NULL;
    h_wire_note(store, "search");
    return store;
}

/* ------------------------------------------------------------------------------------ */
/* Feature-test helpers (Discover, Favorites, Detail)                                     */

/* The number at path, or fallback. */
static inline double json_double(const char *json, const char *path, double fallback) {
    char buf[64];
    if (!json_get(json, path, buf, sizeof buf)) return fallback;
    char *end;
    double value = strtod(buf, &end);
    return *end == '\0' && end != buf ? value : fallback;
}

/* Milliseconds on a monotonic clock. */
static inline long long h_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A condition on a state (a JSON document). */
typedef int (*state_pred)(const char *state, void *ctx);

/* Bounded polling, for the stores that never settle (favorites and detail observe the
 * favorites after "task"): reads the state every 5 ms until pred holds or timeout_ms passes.
 * Returns the last state read (owned: cinematic_free), so the caller asserts on it, which
 * fails when the wait timed out. *ok (optional) tells whether pred held. */
static inline char *wait_state(cinematic_store *store, state_pred pred, void *ctx, int timeout_ms, int *ok) {
    long long deadline = h_now_ms() + timeout_ms;
    char *state = NULL;
    int held = 0;
    for (;;) {
        if (cinematic_store_state(store, &state) != CINEMATIC_OK) state = NULL;
        held = state != NULL && pred(state, ctx);
        if (held || h_now_ms() >= deadline) break;
        cinematic_free(state);
        state = NULL;
        h_sleep_ms(5);
    }
    if (ok) *ok = held;
    h_wire_log("state", h_wire_feature(store), state);
    return state;
}

typedef struct {
    const char *path;
    const char *expected;
} h_json_expect;

static inline int h_pred_json_eq(const char *state, void *ctx) {
    const h_json_expect *e = ctx;
    char buf[1024];
    return json_get(state, e->path, buf, sizeof buf) && strcmp(buf, e->expected) == 0;
}

/* wait_state until the value at path has the raw text expected (strings without quotes). */
static inline char *wait_json_eq(cinematic_store *store, const char *path, const char *expected, int timeout_ms) {
    h_json_expect e = {path, expected};
    return wait_state(store, h_pred_json_eq, &e, timeout_ms, NULL);
}

/* Opens a store of feature with args, failing the test (and returning NULL) if it cannot. */
static inline cinematic_store *open_feature(cinematic_runtime *rt, const char *feature, const char *args) {
    cinematic_store *store = NULL;
    int rc = cinematic_store_open(rt, feature, args, &store);
    if (!h_record(rc == CINEMATIC_OK && store != NULL, __FILE__, __LINE__,
                  "cinematic_store_open(%s, %s): %s %s", feature, args ? args : "NULL",
                  cinematic_status_name(rc), cinematic_last_error() ? cinematic_last_error() : ""))
        return NULL;
    h_wire_note(store, feature);
    return store;
}

/* One feature's store on a runtime whose catalog provider records every call, with every
 * state the store delivers recorded. */
typedef struct {
    cinematic_runtime *rt;
    cinematic_store *store;
    provider provider;
    recorder states;
} fixture;

static inline void fixture_open(fixture *f, const char *config, int provider_mode, const char *feature, const char *args) {
    f->rt = open_runtime(config);
    provider_init(&f->provider, f->rt, provider_mode);
    recorder_init(&f->states);
    CHECK_STATUS(cinematic_runtime_set_provider(f->rt, provider_fn, &f->provider), CINEMATIC_OK);
    f->store = open_feature(f->rt, feature, args);
    CHECK_STATUS(cinematic_store_observe(f->store, recorder_fn, &f->states), CINEMATIC_OK);
}

/* fixture_close flags. */
enum { FIXTURE_STRICT = 0, FIXTURE_RUNTIME_MAY_BE_CLOSED = 1 };

/* Closes the runtime (with FIXTURE_RUNTIME_MAY_BE_CLOSED a test may have closed it already)
 * and checks that no two callbacks ever overlapped. */
static inline void fixture_close(fixture *f, int flags) {
    int rc = cinematic_runtime_close(f->rt);
    if (flags & FIXTURE_RUNTIME_MAY_BE_CLOSED) CHECK(rc == CINEMATIC_OK || rc == CINEMATIC_ERR_CLOSED);
    else CHECK_EQ_INT(rc, CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&f->provider.overlaps), 0);
    CHECK_EQ_INT(atomic_load(&f->states.overlaps), 0);
    provider_destroy(&f->provider);
    recorder_destroy(&f->states);
}

/* How many effects the store has in flight. */
static inline int pending(cinematic_store *store) {
    int count = -1;
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_OK);
    return count;
}

/* ------------------------------------------------------------------------------------ */
/* Temporary directories                                                                 */

/* A runtime whose favorites live in the file `path` (created if missing), on the clock named
 * by `clock` ("system" or "manual"). */
static inline cinematic_runtime *open_on_favorites_file(const char *path, const char *clock) {
    char config[4200];
    snprintf(config, sizeof config, "{\"clock\":\"%s\",\"favorites\":\"%s\"}", clock, path);
    return open_runtime(config);
}

static inline void make_tempdir(char *dir, size_t size) {
    snprintf(dir, size, "/tmp/cinematic-favorites-XXXXXX");
    CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
}

static inline void remove_tempdir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Opens a detail store for id, sends task and waits until the movie has loaded. */
static inline cinematic_store *open_detail(cinematic_runtime *rt, long long id) {
    char args[64];
    snprintf(args, sizeof args, "{\"movieId\":%lld}", id);
    cinematic_store *store = open_feature(rt, "detail", args);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = wait_json_eq(store, "detail.phase", "loaded", H_WAIT_MS);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_EQ_INT(json_int(state, "detail.value.id", -1), id);
    cinematic_free(state);
    return store;
}

#endif /* CINEMATIC_TEST_HARNESS_H */
