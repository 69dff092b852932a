/*
 * Favorites through the C ABI: Detail's optimistic heart and the Favorites list of one
 * runtime following each other, persistence across a runtime reopen, rollback when the
 * favorites cannot be written, and rapid toggles ending with the stored value matching the
 * state.
 *
 * The favorites and detail stores never settle after "task" (they observe the favorites),
 * so this file waits for states with bounded polls (wait_state and friends in harness.h):
 * every wait has a deadline of a few seconds and the assertion after it fails on timeout.
 */
#include "harness.h"

#include <sys/stat.h>

#define DUNE 15249
#define GODFATHER 20545

/* ------------------------------------------------------------------------------------ */
/* Reading favorites states                                                              */

/* How many entries of the favorites list have id; -1 when the list is not loaded. */
static int count_id(const char *state, long long id) {
    char phase[16];
    if (!json_get(state, "favorites.phase", phase, sizeof phase) || strcmp(phase, "loaded") != 0) return -1;
    int n = json_array_len(state, "favorites.value");
    int count = 0;
    for (int i = 0; i < n; i++) {
        char p[64];
        snprintf(p, sizeof p, "favorites.value[%d].id", i);
        if (json_int(state, p, -1) == id) count++;
    }
    return count;
}

static int pred_loaded(const char *state, void *ctx) {
    (void)ctx;
    return json_array_len(state, "favorites.value") >= 0 && count_id(state, 0) >= 0;
}

typedef struct {
    long long id;
    int count;
} id_count;

static int pred_id_count(const char *state, void *ctx) {
    const id_count *want = ctx;
    return count_id(state, want->id) == want->count;
}

static int pred_len(const char *state, void *ctx) {
    return count_id(state, 0) >= 0 && json_array_len(state, "favorites.value") == *(int *)ctx;
}

/* Waits until the favorites store lists id exactly count times. */
static char *wait_listed(cinematic_store *favorites, long long id, int count) {
    id_count want = {id, count};
    return wait_state(favorites, pred_id_count, &want, H_WAIT_MS, NULL);
}

static char *wait_len(cinematic_store *favorites, int n) {
    return wait_state(favorites, pred_len, &n, H_WAIT_MS, NULL);
}

/* Opens a favorites store, sends task and waits for the first list; returns it (owned). */
static cinematic_store *open_favorites(cinematic_runtime *rt, char **first_state) {
    cinematic_store *store = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = wait_state(store, pred_loaded, NULL, H_WAIT_MS, NULL);
    CHECK_JSON_EQ(state, "favorites.phase", "loaded");
    CHECK_JSON_EQ(state, "removalError", "null");
    if (first_state) *first_state = state;
    else cinematic_free(state);
    return store;
}

static cinematic_runtime *open_read_only(const char *path) {
    char config[4200];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"favorites\":{\"path\":\"%s\",\"readOnly\":true}}", path);
    return open_runtime(config);
}

