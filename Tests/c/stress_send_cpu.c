/*
 * Scenario 5 of the runtime issue: send never does unbounded CPU work.
 *
 * A legal 680 KB query (340,000 one-letter words) made send block for 18 s in 0.1.0. Now
 * a query is at most 256 characters (longer is refused with "invalid", in time linear in
 * nothing but the limit), and the search itself runs on the catalog's own thread. Several
 * threads then submit the costliest legal queries (128 one-letter words) as fast as they
 * can, with the watchdog watching each.
 */
#include "stress.h"

#define SENDERS 4

static cinematic_store *stores[SENDERS];
static char longest[64 + 256];

static void *submitter(void *arg) {
    int index = (int)(intptr_t)arg;
    while (stress_running()) {
        CHECK_STATUS(cinematic_store_send(stores[index], longest), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_send(stores[index], "{\"type\":\"submitted\"}"), CINEMATIC_OK);
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void test_huge_and_longest_queries(void) {
    cinematic_runtime *rt = open_runtime(NULL);
    cinematic_store *search = open_search(rt);

    /* 340,000 one-letter words: refused, at once, naming the limit; the store keeps working. */
    size_t size = 64 + 680000;
    char *huge = malloc(size);
    int length = sprintf(huge, "{\"type\":\"queryChanged\",\"query\":\"");
    for (int i = 0; i < 340000; i++) { huge[length++] = 'a'; huge[length++] = ' '; }
    strcpy(huge + length, "\"}");
    long long started = h_now_ms();
    CHECK_STATUS(cinematic_store_send(search, huge), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("256 characters");
    printf("     680 KB query refused in %lld ms\n", h_now_ms() - started);
    free(huge);
    CHECK_STATUS(send_query(search, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK);
    char *state = state_of(search);
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);

    /* The longest legal query: 128 one-letter words. */
    length = sprintf(longest, "{\"type\":\"queryChanged\",\"query\":\"");
    for (int i = 0; i < 128; i++) { longest[length++] = (char)('a' + i % 26); longest[length++] = ' '; }
    length--; /* 255 characters */
    strcpy(longest + length, "\"}");
    for (int i = 0; i < SENDERS; i++) stores[i] = open_search(rt);
    const char *names[] = {"submitter 1", "submitter 2", "submitter 3", "submitter 4"};
    stress_begin(SENDERS, names);
    pthread_t threads[SENDERS];
    for (int i = 0; i < SENDERS; i++) pthread_create(&threads[i], NULL, submitter, (void *)(intptr_t)i);
    for (int i = 0; i < SENDERS; i++) pthread_join(threads[i], NULL);
    long total = 0;
    for (int i = 0; i < SENDERS; i++) total += stress_rounds(i);
    printf("     %ld longest-query submissions from %d threads in %lld s\n", total, SENDERS, stress.seconds);
    for (int i = 0; i < SENDERS; i++) CHECK_STATUS(cinematic_store_settle(stores[i], 30000), CINEMATIC_OK);
    state = state_of(stores[0]);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    cinematic_free(state);
    stress_end();
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_huge_and_longest_queries);
    return TEST_SUMMARY();
}
