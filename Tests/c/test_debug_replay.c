/*
 * Record and replay through the C ABI: a scripted session (a search with a late stale answer,
 * Discover paging, a heart toggle whose write fails) recorded, replayed state for state, then
 * edited and caught at the first divergent state; recordings that cannot be replayed refused.
 */
#include "replay.h"
#include <sys/stat.h>
#include <unistd.h>

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

int main(void) {
    RUN_TEST(test_recorded_session_replays_identically_and_edits_are_caught);
    return TEST_SUMMARY();
}
