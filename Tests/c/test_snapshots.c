/*
 * Snapshots (include/cinematic/snapshot.h, SNAPSHOTS; docs/wire.md, "Snapshots"): a store's and a
 * runtime's snapshot, restored in a new runtime through the normal effects (states say
 * "loading", then equal what was saved), in-flight work, old formats, and hostile snapshots
 * refused or opened sanely, never a crash and never unbounded work (a watchdog fails the
 * program if anything hangs).
 */
#include "harness.h"

#include <signal.h>
#include <unistd.h>

#define CONFIG "{\"clock\":\"manual\"}"

static void watchdog_fired(int sig) {
    (void)sig;
    static const char message[] = "test_snapshots: watchdog: a restore took more than 60 s\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(2);
}

/* The snapshot of a store (owned: cinematic_free), logged for schema validation. */
static char *snapshot_of(cinematic_store *store) {
    char *json = NULL;
    CHECK_STATUS(cinematic_store_snapshot(store, &json), CINEMATIC_OK);
    h_wire_log("snapshot", NULL, json);
    return json;
}

static void settle(cinematic_store *store) { CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK); }

static cinematic_store *restore(cinematic_runtime *rt, const char *snapshot, int expected) {
    cinematic_store *store = NULL;
    CHECK_STATUS(cinematic_store_restore(rt, snapshot, &store), expected);
    if (expected == CINEMATIC_OK) CHECK(store != NULL); else CHECK(store == NULL);
    return store;
}

/* Search: typed, paged twice, saved; a new runtime restores it: "loading" first, then the
 * very state that was saved. */
