/*
 * The offline cache of a host catalog and the request deadline, through the C ABI: answers
 * cached and served (marked "source":"cache") when the provider fails with network or
 * timeout, for search, discover and detail; the time to live and the size bound; the
 * deadline on the manual clock; stale answers still dropped; bad config and foreign files;
 * across processes, twenty runtimes creating one cache at once, and a runtime opening while
 * another process holds the cache locked (busy is not damage: nothing is deleted).
 * Every wait is on the manual clock or a condition: no sleeps. The other processes are this
 * program again (/proc/self/exe with a --child-* argument), started by fork and exec.
 */
#include "harness.h"

#include <sqlite3.h>
#include <sys/wait.h>

static char dir[256];
static char cache_path[512];

/* A manual-clock host runtime whose cache lives at cache_path (the defaults otherwise). */
static void open_cached(fixture *f, const char *feature, const char *args) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", cache_path);
    fixture_open(f, config, PROVIDER_HOLD, feature, args);
}

/* A manual-clock host runtime with exactly this offlineCache member value. */
static void open_with_cache(fixture *f, const char *cache, const char *feature, const char *args) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":%s}", cache);
    fixture_open(f, config, PROVIDER_HOLD, feature, args);
}

/* Submits query and answers its request with answer; returns the settled state (owned). */
static char *search(fixture *f, const char *query, const char *answer) {
    int before = provider_count(&f->provider, "search");
    CHECK_STATUS(send_query(f->store, query), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f->store), CINEMATIC_OK);
    CHECK(provider_wait(&f->provider, "search", before + 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f->provider, "search", before, &call));
    CHECK_STATUS(cinematic_runtime_respond(f->rt, call.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f->store, 5000), CINEMATIC_OK);
    return state_of(f->store);
}

static const char *const NETWORK_DOWN = "{\"error\":{\"code\":\"network\",\"message\":\"server down\"}}";
static const char *const TIMED_OUT = "{\"error\":{\"code\":\"timeout\",\"message\":\"too slow\"}}";

static void dune_answer(char *buf, size_t size, const char *title) { movies_answer(buf, size, 15249, title, 1984); }

/* A search store on the cache at cache_path, after a live answer for "dune" was shown. */
static void open_with_dune_saved(fixture *f) {
    open_cached(f, "search", NULL);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    cinematic_free(search(f, "dune", answer));
}

static void test_search_served_from_cache_then_replaced_by_live(void) {
    fixture f;
    open_cached(&f, "search", NULL);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    char *state = search(&f, "dune", answer);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.source", "live");
    CHECK(!json_get(state, "results.cachedAt", (char[8]){0}, 8));
    cinematic_free(state);

    /* The provider fails: the copy is shown, marked, with when it was stored. "Dune " is
     * the same normalised query. */
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 5000), CINEMATIC_OK);
    state = search(&f, "Dune ", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.query", "Dune");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    long long cached_at = json_int(state, "results.cachedAt", -1);
    CHECK(cached_at > 1700000000LL);
    cinematic_free(state);

    /* A provider's timeout error is covered the same way; other errors never are. */
    state = search(&f, "dune", TIMED_OUT);
    CHECK_JSON_EQ(state, "results.source", "cache");
    cinematic_free(state);
    state = search(&f, "dune", "{\"error\":{\"code\":\"invalidResponse\",\"message\":\"bad\"}}");
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);

    /* Nothing cached for another query: the error. */
    state = search(&f, "alien", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "network");
    cinematic_free(state);

    /* A later live success replaces the cached view, and the cache. */
    dune_answer(answer, sizeof answer, "Dune (remastered)");
    state = search(&f, "dune", answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune (remastered)");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);

    /* Another runtime on the same file (the app restarted offline) finds it too. */
    open_cached(&f, "search", NULL);
    state = search(&f, "DUNE", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune (remastered)");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Answers every pending discover request (from index from on) with answer_for(section). */
static int answer_discover(fixture *f, int from, int count, int fail) {
    CHECK(provider_wait(&f->provider, "discover", from + count, 5000));
    for (int i = from; i < from + count; i++) {
        provider_call call = {0};
        CHECK(provider_call_at(&f->provider, "discover", i, &call));
        char section[32] = "";
        json_get(call.json, "section", section, sizeof section);
        char answer[256];
        snprintf(answer, sizeof answer, "{\"movies\":[{\"id\":%d,\"title\":\"%s\",\"year\":2000}]}", 100 + i, section);
        CHECK_STATUS(cinematic_runtime_respond(f->rt, call.id, fail ? NETWORK_DOWN : answer), CINEMATIC_OK);
    }
    CHECK_STATUS(cinematic_store_settle(f->store, 5000), CINEMATIC_OK);
    return from + count;
}

static void test_discover_served_from_cache(void) {
    fixture f;
    open_cached(&f, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "discover", 9, 5000));
    int sections = provider_count(&f.provider, "discover");
    int next = answer_discover(&f, 0, sections, 0);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "sections[0].movies.phase", "loaded");
    CHECK_JSON_EQ(state, "sections[0].movies.source", "live");
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"refresh\"}"), CINEMATIC_OK);
    answer_discover(&f, next, sections, 1);
    state = state_of(f.store);
    for (int i = 0; i < sections; i++) {
        char path[64];
        snprintf(path, sizeof path, "sections[%d].movies.source", i);
        CHECK_JSON_EQ(state, path, "cache");
    }
    CHECK_JSON_EQ(state, "sections[0].movies.value[0].title", "popular");
    CHECK(json_int(state, "sections[0].movies.cachedAt", -1) > 1700000000LL);
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

