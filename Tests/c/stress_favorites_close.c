/*
 * Scenario 1 of the runtime issue: a favorites write racing a store close.
 *
 * Thread W toggles the heart of a loaded Detail store as fast as it can; thread C opens a
 * Favorites store, sends "task" and closes it, in a loop; one runtime on a favorites file.
 * In 0.1.0 both threads deadlocked within about 2 s (the write yielded into an observing
 * stream while holding the favorites lock; the close held that stream's task lock and took
 * the favorites lock). The watchdog fails the program when either thread stops making
 * progress; at the end the heart must equal what is stored, and runtime_close must return.
 */
#include "stress.h"

#define DUNE 15249

static cinematic_runtime *rt;
static cinematic_store *detail;

static void *toggler(void *unused) {
    (void)unused;
    while (stress_running()) {
        CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
        stress_tick(0);
    }
    stress_finish(0);
    return NULL;
}

static void *closer(void *unused) {
    (void)unused;
    while (stress_running()) {
        cinematic_store *favorites = NULL;
        CHECK_STATUS(cinematic_store_open(rt, "favorites", NULL, &favorites), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_close(favorites), CINEMATIC_OK);
        stress_tick(1);
    }
    stress_finish(1);
    return NULL;
}

static int pred_saved(const char *state, void *ctx) {
    (void)ctx;
    char saving[16];
    return json_get(state, "isSaving", saving, sizeof saving) && strcmp(saving, "false") == 0;
}

static int listed(const char *state, long long id) {
    int n = json_array_len(state, "favorites.value");
    for (int i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "favorites.value[%d].id", i);
        if (json_int(state, path, -1) == id) return 1;
    }
    return 0;
}

static void test_toggle_while_closing_favorites_stores(void) {
    char dir[64], config[256];
    make_tempdir(dir, sizeof dir);
    snprintf(config, sizeof config, "{\"favorites\":\"%s/favorites.sqlite\"}", dir);
    rt = open_runtime(config);
    detail = open_detail(rt, DUNE);

    const char *names[] = {"toggler (detail heart)", "closer (favorites open/task/close)", "final close"};
    stress_begin(3, names);
    stress_finish(2); /* the final close is watched once it begins */
    pthread_t w, c;
    pthread_create(&w, NULL, toggler, NULL);
    pthread_create(&c, NULL, closer, NULL);
    pthread_join(w, NULL);
    pthread_join(c, NULL);
    printf("     %ld toggles, %ld favorites stores opened and closed\n", stress_rounds(0), stress_rounds(1));

    /* The heart settles on what is stored. */
    stress_watch(2);
    char *state = wait_state(detail, pred_saved, NULL, 10000, NULL);
    CHECK_JSON_EQ(state, "isSaving", "false");
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *list = wait_json_eq(favorites, "favorites.phase", "loaded", H_WAIT_MS);
    char heart[16];
    CHECK(json_get(state, "isFavorite", heart, sizeof heart));
    CHECK_EQ_INT(listed(list, DUNE), strcmp(heart, "true") == 0);
    cinematic_free(list);
    cinematic_free(state);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    stress_tick(2);
    stress_finish(2);
    stress_end();
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_toggle_while_closing_favorites_stores);
    return TEST_SUMMARY();
}
