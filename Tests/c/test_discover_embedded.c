/*
 * Discover on the embedded catalog through the C ABI: its sections, their order and ranking
 * (votes, rating, genre), and paging. The host catalog is in test_discover_host.c, Detail in
 * test_detail.c.
 */
#include "discover.h"

/* The display titles; for genre sections, the genre itself. */
static const char *const titles[NSECTIONS] = {"Popular", "Top rated", "Action",      "Animation", "Comedy",
                                               "Drama",   "Documentary", "Romance", "Short"};

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

int main(void) {
    RUN_TEST(test_discover_embedded_sections);
    RUN_TEST(test_discover_embedded_load_more);
    return TEST_SUMMARY();
}
