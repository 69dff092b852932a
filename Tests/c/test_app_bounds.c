/*
 * The app's bounds are the core's (runtime config "app"; docs/wire.md, "app"), met on every
 * path that reaches them: a list keeps at most rowsPerList films whether the next page is
 * asked by moved, moveBy, the named loadMore, a nested {"type":"search"|"discover", "intent":
 * {"type":"loadMore"}} or a child handle's loadMore; at the bound the view says so and offers
 * no more. Details and the undo stack keep their bounds too.
 */
#include "app.h"

#define BOUNDED "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250},\"app\":{\"rowsPerList\":40,\"details\":2,\"undo\":1}}"

/* Sends `intent` `times` times, each time waiting until no page loads (at loading_path). */
static void ask_pages(cinematic_store *to, cinematic_store *app, const char *intent, const char *loading_path, int times) {
    for (int i = 0; i < times; i++) {
        send_ok(to, intent);
        char *state = wait_json_eq(app, loading_path, "false", H_WAIT_MS);
        CHECK_JSON_EQ(state, loading_path, "false");
        cinematic_free(state);
    }
}

static void test_every_path_to_a_next_page_meets_rows_per_list(void) {
    cinematic_runtime *rt = open_runtime(BOUNDED);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *discover = scope_of(app, "discover", "discover");
    send_ok(app, "{\"type\":\"task\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"discover\"}");
    cinematic_free(wait_json_eq(app, "discover.sections[0].movies.phase", "loaded", H_WAIT_MS));
    ask_pages(app, app, "{\"type\":\"discover\",\"intent\":{\"type\":\"loadMore\",\"section\":\"popular\"}}", "discover.sections[0].isLoadingMore", 3);
    ask_pages(discover, app, "{\"type\":\"loadMore\",\"section\":\"popular\"}", "discover.sections[0].isLoadingMore", 3);
    ask_pages(app, app, "{\"type\":\"loadMore\"}", "discover.sections[0].isLoadingMore", 3);
    send_ok(app, "{\"type\":\"moveToEnd\"}");
    send_ok(app, "{\"type\":\"moveBy\",\"delta\":5}");
    send_ok(app, "{\"type\":\"moved\",\"list\":\"popular\",\"selection\":500,\"firstVisible\":0}");
    char *state = state_of(app);
    CHECK_EQ_INT(json_array_len(state, "discover.sections[0].movies.value"), 40);
    CHECK_EQ_INT(json_int(state, "discover.sections[0].pagesLoaded", -1), 2);
    CHECK_JSON_EQ(state, "discover.sections[0].isLoadingMore", "false");
    CHECK_JSON_EQ(state, "view.list.status", "40 shown, the most a list keeps");
    CHECK_JSON_EQ(state, "view.actions.loadMore", "false");
    CHECK_EQ_INT(json_int(state, "view.list.selection", -1), 39);
    cinematic_free(state);

    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"the\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"search\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    cinematic_free(wait_json_eq(app, "search.results.phase", "loaded", H_WAIT_MS));
    ask_pages(app, app, "{\"type\":\"search\",\"intent\":{\"type\":\"loadMore\"}}", "search.isLoadingMore", 4);
    cinematic_store *search = scope_of(app, "search", "search");
    ask_pages(search, app, "{\"type\":\"loadMore\"}", "search.isLoadingMore", 2);
    state = state_of(app);
    CHECK_EQ_INT(json_array_len(state, "search.results.value"), 40);
    CHECK_JSON_EQ(state, "view.list.status", "40 shown, the most a list keeps");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_details_and_undo_keep_their_bounds(void) {
    cinematic_runtime *rt = open_runtime(BOUNDED);
    cinematic_store *app = open_feature(rt, "app", NULL);
    send_ok(app, "{\"type\":\"task\"}");
    for (int id = 1; id <= 4; id++) send_movie(app, "opened", id);
    char *state = state_of(app);
    CHECK_EQ_INT(json_array_len(state, "details"), 2);
    CHECK_EQ_INT(json_int(state, "details[1].movieId", -1), 4);
    cinematic_free(state);
    cinematic_free(wait_json_eq(app, "details[1].detail.phase", "loaded", H_WAIT_MS));
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    send_ok(app, "{\"type\":\"back\"}");
    cinematic_free(wait_json_eq(app, "details[0].detail.phase", "loaded", H_WAIT_MS));
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    cinematic_free(wait_json_eq(app, "favorites.favorites.value[1].id", "4", H_WAIT_MS));
    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    send_movie(app, "removed", 3);
    send_movie(app, "removed", 4);
    state = wait_json_eq(app, "favorites.favorites.value", "[]", H_WAIT_MS);
    CHECK_EQ_INT(json_array_len(state, "removed"), 1);
    CHECK_EQ_INT(json_int(state, "removed[0].id", -1), 4);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_bad_bounds_are_refused(void) {
    const char *bad[] = {"{\"app\":{\"rowsPerList\":30}}", "{\"app\":{\"rowsPerList\":0}}", "{\"app\":{\"details\":17}}",
                         "{\"app\":{\"undo\":-1}}", "{\"app\":{\"rows\":20}}", "{\"app\":[]}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(cinematic_runtime_open(bad[i], &rt), CINEMATIC_ERR_INVALID);
        CHECK_MSG(rt == NULL, "%s opened a runtime", bad[i]);
    }
}

int main(void) {
    RUN_TEST(test_every_path_to_a_next_page_meets_rows_per_list);
    RUN_TEST(test_details_and_undo_keep_their_bounds);
    RUN_TEST(test_bad_bounds_are_refused);
    return TEST_SUMMARY();
}
