/*
 * Debugging through the C ABI: the bounded history and time travel, the readable log, and a
 * scripted session (a search with a late stale answer, Discover paging, a heart toggle whose
 * write fails) recorded, replayed state for state, then edited and caught at the first
 * divergent state.
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- history and time travel -------------------------------------------------------- */

static void test_history_is_bounded_and_numbered(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":100}");
    cinematic_store *store = open_search(rt);
    char query[32];
    for (int i = 1; i <= 10000; i++) {
        snprintf(query, sizeof query, "q%d", i);
        CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
    }
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, &r), CINEMATIC_OK);
    char *history = NULL;
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    h_wire_log("history", NULL, history); /* validated against the schema after the suite */
    CHECK_EQ_INT(json_array_len(history, ""), 100);
    CHECK_JSON_EQ(history, "[0].seq", "9901");
    CHECK_JSON_EQ(history, "[0].intent.type", "queryChanged");
    CHECK_JSON_EQ(history, "[0].intent.query", "q9901");
    CHECK_JSON_EQ(history, "[0].state.query", "q9901");
    CHECK_JSON_EQ(history, "[0].changed[0]", "query");
    CHECK_JSON_EQ(history, "[99].seq", "10000");
    CHECK_JSON_EQ(history, "[99].state.query", "q10000");
    cinematic_free(history);

    /* Revert notifies the state callback like any other state. */
    int before = recorder_count(&r);
    CHECK_STATUS(cinematic_store_revert(store, 9950), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "q9950");
    cinematic_free(state);
    CHECK_EQ_INT(recorder_count(&r), before + 1);
    CHECK_JSON_EQ(recorder_state(&r, recorder_count(&r) - 1), "query", "q9950");

    /* Entries that dropped out, or never existed, are refused and change nothing. */
    CHECK_STATUS(cinematic_store_revert(store, 9900), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("no history entry 9900");
    CHECK_STATUS(cinematic_store_revert(store, 10001), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_revert(store, 0), CINEMATIC_ERR_INVALID);
    state = state_of(store);
    CHECK_JSON_EQ(state, "query", "q9950");
    cinematic_free(state);
    CHECK_EQ_INT(recorder_count(&r), before + 1);

    /* Time travel is not an intent: the history is unchanged, and numbering goes on. */
    CHECK_STATUS(send_query(store, "next"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    CHECK_JSON_EQ(history, "[99].seq", "10001");
    CHECK_JSON_EQ(history, "[99].state.query", "next");
    cinematic_free(history);

    CHECK_STATUS(cinematic_store_history(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_history(NULL, &history), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_revert(store, 10001), CINEMATIC_ERR_CLOSED);
    recorder_destroy(&r);
    cinematic_runtime_close(rt);
}

static void test_history_off_by_default(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    char *history = NULL;
    CHECK_STATUS(cinematic_store_history(store, &history), CINEMATIC_OK);
    CHECK_STR_EQ(history, "[]");
    cinematic_free(history);
    CHECK_STATUS(cinematic_store_revert(store, 1), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("keeps no history");
    cinematic_runtime_close(rt);

    cinematic_runtime *bad = NULL;
    CHECK_STATUS(cinematic_runtime_open("{\"history\":-1}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"history\":100001}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"history\":\"10\"}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"record\":\"\"}", &bad), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_open("{\"record\":\"/nonexistent-dir/x.jsonl\"}", &bad), CINEMATIC_ERR_IO);
    CHECK(bad == NULL);
}

/* ---- the log --------------------------------------------------------------------------- */

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

/* ---- record and replay -------------------------------------------------------------- */

/* Answers every held request of op with movies named after its id. */
static void answer_all(provider *p, const char *op, int *answered) {
    provider_call call = {0};
    while (provider_call_at(p, op, *answered, &call)) {
        char answer[2048];
        char title[64];
        /* a full page (20 movies), so another page can be loaded */
        int length = snprintf(answer, sizeof answer, "{\"movies\":[");
        for (int n = 0; n < 20; n++) {
            snprintf(title, sizeof title, "Film %llu-%d", (unsigned long long)call.id, n);
            length += snprintf(answer + length, sizeof answer - (size_t)length, "%s{\"id\":%d,\"title\":\"%s\"}",
                               n ? "," : "", (int)call.id * 100 + n, title);
        }
        snprintf(answer + length, sizeof answer - (size_t)length, "]}");
        CHECK_STATUS(cinematic_runtime_respond(p->rt, call.id, answer), CINEMATIC_OK);
        (*answered)++;
    }
}

/* Records the scripted session into path; favorites_path must already hold favorites. */
static void record_scripted_session(const char *path, const char *favorites_path) {
    char config[1024];
    snprintf(config, sizeof config,
             "{\"clock\":\"manual\",\"catalog\":\"host\",\"history\":20,\"record\":\"%s\","
             "\"favorites\":{\"path\":\"%s\",\"readOnly\":true}}", path, favorites_path);
    fixture f;
    fixture_open(&f, config, PROVIDER_HOLD, "search", NULL);

    /* Search: "du" then "dune"; the answer for "du" arrives late and is dropped. */
    CHECK_STATUS(send_query(f.store, "du"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    CHECK_STATUS(send_query(f.store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
    provider_call du = {0}, dune = {0};
    CHECK(provider_call_at(&f.provider, "search", 0, &du));
    CHECK(provider_call_at(&f.provider, "search", 1, &dune));
    char answer[512];
    movies_answer(answer, sizeof answer, 438631, "Dune", 2021);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, dune.id, answer), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 40), CINEMATIC_OK);
    movies_answer(answer, sizeof answer, 1, "Duel", 1971);
    CHECK_STATUS(cinematic_runtime_respond(f.rt, du.id, answer), CINEMATIC_OK); /* stale */
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);

    /* Discover: every section's first page, then a second page of "popular". */
    cinematic_store *discover = open_feature(f.rt, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\"}"), CINEMATIC_OK);
    int answered = 0;
    answer_all(&f.provider, "discover", &answered);
    CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 1000), CINEMATIC_OK);
    int first_pages = answered;
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"loadMore\",\"section\":\"popular\"}"), CINEMATIC_OK);
    answer_all(&f.provider, "discover", &answered);
    CHECK_EQ_INT(answered, first_pages + 1);
    provider_call page2 = {0};
    CHECK(provider_call_at(&f.provider, "discover", first_pages, &page2));
    CHECK_STR_CONTAINS(page2.json, "\"page\":2");

    /* Detail: load, then a heart toggle whose write fails (read-only favorites). */
    cinematic_store *detail = open_feature(f.rt, "detail", "{\"movieId\":438631}");
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"task\"}"), CINEMATIC_OK);
    provider_call movie = {0};
    CHECK(provider_wait(&f.provider, "movie", 1, 5000));
    CHECK(provider_call_at(&f.provider, "movie", 0, &movie));
    CHECK_STATUS(cinematic_runtime_respond(f.rt, movie.id,
        "{\"movie\":{\"id\":438631,\"title\":\"Dune\",\"year\":2021,\"budget\":165000000,"
        "\"ratingDistribution\":[0,0,0,0,0,0,0,0,0,1]}}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "detail.phase", "loaded", 5000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "favoriteError.code", "storage", 5000);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);

    /* Time travel is recorded too. */
    CHECK_STATUS(cinematic_store_revert(f.store, 2), CINEMATIC_OK);
    fixture_close(&f, FIXTURE_STRICT);
}

static int replay(const char *path, char **report) {
    int matched = -1;
    int rc = cinematic_replay(path, &matched, report);
    CHECK_MSG(rc == CINEMATIC_OK, "cinematic_replay(%s): %s %s", path, cinematic_status_name(rc),
              cinematic_last_error() ? cinematic_last_error() : "");
    h_wire_log("replay", NULL, *report);
    if (matched != 1 && *report) fprintf(stderr, "replay report: %.2000s\n", *report);
    return matched;
}

/* Replaces from with to in the first line of the file that contains both anchor and from. */
static int edit_file(const char *path, const char *anchor, const char *from, const char *to) {
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    static char text[1 << 22];
    size_t size = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[size] = '\0';
    char *hit = NULL;
    for (char *line = text; line && *line && !hit; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        if (strstr(line, anchor)) hit = strstr(line, from);
        if (end) *end = '\n';
    }
    if (!hit) return 0;
    file = fopen(path, "w");
    fwrite(text, 1, (size_t)(hit - text), file);
    fputs(to, file);
    fputs(hit + strlen(from), file);
    fclose(file);
    return 1;
}

static void test_recorded_session_replays_identically_and_edits_are_caught(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char favorites[128], path[128];
    snprintf(favorites, sizeof favorites, "%s/favorites.sqlite", dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    cinematic_runtime *setup = open_on_favorites_file(favorites, "manual");
    cinematic_runtime_close(setup);

    record_scripted_session(path, favorites);
    FILE *file = fopen(path, "r");
    CHECK(file != NULL);
    char line[1 << 16];
    int lines = 0, sessions = 0, stale = 0, cancelled = 0, failed_writes = 0, ends = 0;
    while (file && fgets(line, sizeof line, file)) {
        lines++;
        CHECK(json_valid(line));
        line[strcspn(line, "\n")] = '\0';
        h_wire_log("recording", NULL, line);
        sessions += strstr(line, "\"event\":\"session\"") != NULL;
        /* the provider's late answer, and the cancelled request's answer the store got */
        stale += strstr(line, "\"event\":\"providerAnswer\"") && strstr(line, "Duel");
        cancelled += strstr(line, "\"event\":\"answer\"") && strstr(line, "\"cancelled\":true");
        failed_writes += strstr(line, "\"event\":\"answer\"") && strstr(line, "\"storage\"");
        ends += strstr(line, "\"event\":\"end\"") != NULL;
    }
    if (file) fclose(file);
    CHECK(lines > 40);
    CHECK_EQ_INT(sessions, 1);
    CHECK_EQ_INT(stale, 1);
    CHECK_EQ_INT(cancelled, 1);
    CHECK_EQ_INT(failed_writes, 1);
    CHECK_EQ_INT(ends, 1);

    char *report = NULL;
    CHECK_EQ_INT(replay(path, &report), 1);
    CHECK_JSON_EQ(report, "matched", "true");
    CHECK_JSON_EQ(report, "complete", "true");
    CHECK(json_int(report, "states", 0) >= 15);
    CHECK_EQ_INT(json_int(report, "stores", 0), 3);
    cinematic_free(report);

    /* The favorites file is not needed to replay: the recording answers for it. */
    remove(favorites);

    /* Edit the answer for "dune": the replay diverges at the state it produced. */
    CHECK(edit_file(path, "{\"event\":\"answer\"", "\"title\":\"Dune\"", "\"title\":\"Dunk\""));
    report = NULL;
    CHECK_EQ_INT(replay(path, &report), 0);
    CHECK_JSON_EQ(report, "matched", "false");
    CHECK_JSON_EQ(report, "divergence.feature", "search");
    CHECK_JSON_EQ(report, "divergence.intent.type", "resultsLoaded");
    CHECK_JSON_EQ(report, "divergence.expected.results.value[0].title", "Dune");
    CHECK_JSON_EQ(report, "divergence.actual.results.value[0].title", "Dunk");
    CHECK(json_int(report, "divergence.line", 0) > 1);
    cinematic_free(report);

    /* Bad recordings get a status and a message. */
    int matched = 7;
    CHECK_STATUS(cinematic_replay("/nonexistent/session.jsonl", &matched, &report), CINEMATIC_ERR_IO);
    CHECK_EQ_INT(matched, 0);
    CHECK(report == NULL);
    CHECK_STATUS(cinematic_replay(NULL, &matched, &report), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_replay("/dev/zero", &matched, &report), CINEMATIC_ERR_IO);        /* not a regular file */
    CHECK_ENVELOPE_CONTAINS("not a regular file");
    CHECK_STATUS(cinematic_replay(dir, &matched, &report), CINEMATIC_ERR_IO);                 /* a directory */
    CHECK_STATUS(cinematic_replay("/dev/null", &matched, &report), CINEMATIC_ERR_IO);
    CHECK(report == NULL && matched == 0);
    file = fopen(path, "w");
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_ERR_INVALID);           /* empty */
    file = fopen(path, "w");
    fputs("{\"event\":\"session\",\"t\":0,\"version\":\"0.3.0\",\"config\":{}}\n{\"event\":\"open\"\n{\"event\":\"end\",\"t\":1}\n", file);
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_JSON);
    CHECK_ENVELOPE_CONTAINS("recording line 2");
    file = fopen(path, "w");
    fputs("{\"event\":\"open\",\"t\":0}\n", file);
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("session");
    file = fopen(path, "w");
    fputs("{\"event\":\"session\",\"t\":0,\"config\":{}}\n{\"event\":\"intent\",\"t\":1,\"store\":9,\"host\":true,\"intent\":{}}\n", file);
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("store 9 was never opened");
    remove_tempdir(dir);
}

