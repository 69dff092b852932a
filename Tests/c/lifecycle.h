/*
 * lifecycle.h: what the lifecycle C tests share (test_lifecycle*.c): every function of a
 * closed store answers closed.
 */
#ifndef CINEMATIC_TEST_LIFECYCLE_H
#define CINEMATIC_TEST_LIFECYCLE_H

#include "harness.h"

/* Every store function answers closed. */
static inline void check_store_closed(cinematic_store *store) {
    int count = 0;
    char *json = NULL;
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_settle(store, 0), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
}

#endif /* CINEMATIC_TEST_LIFECYCLE_H */
