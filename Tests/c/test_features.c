/*
 * The Discover and Detail features through the C ABI: the embedded catalog (sections, their
 * order and ranking, paging), a host catalog whose provider holds answers (duplicate-task
 * suppression, refresh and cancellation, stale answers, failures kept in their section),
 * Detail's arguments, loading and failures, and the internal intents a host may not send.
 * Favorites (and Detail's heart) are in test_favorites.c.
 */
#include "harness.h"

#define EMBEDDED_CONFIG "{\"clock\":\"manual\"}"
#define HOST_CONFIG "{\"catalog\":\"host\",\"clock\":\"manual\"}"
#define NSECTIONS 9

static const char *const sections[NSECTIONS] = {"popular", "topRated", "action",      "animation", "comedy",
                                                 "drama",   "documentary", "romance", "short"};
/* The display titles; for genre sections, the genre itself. */
static const char *const titles[NSECTIONS] = {"Popular", "Top rated", "Action",      "Animation", "Comedy",
                                               "Drama",   "Documentary", "Romance", "Short"};
enum { POPULAR = 0, TOP_RATED = 1, ACTION = 2, COMEDY = 4, DRAMA = 5 };


/* "sections[i]<suffix>" into buf. */
static const char *spath(char *buf, size_t size, int i, const char *suffix) {
    snprintf(buf, size, "sections[%d]%s", i, suffix);
    return buf;
}

/* "sections[i].movies.value[j]<suffix>" into buf. */
static const char *mpath(char *buf, size_t size, int i, int j, const char *suffix) {
    snprintf(buf, size, "sections[%d].movies.value[%d]%s", i, j, suffix);
    return buf;
}

static int any_state_contains(recorder *r, const char *text) {
    for (int i = 0; i < recorder_count(r); i++) {
        const char *state = recorder_state(r, i);
        if (state && strstr(state, text)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* Discover, embedded catalog                                                            */

/* Checks section i of a settled first load: loaded, 20 movies, page 1, nothing pending. */
static void check_first_page(const char *state, int i) {
    char p[128];
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".section"), sections[i]);
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".title"), titles[i]);
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.phase"), "loaded");
    CHECK_EQ_INT(json_array_len(state, spath(p, sizeof p, i, ".movies.value")), 20);
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".pagesLoaded"), "1");
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".isExhausted"), "false");
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".isLoadingMore"), "false");
    CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".loadMoreError"), "null");
}

/* Checks that the n movies of section i are ordered by key ("votes", "rating") descending
 * (ties allowed); the first movie out of order is reported. */
static void check_descending(const char *state, int i, int n, const char *key) {
    char p[128], suffix[32];
    snprintf(suffix, sizeof suffix, ".%s", key);
    int bad = -1;
    double previous = 1e300;
    for (int j = 0; j < n; j++) {
        double value = json_double(state, mpath(p, sizeof p, i, j, suffix), -1);
        if (value < 0 || value > previous) { bad = j; break; }
        previous = value;
    }
    CHECK_MSG(bad < 0, "section %s: %s not descending (or missing) at movie %d", sections[i], key, bad);
}

/* Checks that every one of the n movies of section i lists the genre. */
static void check_genre(const char *state, int i, int n, const char *genre) {
    char p[128], genres[512], quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", genre);
    int bad = -1;
    for (int j = 0; j < n && bad < 0; j++) {
        if (!json_get(state, mpath(p, sizeof p, i, j, ".genres"), genres, sizeof genres) || !strstr(genres, quoted))
            bad = j;
    }
    CHECK_MSG(bad < 0, "section %s: movie %d is not of genre %s", sections[i], bad, genre);
}

/* Checks that the n movies of section i have distinct ids. */
static void check_distinct_ids(const char *state, int i, int n) {
    char p[128];
    long long ids[64];
    int duplicate = -1;
    for (int j = 0; j < n && j < 64; j++) {
        ids[j] = json_int(state, mpath(p, sizeof p, i, j, ".id"), -1);
        for (int k = 0; k < j; k++) if (ids[k] == ids[j]) duplicate = j;
    }
    CHECK_MSG(duplicate < 0, "section %s: movie %d repeats an id", sections[i], duplicate);
}