/* A session as a real host runs it: the embedded catalog, the system clock, a favorites
 * file, states arriving on library threads. It replays state for state. */
static void test_a_system_clock_session_on_the_embedded_catalog_replays(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[512];
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    snprintf(config, sizeof config, "{\"favorites\":\"%s/favorites.sqlite\",\"search\":{\"debounceMs\":20},\"record\":\"%s\"}", dir, path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *search = open_search(rt);
    const char *typed[] = {"d", "du", "dun", "dune"};
    for (int i = 0; i < 4; i++) CHECK_STATUS(send_query(search, typed[i]), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 10000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 10000), CINEMATIC_OK);
    cinematic_store *discover = open_feature(rt, "discover", NULL);
    CHECK_STATUS(cinematic_store_send(discover, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(discover, 10000), CINEMATIC_OK);
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    cinematic_store *detail = open_feature(rt, "detail", "{\"movieId\":15249}");
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"task\"}"), CINEMATIC_OK);
    char *state = wait_json_eq(detail, "detail.phase", "loaded", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = wait_json_eq(favorites, "favorites.value[0].id", "15249", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "isFavorite", "false", 10000);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    char *report = NULL;
    CHECK_EQ_INT(replay(path, &report), 1);
    CHECK(json_int(report, "states", 0) >= 10);
    cinematic_free(report);
    remove_tempdir(dir);
}

