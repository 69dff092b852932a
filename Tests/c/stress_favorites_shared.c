/*
 * Scenario 7 of the runtime issue: two runtimes, or two processes, on one favorites file.
 *
 * In 0.1.0 a runtime never noticed a change another connection made: B added a movie that
 * A's Detail showed, A kept isFavorite:false, and A's toggles were no-ops while the file held
 * the row. Now every runtime notices another's change within SQLiteFavorites.pollMilliseconds
 * (50 ms; waited for here with a bound of seconds), and a toggle flips what is stored. Two
 * processes toggling the same movies end with every heart equal to the file.
 */
#include "stress.h"
#include <sys/wait.h>

#define DUNE 15249
#define GODFATHER 20545

static int toggle(cinematic_store *detail) { return cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"); }

typedef struct {
    const char *path;
    int id;
} heart_ctx;

/* The heart is settled (no write in flight) and equals the file. */
static int pred_heart_is_file(const char *state, void *ctx) {
    heart_ctx *heart = ctx;
    if (!strstr(state, "\"isSaving\":false")) return 0;
    int want = stored(heart->path, heart->id);
    return strstr(state, want == 1 ? "\"isFavorite\":true" : "\"isFavorite\":false") != NULL;
}

static void check_heart_is_file(cinematic_store *detail, const char *path, int id) {
    heart_ctx ctx = {path, id};
    int ok = 0;
    char *state = wait_state(detail, pred_heart_is_file, &ctx, 5000, &ok);
    CHECK_MSG(ok, "movie %d: heart %s, file %d", id, state ? state : "(none)", stored(path, id));
    cinematic_free(state);
}

static void test_two_runtimes_see_each_other(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    cinematic_runtime *a = open_on_favorites_file(path, "system"), *b = open_on_favorites_file(path, "system");
    cinematic_store *detail_a = open_detail(a, DUNE), *detail_b = open_detail(b, DUNE);
    const char *names[] = {"rounds of B changes, A follows, A toggles, B follows"};
    stress_begin(1, names);
    do {
        /* B adds: A's heart follows. */
        CHECK_STATUS(toggle(detail_b), CINEMATIC_OK);
        check_heart_is_file(detail_b, path, DUNE);
        CHECK_EQ_INT(stored(path, DUNE), 1);
        char *state = wait_json_eq(detail_a, "isFavorite", "true", 5000);
        CHECK_JSON_EQ(state, "isFavorite", "true");
        cinematic_free(state);
        /* A's toggle flips what is stored: the row goes, and B follows. */
        CHECK_STATUS(toggle(detail_a), CINEMATIC_OK);
        check_heart_is_file(detail_a, path, DUNE);
        CHECK_EQ_INT(stored(path, DUNE), 0);
        state = wait_json_eq(detail_b, "isFavorite", "false", 5000);
        CHECK_JSON_EQ(state, "isFavorite", "false");
        cinematic_free(state);
        stress_tick(0);
    } while (stress_running());
    stress_finish(0);
    /* A toggle made before the other's change is seen flips the stored value, not the
     * stale view: B adds, A (still showing false, or already true) toggles at once. */
    CHECK_STATUS(toggle(detail_b), CINEMATIC_OK);
    check_heart_is_file(detail_b, path, DUNE);
    CHECK_STATUS(toggle(detail_a), CINEMATIC_OK);
    check_heart_is_file(detail_a, path, DUNE);
    check_heart_is_file(detail_b, path, DUNE);
    CHECK_EQ_INT(stored(path, DUNE), 0);
    printf("     %ld rounds\n", stress_rounds(0));
    stress_end();
    CHECK_STATUS(cinematic_runtime_close(a), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(b), CINEMATIC_OK);
    remove_tempdir(dir);
}

/* One process's part: toggles both movies at random, then checks each heart equals the file
 * once both processes are done (the pipe says when the other one is). */
static int process_part(const char *path, int seed, int done_write, int done_read) {
    cinematic_runtime *rt = open_on_favorites_file(path, "system");
    cinematic_store *hearts[2] = {open_detail(rt, DUNE), open_detail(rt, GODFATHER)};
    int ids[2] = {DUNE, GODFATHER};
    unsigned state = (unsigned)seed;
    long long until = h_now_ms() + stress_seconds() * 1000;
    int toggles = 0;
    while (h_now_ms() < until) {
        state = state * 1103515245u + 12345u;
        CHECK_STATUS(toggle(hearts[(state >> 16) & 1]), CINEMATIC_OK);
        toggles++;
        if ((state >> 20) % 8 == 0) h_sleep_ms(1);
    }
    char byte = 1;
    CHECK(write(done_write, &byte, 1) == 1);
    CHECK(read(done_read, &byte, 1) == 1);
    for (int i = 0; i < 2; i++) check_heart_is_file(hearts[i], path, ids[i]);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    printf("     process %d: %d toggles, hearts equal the file\n", seed, toggles);
    return h_failed == 0 ? 0 : 1;
}

/* argv[0], to start the second process as a fresh program (fork alone would copy this
 * process's library threads' locks into the child). */
static const char *program;

static void test_two_processes_toggling(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    cinematic_runtime *creator = open_on_favorites_file(path, "system"); /* creates the file before the processes race */
    CHECK_STATUS(cinematic_runtime_close(creator), CINEMATIC_OK);
    int to_child[2], to_parent[2];
    CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        char write_fd[16], read_fd[16];
        snprintf(write_fd, sizeof write_fd, "%d", to_parent[1]);
        snprintf(read_fd, sizeof read_fd, "%d", to_child[0]);
        execl(program, program, "--toggle-process", path, write_fd, read_fd, (char *)NULL);
        _exit(127);
    }
    const char *names[] = {"parent process"};
    stress_begin(1, names);
    stress_finish(0);
    CHECK_EQ_INT(process_part(path, 1, to_child[1], to_parent[0]), 0);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child process failed (status %d)", status);
    stress_end();
    remove_tempdir(dir);
}

int main(int argc, char **argv) {
    program = argv[0];
    if (argc == 5 && strcmp(argv[1], "--toggle-process") == 0) {
        h_test = "toggle process";
        return process_part(argv[2], 2, atoi(argv[3]), atoi(argv[4]));
    }
    RUN_TEST(test_two_runtimes_see_each_other);
    RUN_TEST(test_two_processes_toggling);
    return TEST_SUMMARY();
}
