/*
 * delivery.h: what the callback-delivery C tests share (test_delivery*.c): a manual-clock host
 * runtime with "queued" or "immediate" delivery, and a dispatch that must succeed.
 */
#ifndef CINEMATIC_TEST_DELIVERY_H
#define CINEMATIC_TEST_DELIVERY_H

#include "harness.h"

/* Manual-clock host runtimes, one per delivery mode (QUEUED_CONFIG: fixtures.h). */
#define IMMEDIATE_CONFIG HOST_CONFIG

/* Runs the runtime's waiting callbacks (cinematic_runtime_dispatch, which must succeed);
 * returns how many ran. */
static inline int dispatch(cinematic_runtime *rt) {
    int count = -1;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_OK);
    return count;
}

#endif /* CINEMATIC_TEST_DELIVERY_H */
