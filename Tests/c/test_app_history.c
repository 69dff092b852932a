/*
 * The app store's time travel and recordings through the C API (include/cinematic/store.h,
 * THE APP; docs/wire.md, "app"): reverting the app store restores tab, query, lists, the
 * Detail stack and the notice in one delivered state; a recorded app session (child handles
 * included) replays state for state. Every wait is bounded and on something observable.
 */
#include "app.h"

/* The seq of the app's last history entry. */
static long long last_seq(cinematic_store *app) {
    char *history = NULL, path[32];
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    snprintf(path, sizeof path, "[%d].seq", json_array_len(history, "") - 1);
    long long seq = json_int(history, path, -1);
    cinematic_free(history);
    return seq;
}

/* The state after history entry seq (owned). */
static char *state_after(cinematic_store *app, long long seq) {
    char *history = NULL, path[32];
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    char *state = NULL;
    for (int i = json_array_len(history, "") - 1; i >= 0 && !state; i--) {
        snprintf(path, sizeof path, "[%d].seq", i);
        if (json_int(history, path, -1) != seq) continue;
        snprintf(path, sizeof path, "[%d].state", i);
        state = part_of(history, path);
    }
    cinematic_free(history);
    return state ? state : strdup("");
}

/* Reverts app to seq and checks that the first state delivered after it is the one after
 * entry seq, every part at once (the favorites, read again from storage, may follow). */
static void revert_checked(cinematic_store *app, recorder *r, long long seq) {
    char *expected = state_after(app, seq);
    int before = recorder_count(r);
    CHECK_STATUS(cinematic_store_revert(app, (uint64_t)seq), CINEMATIC_OK);
    long long deadline = h_now_ms() + H_WAIT_MS;
    while (recorder_count(r) == before && h_now_ms() < deadline) h_sleep_ms(1);
    CHECK(recorder_count(r) > before);
    CHECK_STR_EQ(recorder_state(r, before), expected);
    free(expected);
}

static void test_revert_restores_every_part_at_once(void) {
    cinematic_runtime *rt = open_runtime(HISTORY_CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(app, recorder_fn, &r), CINEMATIC_OK);
    send_ok(app, "{\"type\":\"task\"}");
    long long third = search_alien(rt, app, app);
    open_movie(app, third, 1);
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    char id[32];
    snprintf(id, sizeof id, "%lld", third);
    char *state = wait_json_eq(app, "favorites.favorites.value[0].id", id, H_WAIT_MS);
    CHECK_JSON_EQ(state, "favorites.favorites.value[0].id", id);
    cinematic_free(state);
    state = wait_json_eq(app, "details[0].isSaving", "false", H_WAIT_MS);
    cinematic_free(state);
    long long with_detail = last_seq(app); /* tab search, query alien, a Detail open, no notice */

    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    send_movie(app, "removed", third);
    state = wait_json_eq(app, "favorites.favorites.value", "[]", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "removed");
    cinematic_free(state);
    long long with_notice = last_seq(app); /* tab favorites, the removal's notice, its undo stack */

    /* Later: the undo, another tab, another query, another Detail. */
    send_ok(app, "{\"type\":\"undo\"}");
    state = wait_json_eq(app, "notice.kind", "restored", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"search\"}");
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"dune\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    int ok = 0;
    state = wait_state(app, results_for, "dune", H_WAIT_MS, &ok);
    CHECK(ok);
    long long dune = json_int(state, "search.results.value[0].id", -1);
    cinematic_free(state);
    open_movie(app, dune, 1);

    revert_checked(app, &r, with_notice);
    char *reverted = state_after(app, with_notice); /* what revert_checked saw delivered first */
    CHECK_JSON_EQ(reverted, "tab", "favorites");
    CHECK_JSON_EQ(reverted, "search.query", "alien");
    CHECK_JSON_EQ(reverted, "search.results.query", "alien");
    CHECK_JSON_EQ(reverted, "details", "[]");
    CHECK_JSON_EQ(reverted, "notice.kind", "removed");
    CHECK_JSON_EQ(reverted, "favorites.favorites.value", "[]"); /* the past list, shown first */
    CHECK_EQ_INT(json_int(reverted, "removed[0].id", -1), third);
    free(reverted);
    /* Favorites are storage, not state: read again, the list is what the file holds now (the
     * undo stored the film back after that moment). */
    state = wait_json_eq(app, "favorites.favorites.value[0].id", id, H_WAIT_MS);
    CHECK_JSON_EQ(state, "favorites.favorites.value[0].id", id);
    CHECK_JSON_EQ(state, "tab", "favorites");
    cinematic_free(state);

    revert_checked(app, &r, with_detail);
    state = state_of(app);
    CHECK_JSON_EQ(state, "tab", "search");
    CHECK_JSON_EQ(state, "notice", "null");
    CHECK_EQ_INT(json_int(state, "details[0].movieId", -1), third);
    CHECK_JSON_EQ(state, "details[0].isFavorite", "true");
    CHECK_JSON_EQ(state, "removed", "[]");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&r.overlaps), 0);
    recorder_destroy(&r);
}

