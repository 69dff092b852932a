/*
 * Scenario 6 of the runtime issue: the manual clock.
 *
 * cinematic_runtime_advance_clock(rt, INT64_MAX) over and over aborted the process at about
 * the 18,447th call in 0.1.0 (Duration overflow). Now the clock saturates. And advance
 * returns only after the effects it woke reached their next suspension, with what they
 * produced delivered: a debounced query's provider request has been made when it returns,
 * with no polling (checked here every round, with no wait at all).
 */
#include "stress.h"

static void test_huge_advances_saturate(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(send_query(search, "dune"), CINEMATIC_OK);   /* a sleeper that must wake */
    int failures = 0;
    for (int i = 0; i < 100000; i++) {
        if (cinematic_runtime_advance_clock(rt, INT64_MAX) != CINEMATIC_OK) failures++;
    }
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(provider_count(&p, "search"), 1);
    /* The clock stopped at its limit (about 73 billion years): a new debounce's deadline is
     * the limit too, so the search runs at once; the store keeps working. */
    CHECK_STATUS(send_query(search, "alien"), CINEMATIC_OK);
    CHECK_EQ_INT(provider_count(&p, "search"), 2);
    /* The answer arrives on the provider's thread: wait for it (it must not time out). */
    char *state = wait_json_eq(search, "results.value[0].title", "alien", H_WAIT_MS);
    CHECK_JSON_EQ(state, "results.value[0].title", "alien");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, -1), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);
}

/* The last state delivered (the recorder keeps only the first RECORDER_MAX). */
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_state[4096];

static void remember_last(void *userdata, cinematic_store *store, const char *state_json) {
    (void)userdata;
    (void)store;
    pthread_mutex_lock(&last_lock);
    snprintf(last_state, sizeof last_state, "%s", state_json);
    pthread_mutex_unlock(&last_lock);
}

static int last_state_has(const char *a, const char *b) {
    pthread_mutex_lock(&last_lock);
    int found = strstr(last_state, a) != NULL && strstr(last_state, b) != NULL;
    pthread_mutex_unlock(&last_lock);
    return found;
}

static void test_advance_returns_after_the_request_was_made(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    provider p;
    provider_init(&p, rt, PROVIDER_AUTO);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(cinematic_store_observe(search, remember_last, NULL), CINEMATIC_OK);
    const char *names[] = {"query, advance 250 ms, request made"};
    stress_begin(1, names);
    int missed = 0;
    do {
        char query[32], quoted[40];
        snprintf(query, sizeof query, "q%ld", stress_rounds(0));
        snprintf(quoted, sizeof quoted, "\"%s\"", query);
        int before = provider_count(&p, "search"); /* counts the first PROVIDER_MAX calls */
        CHECK_STATUS(send_query(search, query), CINEMATIC_OK);
        CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
        /* No wait: the request was issued, answered at once by the provider, and the
         * resulting state delivered, all before advance returned. */
        if (before < PROVIDER_MAX && provider_count(&p, "search") != before + 1) missed++;
        if (!last_state_has(quoted, "\"phase\":\"loaded\"")) missed++;
        stress_tick(0);
    } while (stress_running());
    stress_finish(0);
    CHECK_EQ_INT(missed, 0);
    printf("     %ld rounds\n", stress_rounds(0));
    stress_end();
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&p.overlaps), 0);
    provider_destroy(&p);
}

int main(void) {
    RUN_TEST(test_huge_advances_saturate);
    RUN_TEST(test_advance_returns_after_the_request_was_made);
    return TEST_SUMMARY();
}