static void test_detail_served_from_cache(void) {
    fixture f;
    open_cached(&f, "detail", "{\"movieId\":42}");
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "movie", 0, &call));
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id,
                                           "{\"movie\":{\"id\":42,\"title\":\"Life\",\"year\":1999,\"budget\":1000}}"),
                 CINEMATIC_OK);
    char *state = wait_json_eq(f.store, "detail.source", "live", H_WAIT_MS);
    CHECK_JSON_EQ(state, "detail.value.title", "Life");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);

    open_cached(&f, "detail", "{\"movieId\":42}");
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 1, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 0, &call));
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, TIMED_OUT), CINEMATIC_OK);
    state = wait_json_eq(f.store, "detail.source", "cache", H_WAIT_MS);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_JSON_EQ(state, "detail.value.title", "Life");
    CHECK_EQ_INT(json_int(state, "detail.value.budget", -1), 1000);
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* The deadline: no answer in requestDeadlineMs of the runtime's clock fails the request with
 * timeout and tells the provider to cancel it; the late answer is dropped. */
static void test_deadline_expires_on_the_manual_clock(void) {
    fixture f;
    fixture_open(&f, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false,\"requestDeadlineMs\":1000}",
                 PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 999), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loading");
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);

    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "timeout");
    CHECK_STR_CONTAINS(state, "1000 ms");
    cinematic_free(state);
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", call.id));

    /* The late answer is accepted and dropped. */
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    int before = recorder_count(&f.states);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(recorder_count(&f.states), before);
    CHECK_EQ_INT(pending(f.store), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* A provider that never answers, with a cached copy: after the (default, 10 s) deadline the
 * copy is shown. */
static void test_deadline_with_cache_shows_the_copy(void) {
    fixture f;
    open_with_dune_saved(&f);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "search", 2, 5000));
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 9999), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loading");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    fixture_close(&f, FIXTURE_STRICT);
}

/* A replaced search's failure never shows its cached copy: stale answers are dropped as
 * without a cache. */
