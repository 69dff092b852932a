/*
 * Debugging under load. Two threads each open a recording runtime with a history, type into
 * search stores they open and close as they go (the provider answers from inside its
 * callback, the thread advances the manual clock), close the runtime every 400 keystrokes
 * and replay the session. A third thread sends to its own recording runtime, reads the
 * history and travels in time, while a fourth replaces that runtime's logger over and over
 * (the logger sometimes removes itself from inside its own callback).
 *
 * Guarantees watched: nothing deadlocks or stalls (the watchdog); recording never blocks a
 * send (the senders keep going: the recorder works on its own thread); once
 * cinematic_runtime_set_logger returns, the previous logger is never called again (each
 * logger checks it has not been retired); each recording is complete when its runtime has
 * closed and replays state for state. (Each runtime's inputs come from one thread: inputs
 * that race each other, such as one thread advancing the clock while another types into
 * the same runtime, are replayed in the order the recording saw them; see cinematic.h.)
 */
#include "stress.h"

typedef struct {
    atomic_int retired;
    atomic_long lines;
} logger_slot;

#define LOGGERS 2
static logger_slot loggers[LOGGERS];
static atomic_long late_lines;      /* lines a retired logger received: must stay 0 */
static atomic_long reentrant_swaps; /* loggers replaced from inside a logger */
static cinematic_runtime *runtimes[3]; /* [2]: the time traveller's */
static cinematic_runtime *rt;          /* the runtime whose logger is replaced: the time traveller's */

static void log_fn(void *userdata, const char *line) {
    logger_slot *slot = userdata;
    if (atomic_load(&slot->retired)) atomic_fetch_add(&late_lines, 1);
    atomic_fetch_add(&slot->lines, 1);
    if (!line || !strstr(line, "#")) atomic_fetch_add(&late_lines, 1000000); /* malformed */
    /* Now and then the logger removes itself, from inside its own callback. */
    if (atomic_load(&slot->lines) % 97 == 0) {
        if (cinematic_runtime_set_logger(rt, NULL, NULL) == CINEMATIC_OK) {
            atomic_store(&slot->retired, 1);
            atomic_fetch_add(&reentrant_swaps, 1);
        }
    }
}

/* Checks that the recording at path ends with "end" and replays state for state; returns
 * the number of lines. */
static long check_replays(const char *path, int verbose) {
    FILE *file = fopen(path, "r");
    CHECK(file != NULL);
    static _Thread_local char line[1 << 16], last[1 << 16];
    long recorded = 0;
    while (file && fgets(line, sizeof line, file)) {
        recorded++;
        memcpy(last, line, sizeof line);
    }
    if (file) fclose(file);
    CHECK_STR_CONTAINS(last, "\"event\":\"end\"");
    int matched = -1;
    char *report = NULL;
    long long replaying = h_now_ms();
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    if (verbose || matched != 1) {
        printf("     %ld lines recorded, replayed in %lld ms: %.300s\n", recorded, h_now_ms() - replaying, report ? report : "(no report)");
    }
    CHECK_EQ_INT(matched, 1);
    cinematic_free(report);
    return recorded;
}

static char directory[64];
static atomic_long sessions_replayed;
static atomic_long lines_replayed;

/* Types into search stores of a recording runtime it opens and closes every 400 keystrokes,
 * then replays each session (so recordings stay small however long the scenario runs). */