static void test_discover_embedded_sections(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_feature(rt, "discover", NULL);

    /* Before task every section is idle, already in order. */
    char *state = state_of(store);
    char p[128];
    CHECK_EQ_INT(json_array_len(state, "sections"), NSECTIONS);
    for (int i = 0; i < NSECTIONS; i++) {
        CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".section"), sections[i]);
        CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".movies.phase"), "idle");
        CHECK_JSON_EQ(state, spath(p, sizeof p, i, ".pagesLoaded"), "0");
    }
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    CHECK_EQ_INT(pending(store), 0);
    state = state_of(store);
    CHECK_EQ_INT(json_array_len(state, "sections"), NSECTIONS);
    for (int i = 0; i < NSECTIONS; i++) {
        check_first_page(state, i);
        check_distinct_ids(state, i, 20);
    }
    /* popular: most votes first. */
    check_descending(state, POPULAR, 20, "votes");
    /* topRated: at least 1,000 votes each, highest rating first. */
    int few_votes = -1;
    for (int j = 0; j < 20; j++)
        if (json_int(state, mpath(p, sizeof p, TOP_RATED, j, ".votes"), -1) < 1000) few_votes = j;
    CHECK_MSG(few_votes < 0, "topRated movie %d has fewer than 1000 votes", few_votes);
    check_descending(state, TOP_RATED, 20, "rating");
    /* genre sections: only movies of that genre, most votes first. */
    for (int i = ACTION; i < NSECTIONS; i++) {
        check_genre(state, i, 20, titles[i]);
        check_descending(state, i, 20, "votes");
    }
    /* The popular section differs from topRated (two different rankings). */
    char first_popular[1024], first_top[1024];
    CHECK(json_get(state, "sections[0].movies.value", first_popular, sizeof first_popular));
    CHECK(json_get(state, "sections[1].movies.value", first_top, sizeof first_top));
    CHECK(strcmp(first_popular, first_top) != 0);
    cinematic_free(state);

    /* Sending task again starts nothing: every section is loaded. */
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_EQ_INT(pending(store), 0);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_discover_embedded_load_more(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_feature(rt, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    char *before = state_of(store);
    check_first_page(before, COMEDY);

    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    char *during = state_of(store);
    /* Reduced before send returned: loading more (content kept), or already appended. */
    int more = json_array_len(during, "sections[4].movies.value");
    char flag[16] = "";
    json_get(during, "sections[4].isLoadingMore", flag, sizeof flag);
    CHECK_JSON_EQ(during, "sections[4].movies.phase", "loaded");
    CHECK_MSG((more == 20 && strcmp(flag, "true") == 0) || (more == 40 && strcmp(flag, "false") == 0),
              "right after loadMore: %d movies, isLoadingMore %s", more, flag);
    cinematic_free(during);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);

    char *after = state_of(store);
    char p[128];
    CHECK_JSON_EQ(after, "sections[4].section", "comedy");
    CHECK_JSON_EQ(after, "sections[4].title", "Comedy");
    CHECK_JSON_EQ(after, "sections[4].movies.phase", "loaded");
    CHECK_EQ_INT(json_array_len(after, "sections[4].movies.value"), 40);
    CHECK_JSON_EQ(after, "sections[4].pagesLoaded", "2");
    CHECK_JSON_EQ(after, "sections[4].isLoadingMore", "false");
    CHECK_JSON_EQ(after, "sections[4].isExhausted", "false");
    CHECK_JSON_EQ(after, "sections[4].loadMoreError", "null");
    check_distinct_ids(after, COMEDY, 40);
    check_genre(after, COMEDY, 40, "Comedy");
    check_descending(after, COMEDY, 40, "votes"); /* page 2 continues page 1 */
    /* The first 20 are unchanged, movie by movie. */
    int changed = -1;
    for (int j = 0; j < 20; j++) {
        char a[1024], b[1024];
        mpath(p, sizeof p, COMEDY, j, "");
        if (!json_get(before, p, a, sizeof a) || !json_get(after, p, b, sizeof b) || strcmp(a, b) != 0) changed = j;
    }
    CHECK_MSG(changed < 0, "Comedy movie %d changed after loadMore", changed);
    /* Other sections are untouched. */
    for (int i = 0; i < NSECTIONS; i++) {
        if (i == COMEDY) continue;
        char a[1024] = "", b[1024] = "";
        spath(p, sizeof p, i, ".movies.value[19]");
        CHECK(json_get(before, p, a, sizeof a) && json_get(after, p, b, sizeof b) && strcmp(a, b) == 0);
        CHECK_JSON_EQ(after, spath(p, sizeof p, i, ".pagesLoaded"), "1");
    }

    /* An unknown section (names are case-sensitive) or none is invalid; nothing changes. */
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":\"Western\"}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.section\"");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":\"Comedy\"}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.section\"");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":3}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.section\"");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\"}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.section\"");
    CHECK_EQ_INT(pending(store), 0);
    char *unchanged = state_of(store);
    CHECK_STR_EQ(unchanged, after);
    cinematic_free(unchanged);

    /* A third page appends again. */
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
    char *third = state_of(store);
    CHECK_EQ_INT(json_array_len(third, "sections[4].movies.value"), 60);
    CHECK_JSON_EQ(third, "sections[4].pagesLoaded", "3");
    cinematic_free(third);

    cinematic_free(before);
    cinematic_free(after);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* ------------------------------------------------------------------------------------ */
