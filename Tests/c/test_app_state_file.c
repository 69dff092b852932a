/*
 * The app store's state file through the C API (include/cinematic/store.h, THE APP;
 * docs/wire.md, "app"): saved once the app has been quiet for 1 s on the manual clock, and
 * not before; resumed by a second runtime (tab, section, query, positions, the Detail stack);
 * a foreign file or a symbolic link at the path is left byte for byte untouched with a notice
 * of kind "stateFile", and so is an empty file; a FIFO does not block; one session saves to a
 * file at a time (a second process resumes from it, is told, and never saves over the
 * first's). Every wait is bounded and on something
 * observable (a state, a file).
 */
#include "app.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* True when something (a symbolic link included) is at path. */
static int file_exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Waits (bounded) until path exists. */
static int wait_file(const char *path, int timeout_ms) {
    long long deadline = h_now_ms() + timeout_ms;
    while (!file_exists(path) && h_now_ms() < deadline) h_sleep_ms(5);
    return file_exists(path);
}

/* Opens an app store whose state file is path. */
static cinematic_store *open_app_with_file(cinematic_runtime *rt, const char *path) {
    char args[4200];
    snprintf(args, sizeof args, "{\"stateFile\":\"%s\"}", path);
    return open_feature(rt, "app", args);
}

static void test_state_file_saved_after_quiet(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 999), CINEMATIC_OK);
    h_sleep_ms(100); /* a save before 1 s of quiet would show up here */
    CHECK_MSG(!file_exists(path), "saved before the app was quiet for 1 s");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1), CINEMATIC_OK);
    char *text = CHECK_MSG(wait_file(path, H_WAIT_MS), "not saved after 1 s of quiet on the manual clock") ? read_file(path, NULL) : NULL;
    if (text) {
        CHECK_MSG(strncmp(text, "{\"cinematicAppState\":1,", 23) == 0, "the state file: %.300s", text);
        CHECK_JSON_EQ(text, "snapshot.feature", "app");
        CHECK_JSON_EQ(text, "snapshot.data.tab", "favorites");
        free(text);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

static void test_state_file_quiet_counts_from_the_last_change(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 300), CINEMATIC_OK);
    /* Back to Search: a change that starts no effect (Discover's loads would change the app
     * again whenever they arrive, and the quiet counts from them). */
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"search\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 800), CINEMATIC_OK);
    h_sleep_ms(100);
    CHECK_MSG(!file_exists(path), "saved 800 ms after the last change");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 200), CINEMATIC_OK); /* 1 s after the last change */
    if (CHECK_MSG(wait_file(path, H_WAIT_MS), "not saved 1 s after the last change (quiet counted from an earlier one?)")) {
        char *text = read_file(path, NULL);
        CHECK_JSON_EQ(text, "snapshot.data.tab", "search");
        free(text);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

static int resumed(const char *state, void *ctx) {
    long long id = *(long long *)ctx;
    char tab[16], section[16];
    return json_get(state, "tab", tab, sizeof tab) && strcmp(tab, "discover") == 0 &&
           json_get(state, "section", section, sizeof section) && strcmp(section, "comedy") == 0 &&
           json_int(state, "details[0].movieId", -1) == id && json_int(state, "positions.comedy.selection", -1) == 5;
}

static void test_state_file_resumes_in_another_runtime(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"task\"}");
    search_alien(rt, app, app);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"discover\"}");
    send_ok(app, "{\"type\":\"sectionSelected\",\"section\":\"comedy\"}");
    char *state = wait_json_eq(app, "discover.sections[4].movies.phase", "loaded", H_WAIT_MS);
    CHECK_JSON_EQ(state, "discover.sections[4].section", "comedy");
    long long film = json_int(state, "discover.sections[4].movies.value[5].id", -1);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"moved\",\"list\":\"comedy\",\"selection\":5,\"firstVisible\":2}");
    open_movie(app, film, 1);
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK); /* saves before it returns */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK(file_exists(path));

    cinematic_runtime *next = open_runtime(CONFIG);
    cinematic_store *again = open_app_with_file(next, path);
    int ok = 0;
    state = wait_state(again, resumed, &film, H_WAIT_MS, &ok);
    CHECK_MSG(ok, "not resumed: %.600s", state ? state : "(null)");
    CHECK_JSON_EQ(state, "positions.comedy.firstVisible", "2");
    CHECK_JSON_EQ(state, "search.query", "alien");
    CHECK_JSON_EQ(state, "notice", "null");
    cinematic_free(state);
    state = wait_json_eq(again, "details[0].detail.phase", "loaded", H_WAIT_MS); /* reloaded, never copied */
    CHECK_JSON_EQ(state, "details[0].detail.phase", "loaded");
    cinematic_free(state);
    state = wait_state(again, results_for, "alien", H_WAIT_MS, &ok);
    CHECK_MSG(ok, "the resumed search never loaded: %.300s", state ? state : "(null)");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(next), CINEMATIC_OK);
    remove_tempdir(dir);
}

/* Opens an app whose state file is `path` (something not ours), checks the stateFile notice,
 * changes the app, lets it be quiet, closes it: what is at path must be as it was. */
