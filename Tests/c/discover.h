/*
 * discover.h: what Discover's C tests share (test_discover_embedded.c, test_discover_host.c):
 * the nine sections in their order, and paths into a Discover state.
 */
#ifndef CINEMATIC_TEST_DISCOVER_H
#define CINEMATIC_TEST_DISCOVER_H

#include "harness.h"

/* How many sections Discover shows. */
#define NSECTIONS 9

/* The sections' ids, in the order Discover shows them. */
static const char *const sections[NSECTIONS] = {"popular", "topRated", "action",      "animation", "comedy",
                                                 "drama",   "documentary", "romance", "short"};
/* Indexes into sections[] the tests name. */
enum { POPULAR = 0, TOP_RATED = 1, ACTION = 2, COMEDY = 4, DRAMA = 5 };

/* "sections[i]<suffix>" into buf. */
static inline const char *spath(char *buf, size_t size, int i, const char *suffix) {
    snprintf(buf, size, "sections[%d]%s", i, suffix);
    return buf;
}

/* "sections[i].movies.value[j]<suffix>" into buf. */
static inline const char *mpath(char *buf, size_t size, int i, int j, const char *suffix) {
    snprintf(buf, size, "sections[%d].movies.value[%d]%s", i, j, suffix);
    return buf;
}

#endif /* CINEMATIC_TEST_DISCOVER_H */
