/*
 * The offline cache's configuration, through the C ABI: the request deadline on the manual
 * clock (a timeout, a cancel, the cached copy after it), bad offlineCache members named by
 * path, and cache files that are not ours or cannot be opened (CINEMATIC_ERR_IO, the file
 * untouched; our own damaged cache replaced). Every wait is on the manual clock or a
 * condition: no sleeps.
 */
#include "offline_cache.h"

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

static void test_foreign_or_unopenable_cache_file_is_an_io_error(void) {
    char foreign[600], config[1400];
    snprintf(foreign, sizeof foreign, "%s/notes.txt", dir);
    CHECK(write_file(foreign, "my notes: not a cache\n"));
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
    CHECK(write_file(cache_path, ""));
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

int main(void) {
    if (!offline_cache_begin()) return 1;
    RUN_TEST(test_deadline_expires_on_the_manual_clock);
    RUN_TEST(test_deadline_with_cache_shows_the_copy);
    RUN_TEST(test_bad_config_is_invalid_with_a_path);
    RUN_TEST(test_foreign_or_unopenable_cache_file_is_an_io_error);
    offline_cache_end();
    return TEST_SUMMARY();
}
