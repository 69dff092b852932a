/*
 * search_promises.h: what the search promises' C tests share (test_search_*.c): whether any
 * state an observer received contains a text, and a debounced search request awaited and
 * checked.
 */
#ifndef CINEMATIC_TEST_SEARCH_PROMISES_H
#define CINEMATIC_TEST_SEARCH_PROMISES_H

#include "harness.h"

/* True when any state the observer received contains text. */
static inline int any_state_contains(recorder *r, const char *text) {
    for (int i = 0; i < recorder_count(r); i++) {
        const char *state = recorder_state(r, i);
        if (state && strstr(state, text)) return 1;
    }
    return 0;
}

/* Lets the 250 ms debounce elapse, waits for the index-th search request and checks that it
 * asks for query. */
static inline provider_call debounced_search(fixture *f, int index, const char *query) {
    provider_call call = {0};
    CHECK_STATUS(cinematic_runtime_advance_clock(f->rt, 250), CINEMATIC_OK);
    CHECK(provider_wait(&f->provider, "search", index + 1, 5000));
    CHECK(provider_call_at(&f->provider, "search", index, &call));
    CHECK_STR_EQ(call.query, query);
    return call;
}

#endif /* CINEMATIC_TEST_SEARCH_PROMISES_H */
