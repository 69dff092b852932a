/*
 * offline_cache.h: what the offline cache's C tests share (test_offline_cache*.c): a scratch
 * directory holding the cache file, manual-clock host runtimes on it, a search answered by
 * the test, and the provider errors the cache covers.
 */
#ifndef CINEMATIC_TEST_OFFLINE_CACHE_H
#define CINEMATIC_TEST_OFFLINE_CACHE_H

#include "harness.h"

/* The scratch directory (offline_cache_begin) and the cache file the helpers open. */
static char dir[256];
static char cache_path[512];

/* Creates the scratch directory; cache_path is its cache.sqlite. Returns 0 when it could not. */
static inline int offline_cache_begin(void) {
    snprintf(dir, sizeof dir, "/tmp/cinematic-offline-XXXXXX");
    if (!mkdtemp(dir)) return 0;
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", dir);
    return 1;
}

/* Removes the scratch directory and what the tests left in it. */
static inline void offline_cache_end(void) {
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", dir);
    char wal[600], shm[600];
    snprintf(wal, sizeof wal, "%s-wal", cache_path);
    snprintf(shm, sizeof shm, "%s-shm", cache_path);
    unlink(wal);
    unlink(shm);
    remove_tempdir(dir);
}

/* A manual-clock host runtime whose cache lives at cache_path (the defaults otherwise). */
static inline void open_cached(fixture *f, const char *feature, const char *args) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", cache_path);
    fixture_open(f, config, PROVIDER_HOLD, feature, args);
}

/* A manual-clock host runtime with exactly this offlineCache member value. */
static inline void open_with_cache(fixture *f, const char *cache, const char *feature, const char *args) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":%s}", cache);
    fixture_open(f, config, PROVIDER_HOLD, feature, args);
}

/* Submits query and answers its request with answer; returns the settled state (owned). */
static inline char *search(fixture *f, const char *query, const char *answer) {
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

/* The provider errors the cache covers: the server is down, or too slow. */
#define NETWORK_DOWN "{\"error\":{\"code\":\"network\",\"message\":\"server down\"}}"
#define TIMED_OUT "{\"error\":{\"code\":\"timeout\",\"message\":\"too slow\"}}"

/* The answer for "dune": one film, id 15249, 1984, named title. */
static inline void dune_answer(char *buf, size_t size, const char *title) { movies_answer(buf, size, 15249, title, 1984); }

/* A search store on the cache at cache_path, after a live answer for "dune" was shown. */
static inline void open_with_dune_saved(fixture *f) {
    open_cached(f, "search", NULL);
    char answer[256];
    dune_answer(answer, sizeof answer, "Dune");
    cinematic_free(search(f, "dune", answer));
}

#endif /* CINEMATIC_TEST_OFFLINE_CACHE_H */
