/*
 * replay.h: what the record-and-replay C tests share (test_debug_replay.c,
 * test_debug_sessions.c): a recording replayed, which must run; whether it matched.
 */
#ifndef CINEMATIC_TEST_REPLAY_H
#define CINEMATIC_TEST_REPLAY_H

#include "harness.h"

/* Replays the recording at path (cinematic_replay, which must succeed; the report, owned, in
 * *report, logged for schema validation and printed when it did not match); returns matched. */
static inline int replay(const char *path, char **report) {
    int matched = -1;
    int rc = cinematic_replay(path, &matched, report);
    CHECK_MSG(rc == CINEMATIC_OK, "cinematic_replay(%s): %s %s", path, cinematic_status_name(rc),
              cinematic_last_error() ? cinematic_last_error() : "");
    h_wire_log("replay", NULL, *report);
    if (matched != 1 && *report) fprintf(stderr, "replay report: %.2000s\n", *report);
    return matched;
}

#endif /* CINEMATIC_TEST_REPLAY_H */
