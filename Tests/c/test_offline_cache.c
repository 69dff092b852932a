/*
 * The offline cache of a host catalog, through the C ABI: answers cached and served (marked
 * "source":"cache") when the provider fails with network or timeout, for search, discover and
 * detail; stale answers still dropped; the time to live and the size bound. The deadline, bad
 * config and foreign files are in test_offline_cache_config.c, catalog sources in
 * test_offline_cache_sources.c, other processes in test_offline_cache_processes.c.
 * Every wait is on the manual clock or a condition: no sleeps.
 */
#include "offline_cache.h"

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

int main(void) {
    if (!offline_cache_begin()) return 1;
    RUN_TEST(test_search_served_from_cache_then_replaced_by_live);
    RUN_TEST(test_discover_served_from_cache);
    RUN_TEST(test_detail_served_from_cache);
    RUN_TEST(test_stale_failure_never_shows_its_copy);
    RUN_TEST(test_time_to_live_on_the_manual_clock);
    RUN_TEST(test_eviction_at_the_size_bound);
    offline_cache_end();
    return TEST_SUMMARY();
}
