/*
 * Discover on a host catalog whose provider holds answers, through the C ABI: duplicate-task
 * suppression, refresh and cancellation, stale answers, failures kept in their section, and
 * paging (page 2 requested, content kept while it loads, a failed page).
 */
#include "discover.h"

/* True when any state r recorded contains text. */
static int any_state_contains(recorder *r, const char *text) {
    for (int i = 0; i < recorder_count(r); i++) {
        const char *state = recorder_state(r, i);
        if (state && strstr(state, text)) return 1;
    }
    return 0;
}

/* The index of the section a discover request asks for, or -1. */
static int request_section(const provider_call *call) {
    char name[32];
    if (!json_get(call->json, "section", name, sizeof name)) return -1;
    for (int i = 0; i < NSECTIONS; i++) if (strcmp(name, sections[i]) == 0) return i;
    return -1;
}

/* Reads the discover requests [from, from + NSECTIONS): checks they ask for page 1 of every
 * section exactly once and stores their ids by section. */
static void collect_first_pages(provider *p, int from, uint64_t ids[NSECTIONS]) {
    int seen[NSECTIONS] = {0};
    for (int i = 0; i < NSECTIONS; i++) ids[i] = 0;
    for (int k = from; k < from + NSECTIONS; k++) {
        provider_call call = {0};
        if (!CHECK(provider_call_at(p, "discover", k, &call))) continue;
        CHECK_JSON_EQ(call.json, "op", "discover");
        CHECK_JSON_EQ(call.json, "page", "1");
        int s = request_section(&call);
        if (!CHECK_MSG(s >= 0, "request %s names no known section", call.json)) continue;
        seen[s]++;
        ids[s] = call.id;
    }
    for (int i = 0; i < NSECTIONS; i++)
        CHECK_MSG(seen[i] == 1, "section %s requested %d times, expected once", sections[i], seen[i]);
}

