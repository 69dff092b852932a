/*
 * Snapshots (include/cinematic/snapshot.h, SNAPSHOTS; docs/wire.md, "Snapshots"): a store's and a
 * runtime's snapshot, restored in a new runtime through the normal effects (states say
 * "loading", then equal what was saved), in-flight work, the host's view, and the
 * store-argument form. Old formats and hostile snapshots: test_snapshots_hostile.c.
 */
#include "snapshots.h"

/* Search: typed, paged twice, saved; a new runtime restores it: "loading" first, then the
 * very state that was saved. */
static void test_search_round_trip(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
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
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
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
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
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
    cinematic_runtime *rt = open_runtime(EMBEDDED_CONFIG);
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


int main(void) {
    signal(SIGALRM, watchdog_fired);
    alarm(60);
    RUN_TEST(test_search_round_trip);
    RUN_TEST(test_pending_debounce);
    RUN_TEST(test_runtime_round_trip);
    RUN_TEST(test_view);
    RUN_TEST(test_open_with_snapshot_argument);
    return TEST_SUMMARY();
}
