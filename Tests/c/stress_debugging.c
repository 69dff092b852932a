/*
 * Debugging under load. Three runtimes record their sessions and keep a history: on two, a
 * thread types into search stores it opens and closes as it goes (the provider answers from
 * inside its callback, the thread advances the manual clock); on the third, a thread sends,
 * reads the history and travels in time. Meanwhile another thread replaces the first
 * runtime's logger over and over, and the logger sometimes removes itself from inside its
 * own callback.
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
#define RUNTIMES 3
static cinematic_runtime *runtimes[RUNTIMES];
static cinematic_runtime *rt; /* the runtime whose logger is replaced: runtimes[0] */

static void log_fn(void *userdata, const char *line) {
    logger_slot *slot = userdata;
    if (atomic_load(&slot->retired)) atomic_fetch_add(&late_lines, 1);
    atomic_fetch_add(&slot->lines, 1);
    if (!line || !strstr(line, "#")) atomic_fetch_add(&late_lines, 1000000); /* malformed */
    /* Now and then the logger removes itself, from inside its own callback. */
    if (atomic_load(&slot->lines) % 997 == 0) {
        if (cinematic_runtime_set_logger(rt, NULL, NULL) == CINEMATIC_OK) {
            atomic_store(&slot->retired, 1);
            atomic_fetch_add(&reentrant_swaps, 1);
        }
    }
}

static void *typist(void *arg) {
    int index = (int)(intptr_t)arg;
    cinematic_runtime *own = runtimes[index];
    char query[32];
    while (stress_running()) {
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

/* Checks that the recording at path ends with "end" and replays state for state. */
static void check_replays(const char *path) {
    FILE *file = fopen(path, "r");
    CHECK(file != NULL);
    static char line[1 << 20], last[1 << 20];
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
    printf("     %ld lines recorded, replayed in %lld ms: %.300s\n", recorded, h_now_ms() - replaying, report ? report : "(no report)");
    CHECK_EQ_INT(matched, 1);
    cinematic_free(report);
}

static void test_recording_logging_and_time_travel_under_load(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char paths[RUNTIMES][128];
    provider providers[RUNTIMES];
    for (int i = 0; i < RUNTIMES; i++) {
        char config[512];
        snprintf(paths[i], sizeof paths[i], "%s/session-%d.jsonl", dir, i);
        snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":50,\"record\":\"%s\"}", paths[i]);
        runtimes[i] = open_runtime(config);
        provider_init(&providers[i], runtimes[i], PROVIDER_AUTO);
        CHECK_STATUS(cinematic_runtime_set_provider(runtimes[i], provider_fn, &providers[i]), CINEMATIC_OK);
    }
    rt = runtimes[0];

    const char *names[] = {"typist a", "typist b", "time traveller", "logger swapper"};
    stress_begin(4, names);
    pthread_t threads[4];
    void *(*mains[4])(void *) = {typist, typist, time_traveller, logger_swapper};
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, mains[i], (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    for (int i = 0; i < RUNTIMES; i++) CHECK_STATUS(cinematic_runtime_close(runtimes[i]), CINEMATIC_OK);
    stress_end();

    long lines = atomic_load(&loggers[0].lines) + atomic_load(&loggers[1].lines);
    printf("     %ld + %ld keystrokes, %ld time-travel rounds, %ld logger swaps (%ld from inside the logger), %ld log lines\n",
           stress_rounds(0), stress_rounds(1), stress_rounds(2), stress_rounds(3), atomic_load(&reentrant_swaps), lines);
    CHECK_EQ_INT(atomic_load(&late_lines), 0);
    CHECK(lines > 0);
    for (int i = 0; i < RUNTIMES; i++) {
        CHECK_EQ_INT(atomic_load(&providers[i].respond_errors), 0);
        check_replays(paths[i]);
        provider_destroy(&providers[i]);
    }
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_recording_logging_and_time_travel_under_load);
    return TEST_SUMMARY();
}
