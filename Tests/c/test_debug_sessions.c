/*
 * Record and replay as a real host runs it: a session on the embedded catalog and the system
 * clock replays state for state, cached answers are recorded with their source and replay the
 * same, and a recording file that stops taking data never blocks the host.
 */
#include "replay.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* A session as a real host runs it: the embedded catalog, the system clock, a favorites
 * file, states arriving on library threads. It replays state for state. */
static void test_a_system_clock_session_on_the_embedded_catalog_replays(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[512];
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    snprintf(config, sizeof config, "{\"favorites\":\"%s/favorites.sqlite\",\"search\":{\"debounceMs\":20},\"record\":\"%s\"}", dir, path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *search = open_search(rt);
    const char *typed[] = {"d", "du", "dun", "dune"};
    for (int i = 0; i < 4; i++) CHECK_STATUS(send_query(search, typed[i]), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 10000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 10000), CINEMATIC_OK);
    cinematic_store *discover = open_feature(rt, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(discover, 10000), CINEMATIC_OK);
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    cinematic_store *detail = open_feature(rt, "detail", "{\"movieId\":15249}");
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = wait_json_eq(detail, "detail.phase", "loaded", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = wait_json_eq(favorites, "favorites.value[0].id", "15249", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "isFavorite", "false", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    char *report = NULL;
    CHECK_EQ_INT(replay(path, &report), 1);
    CHECK(json_int(report, "states", 0) >= 10);
    cinematic_free(report);
    remove_tempdir(dir);
}

/* With the offline cache in play, the recording carries where each answer came from, and
 * the replay shows the same offline copy (with no cache and no network of its own). */
static void test_cached_answers_are_recorded_with_their_source_and_replay(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[512];
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\":memory:\"},"
             "\"record\":\"%s\"}", path);
    fixture f;
    fixture_open(&f, config, PROVIDER_HOLD, "search", NULL);
    const char *queries[] = {"dune", "alien", "dune"};
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(send_query(f.store, queries[i]), CINEMATIC_OK);
        CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
        provider_call call = {0};
        CHECK(provider_wait(&f.provider, "search", i + 1, 5000));
        CHECK(provider_call_at(&f.provider, "search", i, &call));
        char answer[256];
        if (i < 2) movies_answer(answer, sizeof answer, 10 + i, queries[i], 2000);
        else snprintf(answer, sizeof answer, "{\"error\":{\"code\":\"network\",\"message\":\"offline\"}}");
        CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, answer), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    }
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.value[0].title", "dune");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);

    FILE *file = fopen(path, "r");
    char line[1 << 16];
    int live = 0, cached = 0;
    while (file && fgets(line, sizeof line, file)) {
        if (!strstr(line, "{\"event\":\"answer\"")) continue;
        live += strstr(line, "\"source\":\"live\"") != NULL;
        cached += strstr(line, "\"source\":\"cache\",\"cachedAt\":") != NULL;
    }
    if (file) fclose(file);
    CHECK_EQ_INT(live, 2);
    CHECK_EQ_INT(cached, 1);
    char *report = NULL;
    CHECK_EQ_INT(replay(path, &report), 1);
    cinematic_free(report);
    remove_tempdir(dir);
}

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: recording to a FIFO nobody reads blocked the host\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
}

/* A recording whose file stops taking data (a FIFO nobody reads) never blocks the host:
 * sends go on, close returns, and the failed recording is reported by close. */
static void test_a_stuck_recording_file_never_blocks_the_host(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[256];
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK); /* open, never read */
    CHECK(reader >= 0);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"record\":\"%s\"}", path);
    signal(SIGALRM, on_alarm);
    alarm(20);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *store = open_search(rt);
    char query[64];
    for (int i = 0; i < 20000; i++) { /* far more than a pipe holds */
        snprintf(query, sizeof query, "a query long enough to fill the pipe quickly %d", i);
        CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("recording is incomplete");
    alarm(0);
    close(reader);
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_a_stuck_recording_file_never_blocks_the_host);
    RUN_TEST(test_a_system_clock_session_on_the_embedded_catalog_replays);
    RUN_TEST(test_cached_answers_are_recorded_with_their_source_and_replay);
    return TEST_SUMMARY();
}