/* With the offline cache in play, the recording carries where each answer came from, and
 * the replay shows the same offline copy (with no cache and no network of its own). */
static void test_cached_answers_are_recorded_with_their_source_and_replay(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[512];
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\":memory:\"},"
             "\"record\":\"%s\"}", path);
    fixture f;
    fixture_open(&f, config, PROVIDER_HOLD, "search", NULL);
    const char *queries[] = {"dune", "alien", "dune"};
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(send_query(f.store, queries[i]), CINEMATIC_OK);
        CHECK_STATUS(cinematic_runtime_advance_clock(f.rt, 250), CINEMATIC_OK);
        provider_call call = {0};
        CHECK(provider_wait(&f.provider, "search", i + 1, 5000));
        CHECK(provider_call_at(&f.provider, "search", i, &call));
        char answer[256];
        if (i < 2) movies_answer(answer, sizeof answer, 10 + i, queries[i], 2000);
        else snprintf(answer, sizeof answer, "{\"error\":{\"code\":\"network\",\"message\":\"offline\"}}");
        CHECK_STATUS(cinematic_runtime_respond(f.rt, call.id, answer), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_settle(f.store, 5000), CINEMATIC_OK);
    }
    char *state = state_of(f.store);
    CHECK_JSON_EQ(state, "results.source", "cache");
    CHECK_JSON_EQ(state, "results.value[0].title", "dune");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);

    FILE *file = fopen(path, "r");
    char line[1 << 16];
    int live = 0, cached = 0;
    while (file && fgets(line, sizeof line, file)) {
        if (!strstr(line, "{\"event\":\"answer\"")) continue;
        live += strstr(line, "\"source\":\"live\"") != NULL;
        cached += strstr(line, "\"source\":\"cache\",\"cachedAt\":") != NULL;
    }
    if (file) fclose(file);
    CHECK_EQ_INT(live, 2);
    CHECK_EQ_INT(cached, 1);
    char *report = NULL;
    CHECK_EQ_INT(replay(path, &report), 1);
    cinematic_free(report);
    remove_tempdir(dir);
}

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: recording to a FIFO nobody reads blocked the host\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
}

