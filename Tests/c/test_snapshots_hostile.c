/*
 * Snapshots of other formats and hostile snapshots (docs/wire.md, "Snapshots"): format 0 is
 * migrated, a newer format refused naming it, and hostile snapshots refused or opened sanely,
 * never a crash and never unbounded work (a watchdog fails the program if anything hangs).
 */
#include "snapshots.h"

/* Other formats: format 0 (feature + args) is migrated; a newer format is refused naming it. */
static void test_versions(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    cinematic_store *old = restore(rt, "{\"feature\":\"detail\",\"args\":{\"movieId\":15249}}", CINEMATIC_OK);
    settle(old);
    char *state = state_of(old);
    CHECK_JSON_EQ(state, "movieId", "15249");
    CHECK_JSON_EQ(state, "detail.phase", "idle"); /* opened as new: from its arguments */
    cinematic_free(state);
    char *snapshot = snapshot_of(old);
    CHECK_JSON_EQ(snapshot, "data.movieId", "15249");
    cinematic_free(snapshot);
    /* A recording's open line is a format-0 snapshot. */
    restore(rt, "{\"event\":\"open\",\"t\":0,\"store\":2,\"feature\":\"search\",\"args\":null}", CINEMATIC_OK);
    restore(rt, "{\"format\":7,\"library\":\"0.9.1\",\"feature\":\"search\",\"data\":{}}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("snapshot format 7 (written by cinematic 0.9.1) is newer than this library's format 1");
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.format\"");
    restore(rt, "{\"format\":-1,\"feature\":\"search\",\"data\":{}}", CINEMATIC_ERR_INVALID);
    cinematic_store **stores = (cinematic_store **)1;
    int count = 5;
    CHECK_STATUS(cinematic_runtime_restore(rt, "{\"format\":2,\"library\":\"1.0.0\",\"stores\":[]}", &stores, &count), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("runtime snapshot format 2 (written by cinematic 1.0.0)");
    CHECK(stores == NULL);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Hostile snapshots: refused with a status, or a sane state within the documented bounds. */
static void test_hostile(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
    /* Not snapshots. */
    restore(rt, "42", CINEMATIC_ERR_INVALID);
    restore(rt, "{}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("not a cinematic snapshot");
    restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"dune\"", CINEMATIC_ERR_JSON); /* truncated */
    restore(rt, "{\"format\":1,\"feature\":\"no such feature\",\"data\":{}}", CINEMATIC_ERR_UNKNOWN_FEATURE);
    restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"dune\",\"pagesLoaded\":1,\"evil\":1}}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("$.data");
    restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"dune\",\"pagesLoaded\":-3}}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.data.pagesLoaded\"");
    restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":7,\"pagesLoaded\":1}}", CINEMATIC_ERR_INVALID);
    restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":[]}", CINEMATIC_ERR_INVALID);
    restore(rt, "{\"format\":1,\"feature\":\"detail\",\"data\":{\"movieId\":\"15249\"}}", CINEMATIC_ERR_INVALID);
    restore(rt, "{\"format\":1,\"feature\":\"detail\",\"data\":{}}", CINEMATIC_ERR_INVALID);
    restore(rt, "{\"format\":1,\"feature\":\"discover\",\"data\":{\"sections\":[{\"section\":\"westerns\",\"pagesLoaded\":1}]}}",
            CINEMATIC_ERR_INVALID);
    restore(rt, "{\"format\":1,\"feature\":\"favorites\",\"data\":{\"secret\":true}}", CINEMATIC_ERR_INVALID);
    /* A query longer than a query may be. */
    char *long_query = malloc(4096);
    int n = snprintf(long_query, 4096, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"");
    memset(long_query + n, 'q', 300);
    strcpy(long_query + n + 300, "\",\"pagesLoaded\":1}}");
    restore(rt, long_query, CINEMATIC_ERR_INVALID);
    free(long_query);
    /* Deep nesting: in the view (8 levels at most), and beyond the JSON limit. */
    char deep_view[512];
    n = snprintf(deep_view, sizeof deep_view, "{\"format\":1,\"feature\":\"favorites\",\"data\":{},\"view\":");
    for (int i = 0; i < 20; i++) deep_view[n++] = '[';
    for (int i = 0; i < 20; i++) deep_view[n++] = ']';
    strcpy(deep_view + n, "}");
    deep_view[n] = '{'; /* the view must be an object: wrap the arrays */
    n = snprintf(deep_view, sizeof deep_view, "{\"format\":1,\"feature\":\"favorites\",\"data\":{},\"view\":{\"a\":");
    for (int i = 0; i < 20; i++) deep_view[n++] = '[';
    for (int i = 0; i < 20; i++) deep_view[n++] = ']';
    strcpy(deep_view + n, "}}");
    restore(rt, deep_view, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("deeper than 8");
    size_t depth = 100000;
    char *deep = malloc(depth * 2 + 64);
    n = sprintf(deep, "{\"format\":1,\"feature\":\"search\",\"data\":");
    memset(deep + n, '[', depth);
    memset(deep + n + depth, ']', depth);
    strcpy(deep + n + 2 * depth, "}");
    restore(rt, deep, CINEMATIC_ERR_JSON);
    free(deep);
    /* A huge view. */
    char *big = malloc(10000);
    n = sprintf(big, "{\"format\":1,\"feature\":\"favorites\",\"data\":{},\"view\":{\"x\":\"");
    memset(big + n, 'v', 5000);
    strcpy(big + n + 5000, "\"}}");
    restore(rt, big, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("larger than 4096 bytes");
    free(big);

    /* Huge page counts: capped (25 pages for Search, 10 per Discover section), at what exists. */
    cinematic_store *huge = restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"the\",\"pagesLoaded\":9223372036854775807},"
                                        "\"view\":{\"firstVisibleIndex\":9223372036854775807}}", CINEMATIC_OK);
    h_wire_note(huge, "search");
    settle(huge);
    char *state = state_of(huge);
    CHECK_JSON_EQ(state, "pagesLoaded", "25");
    CHECK_JSON_EQ(state, "isLoadingMore", "false");
    cinematic_free(state);
    cinematic_store *few = restore(rt, "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"godfather part\",\"pagesLoaded\":10000}}",
                                   CINEMATIC_OK);
    h_wire_note(few, "search");
    settle(few);
    state = state_of(few);
    CHECK_JSON_EQ(state, "isExhausted", "true"); /* stopped at the last page that exists */
    CHECK(json_int(state, "pagesLoaded", 0) < 25);
    cinematic_free(state);
    cinematic_store *sections = restore(rt, "{\"format\":1,\"feature\":\"discover\",\"data\":{\"sections\":["
                                            "{\"section\":\"drama\",\"pagesLoaded\":100000},{\"section\":\"drama\",\"pagesLoaded\":2}]}}",
                                        CINEMATIC_OK);
    h_wire_note(sections, "discover");
    settle(sections);
    state = state_of(sections);
    CHECK_JSON_EQ(state, "sections[5].section", "drama");
    CHECK_JSON_EQ(state, "sections[5].pagesLoaded", "10");
    CHECK_JSON_EQ(state, "sections[0].movies.phase", "idle"); /* not in the snapshot */
    cinematic_free(state);
    /* An id that no longer exists: a detail that fails with notFound. */
    cinematic_store *gone = restore(rt, "{\"format\":1,\"feature\":\"detail\",\"data\":{\"movieId\":999999999}}", CINEMATIC_OK);
    h_wire_note(gone, "detail");
    free(wait_json_eq(gone, "detail.error.code", "notFound", 5000));
    /* Too many stores, a store of a bad kind inside a runtime snapshot: nothing opens. */
    size_t cap = 300 * 80 + 64;
    char *many = malloc(cap);
    n = sprintf(many, "{\"format\":1,\"stores\":[");
    for (int i = 0; i < 300; i++)
        n += sprintf(many + n, "%s{\"format\":1,\"feature\":\"favorites\",\"data\":{}}", i ? "," : "");
    strcpy(many + n, "]}");
    cinematic_store **stores = NULL;
    int count = -1;
    CHECK_STATUS(cinematic_runtime_restore(rt, many, &stores, &count), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("more than 256 stores");
    free(many);
    char *before = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &before), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_restore(rt, "{\"format\":1,\"stores\":[{\"format\":1,\"feature\":\"favorites\",\"data\":{}},"
                                               "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"x\"}}]}", &stores, &count),
                 CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.stores[1].data.pagesLoaded\"");
    char *after = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &after), CINEMATIC_OK);
    CHECK_STR_EQ(after, before); /* nothing was left open */
    cinematic_free(before);
    cinematic_free(after);
    /* Misuse. */
    cinematic_store *none = NULL;
    CHECK_STATUS(cinematic_store_restore(rt, NULL, &none), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_restore(NULL, "{}", &none), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_restore(rt, "{}", NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_snapshot(NULL, &before), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_snapshot(few, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_snapshot(rt, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_restore(rt, "{}", NULL, &count), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_close(few), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_snapshot(few, &before), CINEMATIC_ERR_CLOSED);
    /* Every store still works. */
    CHECK_STATUS(send_query(huge, "alien"), CINEMATIC_OK);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &before), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_restore(rt, "{}", &none), CINEMATIC_ERR_CLOSED);
}

int main(void) {
    signal(SIGALRM, watchdog_fired);
    alarm(60);
    RUN_TEST(test_versions);
    RUN_TEST(test_hostile);
    return TEST_SUMMARY();
}
