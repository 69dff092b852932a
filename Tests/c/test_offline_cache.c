/*
 * The offline cache of a host catalog and the request deadline, through the C ABI: answers
 * cached and served (marked "source":"cache") when the provider fails with network or
 * timeout, for search, discover and detail; the time to live and the size bound; the
 * deadline on the manual clock; stale answers still dropped; bad config and foreign files.
 * Every wait is on the manual clock or a condition: no sleeps.
 */
#include "harness.h"

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

int main(void) {
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
    char wal[600], shm[600];
    snprintf(wal, sizeof wal, "%s-wal", cache_path);
    snprintf(shm, sizeof shm, "%s-shm", cache_path);
    unlink(wal);
    unlink(shm);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