/* A recording whose file stops taking data (a FIFO nobody reads) never blocks the host:
 * sends go on, close returns, and the failed recording is reported by close. */
static void test_a_stuck_recording_file_never_blocks_the_host(void) {
    char dir[64];
    make_tempdir(dir, sizeof dir);
    char path[128], config[256];
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK); /* open, never read */
    CHECK(reader >= 0);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"record\":\"%s\"}", path);
    signal(SIGALRM, on_alarm);
    alarm(20);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *store = open_search(rt);
    char query[64];
    for (int i = 0; i < 20000; i++) { /* far more than a pipe holds */
        snprintf(query, sizeof query, "a query long enough to fill the pipe quickly %d", i);
        CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("recording is incomplete");
    alarm(0);
    close(reader);
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_history_is_bounded_and_numbered);
    RUN_TEST(test_history_off_by_default);
    RUN_TEST(test_logger_reports_intents_changes_and_effects);
    RUN_TEST(test_recorded_session_replays_identically_and_edits_are_caught);
    RUN_TEST(test_a_stuck_recording_file_never_blocks_the_host);
    RUN_TEST(test_a_system_clock_session_on_the_embedded_catalog_replays);
    RUN_TEST(test_cached_answers_are_recorded_with_their_source_and_replay);
    return TEST_SUMMARY();
}