static void *typist(void *arg) {
    int index = (int)(intptr_t)arg;
    char query[32], path[128], config[256];
    for (long session = 0; stress_running(); session++) {
        snprintf(path, sizeof path, "%s/typist-%d-%ld.jsonl", directory, index, session);
        snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":50,\"record\":\"%s\"}", path);
        cinematic_runtime *own = open_runtime(config);
        if (!own) break;
        provider answers;
        provider_init(&answers, own, PROVIDER_AUTO);
        CHECK_STATUS(cinematic_runtime_set_provider(own, provider_fn, &answers), CINEMATIC_OK);
        for (int round = 0; round < 8 && stress_running(); round++) {
            cinematic_store *store = NULL;
            if (cinematic_store_open(own, "search", NULL, &store) != CINEMATIC_OK) break;
            for (int i = 0; i < 50; i++) {
                snprintf(query, sizeof query, "%c%d", 'a' + index, i);
                CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
                if (i % 10 == 9) CHECK_STATUS(cinematic_runtime_advance_clock(own, 250), CINEMATIC_OK);
                stress_tick(index);
            }
            CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
        }
        CHECK_STATUS(cinematic_runtime_close(own), CINEMATIC_OK);
        CHECK_EQ_INT(atomic_load(&answers.respond_errors), 0);
        provider_destroy(&answers);
        atomic_fetch_add(&lines_replayed, check_replays(path, 0));
        atomic_fetch_add(&sessions_replayed, 1);
        remove(path);
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void *time_traveller(void *arg) {
    int index = (int)(intptr_t)arg;
    cinematic_runtime *own = runtimes[index];
    cinematic_store *store = open_search(own);
    unsigned seed = 7;
    while (stress_running()) {
        CHECK_STATUS(send_query(store, (rand_r(&seed) & 1) ? "dune" : "alien"), CINEMATIC_OK);
        if (rand_r(&seed) % 4 == 0) CHECK_STATUS(cinematic_runtime_advance_clock(own, 250), CINEMATIC_OK);
        char *history = NULL;
        CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
        long long first = json_int(history, "[0].seq", 0);
        int count = json_array_len(history, "");
        cinematic_free(history);
        if (count > 0) {
            CHECK_STATUS(cinematic_store_revert(store, (uint64_t)(first + rand_r(&seed) % count)), CINEMATIC_OK);
        }
        CHECK_STATUS(cinematic_store_revert(store, 0), CINEMATIC_ERR_INVALID);
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void *logger_swapper(void *arg) {
    int index = (int)(intptr_t)arg;
    long rounds = 0;
    while (stress_running()) {
        logger_slot *next = &loggers[rounds % LOGGERS];
        logger_slot *previous = &loggers[(rounds + 1) % LOGGERS];
        atomic_store(&next->retired, 0);
        CHECK_STATUS(cinematic_runtime_set_logger(rt, log_fn, next), CINEMATIC_OK);
        atomic_store(&previous->retired, 1); /* replaced: never called again from here on */
        if (rounds % 3 == 0) {
            CHECK_STATUS(cinematic_runtime_set_logger(rt, NULL, NULL), CINEMATIC_OK);
            atomic_store(&next->retired, 1);
        }
        rounds++;
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void test_recording_logging_and_time_travel_under_load(void) {
    make_tempdir(directory, sizeof directory);
    char path[128], config[512];
    snprintf(path, sizeof path, "%s/time-traveller.jsonl", directory);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":50,\"record\":\"%s\"}", path);
    rt = open_runtime(config);
    runtimes[2] = rt;
    provider answers;
    provider_init(&answers, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &answers), CINEMATIC_OK);

    const char *names[] = {"typist a", "typist b", "time traveller", "logger swapper"};
    stress_begin(4, names);
    pthread_t threads[4];
    void *(*mains[4])(void *) = {typist, typist, time_traveller, logger_swapper};
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, mains[i], (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    stress_end();

    long lines = atomic_load(&loggers[0].lines) + atomic_load(&loggers[1].lines);
    printf("     %ld + %ld typist rounds in %ld recorded sessions (%ld lines), all replayed state for state\n",
           stress_rounds(0), stress_rounds(1), atomic_load(&sessions_replayed), atomic_load(&lines_replayed));
    printf("     %ld time-travel rounds, %ld logger swaps (%ld from inside the logger), %ld log lines\n",
           stress_rounds(2), stress_rounds(3), atomic_load(&reentrant_swaps), lines);
    CHECK_EQ_INT(atomic_load(&late_lines), 0);
    CHECK(lines > 0);
    CHECK(atomic_load(&sessions_replayed) > 0);
    CHECK_EQ_INT(atomic_load(&answers.respond_errors), 0);
    check_replays(path, 1);
    provider_destroy(&answers);
    remove_tempdir(directory);
}

int main(void) {
    RUN_TEST(test_recording_logging_and_time_travel_under_load);
    return TEST_SUMMARY();
}
