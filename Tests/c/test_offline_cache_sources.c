/*
 * The offline cache and catalog sources (issue 25), through the C ABI: the embedded catalog's
 * states carry no source; one cache file keeps each declared source's answers apart (and an
 * anonymous "host" runtime's to itself); the shared default cache is for declared sources
 * only; a declared source is 1 to 1024 bytes. Every wait is on the manual clock or a
 * condition: no sleeps.
 */
#include "offline_cache.h"

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

int main(void) {
    if (!offline_cache_begin()) return 1;
    RUN_TEST(test_embedded_catalog_states_carry_no_source);
    RUN_TEST(test_answers_are_kept_per_source);
    RUN_TEST(test_default_cache_needs_a_source);
    RUN_TEST(test_bad_source_is_invalid);
    offline_cache_end();
    return TEST_SUMMARY();
}