/* {"movies":[n movies with ids base..base+n-1, titles "<tag> <k>"]} into buf. */
static void movies_json(char *buf, size_t size, int base, int n, const char *tag) {
    size_t used = (size_t)snprintf(buf, size, "{\"movies\":[");
    for (int k = 0; k < n && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s{\"id\":%d,\"title\":\"%s %d\",\"year\":2000,\"votes\":%d}",
                                 k ? "," : "", base + k, tag, k, 1000 - k);
    if (used < size) snprintf(buf + used, size - used, "]}");
}

static void test_discover_host_duplicate_suppression_and_refresh(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = state_of(f.store);
    char p[128];
    for (int i = 0; i < NSECTIONS; i++) CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.phase"), "loading");
    cinematic_free(state);
    CHECK(provider_wait(&f.provider, "discover", NSECTIONS, 5000));
    h_sleep_ms(30); /* room for a wrong tenth request */
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), NSECTIONS);
    uint64_t first[NSECTIONS];
    collect_first_pages(&f.provider, 0, first);
    CHECK_EQ_INT(pending(f.store), NSECTIONS);

    /* task again: every section is loading, so nothing new starts. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    h_sleep_ms(50);
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), NSECTIONS);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);
    CHECK_EQ_INT(pending(f.store), NSECTIONS);

    /* refresh: the 9 requests in flight are cancelled and 9 new ones made. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"refresh\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "cancel", NSECTIONS, 5000));
    CHECK(provider_wait(&f.provider, "discover", 2 * NSECTIONS, 5000));
    h_sleep_ms(30);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), NSECTIONS);
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), 2 * NSECTIONS);
    for (int i = 0; i < NSECTIONS; i++)
        CHECK_MSG(provider_has(&f.provider, "cancel", first[i]), "no cancel for the first %s request", sections[i]);
    uint64_t second[NSECTIONS];
    collect_first_pages(&f.provider, NSECTIONS, second);
    for (int i = 0; i < NSECTIONS; i++)
        for (int k = 0; k < NSECTIONS; k++) CHECK_MSG(second[i] != first[k], "request id %" PRIu64 " reused", second[i]);
    CHECK_EQ_INT(pending(f.store), NSECTIONS);

    /* A stale answer (to a cancelled request) is accepted and changes nothing. */
    char *shown = state_of(f.store);
    for (int i = 0; i < NSECTIONS; i++) CHECK_JSON_EQ(shown, spath(p, sizeof p, i, ".movies.phase"), "loading");
    int delivered = recorder_count(&f.states);
    char answer[8192];
    movies_json(answer, sizeof answer, 900, 3, "Stale");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, first[POPULAR], answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, first[DRAMA], "{\"error\":{\"code\":\"network\",\"message\":\"stale\"}}"),
                 CINEMATIC_OK);
    h_sleep_ms(50);
    state = state_of(f.store);
    CHECK_STR_EQ(state, shown);
    cinematic_free(state);
    cinematic_free(shown);
    CHECK_EQ_INT(recorder_count(&f.states), delivered);
    CHECK_EQ_INT(pending(f.store), NSECTIONS);

    /* Answer the current requests; Drama fails, in its own section only. */
    for (int i = 0; i < NSECTIONS; i++) {
        if (i == DRAMA) {
            CHECK_STATUS(cinematic_runtime_respond(f.rt, second[i], "{\"error\":{\"code\":\"network\",\"message\":\"drama down\"}}"),
                         CINEMATIC_OK);
        } else {
            movies_json(answer, sizeof answer, 100 * (i + 1), 20, sections[i]);
            CHECK_STATUS(cinematic_runtime_respond(f.rt, second[i], answer), CINEMATIC_OK);
        }
    }
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    CHECK_EQ_INT(pending(f.store), 0);
    state = state_of(f.store);
    for (int i = 0; i < NSECTIONS; i++) {
        if (i == DRAMA) {
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.phase"), "failed");
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.error.code"), "network");
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.error.message"), "drama down");
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".pagesLoaded"), "0");
        } else {
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.phase"), "loaded");
            CHECK_EQ_INT(json_array_len(state, spath(p, sizeof p, i, ".movies.value")), 20);
            CHECK_EQ_INT(json_int(state, mpath(p, sizeof p, i, 0, ".id"), -1), 100 * (i + 1));
            CHECK_EQ_INT(json_int(state, mpath(p, sizeof p, i, 19, ".id"), -1), 100 * (i + 1) + 19);
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".pagesLoaded"), "1");
            CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".loadMoreError"), "null");
        }
    }
    CHECK_STR_LACKS(state, "Stale");
    CHECK_STR_LACKS(state, "\"stale\"");
    CHECK(!any_state_contains(&f.states, "Stale"));
    CHECK(!any_state_contains(&f.states, "\"stale\""));
    /* A late answer after everything settled is dropped as well. */
    CHECK_STATUS(cinematic_runtime_respond(f.rt, first[ACTION], answer), CINEMATIC_OK);
    h_sleep_ms(30);
    char *again = state_of(f.store);
    CHECK_STR_EQ(again, state);
    cinematic_free(again);
    cinematic_free(state);

    /* task reloads only the failed section. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "discover", 2 * NSECTIONS + 1, 5000));
    h_sleep_ms(30);
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), 2 * NSECTIONS + 1);
    provider_call retry = {0};
    CHECK(provider_call_at(&f.provider, "discover", 2 * NSECTIONS, &retry));
    CHECK_EQ_INT(request_section(&retry), DRAMA);
    CHECK_JSON_EQ(retry.json, "page", "1");
    CHECK_EQ_INT(pending(f.store), 1);
    movies_json(answer, sizeof answer, 5000, 20, "Drama");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, retry.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "sections[5].movies.phase", "loaded");
    CHECK_EQ_INT(json_int(state, "sections[5].movies.value[0].id", -1), 5000);
    CHECK_EQ_INT(json_int(state, "sections[0].movies.value[0].id", -1), 100);
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), NSECTIONS);
    fixture_close(&f, FIXTURE_STRICT);
}

/* Paging with a host: page 2 is requested, content stays while it loads, a failed page sets
 * loadMoreError only, and loadMore is ignored while the section is busy. */
