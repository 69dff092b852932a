/*
 * Scenario 4 of the runtime issue: send never waits for storage.
 *
 * Another connection holds the favorites file's write lock. A heart tap must return at once
 * with the optimistic state already delivered and the write still pending (in 0.1.0 send
 * waited the 5 s busy timeout and returned with the rollback). Deterministic: the lock is
 * released only after send returned, so a send that waited for it could only have failed.
 */
#include "stress.h"

#define DUNE 15249

static int pred_saved(const char *state, void *ctx) {
    (void)ctx;
    return strstr(state, "\"isSaving\":false") != NULL;
}

/* Whether the last state r's observer received contains text, waited for (bounded): a state
 * reaches the observer a moment after the store has it when another thread delivers it. Read
 * under the recorder's lock: past RECORDER_MAX states the last one is replaced as they come. */
static int last_delivered_has(recorder *r, const char *text) {
    long long deadline = h_now_ms() + H_WAIT_MS;
    for (;; h_sleep_ms(1)) {
        pthread_mutex_lock(&r->lock);
        const char *last = r->count > RECORDER_MAX ? r->overflow_last : r->count > 0 ? r->states[r->count - 1] : NULL;
        int has = last != NULL && strstr(last, text) != NULL;
        pthread_mutex_unlock(&r->lock);
        if (has || h_now_ms() > deadline) return has;
    }
}

static void test_heart_tap_with_the_database_locked(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    cinematic_runtime *rt = open_on_favorites_file(path, "system");
    cinematic_store *detail = open_detail(rt, DUNE);
    recorder states;
    recorder_init(&states);
    CHECK_STATUS(cinematic_store_observe(detail, recorder_fn, &states), CINEMATIC_OK);

    sqlite3 *other = NULL;
    CHECK_EQ_INT(sqlite3_open(path, &other), SQLITE_OK);
    const char *names[] = {"heart taps against a locked database"};
    stress_begin(1, names);
    int expected = 0;
    do {
        CHECK_EQ_INT(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
        int before = recorder_count(&states);
        CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
        expected = !expected;
        /* Returned while the lock is still held: the optimistic state is out, the write waits. */
        char *state = state_of(detail);
        CHECK_JSON_EQ(state, "isFavorite", expected ? "true" : "false");
        CHECK_JSON_EQ(state, "isSaving", "true");
        cinematic_free(state);
        /* And the observer gets it: on this thread before send returned, or (DELIVERY) from
         * the runtime's delivery thread if that was still delivering; nothing else can come
         * while the lock is held. */
        CHECK(last_delivered_has(&states, "\"isSaving\":true"));
        CHECK(recorder_count(&states) > before);
        CHECK_EQ_INT(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
        state = wait_state(detail, pred_saved, NULL, 10000, NULL);
        CHECK_JSON_EQ(state, "isFavorite", expected ? "true" : "false");
        CHECK_JSON_EQ(state, "favoriteError", "null");
        cinematic_free(state);
        CHECK(last_delivered_has(&states, "\"isSaving\":false")); /* the write's state observed too */
        CHECK_EQ_INT(stored(path, DUNE), expected);
        stress_tick(0);
    } while (stress_running());
    stress_finish(0);
    printf("     %ld taps made while another connection held the write lock\n", stress_rounds(0));
    stress_end();

    if (stress_seconds() > 1) {
        /* Held past the busy timeout: the write fails and the heart rolls back, and send
         * still returned at once. */
        CHECK_EQ_INT(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
        long long started = h_now_ms();
        CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
        long long send_ms = h_now_ms() - started;
        char *state = wait_state(detail, pred_saved, NULL, 15000, NULL);
        CHECK_JSON_EQ(state, "isFavorite", expected ? "true" : "false");
        CHECK_JSON_EQ(state, "favoriteError.code", "storage");
        cinematic_free(state);
        CHECK_EQ_INT(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
        printf("     send returned in %lld ms; the write failed after the busy timeout and rolled back\n", send_ms);
    }
    sqlite3_close(other);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&states.overlaps), 0);
    recorder_destroy(&states);
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_heart_tap_with_the_database_locked);
    return TEST_SUMMARY();
}