/* Discover, host catalog                                                                */


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

/* ------------------------------------------------------------------------------------ */
/* Detail                                                                                */

/* Checks that the value at path is an array of 10 numbers, each a share in 0...100. */
static void check_distribution(const char *state, const char *path) {
    CHECK_EQ_INT(json_array_len(state, path), 10);
    int bad = -1;
    for (int k = 0; k < 10; k++) {
        char p[128];
        snprintf(p, sizeof p, "%s[%d]", path, k);
        double share = json_double(state, p, -1);
        if (share < 0 || share > 100) bad = k;
    }
    CHECK_MSG(bad < 0, "ratingDistribution[%d] is not a number in 0...100", bad);
}

static void test_detail_embedded(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *store = open_feature(rt, "detail", "{\"movieId\":15249}");
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "movieId", "15249");
    CHECK_JSON_EQ(state, "detail.phase", "idle");
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    state = wait_json_eq(store, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_JSON_EQ(state, "detail.value.id", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.year", "1984");
    CHECK_JSON_EQ(state, "detail.value.budget", "45000000");
    CHECK_JSON_EQ(state, "detail.value.genres", "[\"Action\"]");
    check_distribution(state, "detail.value.ratingDistribution");
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);

    /* An unknown id fails with notFound. */
    cinematic_store *missing = open_feature(rt, "detail", "{\"movieId\":999999}");
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"task\"}"), CINEMATIC_OK);
    state = wait_json_eq(missing, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "movieId", "999999");
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "notFound");
    char message[256] = "";
    CHECK(json_get(state, "detail.error.message", message, sizeof message) && message[0] != '\0');
    cinematic_free(state);
    /* Toggling an unloaded movie is ignored. */
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = state_of(missing);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_detail_args_invalid(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    struct {
        const char *args;
        const char *path;
    } cases[] = {
        {NULL, NULL},                                  /* missing args */
        {"{}", "\"path\":\"$.movieId\""},             /* missing member */
        {"{\"movieId\":\"x\"}", "\"path\":\"$.movieId\""},
        {"{\"movieId\":1,\"extra\":2}", "\"path\":\"$.extra\""},
        {"{\"movieId\":null}", "\"path\":\"$.movieId\""},
        {"{\"movieId\":1.5}", "\"path\":\"$.movieId\""},
        {"{\"movie_id\":15249}", "\"path\":\"$.movie_id\""}, /* 0.1.0's spelling */
        {"[15249]", NULL},
        {"15249", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cinematic_store *store = (cinematic_store *)0x1;
        CHECK_STATUS(cinematic_store_open(rt, "detail", cases[i].args, &store), CINEMATIC_ERR_INVALID);
        CHECK_MSG(store == NULL, "case %zu (%s): out not set to NULL", i, cases[i].args ? cases[i].args : "NULL");
        if (cases[i].path) CHECK_ENVELOPE_CONTAINS(cases[i].path);
    }
    /* Malformed args are a JSON error. */
    cinematic_store *store = (cinematic_store *)0x1;
    CHECK_STATUS(cinematic_store_open(rt, "detail", "{\"movieId\":", &store), CINEMATIC_ERR_JSON);
    CHECK(store == NULL);
    /* The runtime keeps working: a valid open succeeds. */
    store = open_feature(rt, "detail", "{\"movieId\":1}");
    CHECK(store != NULL);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The detail of a host catalog: requested with {"op":"movie","id":N}. */
static void test_detail_host_catalog(void) {
    fixture f;
    fixture_open(&f, "{\"catalog\":\"host\"}", PROVIDER_HOLD, "detail", "{\"movieId\":15249}");
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "movie", 0, &call));
    CHECK_JSON_EQ(call.json, "op", "movie");
    CHECK_JSON_EQ(call.json, "id", "15249");
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "detail.phase", "loading");
    cinematic_free(state);
    /* Ignored until the movie has loaded. */
    CHECK_STATUS(cinematic_store_send(f.store, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = state_of(f.store);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    cinematic_free(state);

    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id,
                     "{\"movie\":{\"id\":15249,\"title\":\"Dune\",\"year\":1984,\"runtime\":137,\"rating\":6.5,"
                     "\"votes\":1200,\"genres\":[\"Action\"],\"mpaa\":\"PG-13\",\"budget\":null,"
                     "\"ratingDistribution\":[1,2,3,4,5,6,7,8,9,55],\"tagline\":\"ignored\"}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(f.store, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "loaded");
    CHECK_JSON_EQ(state, "detail.value.id", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.runtime", "137");
    CHECK_JSON_EQ(state, "detail.value.mpaa", "PG-13");
    CHECK_JSON_EQ(state, "detail.value.budget", "null");
    check_distribution(state, "detail.value.ratingDistribution");
    CHECK(json_double(state, "detail.value.ratingDistribution[0]", -1) == 1);
    CHECK(json_double(state, "detail.value.ratingDistribution[8]", -1) == 9);
    CHECK(json_double(state, "detail.value.ratingDistribution[9]", -1) == 55);
    CHECK_STR_LACKS(state, "tagline");
    cinematic_free(state);

    /* An error answer: failed with that code and message. */
    cinematic_store *missing = open_feature(f.rt, "detail", "{\"movieId\":424242}");
    CHECK_STATUS(cinematic_store_send(missing, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 2, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 1, &call));
    CHECK_JSON_EQ(call.json, "id", "424242");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"error\":{\"code\":\"notFound\",\"message\":\"no such movie\"}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(missing, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "notFound");
    /* notFound carries the library's own message (the host's is not kept, as for search). */
    char message[256] = "";
    CHECK(json_get(state, "detail.error.message", message, sizeof message) && message[0] != '\0');
    cinematic_free(state);

    /* A list answer to a movie request cannot be decoded: invalid, and the detail fails with
     * invalidResponse (nothing waits forever). */
    cinematic_store *wrong = open_feature(f.rt, "detail", "{\"movieId\":7}");
    CHECK_STATUS(cinematic_store_send(wrong, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 3, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 2, &call));
    CHECK_JSON_EQ(call.json, "id", "7");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    state = wait_json_eq(wrong, "detail.phase", "failed", 5000);
    CHECK_JSON_EQ(state, "detail.phase", "failed");
    CHECK_JSON_EQ(state, "detail.error.code", "invalidResponse");
    cinematic_free(state);
    /* task retries a failed detail. */
    CHECK_STATUS(cinematic_store_send(wrong, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(provider_wait(&f.provider, "movie", 4, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 3, &call));
    CHECK_JSON_EQ(call.json, "id", "7");
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, "{\"movie\":{\"id\":7,\"title\":\"Seven\",\"budget\":1000,"
                                                          "\"ratingDistribution\":[0,0,0,0,0,0,0,0,0,100]}}"),
                 CINEMATIC_OK);
    state = wait_json_eq(wrong, "detail.phase", "loaded", 5000);
    CHECK_JSON_EQ(state, "detail.value.title", "Seven");
    CHECK_JSON_EQ(state, "detail.value.budget", "1000");
    cinematic_free(state);
    CHECK_EQ_INT(provider_count(&f.provider, "cancel"), 0);
    fixture_close(&f, FIXTURE_STRICT);
}

/* ------------------------------------------------------------------------------------ */
/* Internal intents                                                                      */

static void check_internal_rejected(cinematic_store *store, const char *const *intents, size_t n) {
    char *before = state_of(store);
    for (size_t i = 0; i < n; i++) {
        int rc = cinematic_store_send(store, intents[i]);
        const char *envelope = cinematic_last_error();
        h_check_status(rc, envelope, CINEMATIC_ERR_INVALID, intents[i], __FILE__, __LINE__);
        CHECK_ENVELOPE_CONTAINS("\"path\":\"$.type\"");
    }
    char *after = state_of(store);
    CHECK_STR_EQ(after, before);
    cinematic_free(after);
    cinematic_free(before);
}

static void test_internal_intents_invalid(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *discover = open_feature(rt, "discover", NULL);
    const char *const discover_intents[] = {
        "{\"type\":\"sectionLoaded\"}",
        "{\"type\":\"sectionFailed\"}",
        "{\"type\":\"sectionLoaded\",\"section\":\"popular\",\"page\":1,\"movies\":[]}",
        "{\"type\":\"sectionFailed\",\"section\":\"popular\",\"page\":1,"
        "\"error\":{\"code\":\"network\",\"message\":\"x\"}}",
    };
    check_internal_rejected(discover, discover_intents, sizeof discover_intents / sizeof *discover_intents);
    CHECK_EQ_INT(pending(discover), 0);

    cinematic_store *detail = open_feature(rt, "detail", "{\"movieId\":15249}");
    const char *const detail_intents[] = {
        "{\"type\":\"detailLoaded\"}",
        "{\"type\":\"detailFailed\"}",
        "{\"type\":\"favoritesChanged\"}",
        "{\"type\":\"favoriteSaved\"}",
        "{\"type\":\"favoriteSaveFailed\"}",
        "{\"type\":\"detailLoaded\",\"detail\":{\"id\":15249,\"title\":\"Fake\"}}",
        "{\"type\":\"detailFailed\",\"error\":{\"code\":\"notFound\",\"message\":\"x\"}}",
        "{\"type\":\"favoritesChanged\",\"favorites\":[]}",
        "{\"type\":\"favoriteSaved\",\"isFavorite\":true}",
        "{\"type\":\"favoriteSaveFailed\",\"error\":{\"code\":\"storage\",\"message\":\"x\"}}",
    };
    check_internal_rejected(detail, detail_intents, sizeof detail_intents / sizeof *detail_intents);
    CHECK_EQ_INT(pending(detail), 0);

    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    const char *const favorites_intents[] = {
        "{\"type\":\"favoritesChanged\"}",
        "{\"type\":\"removalFailed\"}",
        "{\"type\":\"favoritesChanged\",\"favorites\":[{\"id\":1,\"title\":\"Fake\"}]}",
        "{\"type\":\"removalFailed\",\"error\":{\"code\":\"storage\",\"message\":\"x\"}}",
    };
    check_internal_rejected(favorites, favorites_intents, sizeof favorites_intents / sizeof *favorites_intents);
    CHECK_EQ_INT(pending(favorites), 0);

    /* Intents of another feature are unknown here. */
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"refresh\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_ERR_INVALID);
    /* Unknown members of host intents are invalid too. */
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\",\"force\":true}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.force\"");
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":\"15249\"}"), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.movieId\"");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_discover_embedded_sections);
    RUN_TEST(test_discover_embedded_load_more);
    RUN_TEST(test_discover_host_duplicate_suppression_and_refresh);
    RUN_TEST(test_discover_host_load_more);
    RUN_TEST(test_detail_embedded);
    RUN_TEST(test_detail_args_invalid);
    RUN_TEST(test_detail_host_catalog);
    RUN_TEST(test_internal_intents_invalid);
    return TEST_SUMMARY();
}