static void test_search_round_trip(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(send_query(search, "star"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    settle(search);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    settle(search);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    settle(search);
    char *before = state_of(search);
    CHECK_JSON_EQ(before, "pagesLoaded", "3");
    char *snapshot = snapshot_of(search);
    CHECK_JSON_EQ(snapshot, "format", "1");
    CHECK_JSON_EQ(snapshot, "feature", "search");
    CHECK_JSON_EQ(snapshot, "data.query", "star");
    CHECK_JSON_EQ(snapshot, "data.pagesLoaded", "3");
    CHECK_JSON_EQ(snapshot, "library", cinematic_version());
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);

    cinematic_runtime *again = open_runtime("{\"clock\":\"manual\",\"history\":100}");
    cinematic_store *restored = restore(again, snapshot, CINEMATIC_OK);
    h_wire_note(restored, "search");
    settle(restored);
    /* Its first state said "loading" (the embedded catalog may answer before a first read),
     * then the pages arrived one after another. */
    char *loading = NULL;
    CHECK_STATUS(cinematic_store_history(restored, &loading), CINEMATIC_OK);
    h_wire_log("history", NULL, loading);
    CHECK_JSON_EQ(loading, "[0].intent.type", "restored");
    CHECK_JSON_EQ(loading, "[0].state.query", "star");
    CHECK_JSON_EQ(loading, "[0].state.results.phase", "loading");
    CHECK_JSON_EQ(loading, "[1].state.pagesLoaded", "1");
    CHECK_JSON_EQ(loading, "[1].state.isLoadingMore", "true");
    CHECK_JSON_EQ(loading, "[3].state.pagesLoaded", "3");
    CHECK_EQ_INT(json_array_len(loading, ""), 4);
    char *after = state_of(restored);
    CHECK_STR_EQ(after, before);
    /* The restored store pages on as usual. */
    CHECK_STATUS(cinematic_store_send(restored, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    settle(restored);
    char *more = state_of(restored);
    CHECK_JSON_EQ(more, "pagesLoaded", "4");
    cinematic_free(more);
    cinematic_free(after);
    cinematic_free(loading);
    cinematic_free(snapshot);
    cinematic_free(before);
    CHECK_EQ_INT(cinematic_runtime_close(again), CINEMATIC_OK);
}

/* A pending debounce is saved as its query, searched at once on restore, page 1. */
static void test_pending_debounce(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(send_query(search, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    settle(search);
    CHECK_STATUS(send_query(search, "godfather"), CINEMATIC_OK); /* debounce pending: no advance */
    char *snapshot = snapshot_of(search);
    CHECK_JSON_EQ(snapshot, "data.query", "godfather");
    CHECK_JSON_EQ(snapshot, "data.pagesLoaded", "1");
    cinematic_store *restored = restore(rt, snapshot, CINEMATIC_OK);
    h_wire_note(restored, "search");
    settle(restored); /* no clock advance needed: no debounce on restore */
    char *state = state_of(restored);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.query", "godfather");
    CHECK_JSON_EQ(state, "results.value[0].title", "The Godfather");
    cinematic_free(state);
    cinematic_free(snapshot);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* A runtime snapshot: every store, in order, reopened in order in a new runtime; the
 * detail's heart tap written before close is what the restored heart shows. */
static void test_runtime_round_trip(void) {
    char path[] = "/tmp/cinematic-snapshots-XXXXXX";
    CHECK(mkdtemp(path) != NULL);
    char config[512];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"favorites\":\"%s/favorites.sqlite\"}", path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *discover = open_feature(rt, "discover", NULL);
    cinematic_store *search = open_search(rt);
    cinematic_store *detail = open_feature(rt, "detail", "{\"movieId\":15249}");
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\"}"), CINEMATIC_OK);
    settle(discover);
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
    settle(discover);
    CHECK_STATUS(send_query(search, "alien"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    settle(search);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    free(wait_json_eq(detail, "detail.phase", "loaded", 5000));
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    free(wait_json_eq(favorites, "favorites.value[0].id", "15249", 5000));
    /* The heart tap is shown as saved: now take the snapshot. */
    char *states[4] = {state_of(discover), state_of(search), state_of(detail), state_of(favorites)};
    char *snapshot = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &snapshot), CINEMATIC_OK);
    h_wire_log("runtimeSnapshot", NULL, snapshot);
    CHECK_EQ_INT(json_array_len(snapshot, "stores"), 4);
    CHECK_JSON_EQ(snapshot, "stores[0].feature", "discover");
    CHECK_JSON_EQ(snapshot, "stores[1].feature", "search");
    CHECK_JSON_EQ(snapshot, "stores[2].data.movieId", "15249");
    CHECK_JSON_EQ(snapshot, "stores[3].feature", "favorites");
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);

    cinematic_runtime *again = open_runtime(config);
    cinematic_store **stores = NULL;
    int count = -1;
    CHECK_STATUS(cinematic_runtime_restore(again, snapshot, &stores, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, 4);
    if (count == 4 && stores) {
        const char *names[4] = {"discover", "search", "detail", "favorites"};
        for (int i = 0; i < 4; i++) h_wire_note(stores[i], names[i]);
        for (int i = 0; i < 2; i++) settle(stores[i]); /* detail and favorites observe: never settle */
        free(wait_json_eq(stores[2], "isFavorite", "true", 5000));
        free(wait_json_eq(stores[3], "favorites.value[0].id", "15249", 5000));
        for (int i = 0; i < 4; i++) {
            char *now = state_of(stores[i]);
            CHECK_STR_EQ(now, states[i]);
            cinematic_free(now);
        }
    }
    cinematic_free(stores);
    for (int i = 0; i < 4; i++) cinematic_free(states[i]);
    /* A runtime snapshot of the restored runtime is the same snapshot. */
    char *second = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(again, &second), CINEMATIC_OK);
    CHECK_STR_EQ(second, snapshot);
    cinematic_free(second);
    cinematic_free(snapshot);
    CHECK_EQ_INT(cinematic_runtime_close(again), CINEMATIC_OK);
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", path);
    CHECK_EQ_INT(system(command), 0);
}

/* The host's view travels through restores; firstVisibleIndex loads the pages showing it. */
static void test_view(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    const char *snapshot = "{\"format\":1,\"feature\":\"search\",\"data\":{\"query\":\"star\",\"pagesLoaded\":1},"
                           "\"view\":{\"firstVisibleIndex\":45,\"tab\":\"results\"}}";
    cinematic_store *store = restore(rt, snapshot, CINEMATIC_OK);
    h_wire_note(store, "search");
    settle(store);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "pagesLoaded", "3");
    cinematic_free(state);
    char *saved = snapshot_of(store);
    CHECK_JSON_EQ(saved, "view.firstVisibleIndex", "45");
    CHECK_JSON_EQ(saved, "view.tab", "results");
    cinematic_free(saved);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The store-argument form, and a snapshot of another feature. */
static void test_open_with_snapshot_argument(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *store = open_feature(rt, "detail", "{\"snapshot\":{\"format\":1,\"feature\":\"detail\",\"data\":{\"movieId\":20545}}}");
    h_wire_note(store, "detail");
    free(wait_json_eq(store, "detail.value.title", "The Godfather", 5000));
    cinematic_store *wrong = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", "{\"snapshot\":{\"format\":1,\"feature\":\"detail\",\"data\":{\"movieId\":1}}}", &wrong),
                 CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("a detail snapshot cannot open a search store");
    CHECK_STATUS(cinematic_store_open(rt, "search", "{\"snapshot\":{},\"extra\":1}", &wrong), CINEMATIC_ERR_INVALID);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Other formats: format 0 (feature + args) is migrated; a newer format is refused naming it. */
static void test_versions(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
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
    cinematic_runtime *rt = open_runtime(CONFIG);
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
    RUN_TEST(test_search_round_trip);
    RUN_TEST(test_pending_debounce);
    RUN_TEST(test_runtime_round_trip);
    RUN_TEST(test_view);
    RUN_TEST(test_open_with_snapshot_argument);
    RUN_TEST(test_versions);
    RUN_TEST(test_hostile);
    return TEST_SUMMARY();
}