static void test_a_recorded_app_session_replays(void) {
    char dir[64], path[128], config[512];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app-session.jsonl", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250},\"record\":\"%s\"}", path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *search = scope_of(app, "search", "search"), *detail = scope_of(app, "detail", NULL);
    send_ok(app, "{\"type\":\"task\"}");
    long long third = search_alien(rt, app, search);
    send_ok(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":2,\"firstVisible\":0}");
    open_movie(app, third, 1);
    send_ok(detail, "{\"type\":\"favoriteToggled\"}");
    char id[32];
    snprintf(id, sizeof id, "%lld", third);
    char *state = wait_json_eq(app, "favorites.favorites.value[0].id", id, H_WAIT_MS);
    cinematic_free(state);
    state = wait_json_eq(app, "details[0].isSaving", "false", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    send_movie(app, "removed", third);
    state = wait_json_eq(app, "favorites.favorites.value", "[]", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"undo\"}");
    state = wait_json_eq(app, "notice.kind", "restored", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "restored");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    h_wire_log("replay", NULL, report);
    CHECK_MSG(matched == 1, "the app session did not replay: %.1500s", report ? report : "(null)");
    CHECK_JSON_EQ(report, "complete", "true");
    CHECK(json_int(report, "states", 0) >= 10);
    cinematic_free(report);
    remove_tempdir(dir);
}

/* A notice that expires expires on every path that shows it: time travel brings it back
 * with a full lifetime on the runtime's clock, and a notice that had not expired then goes
 * after its 6 s. */
static void test_an_expiring_notice_brought_back_by_revert_expires(void) {
    cinematic_runtime *rt = open_runtime(HISTORY_CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    send_ok(app, "{\"type\":\"task\"}");
    send_ok(app, "{\"type\":\"undo\"}"); /* nothing to undo: a notice that expires */
    char *state = wait_json_eq(app, "notice.kind", "nothingToUndo", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.expires", "true");
    cinematic_free(state);
    long long shown = last_seq(app);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 6000), CINEMATIC_OK);
    state = wait_json_eq(app, "notice", "null", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice", "null");
    cinematic_free(state);

    CHECK_STATUS(cinematic_store_revert(app, (uint64_t)shown), CINEMATIC_OK);
    state = state_of(app);
    CHECK_JSON_EQ(state, "notice.kind", "nothingToUndo");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 5000), CINEMATIC_OK);
    state = state_of(app);
    CHECK_JSON_EQ(state, "notice.kind", "nothingToUndo"); /* a full lifetime from the revert */
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1000), CINEMATIC_OK);
    state = wait_json_eq(app, "notice", "null", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice", "null");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_an_expiring_notice_brought_back_by_revert_expires);
    RUN_TEST(test_revert_restores_every_part_at_once);
    RUN_TEST(test_a_recorded_app_session_replays);
    return TEST_SUMMARY();
}