static void test_stale_failure_never_shows_its_copy(void) {
    fixture f;
    open_with_dune_saved(&f);

    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);               /* request 2: dune */
    CHECK(provider_wait(&f.provider, "search", 2, 5000));
    provider_call stale = {0}, fresh = {0};
    CHECK(provider_call_at(&f.provider, "search", 1, &stale));
    CHECK_STATUS(send_query(f.store, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(f.store), CINEMATIC_OK);               /* request 3 replaces it */
    CHECK(provider_wait(&f.provider, "search", 3, 5000));
    CHECK(provider_call_at(&f.provider, "search", 2, &fresh));
    CHECK(provider_wait(&f.provider, "cancel", 1, 5000));
    CHECK(provider_has(&f.provider, "cancel", stale.id));
    int before = recorder_count(&f.states);

    CHECK_STATUS(cinematic_runtime_respond(f.rt, stale.id, NETWORK_DOWN), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.phase", "loading");
    CHECK_JSON_EQ(state, "results.query", "alien");
    cinematic_free(state);
    CHECK_EQ_INT(recorder_count(&f.states), before);

    char answer[256];
    movies_answer(answer, sizeof answer, 126, "Alien", 1979);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, fresh.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.value[0].title", "Alien");
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    for (int i = before; i < recorder_count(&f.states); i++) CHECK_STR_LACKS(recorder_state(&f.states, i), "Dune");
    fixture_close(&f, FIXTURE_STRICT);
}

/* The time to live runs on the runtime's clock: a copy 59 s old is shown, 60 s is not. */
static void test_time_to_live_on_the_manual_clock(void) {
    fixture f;
    char cache[700];
    snprintf(cache, sizeof cache, "{\"path\":\"%s\",\"ttlSeconds\":60}", cache_path);
    unlink(cache_path);
    open_with_cache(&f, cache, "search", NULL);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    cinematic_free(search(&f, "dune", answer));
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 59000), CINEMATIC_OK);
    char *state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.source", "cache");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "network");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* The size bound: with room for two answers, the least recently used one goes. */
static void test_eviction_at_the_size_bound(void) {
    fixture f;
    char cache[700];
    /* One answer: key "search:<q>:1" + {"movies":[{…one movie…}]} ≈ 120 bytes. */
    snprintf(cache, sizeof cache, "{\"path\":\"%s\",\"maxBytes\":300}", cache_path);
    unlink(cache_path);
    open_with_cache(&f, cache, "search", NULL);
    const char *queries[] = {"dune", "alien", "heat"};
    for (int i = 0; i < 3; i++) {
        char answer[256];
        movies_answer(answer, sizeof answer, 1 + i, queries[i], 2000);
        cinematic_free(search(&f, queries[i], answer));
    }
    char *state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    cinematic_free(state);
    state = search(&f, "heat", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.value[0].title", "heat");
    cinematic_free(state);
    state = search(&f, "alien", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.source", "cache");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

static void test_bad_config_is_invalid_with_a_path(void) {
    struct { const char *config; const char *path; } invalid[] = {
        {"{\"catalog\":\"host\",\"offlineCache\":5}", "$.offlineCache"},
        {"{\"catalog\":\"host\",\"offlineCache\":\"on\"}", "$.offlineCache"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"maxBytes\":-1}}", "$.offlineCache.maxBytes"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"maxBytes\":0}}", "$.offlineCache.maxBytes"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"ttlSeconds\":0}}", "$.offlineCache.ttlSeconds"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"ttlSeconds\":1.5}}", "$.offlineCache.ttlSeconds"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"\"}}", "$.offlineCache.path"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"path\":7}}", "$.offlineCache.path"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"size\":1}}", "$.offlineCache.size"},
        {"{\"catalog\":\"host\",\"offlineCache\":{\"maxBytes\":1099511627777}}", "$.offlineCache.maxBytes"},
        {"{\"catalog\":\"host\",\"requestDeadlineMs\":0}", "$.requestDeadlineMs"},
        {"{\"catalog\":\"host\",\"requestDeadlineMs\":-5}", "$.requestDeadlineMs"},
        {"{\"catalog\":\"host\",\"requestDeadlineMs\":3600001}", "$.requestDeadlineMs"},
        {"{\"catalog\":\"host\",\"requestDeadlineMs\":\"10s\"}", "$.requestDeadlineMs"},
    };
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(cinematic_runtime_open(invalid[i].config, &rt), CINEMATIC_ERR_INVALID);
        CHECK(rt == NULL);
        char path[128] = "";
        json_get(h_envelope, "path", path, sizeof path);
        CHECK_STR_EQ(path, invalid[i].path);
    }
}

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL);
    if (!file) return;
    fputs(text, file);
    fclose(file);
}

