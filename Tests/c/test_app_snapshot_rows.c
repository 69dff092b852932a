/*
 * Rows that come back from an app snapshot (or a state file) are outside input: checked
 * against the catalog before anything is stored (docs/wire.md, "app", Snapshot). A Detail of
 * film A carrying the row of film B stores A when its heart is tapped, never B; the undo
 * stack's rows are stored as the catalog holds them (a made-up rating or year never reaches
 * the favorites file), a film the catalog does not hold is not stored at all, and a notice
 * offers undo only with something to undo.
 */
#include "app.h"

#define ALIEN 1652
#define ALIENS 1679

/* An app snapshot of the embedded catalog (data as given) restored in rt, its task sent. */
static cinematic_store *restore_app(cinematic_runtime *rt, const char *data) {
    char snapshot[4096];
    snprintf(snapshot, sizeof snapshot, "{\"format\":1,\"library\":\"%s\",\"feature\":\"app\",\"data\":%s}", cinematic_version(), data);
    cinematic_store *app = NULL;
    CHECK_STATUS(cinematic_store_restore(rt, snapshot, &app), CINEMATIC_OK);
    if (app) send_ok(app, "{\"type\":\"task\"}");
    return app;
}

/* The favorites as stored (a fresh favorites store of the same runtime reads them). */
static char *stored_favorites(cinematic_runtime *rt) {
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    send_ok(favorites, "{\"type\":\"task\"}");
    char *state = wait_json_eq(favorites, "favorites.phase", "loaded", H_WAIT_MS);
    CHECK_STATUS(cinematic_store_close(favorites), CINEMATIC_OK);
    return state;
}

#define FAKE_ALIEN "{\"id\":1652,\"title\":\"Alien\",\"year\":-5,\"runtime\":1,\"rating\":1e308,\"votes\":1,\"genres\":[],\"mpaa\":null}"

/* The shown Detail's heart, tapped: what the state says at once (the reduce is synchronous). */
static void tap_stores_nothing(cinematic_store *app, const char *why) {
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    char *state = state_of(app);
    int last = json_array_len(state, "details") - 1;
    char path[64];
    snprintf(path, sizeof path, "details[%d].isFavorite", last);
    h_json_expect empty = {path, "false"};
    CHECK_MSG(h_pred_json_eq(state, &empty), "%s: the heart filled from an unchecked row", why);
    snprintf(path, sizeof path, "details[%d].isSaving", last);
    CHECK_MSG(h_pred_json_eq(state, &empty), "%s: a write of an unchecked row started", why);
    cinematic_free(state);
}

/* A catalog that never answers (a host catalog with no provider): the details never load,
 * so only the snapshot's rows could be stored, and none is. */