static int send_toggle(cinematic_store *detail) { return cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"); }

/* ------------------------------------------------------------------------------------ */
/* Detail and Favorites of one runtime see each other's changes                          */

static void test_detail_and_favorites_see_each_other(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}"); /* favorites ":memory:" */
    char *state = NULL;
    cinematic_store *favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 0);
    cinematic_free(state);

    cinematic_store *detail = open_detail(rt, DUNE);
    state = state_of(detail);
    CHECK_JSON_EQ(state, "movieId", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.year", "1984");
    CHECK_JSON_EQ(state, "detail.value.budget", "45000000");
    CHECK_EQ_INT(json_array_len(state, "detail.value.ratingDistribution"), 10);
    for (int k = 0; k < 10; k++) {
        char p[64];
        snprintf(p, sizeof p, "detail.value.ratingDistribution[%d]", k);
        double share = json_double(state, p, -1);
        CHECK_MSG(share >= 0 && share <= 100, "%s is %g", p, share);
    }
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);

    /* The heart fills at once. */
    CHECK_STATUS(send_toggle(detail), CINEMATIC_OK);
    state = state_of(detail);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    /* The favorites store lists Dune (its list fields), once. */
    state = wait_listed(favorites, DUNE, 1);
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    CHECK_JSON_EQ(state, "favorites.value[0].title", "Dune");
    CHECK_JSON_EQ(state, "favorites.value[0].year", "1984");
    CHECK_JSON_EQ(state, "favorites.value[0].genres", "[\"Action\"]");
    CHECK_STR_LACKS(state, "budget");
    cinematic_free(state);
    state = wait_json_eq(detail, "isSaving", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isSaving", "false");
    CHECK_JSON_EQ(state, "isFavorite", "true");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    /* Another detail store of the same movie opens with the heart filled. */
    cinematic_store *second = open_detail(rt, DUNE);
    state = wait_json_eq(second, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);

    /* Removing it in the favorites store empties the heart of both detail stores. */
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "isFavorite", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);
    state = wait_json_eq(second, "isFavorite", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);
    state = wait_len(favorites, 0);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 0);
    CHECK_JSON_EQ(state, "removalError", "null");
    cinematic_free(state);

    /* The other direction once more, from the second detail store. */
    CHECK_STATUS(send_toggle(second), CINEMATIC_OK);
    state = wait_listed(favorites, DUNE, 1);
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    cinematic_free(state);
    state = wait_json_eq(detail, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);

    /* Removing a movie that is not a favorite is no error. */
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":424242}"), CINEMATIC_OK);
    h_sleep_ms(30);
    state = state_of(favorites);
    CHECK_JSON_EQ(state, "removalError", "null");
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

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
/* Rollback when the favorites cannot be written                                         */

/* The index of the first recorded state from `from` on whose value at path is expected, or -1. */
static int first_state_with(recorder *r, int from, const char *path, const char *expected) {
    for (int i = from; i < recorder_count(r); i++) {
        char buf[256];
        const char *state = recorder_state(r, i);
        if (state && json_get(state, path, buf, sizeof buf) && strcmp(buf, expected) == 0) return i;
    }
    return -1;
}

/* Toggles Dune on a runtime whose favorites cannot be written: the heart fills at once
 * (optimistic), then rolls back with a "storage" error; the favorites list never shows it. */
static void check_toggle_rolls_back(cinematic_runtime *rt, int expect_listed) {
    char *state = NULL;
    cinematic_store *favorites = open_favorites(rt, &state);
    int listed = json_array_len(state, "favorites.value");
    CHECK_EQ_INT(listed, expect_listed);
    CHECK_EQ_INT(count_id(state, DUNE), 0);
    cinematic_free(state);
    recorder favorite_states;
    recorder_init(&favorite_states);
    CHECK_STATUS(cinematic_store_observe(favorites, recorder_fn, &favorite_states), CINEMATIC_OK);

    cinematic_store *detail = open_detail(rt, DUNE);
    recorder states;
    recorder_init(&states);
    CHECK_STATUS(cinematic_store_observe(detail, recorder_fn, &states), CINEMATIC_OK);
    state = state_of(detail);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);
    int from = recorder_count(&states);

    CHECK_STATUS(send_toggle(detail), CINEMATIC_OK);
    state = state_of(detail);
    /* Right after send: the optimistic heart, or (the failing write is fast and its result
     * may be reduced before send returns, like an embedded search result) already the
     * rollback; never an unexplained empty heart. */
    char favorite[16] = "", error[16] = "";
    json_get(state, "isFavorite", favorite, sizeof favorite);
    json_get(state, "favoriteError.code", error, sizeof error);
    int optimistic = strcmp(favorite, "true") == 0;
    CHECK_MSG(optimistic || (strcmp(favorite, "false") == 0 && strcmp(error, "storage") == 0),
              "right after favoriteToggled: %s", state);
    if (!optimistic)
        printf("     note: the rollback was already reduced when send returned (optimistic state seen by the observer only)\n");
    cinematic_free(state);

    /* Then it rolls back, with a storage error. */
    state = wait_json_eq(detail, "favoriteError.code", "storage", H_WAIT_MS);
    CHECK_JSON_EQ(state, "favoriteError.code", "storage");
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "isSaving", "false");
    char message[256] = "";
    CHECK(json_get(state, "favoriteError.message", message, sizeof message) && message[0] != '\0');
    cinematic_free(state);

    /* The observer saw the optimistic heart first, then the rollback. */
    int filled = first_state_with(&states, from, "isFavorite", "true");
    int rolled = first_state_with(&states, from, "favoriteError.code", "storage");
    CHECK_MSG(filled >= 0, "no state with the heart filled after favoriteToggled");
    CHECK_MSG(rolled > filled, "rollback at state %d, optimistic heart at %d", rolled, filled);
    if (filled >= 0) {
        const char *optimistic_state = recorder_state(&states, filled);
        CHECK_JSON_EQ(optimistic_state, "favoriteError", "null");
    }
    if (rolled >= 0) CHECK_JSON_EQ(recorder_state(&states, rolled), "isFavorite", "false");
    CHECK_JSON_EQ(recorder_state(&states, -1), "isFavorite", "false");

    /* The favorites list stays as it was: Dune is never listed. */
    h_sleep_ms(50);
    state = state_of(favorites);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), expect_listed);
    CHECK_EQ_INT(count_id(state, DUNE), 0);
    cinematic_free(state);
    int shown = -1;
    for (int i = 0; i < recorder_count(&favorite_states); i++)
        if (count_id(recorder_state(&favorite_states, i), DUNE) != 0) shown = i;
    CHECK_MSG(shown < 0, "favorites state %d lists Dune", shown);

    /* The next toggle clears the error (and fails again). */
    CHECK_STATUS(send_toggle(detail), CINEMATIC_OK);
    state = wait_json_eq(detail, "favoriteError.code", "storage", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_close(detail), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(favorites), CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&states.overlaps), 0);
    recorder_destroy(&states);
    recorder_destroy(&favorite_states);
}

