/*
 * stress_host_memory: memory stays flat however many host-catalog requests a runtime answers.
 *
 * A provider answers every request at once (from inside its callback, as a synchronous host
 * would); a typist sends query after query, each one new (distinct words, as a person typing
 * makes), each making one search request. After a warm-up, the process's resident memory is
 * sampled every 10,000 requests: it must not grow with the count (a per-request leak of even
 * 100 bytes is 10 MB here). Runs on the manual clock and on the system clock (no debounce:
 * each request also starts its 10 s deadline timer, cancelled when the answer comes; a
 * cancelled timer must let go of its memory then, not when its deadline would have passed),
 * with the offline cache off and on (":memory:", bounded by maxBytes). The watchdog fails a
 * stalled typist.
 */
#include "stress.h"

#define SAMPLE_EVERY 10000

static cinematic_runtime *runtime;
static atomic_long answered;

static void answer_at_once(void *userdata, uint64_t id, const char *request) {
    (void)userdata;
    if (strstr(request, "\"cancel\"")) return;
    static const char answer[] =
        "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984,\"runtime\":137,\"rating\":6.3,\"votes\":16903,\"genres\":[\"Action\"],\"mpaa\":null}]}";
    if (cinematic_runtime_respond(runtime, id, answer) == CINEMATIC_OK) atomic_fetch_add(&answered, 1);
}

static long resident_kib(void) {
    FILE *file = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (file) {
        if (fscanf(file, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(file);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Query number i as distinct words ("query bcd fgh"): no two share their normalised words. */
static void distinct_query(long i, char *out, size_t size) {
    char word[16];
    int length = 0;
    do {
        word[length++] = (char)('a' + i % 26);
        i /= 26;
    } while (i > 0 && length < (int)sizeof word - 1);
    word[length] = 0;
    snprintf(out, size, "query %s %c%s", word, word[0], word);
}

/* One search request: on the manual clock the debounce is advanced past (the request is made
 * and answered when that returns); on the system clock (no debounce) the store settles. */
static void type_query(cinematic_store *search, long i, int manual) {
    char query[48], intent[96];
    distinct_query(i, query, sizeof query);
    snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", query);
    CHECK_STATUS(cinematic_store_send(search, intent), CINEMATIC_OK);
    if (manual) {
        CHECK_STATUS(cinematic_runtime_advance_clock(runtime, 300), CINEMATIC_OK);
    } else {
        CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK);
    }
}

static void run(const char *config, long requests) {
    CHECK_STATUS(cinematic_runtime_open(config, &runtime), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_set_provider(runtime, answer_at_once, NULL), CINEMATIC_OK);
    cinematic_store *search = NULL;
    CHECK_STATUS(cinematic_store_open(runtime, "search", NULL, &search), CINEMATIC_OK);
    const char *names[] = {"typist"};
    stress_begin(1, names);
    atomic_store(&answered, 0);
    int manual = strstr(config, "\"manual\"") != NULL;
    long warm = 0, last = 0, growth_samples = 0;
    for (long i = 0; i < requests || stress_running(); i++) {
        type_query(search, i, manual);
        stress_tick(0);
        if ((i + 1) % SAMPLE_EVERY == 0) {
            long now = resident_kib();
            if (i + 1 == 2 * SAMPLE_EVERY) warm = now;        /* after the warm-up */
            if (warm && now > last) growth_samples++;
            if (getenv("STRESS_VERBOSE")) printf("    %ld requests: %ld KiB\n", i + 1, now);
            last = now;
        }
        if (i + 1 >= requests && !stress_running()) break;
    }
    stress_end();
    long total = atomic_load(&answered);
    CHECK(total >= requests);
    /* Flat: what the last ~80k requests added is far below one byte per... request * 100. */
    long grown = last - warm;
    printf("  %s: %ld requests answered, resident %ld KiB after warm-up, %ld KiB at the end (%+ld KiB)\n",
           config, total, warm, last, grown);
#ifndef __SANITIZE_ADDRESS__ /* AddressSanitizer's quarantine keeps freed memory: no RSS bound there */
    CHECK_MSG(grown * 1024 < (total - 2 * SAMPLE_EVERY) * 16,
              "resident memory grew by %ld KiB over %ld requests: a per-request leak", grown, total - 2 * SAMPLE_EVERY);
#endif
    (void)growth_samples;
    CHECK_STATUS(cinematic_runtime_close(runtime), CINEMATIC_OK);
}

/* 100,000 requests under `make stress`; 40,000 in `make test` (a leak of 50 bytes a
 * request still shows as 1 MB there). */
static long request_count(void) { return stress_seconds() >= 10 ? 100000 : 40000; }

static void test_memory_is_flat_over_100k_host_requests_without_cache(void) {
    run("{\"catalog\":\"host\",\"clock\":\"manual\",\"offlineCache\":false}", request_count());
}

static void test_memory_is_flat_over_100k_host_requests_with_cache(void) {
    run("{\"catalog\":\"host\",\"clock\":\"manual\",\"offlineCache\":{\"path\":\":memory:\",\"maxBytes\":65536}}", request_count());
}

/* The system clock: every request's deadline timer (10 s by default) is cancelled by its
 * answer; thousands of requests a second must not keep thousands of timers alive. */
static void test_memory_is_flat_on_the_system_clock_without_cache(void) {
    run("{\"catalog\":\"host\",\"search\":{\"debounceMs\":0},\"offlineCache\":false}", request_count());
}

static void test_memory_is_flat_on_the_system_clock_with_cache(void) {
    run("{\"catalog\":\"host\",\"search\":{\"debounceMs\":0},\"offlineCache\":{\"path\":\":memory:\",\"maxBytes\":65536}}",
        request_count());
}

int main(void) {
    RUN_TEST(test_memory_is_flat_over_100k_host_requests_without_cache);
    RUN_TEST(test_memory_is_flat_over_100k_host_requests_with_cache);
    RUN_TEST(test_memory_is_flat_on_the_system_clock_without_cache);
    RUN_TEST(test_memory_is_flat_on_the_system_clock_with_cache);
    return TEST_SUMMARY();
}
