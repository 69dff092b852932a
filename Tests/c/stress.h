/*
 * stress.h: the watchdog shared by the stress programs (Tests/c/stress_*.c).
 *
 * A stress program runs one hostile scenario for STRESS_SECONDS (environment; default 1,
 * `make stress` uses 30) from several threads. Each thread bumps its progress counter after
 * every round; a watchdog thread fails the program (exit 3, naming the stalled thread) when
 * a counter has not moved for STRESS_STALL_MS (default 5000): a deadlock or a frozen host
 * thread becomes a red test in bounded time instead of a hung CI job. The whole program is
 * also bounded: the watchdog fails it after STRESS_SECONDS + 30 s.
 */
#ifndef CINEMATIC_STRESS_H
#define CINEMATIC_STRESS_H

#include "harness.h"
#include <sqlite3.h>
#include <unistd.h>

#define STRESS_MAX_THREADS 16

static struct {
    const char *names[STRESS_MAX_THREADS];
    atomic_long progress[STRESS_MAX_THREADS];
    atomic_int active[STRESS_MAX_THREADS];
    atomic_int done;
    int threads;
    int stall_ms;
    long long started_ms;
    long long seconds;
    pthread_t watchdog;
} stress;

/* Seconds the scenario runs (STRESS_SECONDS, default 1). */
static inline long long stress_seconds(void) {
    const char *text = getenv("STRESS_SECONDS");
    long long value = text ? atoll(text) : 1;
    return value > 0 ? value : 1;
}

/* True while the scenario should keep going. */
static inline int stress_running(void) { return h_now_ms() - stress.started_ms < stress.seconds * 1000; }

static void *stress_watchdog_main(void *unused) {
    (void)unused;
    long last[STRESS_MAX_THREADS];
    long long moved[STRESS_MAX_THREADS];
    for (int i = 0; i < STRESS_MAX_THREADS; i++) { last[i] = -1; moved[i] = h_now_ms(); }
    while (!atomic_load(&stress.done)) {
        h_sleep_ms(50);
        long long now = h_now_ms();
        for (int i = 0; i < stress.threads; i++) {
            long value = atomic_load(&stress.progress[i]);
            if (value != last[i] || !atomic_load(&stress.active[i])) { last[i] = value; moved[i] = now; continue; }
            if (now - moved[i] > stress.stall_ms) {
                fprintf(stderr, "STALL [%s]: thread \"%s\" made no progress for %d ms (after %ld rounds): deadlock or blocked host thread\n",
                        h_test, stress.names[i], stress.stall_ms, value);
                printf("FAIL %s\n%d passed, %d failed\n", h_test, h_passed, h_failed + 1);
                fflush(stdout);
                fflush(stderr);
                _exit(3);
            }
        }
        if (now - stress.started_ms > (stress.seconds + 30) * 1000) {
            fprintf(stderr, "STALL [%s]: still running %lld s after its %lld s\n", h_test, (now - stress.started_ms) / 1000 - stress.seconds, stress.seconds);
            printf("FAIL %s\n%d passed, %d failed\n", h_test, h_passed, h_failed + 1);
            fflush(stdout);
            _exit(3);
        }
    }
    return NULL;
}

/* Starts the watchdog for a scenario with `threads` named progress counters. */
static inline void stress_begin(int threads, const char *const *names) {
    const char *stall = getenv("STRESS_STALL_MS");
    stress.stall_ms = stall ? atoi(stall) : 5000;
    stress.threads = threads;
    stress.seconds = stress_seconds();
    stress.started_ms = h_now_ms();
    for (int i = 0; i < threads; i++) {
        stress.names[i] = names[i];
        atomic_store(&stress.progress[i], 0);
        atomic_store(&stress.active[i], 1);
    }
    atomic_store(&stress.done, 0);
    pthread_create(&stress.watchdog, NULL, stress_watchdog_main, NULL);
}

/* Thread `index` finished a round. */
static inline void stress_tick(int index) { atomic_fetch_add(&stress.progress[index], 1); }

/* Thread `index` starts (again) being watched: for a phase that begins later. */
static inline void stress_watch(int index) {
    atomic_fetch_add(&stress.progress[index], 1);
    atomic_store(&stress.active[index], 1);
}

/* Thread `index` is done (the watchdog stops watching it). */
static inline void stress_finish(int index) { atomic_store(&stress.active[index], 0); }

/* The rounds thread `index` made. */
static inline long stress_rounds(int index) { return atomic_load(&stress.progress[index]); }

/* Stops the watchdog. */
static inline void stress_end(void) {
    atomic_store(&stress.done, 1);
    pthread_join(stress.watchdog, NULL);
}

/* Whether the favorites file at path stores movie id (1 or 0), read with SQLite directly,
 * as another program would; -1 when it cannot be read. */
static inline int stored(const char *path, int id) {
    sqlite3 *db = NULL;
    int found = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);
        sqlite3_stmt *statement = NULL;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM favorites WHERE movie_id = ?", -1, &statement, NULL) == SQLITE_OK) {
            sqlite3_bind_int(statement, 1, id);
            if (sqlite3_step(statement) == SQLITE_ROW) found = sqlite3_column_int(statement, 0);
        }
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return found;
}

#endif /* CINEMATIC_STRESS_H */
