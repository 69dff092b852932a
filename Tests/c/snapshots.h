/*
 * snapshots.h: what the snapshot C tests share (test_snapshots*.c): a watchdog for restores
 * that never end, a store's snapshot (logged for schema validation), settling, and a restore
 * with its expected status.
 */
#ifndef CINEMATIC_TEST_SNAPSHOTS_H
#define CINEMATIC_TEST_SNAPSHOTS_H

#include "harness.h"

#include <signal.h>
#include <unistd.h>

/* Fails the program when the watchdog (alarm(60), set by main) fires: a restore hung. */
static inline void watchdog_fired(int sig) {
    (void)sig;
    static const char message[] = "snapshot tests: watchdog: a restore took more than 60 s\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(2);
}

/* The snapshot of a store (owned: cinematic_free), logged for schema validation. */
static inline char *snapshot_of(cinematic_store *store) {
    char *json = NULL;
    CHECK_STATUS(cinematic_store_snapshot(store, &json), CINEMATIC_OK);
    h_wire_log("snapshot", NULL, json);
    return json;
}

/* Settles store (which must settle within 10 s). */
static inline void settle(cinematic_store *store) { CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK); }

/* Restores snapshot in rt, with status expected (and a store exactly when it succeeds). */
static inline cinematic_store *restore(cinematic_runtime *rt, const char *snapshot, int expected) {
    cinematic_store *store = NULL;
    CHECK_STATUS(cinematic_store_restore(rt, snapshot, &store), expected);
    if (expected == CINEMATIC_OK) CHECK(store != NULL); else CHECK(store == NULL);
    return store;
}

#endif /* CINEMATIC_TEST_SNAPSHOTS_H */
