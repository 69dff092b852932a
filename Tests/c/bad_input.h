/*
 * bad_input.h: what the bad-input C tests share (test_bad_*.c): a bad input gets a status and
 * an envelope, never a crash, and the runtime and its stores keep working afterwards.
 */
#ifndef CINEMATIC_TEST_BAD_INPUT_H
#define CINEMATIC_TEST_BAD_INPUT_H

#include "harness.h"

/* One mebibyte: the input limit. */
#define MIB (1 << 20)

/* Checks that the store still works: a valid intent is applied. */
static int probe_counter;
#define CHECK_STORE_WORKS(store)                                                              \
    do {                                                                                      \
        char h_query_[32];                                                                    \
        snprintf(h_query_, sizeof h_query_, "ok-%d", ++probe_counter);                        \
        CHECK_STATUS(send_query((store), h_query_), CINEMATIC_OK);                            \
        char *h_state_ = state_of(store);                                                     \
        CHECK_JSON_EQ(h_state_, "query", h_query_);                                           \
        cinematic_free(h_state_);                                                             \
    } while (0)

/* Sends a bad intent: expected status, the state unchanged, the store still working. */
#define CHECK_BAD_INTENT(store, intent, expected)                                             \
    do {                                                                                      \
        char *h_before_ = state_of(store);                                                    \
        CHECK_STATUS(cinematic_store_send((store), (intent)), (expected));                    \
        char *h_after_ = state_of(store);                                                     \
        CHECK_STR_EQ(h_after_, h_before_);                                                    \
        cinematic_free(h_before_);                                                            \
        cinematic_free(h_after_);                                                             \
    } while (0)

/* A valid intent whose text is exactly size bytes (the query pads it). */
static inline char *intent_of_size(size_t size) {
    const char *head = "{\"type\":\"queryChanged\",\"query\":\"";
    const char *tail = "\"}";
    char *text = malloc(size + 1);
    size_t h = strlen(head), t = strlen(tail);
    memcpy(text, head, h);
    memset(text + h, 'a', size - h - t);
    memcpy(text + size - t, tail, t);
    text[size] = '\0';
    return text;
}


#endif /* CINEMATIC_TEST_BAD_INPUT_H */