static void test_unchecked_rows_are_never_stored_by_a_heart(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    char data[1024];
    snprintf(data, sizeof data,
             "{\"tab\":\"search\",\"section\":\"popular\",\"query\":\"\",\"searchPages\":0,\"sections\":[],\"details\":["
             "{\"movieId\":%d,\"listing\":{\"id\":%d,\"title\":\"Alien\",\"year\":1979,\"runtime\":116,\"rating\":8.3,\"votes\":63400,"
             "\"genres\":[],\"mpaa\":\"R\"}},{\"movieId\":%d,\"listing\":" FAKE_ALIEN "}],\"positions\":{},\"removed\":[]}",
             ALIENS, ALIEN, ALIEN);
    cinematic_store *app = restore_app(rt, data);
    char *state = state_of(app);
    CHECK_JSON_EQ(state, "details[0].listing", "null"); /* Aliens' Detail with Alien's row: dropped */
    CHECK_EQ_INT(json_int(state, "details[1].listing.id", -1), ALIEN);
    cinematic_free(state);
    tap_stores_nothing(app, "Alien with a made-up row");
    send_ok(app, "{\"type\":\"back\"}");
    tap_stores_nothing(app, "Aliens with Alien's row");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The detail's load checks the row: the catalog's row replaces it, and the heart stores that. */
static void test_a_loaded_detail_replaces_the_snapshots_row(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = restore_app(rt, "{\"tab\":\"search\",\"section\":\"popular\",\"query\":\"\",\"searchPages\":0,\"sections\":[],"
                                           "\"details\":[{\"movieId\":1652,\"listing\":" FAKE_ALIEN "}],\"positions\":{},\"removed\":[]}");
    char *state = wait_json_eq(app, "details[0].detail.phase", "loaded", H_WAIT_MS);
    CHECK_EQ_INT(json_int(state, "details[0].listing.year", -1), 1979);
    CHECK_JSON_EQ(state, "details[0].listing.rating", "8.3");
    cinematic_free(state);
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    state = wait_json_eq(app, "favorites.favorites.value[0].year", "1979", H_WAIT_MS);
    cinematic_free(state);
    state = stored_favorites(rt);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    CHECK_JSON_EQ(state, "favorites.value[0].rating", "8.3");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_undo_stores_the_catalogs_row_or_nothing(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    char data[1024];
    snprintf(data, sizeof data,
             "{\"tab\":\"favorites\",\"section\":\"popular\",\"query\":\"\",\"searchPages\":0,\"sections\":[],\"details\":[],\"positions\":{},"
             "\"removed\":[{\"id\":%d,\"title\":\"Alien\",\"year\":-5,\"runtime\":1,\"rating\":1e308,\"votes\":1,\"genres\":[],\"mpaa\":null},"
             "{\"id\":987654321,\"title\":\"Not a film\",\"year\":2000,\"runtime\":90,\"rating\":9.9,\"votes\":5,\"genres\":[],\"mpaa\":null}]}",
             ALIEN);
    cinematic_store *app = restore_app(rt, data);
    char *state = wait_json_eq(app, "favorites.favorites.phase", "loaded", H_WAIT_MS);
    cinematic_free(state);

    send_ok(app, "{\"type\":\"undo\"}"); /* Alien, as the snapshot says it: stored as the catalog has it */
    state = wait_json_eq(app, "notice.kind", "restored", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "restored");
    cinematic_free(state);
    state = stored_favorites(rt);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].id", -1), ALIEN);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].year", -1), 1979);
    CHECK_JSON_EQ(state, "favorites.value[0].rating", "8.3");
    cinematic_free(state);

    send_ok(app, "{\"type\":\"undo\"}"); /* a film the catalog does not hold: not stored, not kept */
    state = wait_json_eq(app, "notice.kind", "undoFailed", H_WAIT_MS);
    CHECK_STR_CONTAINS(state, "the catalog has no such film");
    CHECK_JSON_EQ(state, "removed", "[]");
    CHECK_JSON_EQ(state, "notice.offersUndo", "false");
    cinematic_free(state);
    state = stored_favorites(rt);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    cinematic_free(state);
    state = state_of(app);
    CHECK_EQ_INT(json_array_len(state, "favorites.favorites.value"), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_a_notice_offers_undo_only_with_something_to_undo(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = restore_app(rt, "{\"tab\":\"favorites\",\"section\":\"popular\",\"query\":\"\",\"searchPages\":0,\"sections\":[],"
                                           "\"details\":[],\"positions\":{},\"removed\":[],"
                                           "\"notice\":{\"kind\":\"removed\",\"text\":\"Removed Alien\",\"offersUndo\":true}}");
    char *state = state_of(app);
    CHECK_JSON_EQ(state, "notice.text", "Removed Alien");
    CHECK_JSON_EQ(state, "notice.offersUndo", "false");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_unchecked_rows_are_never_stored_by_a_heart);
    RUN_TEST(test_a_loaded_detail_replaces_the_snapshots_row);
    RUN_TEST(test_undo_stores_the_catalogs_row_or_nothing);
    RUN_TEST(test_a_notice_offers_undo_only_with_something_to_undo);
    return TEST_SUMMARY();
}