static void test_foreign_or_unopenable_cache_file_is_an_io_error(void) {
    char foreign[600], config[1400];
    snprintf(foreign, sizeof foreign, "%s/notes.txt", dir);
    write_file(foreign, "my notes: not a cache\n");
    snprintf(config, sizeof config, "{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", foreign);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("offline cache");
    CHECK_ENVELOPE_CONTAINS("left unchanged");
    FILE *file = fopen(foreign, "rb");
    char back[64] = "";
    if (file) { CHECK(fgets(back, sizeof back, file) != NULL); fclose(file); }
    CHECK_STR_EQ(back, "my notes: not a cache\n");

    /* The favorites database is SQLite, but not ours either. */
    char favorites[600];
    snprintf(favorites, sizeof favorites, "%s/favorites.sqlite", dir);
    snprintf(config, sizeof config, "{\"favorites\":\"%s\"}", favorites);
    rt = open_runtime(config);
    cinematic_runtime_close(rt);
    snprintf(config, sizeof config, "{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", favorites);
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("belongs to another program");

    /* An explicit path that cannot be created is an error... */
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"/proc/no/cache.sqlite\"}}", &rt),
                 CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("/proc/no/cache.sqlite");

    /* ...but the default location is a convenience: the runtime opens without a cache. */
    const char *saved = getenv("XDG_CACHE_HOME");
    char restore[512] = "";
    if (saved) snprintf(restore, sizeof restore, "%s", saved);
    setenv("XDG_CACHE_HOME", "/proc/cinematic-unwritable", 1);
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":\"host\"}", &rt), CINEMATIC_OK);
    cinematic_runtime_close(rt);
    if (saved) setenv("XDG_CACHE_HOME", restore, 1); else unsetenv("XDG_CACHE_HOME");

    /* An empty file, or our own damaged cache, is replaced. */
    write_file(cache_path, "");
    fixture f;
    open_with_dune_saved(&f);
    fixture_close(&f, FIXTURE_STRICT);
    FILE *damage = fopen(cache_path, "r+b");
    CHECK(damage != NULL);
    if (damage) {
        char junk[4096];
        memset(junk, 0xA5, sizeof junk);
        fseek(damage, 100, SEEK_SET);
        fwrite(junk, 1, sizeof junk, damage);
        fclose(damage);
    }
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", cache_path);
    unlink(wal);
    open_cached(&f, "search", NULL);
    char *state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    cinematic_free(state);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    state = search(&f, "dune", answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* ---- Across processes ---------------------------------------------------------------- */

static const char *self_path = "/proc/self/exe";

/* Starts this program with argv, passing it the descriptors ready_fd and gate_fd (every other
 * pipe end is close-on-exec, so the gate's write end stays with the parent); returns the pid. */
static pid_t spawn_child(char *const argv[], int ready_fd, int gate_fd) {
    pid_t pid = fork();
    if (pid == 0) {
        fcntl(ready_fd, F_SETFD, 0);
        fcntl(gate_fd, F_SETFD, 0);
        execv(self_path, argv);
        _exit(127);
    }
    CHECK(pid > 0);
    return pid;
}

/* Waits for pid; true when it exited with status 0. */
static int child_succeeded(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A runtime on the cache at path: search "movie<index>" answered live (so it is stored). */
static void save_answer(const char *path, int index) {
    snprintf(cache_path, sizeof cache_path, "%s", path);
    fixture f;
    open_cached(&f, "search", NULL);
    char query[32], answer[256];
    snprintf(query, sizeof query, "movie%d", index);
    movies_answer(answer, sizeof answer, 1000 + index, query, 2000);
    char *state = search(&f, query, answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* How many of "movie0"..."movie<count-1>" a runtime on the cache at path serves from the
 * cache while the provider is down. */
static int cached_answers(const char *path, int count) {
    snprintf(cache_path, sizeof cache_path, "%s", path);
    fixture f;
    open_cached(&f, "search", NULL);
    int found = 0;
    for (int i = 0; i < count; i++) {
        char query[32];
        snprintf(query, sizeof query, "movie%d", i);
        char *state = search(&f, query, NETWORK_DOWN);
        char source[16] = "";
        json_get(state, "results.source", source, sizeof source);
        if (strcmp(source, "cache") == 0) found++;
        cinematic_free(state);
    }
    fixture_close(&f, FIXTURE_STRICT);
    return found;
}

/* Child: says it is ready on ready_fd, waits for the gate to open (EOF), then opens a
 * runtime on the cache at path and stores "movie<index>". */
static int child_create(const char *path, int ready_fd, int gate_fd, int index) {
    char byte = 1, gate;
    if (write(ready_fd, &byte, 1) != 1) return 2;
    while (read(gate_fd, &gate, 1) > 0) {}
    save_answer(path, index);
    return h_failed ? 1 : 0;
}

/* Child: holds the cache's write lock (mode "write": BEGIN EXCLUSIVE, readers go on) or the
 * whole file (mode "file": exclusive locking mode, nobody reads) until the gate opens. */
static int child_lock(const char *path, const char *mode, int ready_fd, int gate_fd) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) return 2;
    const char *sql = strcmp(mode, "file") == 0
        ? "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM answers;"
        : "BEGIN EXCLUSIVE;";
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return 3;
    char byte = 1, gate;
    if (write(ready_fd, &byte, 1) != 1) return 4;
    while (read(gate_fd, &gate, 1) > 0) {}
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
    return 0;
}

/* Twenty processes open runtimes on one new cache path at the same moment: every open
 * succeeds, and every one of them can store (all twenty answers are found afterwards). */
static void test_twenty_processes_create_one_cache_at_once(void) {
    enum { N = 20 };
    char path[sizeof cache_path];
    snprintf(path, sizeof path, "%s/concurrent.sqlite", dir);
    int ready[2], gate[2];
    CHECK(pipe2(ready, O_CLOEXEC) == 0 && pipe2(gate, O_CLOEXEC) == 0);
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        char ready_fd[16], gate_fd[16], index[16];
        snprintf(ready_fd, sizeof ready_fd, "%d", ready[1]);
        snprintf(gate_fd, sizeof gate_fd, "%d", gate[0]);
        snprintf(index, sizeof index, "%d", i);
        char *argv[] = {"test_offline_cache", "--child-create", path, ready_fd, gate_fd, index, NULL};
        pids[i] = spawn_child(argv, ready[1], gate[0]);
    }
    close(gate[0]);
    close(ready[1]);
    char byte;
    for (int i = 0; i < N; i++) CHECK(read(ready[0], &byte, 1) == 1);
    close(gate[1]);                                          /* all twenty go at once */
    close(ready[0]);
    int succeeded = 0;
    for (int i = 0; i < N; i++) succeeded += child_succeeded(pids[i]);
    CHECK_EQ_INT(succeeded, N);
    CHECK_EQ_INT(cached_answers(path, N), N);
}

/* Another process holds the cache locked while a runtime opens: the open succeeds (with the
 * cache, or without it for that open), nothing is deleted, and the 30 stored answers are
 * still 30 afterwards. */
static void check_lock_keeps_answers(const char *mode) {
    char path[sizeof cache_path];
    snprintf(path, sizeof path, "%s/locked-%s.sqlite", dir, mode);
    for (int i = 0; i < 30; i++) save_answer(path, i);
    CHECK_EQ_INT(cached_answers(path, 30), 30);

    int ready[2], gate[2];
    CHECK(pipe2(ready, O_CLOEXEC) == 0 && pipe2(gate, O_CLOEXEC) == 0);
    char ready_fd[16], gate_fd[16];
    snprintf(ready_fd, sizeof ready_fd, "%d", ready[1]);
    snprintf(gate_fd, sizeof gate_fd, "%d", gate[0]);
    char *argv[] = {"test_offline_cache", "--child-lock", path, (char *)mode, ready_fd, gate_fd, NULL};
    pid_t holder = spawn_child(argv, ready[1], gate[0]);
    close(gate[0]);
    close(ready[1]);
    char byte;
    CHECK(read(ready[0], &byte, 1) == 1);                   /* the lock is held */
    close(ready[0]);

    snprintf(cache_path, sizeof cache_path, "%s", path);
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", path);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    if (rt) CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK(access(path, F_OK) == 0);

    close(gate[1]);
    CHECK(child_succeeded(holder));
    CHECK_EQ_INT(cached_answers(path, 30), 30);
}

static void test_write_lock_held_by_another_process(void) { check_lock_keeps_answers("write"); }
static void test_file_locked_by_another_process(void) { check_lock_keeps_answers("file"); }

/* The embedded catalog says nothing about sources: its states are as before. */
static void test_embedded_catalog_states_carry_no_source(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"offlineCache\":false}");
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_STR_LACKS(state, "\"source\"");
    cinematic_free(state);
    cinematic_runtime_close(rt);
}

