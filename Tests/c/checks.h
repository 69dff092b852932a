/*
 * checks.h: the C tests' checks (CHECK, CHECK_EQ_INT, CHECK_STR_*, CHECK_JSON_EQ,
 * CHECK_STATUS, CHECK_ENVELOPE_CONTAINS), the runner (RUN_TEST, TEST_SUMMARY) and the clock
 * helpers of bounded waits. Every check counts as one passed or failed check, records a
 * failure with file:line and carries on; checks are thread-safe (they may run inside library
 * callbacks).
 *
 * Part of harness.h (tests include harness.h, which includes this file after what it needs).
 */
#ifndef CINEMATIC_TEST_CHECKS_H
#define CINEMATIC_TEST_CHECKS_H

#ifndef CINEMATIC_TEST_HARNESS_H
#error "include harness.h, which includes this file after what it needs"
#endif

/* ------------------------------------------------------------------------------------ */
/* Checks                                                                                */

static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER;
static int h_passed;
static int h_failed;
static const char *h_test = "(none)";
static int h_test_failed_before;
/* The last envelope seen by CHECK_STATUS (copied: the library's is borrowed). */
static _Thread_local char h_envelope[4096];

/* Counts one check as passed (ok) or failed, printing a failure with file:line and the test's
 * name; returns ok. */
