/*
 * harness.h: a tiny test harness for the C API tests of libcinematic, plus the fixtures the
 * test programs share. Test programs include this file alone; it includes its parts, each
 * after what it needs:
 *   wire_log.h             every state, envelope and request the tests receive, for the schema
 *   json_reader.h          a small JSON reader: validation, lookup by path
 *   checks.h               the checks, RUN_TEST and TEST_SUMMARY, clock helpers
 *   recording_callbacks.h  a recording catalog provider, a recording state observer
 *   fixtures.h             runtimes, stores, the fixture, waits for a state, temporary dirs
 *
 * Assertions record a failure with file:line and carry on; every assertion counts as one
 * passed or failed check. main() ends with `return TEST_SUMMARY();`, which prints exactly
 * "N passed, N failed" and returns non-zero on any failure. Assertions are thread-safe (they
 * may run inside library callbacks).
 *
 *     static void test_something(void) { CHECK_EQ_INT(1 + 1, 2); }
 *     int main(void) { RUN_TEST(test_something); return TEST_SUMMARY(); }
 *
 * CHECK_STATUS(call, CINEMATIC_ERR_X) runs the call, then (in a separate statement, so the
 * order is defined) reads cinematic_last_error(): after CINEMATIC_OK it must be NULL, after
 * an error it must be a JSON envelope whose "status" is the status' name. The envelope is
 * copied to h_envelope for further checks (CHECK_ENVELOPE_CONTAINS).
 */
#ifndef CINEMATIC_TEST_HARNESS_H
#define CINEMATIC_TEST_HARNESS_H

#define _GNU_SOURCE 1
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dirent.h>
#include <unistd.h>

#include "cinematic.h"
#include "wire_log.h"
#include "json_reader.h"
#include "checks.h"
#include "recording_callbacks.h"
#include "fixtures.h"

#endif /* CINEMATIC_TEST_HARNESS_H */