/* A manual-clock host runtime declaring `catalog` (the member's JSON value) with `cache`
 * (the offlineCache member's JSON value). */
static void open_source(fixture *f, const char *catalog, const char *cache) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":%s,\"offlineCache\":%s}", catalog, cache);
    fixture_open(f, config, PROVIDER_HOLD, "search", NULL);
}

/* The results of "dune" when the provider is down, for a runtime declaring `catalog`. */
static void check_offline_dune(const char *catalog, const char *cache, const char *expected_phase, const char *title) {
    fixture f;
    open_source(&f, catalog, cache);
    char *state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.phase", expected_phase);
    if (title) {
        CHECK_JSON_EQ(state, "results.source", "cache");
        CHECK_JSON_EQ(state, "results.value[0].title", title);
    } else {
        CHECK_JSON_EQ(state, "results.error.code", "network");
    }
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Issue 25: one cache file, several catalog sources. Each source's answers are shown only to
 * that source: never to another server, nor to a runtime that declared no source, and an
 * anonymous runtime's rows never to a declared one. */
static void test_answers_are_kept_per_source(void) {
    char path[600], cache[700];
    snprintf(path, sizeof path, "%s/sources.sqlite", dir);
    snprintf(cache, sizeof cache, "{\"path\":\"%s\"}", path);
    const char *a = "{\"host\":\"http://127.0.0.1:8001\"}", *b = "{\"host\":\"http://127.0.0.1:8002\"}";

    fixture f;
    open_source(&f, a, cache);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune from A");
    char *state = search(&f, "dune", answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);

    check_offline_dune(b, cache, "failed", NULL);            /* another server: nothing saved */
    check_offline_dune("\"host\"", cache, "failed", NULL);   /* no source: nothing of A's */
    /* A source whose name starts with A's is another source. */
    check_offline_dune("{\"host\":\"http://127.0.0.1:800\"}", cache, "failed", NULL);
    check_offline_dune(a, cache, "loaded", "Dune from A");   /* A itself: its copy */

    /* B saves its own answer: each source sees its own copy. */
    open_source(&f, b, cache);
    dune_answer(answer, sizeof answer, "Dune from B");
    cinematic_free(search(&f, "dune", answer));
    fixture_close(&f, FIXTURE_STRICT);
    check_offline_dune(b, cache, "loaded", "Dune from B");
    check_offline_dune(a, cache, "loaded", "Dune from A");

    /* An anonymous runtime with an explicit cache keeps its rows to itself. */
    open_source(&f, "\"host\"", cache);
    dune_answer(answer, sizeof answer, "Dune anonymous");
    cinematic_free(search(&f, "dune", answer));
    fixture_close(&f, FIXTURE_STRICT);
    check_offline_dune("\"host\"", cache, "loaded", "Dune anonymous");
    check_offline_dune(a, cache, "loaded", "Dune from A");
    check_offline_dune("{\"host\":\"anonymous\"}", cache, "failed", NULL);

    char side[700];
    snprintf(side, sizeof side, "%s-wal", path); unlink(side);
    snprintf(side, sizeof side, "%s-shm", path); unlink(side);
    unlink(path);
}

/* The shared default cache ($XDG_CACHE_HOME/cinematic/offline-cache.sqlite) is for declared
 * sources only: plain "host" neither writes nor reads it; a declared source uses it. */
static void test_default_cache_needs_a_source(void) {
    char home[600], file[700], side[760];
    snprintf(home, sizeof home, "%s/xdg", dir);
    snprintf(file, sizeof file, "%s/cinematic/offline-cache.sqlite", home);
    const char *saved = getenv("XDG_CACHE_HOME");
    char restore[512] = "";
    if (saved) snprintf(restore, sizeof restore, "%s", saved);
    setenv("XDG_CACHE_HOME", home, 1);

    fixture f;
    open_source(&f, "\"host\"", "true");
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    char *state = search(&f, "dune", answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    state = search(&f, "dune", NETWORK_DOWN);                /* no cache at all */
    CHECK_JSON_EQ(state, "results.phase", "failed");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
    CHECK(access(file, F_OK) != 0);                          /* nothing written there */

    open_source(&f, "{\"host\":\"http://127.0.0.1:8001\"}", "true");
    cinematic_free(search(&f, "dune", answer));
    state = search(&f, "dune", NETWORK_DOWN);
    CHECK_JSON_EQ(state, "results.source", "cache");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
    CHECK(access(file, F_OK) == 0);
    check_offline_dune("\"host\"", "true", "failed", NULL);

    if (saved) setenv("XDG_CACHE_HOME", restore, 1); else unsetenv("XDG_CACHE_HOME");
    snprintf(side, sizeof side, "%s-wal", file); unlink(side);
    snprintf(side, sizeof side, "%s-shm", file); unlink(side);
    unlink(file);
    snprintf(side, sizeof side, "%s/cinematic", home); rmdir(side);
    rmdir(home);
}

/* A declared source is 1 to 1024 bytes, alone in its object. */
static void test_bad_source_is_invalid(void) {
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":{\"host\":\"\"}}", &rt), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("$.catalog.host");
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":{\"host\":7}}", &rt), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":{\"host\":\"a\",\"path\":\"/x\"}}", &rt), CINEMATIC_ERR_INVALID);
    char config[1200] = "{\"catalog\":{\"host\":\"";
    size_t n = strlen(config);
    memset(config + n, 'a', 1025);
    snprintf(config + n + 1025, sizeof config - n - 1025, "\"}}");
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_INVALID);
    config[n + 1024] = '"'; config[n + 1025] = '}'; config[n + 1026] = '}'; config[n + 1027] = 0;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);   /* 1024 bytes: fine */
    cinematic_runtime_close(rt);
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--child-create") == 0)
        return child_create(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc == 6 && strcmp(argv[1], "--child-lock") == 0)
        return child_lock(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
    snprintf(dir, sizeof dir, "/tmp/cinematic-offline-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", dir);
    RUN_TEST(test_search_served_from_cache_then_replaced_by_live);
    RUN_TEST(test_discover_served_from_cache);
    RUN_TEST(test_detail_served_from_cache);
    RUN_TEST(test_deadline_expires_on_the_manual_clock);
    RUN_TEST(test_deadline_with_cache_shows_the_copy);
    RUN_TEST(test_stale_failure_never_shows_its_copy);
    RUN_TEST(test_time_to_live_on_the_manual_clock);
    RUN_TEST(test_eviction_at_the_size_bound);
    RUN_TEST(test_bad_config_is_invalid_with_a_path);
    RUN_TEST(test_foreign_or_unopenable_cache_file_is_an_io_error);
    RUN_TEST(test_embedded_catalog_states_carry_no_source);
    RUN_TEST(test_answers_are_kept_per_source);
    RUN_TEST(test_default_cache_needs_a_source);
    RUN_TEST(test_bad_source_is_invalid);
    RUN_TEST(test_twenty_processes_create_one_cache_at_once);
    RUN_TEST(test_write_lock_held_by_another_process);
    RUN_TEST(test_file_locked_by_another_process);
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", dir);
    char wal[600], shm[600];
    snprintf(wal, sizeof wal, "%s-wal", cache_path);
    snprintf(shm, sizeof shm, "%s-shm", cache_path);
    unlink(wal);
    unlink(shm);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