static inline int h_record(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int h_record(int ok, const char *file, int line, const char *fmt, ...) {
    pthread_mutex_lock(&h_lock);
    if (ok) {
        h_passed++;
    } else {
        h_failed++;
        va_list args;
        va_start(args, fmt);
        fprintf(stderr, "FAIL %s:%d [%s]: ", file, line, h_test);
        vfprintf(stderr, fmt, args);
        fputc('\n', stderr);
        va_end(args);
    }
    pthread_mutex_unlock(&h_lock);
    return ok;
}

/* Checks that cond holds. */
#define CHECK(cond) h_record(!!(cond), __FILE__, __LINE__, "CHECK(%s)", #cond)

/* Checks that cond holds; a failure prints the printf-style message. */
#define CHECK_MSG(cond, ...) h_record(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Checks two integers are equal (as long long). */
#define CHECK_EQ_INT(actual, expected)                                                        \
    do {                                                                                      \
        long long h_a_ = (long long)(actual), h_e_ = (long long)(expected);                   \
        h_record(h_a_ == h_e_, __FILE__, __LINE__, "%s == %s: got %lld, expected %lld",       \
                 #actual, #expected, h_a_, h_e_);                                             \
    } while (0)

/* Checks two strings are equal (NULL never is). */
#define CHECK_STR_EQ(actual, expected)                                                        \
    do {                                                                                      \
        const char *h_a_ = (actual), *h_e_ = (expected);                                      \
        h_record(h_a_ != NULL && h_e_ != NULL && strcmp(h_a_, h_e_) == 0, __FILE__, __LINE__, \
                 "%s == %s: got \"%s\", expected \"%s\"", #actual, #expected,                 \
                 h_a_ ? h_a_ : "(null)", h_e_ ? h_e_ : "(null)");                             \
    } while (0)

/* Checks that haystack (not NULL) contains needle. */
#define CHECK_STR_CONTAINS(haystack, needle)                                                  \
    do {                                                                                      \
        const char *h_h_ = (haystack), *h_n_ = (needle);                                      \
        h_record(h_h_ != NULL && strstr(h_h_, h_n_) != NULL, __FILE__, __LINE__,              \
                 "%s contains %s: \"%.600s\" lacks \"%s\"", #haystack, #needle,               \
                 h_h_ ? h_h_ : "(null)", h_n_);                                               \
    } while (0)

/* Checks that haystack (not NULL) does not contain needle. */
#define CHECK_STR_LACKS(haystack, needle)                                                     \
    do {                                                                                      \
        const char *h_h_ = (haystack), *h_n_ = (needle);                                      \
        h_record(h_h_ != NULL && strstr(h_h_, h_n_) == NULL, __FILE__, __LINE__,              \
                 "%s lacks %s: \"%.600s\" has \"%s\"", #haystack, #needle,                    \
                 h_h_ ? h_h_ : "(null)", h_n_);                                               \
    } while (0)

/* Checks that a JSON value at path has the raw text expected (strings without quotes). */
#define CHECK_JSON_EQ(json, path, expected)                                                   \
    do {                                                                                      \
        char h_buf_[1024];                                                                    \
        const char *h_j_ = (json);                                                            \
        int h_found_ = json_get(h_j_, (path), h_buf_, sizeof h_buf_);                         \
        h_record(h_found_ && strcmp(h_buf_, (expected)) == 0, __FILE__, __LINE__,             \
                 "%s at %s == \"%s\": got %s%s%s in %.600s", #json, (path), (expected),       \
                 h_found_ ? "\"" : "", h_found_ ? h_buf_ : "(missing)", h_found_ ? "\"" : "",  \
                 h_j_ ? h_j_ : "(null)");                                                     \
    } while (0)

/* Checks one status-returning call and its last-error envelope (see the top of harness.h). */
static inline int h_check_status(int got, const char *envelope, int expected, const char *call,
                                 const char *file, int line) {
    h_wire_log("envelope", NULL, envelope);
    h_envelope[0] = '\0';
    if (envelope) snprintf(h_envelope, sizeof h_envelope, "%s", envelope);
    if (got != expected) {
        return h_record(0, file, line, "%s: got status %d (%s), expected %d (%s); envelope %s", call,
                        got, cinematic_status_name(got), expected, cinematic_status_name(expected),
                        envelope ? envelope : "NULL");
    }
    if (expected == CINEMATIC_OK) {
        return h_record(envelope == NULL, file, line, "%s: OK but last_error is %s", call,
                        envelope ? envelope : "NULL");
    }
    char want[64];
    snprintf(want, sizeof want, "\"status\":\"%s\"", cinematic_status_name(expected));
    return h_record(envelope != NULL && json_valid(envelope) && strstr(envelope, want) != NULL,
                    file, line, "%s: status %s but envelope is %s", call,
                    cinematic_status_name(expected), envelope ? envelope : "NULL");
}

/* Checks that call returns expected and leaves the matching last error (see harness.h). */
#define CHECK_STATUS(call, expected)                                                          \
    do {                                                                                      \
        int h_rc_ = (call);                                                                   \
        const char *h_env_ = cinematic_last_error();                                          \
        h_check_status(h_rc_, h_env_, (expected), #call, __FILE__, __LINE__);                 \
    } while (0)

/* Checks the envelope of the last CHECK_STATUS on this thread. */
#define CHECK_ENVELOPE_CONTAINS(needle) CHECK_STR_CONTAINS(h_envelope, needle)

/* ------------------------------------------------------------------------------------ */
/* The runner: RUN_TEST and TEST_SUMMARY                                                 */

/* Runs one test function, printing "ok   name" or "FAIL name" after it. */
static inline void h_run(void (*test)(void), const char *name) {
    pthread_mutex_lock(&h_lock);
    h_test = name;
    h_test_failed_before = h_failed;
    pthread_mutex_unlock(&h_lock);
    test();
    pthread_mutex_lock(&h_lock);
    printf("%s %s\n", h_failed == h_test_failed_before ? "ok  " : "FAIL", name);
    fflush(stdout);
    pthread_mutex_unlock(&h_lock);
}

/* Runs the test function fn under its own name. */
#define RUN_TEST(fn) h_run(fn, #fn)

/* Prints "N passed, N failed"; 0 when nothing failed, else 1 (main's status). */
static inline int h_summary(void) {
    pthread_mutex_lock(&h_lock);
    int passed = h_passed, failed = h_failed;
    pthread_mutex_unlock(&h_lock);
    fflush(stderr);
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}

/* Prints the counts and gives main's status: `return TEST_SUMMARY();`. */
#define TEST_SUMMARY() h_summary()

/* ------------------------------------------------------------------------------------ */
/* Time: sleeps and deadlines for bounded waits                                          */

/* Sleeps ms milliseconds: only to give a wrongly delivered callback a chance to show up. */
static inline void h_sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

/* The CLOCK_REALTIME time timeout_ms from now (for pthread_cond_timedwait). */
static inline struct timespec h_deadline(int timeout_ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += timeout_ms / 1000;
    t.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
    return t;
}

/* Milliseconds on a monotonic clock. */
static inline long long h_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#endif /* CINEMATIC_TEST_CHECKS_H */
