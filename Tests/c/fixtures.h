/*
 * fixtures.h: what the C tests open and wait for: runtimes (open_runtime), stores of any
 * feature (open_search, open_feature, open_detail), the fixture (a runtime with a recording
 * provider and one observed store), bounded waits for a state (wait_state, wait_json_eq),
 * temporary directories for favorites files, and whole files written and read (write_file,
 * read_file).
 *
 * Part of harness.h (tests include harness.h, which includes this file after what it needs).
 */
#ifndef CINEMATIC_TEST_FIXTURES_H
#define CINEMATIC_TEST_FIXTURES_H

#ifndef CINEMATIC_TEST_HARNESS_H
#error "include harness.h, which includes this file after what it needs"
#endif

/* How long a bounded wait for a state lasts before the assertion after it fails. */
#define H_WAIT_MS 3000

/* A manual-clock runtime on the embedded catalog. */
#define EMBEDDED_CONFIG "{\"clock\":\"manual\"}"

/* A manual-clock runtime on a host catalog (a provider the test registers answers), with
 * "immediate" delivery (the default) and with "queued" delivery. */
#define HOST_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\"}"
#define QUEUED_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\",\"delivery\":\"queued\"}"

/* ------------------------------------------------------------------------------------ */
/* Runtimes and Search stores                                                            */

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

/* Sends {"type":"submitted"} (search now, skipping the debounce). */
static inline int send_submitted(cinematic_store *store) {
    return cinematic_store_send(store, "{\"type\":\"submitted\"}");
}

/* The suites written before the offline cache test what a provider itself answers: a host
 * catalog they open gets "offlineCache":false unless its config names a cache (the shared
 * default cache would serve one program's answers to another; test_offline_cache*.c test
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

/* Opens a Search store, failing the test (and returning NULL) if it cannot. */
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
/* Waiting for a state                                                                   */

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

/* What h_pred_json_eq compares: the raw text expected at path. */
typedef struct {
    const char *path;
    const char *expected;
} h_json_expect;

/* A state_pred: the value at ((h_json_expect *)ctx)->path is ->expected. */
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

/* ------------------------------------------------------------------------------------ */
/* Stores of any feature, and the fixture                                                */

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

/* One feature's store on a runtime whose catalog provider records every call, with every
 * state the store delivers recorded. */
typedef struct {
    cinematic_runtime *rt;
    cinematic_store *store;
    provider provider;
    recorder states;
} fixture;

/* Opens a runtime with config and provider_mode, its provider and one store of feature,
 * whose states f->states records. */
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
/* Temporary directories and files                                                       */

/* A runtime whose favorites live in the file `path` (created if missing), on the clock named
 * by `clock` ("system" or "manual"). */
static inline cinematic_runtime *open_on_favorites_file(const char *path, const char *clock) {
    char config[4200];
    snprintf(config, sizeof config, "{\"clock\":\"%s\",\"favorites\":\"%s\"}", clock, path);
    return open_runtime(config);
}

/* Creates a new directory /tmp/cinematic-favorites-XXXXXX, its path in dir. */
static inline void make_tempdir(char *dir, size_t size) {
    snprintf(dir, size, "/tmp/cinematic-favorites-XXXXXX");
    CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
}

/* Removes dir and the files in it (not subdirectories). */
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

/* Writes text to path (created or truncated); returns whether it could. Not a check: a test
 * that needs the file wraps the call in one. */
static inline int write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "wb");
    if (!file) return 0;
    int ok = fputs(text, file) >= 0;
    return fclose(file) == 0 && ok;
}

/* The whole content of the file at path (owned: free; NULL when unreadable), NUL-terminated;
 * its size in *size unless size is NULL. */
static inline char *read_file(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    long length = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
    char *bytes = length >= 0 && fseek(file, 0, SEEK_SET) == 0 ? malloc((size_t)length + 1) : NULL;
    if (bytes) {
        length = (long)fread(bytes, 1, (size_t)length, file);
        bytes[length] = '\0';
        if (size) *size = length;
    }
    fclose(file);
    return bytes;
}

#endif /* CINEMATIC_TEST_FIXTURES_H */
