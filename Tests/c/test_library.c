/* The library functions: version, status names, last error, free. */
#include "harness.h"

static void test_version_matches_header(void) {
    const char *version = cinematic_version();
    CHECK(version != NULL);
    CHECK_STR_EQ(version, CINEMATIC_VERSION);
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", CINEMATIC_VERSION_MAJOR, CINEMATIC_VERSION_MINOR,
             CINEMATIC_VERSION_PATCH);
    CHECK_STR_EQ(CINEMATIC_VERSION, expected);
    /* Static: the same pointer every time, and not cleared by later calls. */
    CHECK(cinematic_version() == version);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open("{", &rt), CINEMATIC_ERR_JSON);
    CHECK_STR_EQ(version, CINEMATIC_VERSION);
}

static void test_status_names(void) {
    static const struct { int status; const char *name; } names[] = {
        {CINEMATIC_OK, "ok"},
        {CINEMATIC_ERR_JSON, "json"},
        {CINEMATIC_ERR_INVALID, "invalid"},
        {CINEMATIC_ERR_UNKNOWN_FEATURE, "unknown_feature"},
        {CINEMATIC_ERR_IO, "io"},
        {CINEMATIC_ERR_CLOSED, "closed"},
        {CINEMATIC_ERR_MISUSE, "misuse"},
        {CINEMATIC_ERR_TIMEOUT, "timeout"},
        {CINEMATIC_ERR_TOO_LARGE, "too_large"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK_STR_EQ(cinematic_status_name(names[i].status), names[i].name);
    }
    /* The values never change. */
    CHECK_EQ_INT(CINEMATIC_OK, 0);
    CHECK_EQ_INT(CINEMATIC_ERR_JSON, 1);
    CHECK_EQ_INT(CINEMATIC_ERR_INVALID, 2);
    CHECK_EQ_INT(CINEMATIC_ERR_UNKNOWN_FEATURE, 3);
    CHECK_EQ_INT(CINEMATIC_ERR_IO, 4);
    CHECK_EQ_INT(CINEMATIC_ERR_CLOSED, 5);
    CHECK_EQ_INT(CINEMATIC_ERR_MISUSE, 6);
    CHECK_EQ_INT(CINEMATIC_ERR_TIMEOUT, 7);
    CHECK_EQ_INT(CINEMATIC_ERR_TOO_LARGE, 8);
    /* Values that are no status. */
    CHECK_STR_EQ(cinematic_status_name(9), "unknown");
    CHECK_STR_EQ(cinematic_status_name(-1), "unknown");
    CHECK_STR_EQ(cinematic_status_name(1000), "unknown");
    CHECK_STR_EQ(cinematic_status_name(INT32_MIN), "unknown");
    CHECK_STR_EQ(cinematic_status_name(INT32_MAX), "unknown");
    /* Static strings: stable pointers. */
    CHECK(cinematic_status_name(CINEMATIC_ERR_INVALID) == cinematic_status_name(CINEMATIC_ERR_INVALID));
}

static void test_free_null_and_owned_strings(void) {
    cinematic_free(NULL); /* a no-op: must not crash */
    CHECK(1);
    cinematic_runtime *rt = open_runtime("{\"catalog\":\"host\",\"clock\":\"manual\"}");
    cinematic_store *store = open_search(rt);
    char *a = NULL, *b = NULL;
    CHECK_STATUS(cinematic_store_state(store, &a), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_state(store, &b), CINEMATIC_OK);
    CHECK(a != NULL && b != NULL && a != b); /* each call hands out a new owned string */
    CHECK_STR_EQ(a, "{\"query\":\"\",\"results\":{\"phase\":\"idle\"}" SEARCH_FIRST_PAGE_FLAGS);
    CHECK_STR_EQ(a, b);
    cinematic_free(a);
    cinematic_free(b);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_last_error_envelope(void) {
    cinematic_runtime *rt = NULL;
    /* A failure leaves an envelope... */
    int rc = cinematic_runtime_open("{\"clock\":\"sundial\"}", &rt);
    const char *envelope = cinematic_last_error();
    CHECK_EQ_INT(rc, CINEMATIC_ERR_INVALID);
    CHECK(rt == NULL);
    CHECK(json_valid(envelope));
    CHECK_JSON_EQ(envelope, "status", "invalid");
    CHECK_JSON_EQ(envelope, "path", "$.clock");
    char message[512];
    CHECK(json_get(envelope, "message", message, sizeof message) && message[0] != '\0');
    CHECK_STR_CONTAINS(message, "sundial");
    /* ...that stays until the next call on this thread (the getters do not clear it)... */
    (void)cinematic_version();
    (void)cinematic_status_name(3);
    CHECK(cinematic_last_error() != NULL);
    /* ...and a successful call clears it. */
    rc = cinematic_runtime_open("{\"catalog\":\"host\",\"clock\":\"manual\"}", &rt);
    envelope = cinematic_last_error();
    CHECK_EQ_INT(rc, CINEMATIC_OK);
    CHECK(envelope == NULL);

    /* Malformed JSON: line and column. */
    cinematic_store *store = open_search(rt);
    rc = cinematic_store_send(store, "{\"type\":\n  \"queryChanged\" \"query\":\"x\"}");
    envelope = cinematic_last_error();
    CHECK_EQ_INT(rc, CINEMATIC_ERR_JSON);
    CHECK_JSON_EQ(envelope, "status", "json");
    CHECK_EQ_INT(json_int(envelope, "line", -1), 2);
    CHECK(json_int(envelope, "column", -1) > 0);
    CHECK_STR_CONTAINS(envelope, "malformed JSON");

    /* Every status-returning call clears it first, even ones with no result. */
    CHECK_STATUS(cinematic_store_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(store, &(int){0}), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 0), CINEMATIC_OK);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The last error is per thread: a failure on one thread is not seen on another. */
static void *fail_on_other_thread(void *arg) {
    (void)arg;
    cinematic_runtime *rt = NULL;
    int rc = cinematic_runtime_open("[1,2]", &rt);
    const char *envelope = cinematic_last_error();
    CHECK_EQ_INT(rc, CINEMATIC_ERR_INVALID);
    CHECK(envelope != NULL);
    CHECK_JSON_EQ(envelope, "path", "$");
    return NULL;
}

static void test_last_error_is_per_thread(void) {
    cinematic_runtime *rt = NULL;
    int rc = cinematic_runtime_open("{\"catalog\":\"host\"}", &rt);
    CHECK_EQ_INT(rc, CINEMATIC_OK);
    pthread_t thread;
    pthread_create(&thread, NULL, fail_on_other_thread, NULL);
    pthread_join(thread, NULL);
    CHECK(cinematic_last_error() == NULL);

    rc = cinematic_runtime_open("nope", &(cinematic_runtime *){NULL});
    CHECK_EQ_INT(rc, CINEMATIC_ERR_JSON);
    pthread_create(&thread, NULL, fail_on_other_thread, NULL);
    pthread_join(thread, NULL);
    const char *envelope = cinematic_last_error();
    CHECK_JSON_EQ(envelope, "status", "json"); /* still this thread's own error */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The example at the top of the header, as written (system clock, embedded catalog). */
static void test_header_example(void) {
    cinematic_runtime *rt = NULL;
    cinematic_store *search = NULL;
    CHECK_STATUS(cinematic_runtime_open(NULL, &rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &search), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"dune\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 5000), CINEMATIC_OK); /* the real 250 ms debounce */
    char *state = NULL;
    CHECK_STATUS(cinematic_store_state(search, &state), CINEMATIC_OK);
    CHECK_STR_CONTAINS(state, "{\"query\":\"dune\",\"results\":{\"phase\":\"loaded\",");
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_state(search, &state), CINEMATIC_ERR_CLOSED); /* closed with its runtime */
}

/* NULL config means every default: embedded catalog, system clock, immediate delivery. */
static void test_default_config(void) {
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(NULL, &rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1), CINEMATIC_ERR_MISUSE);      /* system clock */
    int fd = 0;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_ERR_MISUSE);               /* immediate */
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_ERR_MISUSE); /* embedded */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_version_matches_header);
    RUN_TEST(test_status_names);
    RUN_TEST(test_free_null_and_owned_strings);
    RUN_TEST(test_last_error_envelope);
    RUN_TEST(test_last_error_is_per_thread);
    RUN_TEST(test_header_example);
    RUN_TEST(test_default_config);
    return TEST_SUMMARY();
}
