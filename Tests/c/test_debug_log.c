/*
 * Debugging through the C ABI: the readable log reports intents, what they changed and
 * effects, with the manual clock's time.
 */
#include "harness.h"

#define LOG_MAX 256
typedef struct {
    pthread_mutex_t lock;
    int count;
    char lines[LOG_MAX][512];
} log_lines;

static void log_fn(void *userdata, const char *line) {
    log_lines *log = userdata;
    pthread_mutex_lock(&log->lock);
    if (log->count < LOG_MAX) snprintf(log->lines[log->count++], sizeof log->lines[0], "%s", line);
    pthread_mutex_unlock(&log->lock);
}

static int log_has(log_lines *log, const char *a, const char *b) {
    pthread_mutex_lock(&log->lock);
    int found = 0;
    for (int i = 0; i < log->count && !found; i++) found = strstr(log->lines[i], a) && (!b || strstr(log->lines[i], b));
    pthread_mutex_unlock(&log->lock);
    return found;
}

static void test_logger_reports_intents_changes_and_effects(void) {
    static log_lines log;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    fixture f;
    fixture_open(&f, "{\"clock\":\"manual\",\"catalog\":\"host\"}", PROVIDER_HOLD, "search", NULL);
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK); /* before the logger: not logged */
    CHECK_STATUS(cinematic_runtime_set_logger(f.rt, log_fn, &log), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    /* send delivers the lines it produced before it returns ("immediate" delivery) */
    CHECK(log_has(&log, "search#", "intent #2 queryChanged {\"type\":\"queryChanged\",\"query\":\"dune\"} changed: query"));
    CHECK(log_has(&log, "effect cancelled \"search\"", NULL));
    CHECK(log_has(&log, "effect started \"search\"", NULL));
    CHECK(!log_has(&log, "\"du\"", NULL));
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    CHECK(log_has(&log, "[250 ms] search#", "intent #3 searchNow {\"type\":\"searchNow\"} changed: results"));
    provider_call call = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &call));
    char answer[256];
    movies_answer(answer, sizeof answer, 7, "Dune", 2021);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, answer), CINEMATIC_OK);
    CHECK(log_has(&log, "intent #4 resultsLoaded", "changed: results, pagesLoaded"));
    CHECK(log_has(&log, "effect finished \"search\"", NULL));
    /* A repeated query changes nothing, and says so. */
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK(log_has(&log, "intent #5 queryChanged", "no change"));

    CHECK_STATUS(cinematic_runtime_set_logger(f.rt, NULL, NULL), CINEMATIC_OK);
    pthread_mutex_lock(&log.lock);
    int count = log.count;
    pthread_mutex_unlock(&log.lock);
    CHECK_STATUS(send_query(f.store, "dunes"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    pthread_mutex_lock(&log.lock);
    CHECK_EQ_INT(log.count, count); /* removed: never called again */
    pthread_mutex_unlock(&log.lock);
    CHECK_STATUS(cinematic_runtime_set_logger(NULL, log_fn, &log), CINEMATIC_ERR_MISUSE);
    fixture_close(&f, FIXTURE_STRICT);
    CHECK_STATUS(cinematic_runtime_set_logger(f.rt, log_fn, &log), CINEMATIC_ERR_CLOSED);
    pthread_mutex_destroy(&log.lock);
}

int main(void) {
    RUN_TEST(test_logger_reports_intents_changes_and_effects);
    return TEST_SUMMARY();
}