static void test_rollback_when_favorites_read_only(void) {
    char dir[64], path[256];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);

    /* A file holding The Godfather. */
    cinematic_runtime *rt = open_on_favorites_file(path, "manual");
    cinematic_store *favorites = open_favorites(rt, NULL);
    cinematic_store *godfather = open_detail(rt, GODFATHER);
    CHECK_STATUS(send_toggle(godfather), CINEMATIC_OK);
    char *state = wait_listed(favorites, GODFATHER, 1);
    CHECK_EQ_INT(count_id(state, GODFATHER), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    /* Read-only: listing works, every change fails with "storage". */
    rt = open_read_only(path);
    check_toggle_rolls_back(rt, 1);

    /* Removing The Godfather fails: removalError, and it stays listed. */
    favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(count_id(state, GODFATHER), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":20545}"), CINEMATIC_OK);
    state = wait_json_eq(favorites, "removalError.code", "storage", H_WAIT_MS);
    CHECK_JSON_EQ(state, "removalError.code", "storage");
    CHECK_EQ_INT(count_id(state, GODFATHER), 1);
    cinematic_free(state);
    /* Its detail shows the heart filled; emptying it rolls back to filled. */
    godfather = open_detail(rt, GODFATHER);
    state = wait_json_eq(godfather, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);
    CHECK_STATUS(send_toggle(godfather), CINEMATIC_OK);
    state = wait_json_eq(godfather, "favoriteError.code", "storage", H_WAIT_MS);
    CHECK_JSON_EQ(state, "favoriteError.code", "storage");
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    /* Nothing was written: the file still holds The Godfather only. */
    rt = open_on_favorites_file(path, "manual");
    favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    CHECK_EQ_INT(count_id(state, GODFATHER), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    /* A 0444 file behaves the same, where permissions stop writes (not as root). */
    if (geteuid() == 0) {
        printf("     skip: 0444 favorites file check (running as root, where file permissions do not stop writes)\n");
    } else {
        char locked[300];
        snprintf(locked, sizeof locked, "%s/locked.sqlite", dir);
        rt = open_on_favorites_file(locked, "manual"); /* create it, empty */
        open_favorites(rt, NULL);
        CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
        CHECK_MSG(chmod(locked, 0444) == 0, "chmod: %s", strerror(errno));
        rt = open_on_favorites_file(locked, "manual");
        if (rt) {
            check_toggle_rolls_back(rt, 0);
            CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
        }
        chmod(locked, 0644);
    }
    remove_tempdir(dir);
}

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
    RUN_TEST(test_detail_and_favorites_see_each_other);
    RUN_TEST(test_favorites_persist_across_reopen);
    RUN_TEST(test_rollback_when_favorites_read_only);
    RUN_TEST(test_rapid_toggles_end_consistent);
    return TEST_SUMMARY();
}