static void refused_state_file(const char *path, const char *why) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    long long opened = h_now_ms();
    cinematic_store *app = open_app_with_file(rt, path);
    CHECK_MSG(h_now_ms() - opened < 1000, "%s: opening the app took %lld ms", why, h_now_ms() - opened);
    char *state = wait_json_eq(app, "notice.kind", "stateFile", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "stateFile");
    CHECK_JSON_EQ(state, "tab", "search"); /* a fresh start */
    CHECK_STR_CONTAINS(state, "left unchanged");
    cinematic_free(state);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 2000), CINEMATIC_OK);
    h_sleep_ms(100);
    long long closing = h_now_ms();
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK);
    CHECK_MSG(h_now_ms() - closing < 1000, "%s: closing the app took %lld ms", why, h_now_ms() - closing);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_state_file_foreign_symlink_fifo_untouched(void) {
    char dir[64], path[128], target[128], link_to[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    snprintf(target, sizeof target, "%s/notes.txt", dir);
    const char *foreign = "{\"notes\":\"mine, not the app's\"}\n";
    const char *notes = "shopping: milk\n";

    CHECK_MSG(write_file(path, foreign), "cannot write %s: %s", path, strerror(errno));
    refused_state_file(path, "a foreign file");
    char *text = read_file(path, NULL);
    CHECK_STR_EQ(text, foreign);
    free(text);
    CHECK_EQ_INT(unlink(path), 0);

    CHECK_MSG(write_file(target, notes), "cannot write %s: %s", target, strerror(errno));
    CHECK_EQ_INT(symlink(target, path), 0);
    refused_state_file(path, "a symbolic link");
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    ssize_t n = readlink(path, link_to, sizeof link_to - 1);
    link_to[n > 0 ? n : 0] = '\0';
    CHECK_STR_EQ(link_to, target);
    text = read_file(target, NULL);
    CHECK_STR_EQ(text, notes);
    free(text);
    CHECK_EQ_INT(unlink(path), 0);

    CHECK_EQ_INT(mkfifo(path, 0600), 0);
    alarm(30); /* a FIFO that blocked the test would end it here */
    refused_state_file(path, "a FIFO");
    alarm(0);
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    remove_tempdir(dir);
}

static void test_state_file_empty_untouched(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    CHECK(write_file(path, ""));
    refused_state_file(path, "an empty file");
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
    remove_tempdir(dir);
}

/* Waits (bounded) until the file at path holds `text`. */
static int wait_file_holds(const char *path, const char *text) {
    long long deadline = h_now_ms() + H_WAIT_MS;
    for (;;) {
        char *held = read_file(path, NULL);
        int found = held && strstr(held, text);
        free(held);
        if (found || h_now_ms() > deadline) return found;
        h_sleep_ms(5);
    }
}

/* The first session, in a process of its own: shows Favorites, saves, tells the parent
 * (a byte on `ready`), and closes when told (a byte on `done`). */
static int first_session(const char *path, int ready, int done) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 2000), CINEMATIC_OK);
    CHECK(wait_file_holds(path, "\"tab\":\"favorites\""));
    char byte = 1;
    CHECK(write(ready, &byte, 1) == 1);
    CHECK(read(done, &byte, 1) == 1);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    return h_failed == 0 ? 0 : 1;
}

static const char *program; /* argv[0]: the first session runs as this program, started fresh */

static void test_state_file_one_session_at_a_time(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    int to_child[2], to_parent[2];
    CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        char ready[16], done[16];
        snprintf(ready, sizeof ready, "%d", to_parent[1]);
        snprintf(done, sizeof done, "%d", to_child[0]);
        execl(program, program, "--first-session", path, ready, done, (char *)NULL);
        _exit(127);
    }
    char byte = 0;
    CHECK(read(to_parent[0], &byte, 1) == 1);

    /* The second session resumes from the first's file, is told, and does not save over it. */
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    char *state = wait_json_eq(app, "notice.kind", "stateFile", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "stateFile");
    CHECK_STR_CONTAINS(state, "Another session of this app is using");
    CHECK_JSON_EQ(state, "tab", "favorites");
    cinematic_free(state);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"discover\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 2000), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK); /* a save at close, if it saved */
    CHECK(wait_file_holds(path, "\"tab\":\"favorites\""));
    char *text = read_file(path, NULL);
    CHECK_MSG(text && !strstr(text, "\"tab\":\"discover\""), "the second session saved over the first: %.200s", text ? text : "");
    free(text);

    CHECK(write(to_child[1], &byte, 1) == 1);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the first session failed (status %d)", status);
    /* The first session is gone: the next one holds the file, with no notice. */
    app = open_app_with_file(rt, path);
    state = wait_json_eq(app, "tab", "favorites", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice", "null");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

int main(int argc, char **argv) {
    program = argv[0];
    if (argc == 5 && strcmp(argv[1], "--first-session") == 0) return first_session(argv[2], atoi(argv[3]), atoi(argv[4]));
    RUN_TEST(test_state_file_empty_untouched);
    RUN_TEST(test_state_file_one_session_at_a_time);
    RUN_TEST(test_state_file_saved_after_quiet);
    RUN_TEST(test_state_file_quiet_counts_from_the_last_change);
    RUN_TEST(test_state_file_resumes_in_another_runtime);
    RUN_TEST(test_state_file_foreign_symlink_fifo_untouched);
    return TEST_SUMMARY();
}
