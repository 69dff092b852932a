/*
 * Favorites through the C ABI: what is stored is what is shown. Favorites persist across a
 * runtime reopen, and rapid toggles end with the stored value matching the state.
 */
#include "favorites.h"

#include <sys/stat.h>

/* ------------------------------------------------------------------------------------ */
/* Persistence across a reopen                                                           */

static void test_favorites_persist_across_reopen(void) {
    char dir[64], path[256];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);

    cinematic_runtime *rt = open_on_favorites_file(path, "manual");
    cinematic_store *favorites = open_favorites(rt, NULL);
    cinematic_store *dune = open_detail(rt, DUNE);
    cinematic_store *godfather = open_detail(rt, GODFATHER);
    CHECK_STATUS(send_toggle(dune), CINEMATIC_OK);
    char *state = wait_listed(favorites, DUNE, 1);
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    cinematic_free(state);
    CHECK_STATUS(send_toggle(godfather), CINEMATIC_OK);
    state = wait_len(favorites, 2);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 2);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].id", -1), GODFATHER);
    CHECK_EQ_INT(json_int(state, "favorites.value[1].id", -1), DUNE);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    struct stat st;
    CHECK_MSG(stat(path, &st) == 0 && st.st_size > 0, "no favorites file at %s", path);

    /* Reopened on the same file: both, most recently added first. */
    rt = open_on_favorites_file(path, "manual");
    favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 2);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].id", -1), GODFATHER);
    CHECK_JSON_EQ(state, "favorites.value[0].title", "The Godfather");
    CHECK_EQ_INT(json_int(state, "favorites.value[1].id", -1), DUNE);
    CHECK_JSON_EQ(state, "favorites.value[1].title", "Dune");
    cinematic_free(state);
    dune = open_detail(rt, DUNE);
    state = wait_json_eq(dune, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);

    /* A removal persists as well. */
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":20545}"), CINEMATIC_OK);
    state = wait_len(favorites, 1);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    rt = open_on_favorites_file(path, "manual");
    favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].id", -1), DUNE);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

/* ------------------------------------------------------------------------------------ */
/* ------------------------------------------------------------------------------------ */
/* Rapid toggles                                                                         */

/* Waits until Detail is not saving and both stores' states have not changed for 200 ms;
 * returns 1 when they quiesced before the deadline. The final states are stored (owned). */
static int quiesce(cinematic_store *detail, cinematic_store *favorites, char **detail_state, char **favorites_state) {
    long long deadline = h_now_ms() + 5000, stable_since = h_now_ms();
    char *d = NULL, *f = NULL;
    int ok = 0;
    for (;;) {
        char *nd = state_of(detail), *nf = state_of(favorites);
        char saving[16] = "";
        json_get(nd, "isSaving", saving, sizeof saving);
        int same = d && f && nd && nf && strcmp(d, nd) == 0 && strcmp(f, nf) == 0;
        if (!same || strcmp(saving, "false") != 0 || count_id(nf, DUNE) < 0) stable_since = h_now_ms();
        cinematic_free(d);
        cinematic_free(f);
        d = nd;
        f = nf;
        if (h_now_ms() - stable_since >= 200) { ok = 1; break; }
        if (h_now_ms() >= deadline) break;
        h_sleep_ms(5);
    }
    *detail_state = d;
    *favorites_state = f;
    return ok;
}

/* Opens a runtime on path, toggles Dune n times as fast as possible, and checks that after
 * quiescing the state is start ^ (n odd), the list matches it, and a reopen agrees. */
static void rapid_round(const char *path, int n, int start) {
    cinematic_runtime *rt = open_on_favorites_file(path, "manual");
    cinematic_store *favorites = open_favorites(rt, NULL);
    cinematic_store *detail = open_detail(rt, DUNE);
    const char *start_text = start ? "true" : "false";
    char *state = wait_json_eq(detail, "isFavorite", start_text, H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", start_text);
    cinematic_free(state);
    recorder states;
    recorder_init(&states);
    CHECK_STATUS(cinematic_store_observe(detail, recorder_fn, &states), CINEMATIC_OK);

    int failures = 0;
    for (int i = 0; i < n; i++)
        if (send_toggle(detail) != CINEMATIC_OK) failures++;
    CHECK_EQ_INT(failures, 0);
    int expected = start ^ (n & 1);
    const char *expected_text = expected ? "true" : "false";

    char *d = NULL, *f = NULL;
    CHECK_MSG(quiesce(detail, favorites, &d, &f), "stores did not quiesce within 5 s after %d toggles", n);
    CHECK_JSON_EQ(d, "isSaving", "false");
    CHECK_JSON_EQ(d, "favoriteError", "null");
    CHECK_JSON_EQ(d, "isFavorite", expected_text);
    int listed = count_id(f, DUNE);
    CHECK_MSG(listed == 0 || listed == 1, "Dune listed %d times", listed);
    char favorite[16] = "";
    json_get(d, "isFavorite", favorite, sizeof favorite);
    CHECK_MSG(listed == (strcmp(favorite, "true") == 0),
              "after %d toggles isFavorite is %s but the favorites list has Dune %d times", n, favorite, listed);
    cinematic_free(d);
    cinematic_free(f);
    /* No write failed along the way, and Dune was never listed twice. */
    CHECK_MSG(first_state_with(&states, 0, "favoriteError.code", "storage") < 0, "a favorite write failed");
    /* Every state the callback got differs from the one before (bookkeeping the wire format
     * leaves out must not show up as repeats). */
    int repeat = recorder_first_repeat(&states);
    CHECK_MSG(repeat < 0, "state %d repeats state %d: %s", repeat, repeat - 1, repeat < 0 ? "" : recorder_state(&states, repeat));
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    recorder_destroy(&states);

    /* The stored value, seen by a fresh runtime on the same file, matches. */
    rt = open_on_favorites_file(path, "manual");
    favorites = open_favorites(rt, &state);
    CHECK_MSG(count_id(state, DUNE) == expected, "reopened after %d toggles: Dune listed %d times, expected %d", n,
              count_id(state, DUNE), expected);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_rapid_toggles_end_consistent(void) {
    char dir[64], path[256];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    rapid_round(path, 10, 0); /* ends empty */
    rapid_round(path, 11, 0); /* ends filled */
    rapid_round(path, 10, 1); /* stays filled */
    rapid_round(path, 1, 1);  /* a single toggle empties it */
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_favorites_persist_across_reopen);
    RUN_TEST(test_rapid_toggles_end_consistent);
    return TEST_SUMMARY();
}