static void test_discover_host_load_more(void) {
    fixture f;
    fixture_open(&f, HOST_CONFIG, PROVIDER_HOLD, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "discover", NSECTIONS, 5000));
    uint64_t ids[NSECTIONS];
    collect_first_pages(&f.provider, 0, ids);

    /* loadMore while the first page loads is ignored. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    h_sleep_ms(30);
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), NSECTIONS);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);

    char answer[8192];
    for (int i = 0; i < NSECTIONS; i++) {
        movies_json(answer, sizeof answer, 100 * (i + 1), 20, sections[i]);
        CHECK_STATUS(cinematic_runtime_respond(f.rt, ids[i], answer), CINEMATIC_OK);
    }
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);

    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "sections[4].movies.phase", "loaded");
    CHECK_EQ_INT(json_array_len(state, "sections[4].movies.value"), 20);
    CHECK_JSON_EQ(state, "sections[4].isLoadingMore", "true");
    cinematic_free(state);
    CHECK(provider_wait(&f.provider, "discover", NSECTIONS + 1, 5000));
    provider_call page2 = {0};
    CHECK(provider_call_at(&f.provider, "discover", NSECTIONS, &page2));
    CHECK_EQ_INT(request_section(&page2), COMEDY);
    CHECK_JSON_EQ(page2.json, "page", "2");
    /* Busy: a second loadMore starts nothing. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    h_sleep_ms(30);
    CHECK_EQ_INT(provider_count(&f.provider, "discover"), NSECTIONS + 1);
    CHECK_EQ_INT(pending(f.store), 1);

    CHECK_STATUS(cinematic_runtime_respond(f.rt, page2.id, "{\"error\":{\"code\":\"network\",\"message\":\"page 2 down\"}}"),
                 CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "sections[4].movies.phase", "loaded");
    CHECK_EQ_INT(json_array_len(state, "sections[4].movies.value"), 20);
    CHECK_JSON_EQ(state, "sections[4].isLoadingMore", "false");
    CHECK_JSON_EQ(state, "sections[4].loadMoreError.code", "network");
    CHECK_JSON_EQ(state, "sections[4].loadMoreError.message", "page 2 down");
    CHECK_JSON_EQ(state, "sections[4].pagesLoaded", "1");
    CHECK_JSON_EQ(state, "sections[3].loadMoreError", "null");
    cinematic_free(state);

    /* Trying again clears the error, asks for page 2 again, and appends. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "sections[4].loadMoreError", "null");
    CHECK_JSON_EQ(state, "sections[4].isLoadingMore", "true");
    cinematic_free(state);
    CHECK(provider_wait(&f.provider, "discover", NSECTIONS + 2, 5000));
    provider_call retry = {0};
    CHECK(provider_call_at(&f.provider, "discover", NSECTIONS + 1, &retry));
    CHECK_EQ_INT(request_section(&retry), COMEDY);
    CHECK_JSON_EQ(retry.json, "page", "2");
    movies_json(answer, sizeof answer, 7000, 20, "More");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, retry.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_EQ_INT(json_array_len(state, "sections[4].movies.value"), 40);
    CHECK_EQ_INT(json_int(state, "sections[4].movies.value[0].id", -1), 500);
    CHECK_EQ_INT(json_int(state, "sections[4].movies.value[20].id", -1), 7000);
    CHECK_JSON_EQ(state, "sections[4].pagesLoaded", "2");
    CHECK_JSON_EQ(state, "sections[4].isLoadingMore", "false");
    CHECK_JSON_EQ(state, "sections[4].loadMoreError", "null");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

int main(void) {
    RUN_TEST(test_discover_host_duplicate_suppression_and_refresh);
    RUN_TEST(test_discover_host_load_more);
    return TEST_SUMMARY();
}
