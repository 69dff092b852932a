/*
 * The offline cache across processes, through the C ABI: twenty runtimes in twenty processes
 * creating one cache at once, and a runtime opening while another process holds the cache
 * locked (busy is not damage: nothing is deleted, the answers are kept). The other processes
 * are this program again (/proc/self/exe with a --child-* argument), started by fork and
 * exec. Every wait is on the manual clock or a condition: no sleeps.
 */
#include "offline_cache.h"

#include <sqlite3.h>
#include <sys/wait.h>

static const char *self_path = "/proc/self/exe";

/* Starts this program with argv, passing it the descriptors ready_fd and gate_fd (every other
 * pipe end is close-on-exec, so the gate's write end stays with the parent); returns the pid. */
static pid_t spawn_child(char *const argv[], int ready_fd, int gate_fd) {
    pid_t pid = fork();
    if (pid == 0) {
        fcntl(ready_fd, F_SETFD, 0);
        fcntl(gate_fd, F_SETFD, 0);
        execv(self_path, argv);
        _exit(127);
    }
    CHECK(pid > 0);
    return pid;
}

/* Waits for pid; true when it exited with status 0. */
static int child_succeeded(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A runtime on the cache at path: search "movie<index>" answered live (so it is stored). */
static void save_answer(const char *path, int index) {
    snprintf(cache_path, sizeof cache_path, "%s", path);
    fixture f;
    open_cached(&f, "search", NULL);
    char query[32], answer[256];
    snprintf(query, sizeof query, "movie%d", index);
    movies_answer(answer, sizeof answer, 1000 + index, query, 2000);
    char *state = search(&f, query, answer);
    CHECK_JSON_EQ(state, "results.source", "live");
    cinematic_free(state);
    fixture_close(&f, FIXTURE_STRICT);
}

/* How many of "movie0"..."movie<count-1>" a runtime on the cache at path serves from the
 * cache while the provider is down. */
static int cached_answers(const char *path, int count) {
    snprintf(cache_path, sizeof cache_path, "%s", path);
    fixture f;
    open_cached(&f, "search", NULL);
    int found = 0;
    for (int i = 0; i < count; i++) {
        char query[32];
        snprintf(query, sizeof query, "movie%d", i);
        char *state = search(&f, query, NETWORK_DOWN);
        char source[16] = "";
        json_get(state, "results.source", source, sizeof source);
        if (strcmp(source, "cache") == 0) found++;
        cinematic_free(state);
    }
    fixture_close(&f, FIXTURE_STRICT);
    return found;
}

/* Child: says it is ready on ready_fd, waits for the gate to open (EOF), then opens a
 * runtime on the cache at path and stores "movie<index>". */
static int child_create(const char *path, int ready_fd, int gate_fd, int index) {
    char byte = 1, gate;
    if (write(ready_fd, &byte, 1) != 1) return 2;
    while (read(gate_fd, &gate, 1) > 0) {}
    save_answer(path, index);
    return h_failed ? 1 : 0;
}

/* Child: holds the cache's write lock (mode "write": BEGIN EXCLUSIVE, readers go on) or the
 * whole file (mode "file": exclusive locking mode, nobody reads) until the gate opens. */
static int child_lock(const char *path, const char *mode, int ready_fd, int gate_fd) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) return 2;
    const char *sql = strcmp(mode, "file") == 0
        ? "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM answers;"
        : "BEGIN EXCLUSIVE;";
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return 3;
    char byte = 1, gate;
    if (write(ready_fd, &byte, 1) != 1) return 4;
    while (read(gate_fd, &gate, 1) > 0) {}
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
    return 0;
}

/* Twenty processes open runtimes on one new cache path at the same moment: every open
 * succeeds, and every one of them can store (all twenty answers are found afterwards). */
static void test_twenty_processes_create_one_cache_at_once(void) {
    enum { N = 20 };
    char path[sizeof cache_path];
    snprintf(path, sizeof path, "%s/concurrent.sqlite", dir);
    int ready[2], gate[2];
    CHECK(pipe2(ready, O_CLOEXEC) == 0 && pipe2(gate, O_CLOEXEC) == 0);
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        char ready_fd[16], gate_fd[16], index[16];
        snprintf(ready_fd, sizeof ready_fd, "%d", ready[1]);
        snprintf(gate_fd, sizeof gate_fd, "%d", gate[0]);
        snprintf(index, sizeof index, "%d", i);
        char *argv[] = {"test_offline_cache_processes", "--child-create", path, ready_fd, gate_fd, index, NULL};
        pids[i] = spawn_child(argv, ready[1], gate[0]);
    }
    close(gate[0]);
    close(ready[1]);
    char byte;
    for (int i = 0; i < N; i++) CHECK(read(ready[0], &byte, 1) == 1);
    close(gate[1]);                                          /* all twenty go at once */
    close(ready[0]);
    int succeeded = 0;
    for (int i = 0; i < N; i++) succeeded += child_succeeded(pids[i]);
    CHECK_EQ_INT(succeeded, N);
    CHECK_EQ_INT(cached_answers(path, N), N);
}

/* Another process holds the cache locked while a runtime opens: the open succeeds (with the
 * cache, or without it for that open), nothing is deleted, and the 30 stored answers are
 * still 30 afterwards. */
static void check_lock_keeps_answers(const char *mode) {
    char path[sizeof cache_path];
    snprintf(path, sizeof path, "%s/locked-%s.sqlite", dir, mode);
    for (int i = 0; i < 30; i++) save_answer(path, i);
    CHECK_EQ_INT(cached_answers(path, 30), 30);

    int ready[2], gate[2];
    CHECK(pipe2(ready, O_CLOEXEC) == 0 && pipe2(gate, O_CLOEXEC) == 0);
    char ready_fd[16], gate_fd[16];
    snprintf(ready_fd, sizeof ready_fd, "%d", ready[1]);
    snprintf(gate_fd, sizeof gate_fd, "%d", gate[0]);
    char *argv[] = {"test_offline_cache_processes", "--child-lock", path, (char *)mode, ready_fd, gate_fd, NULL};
    pid_t holder = spawn_child(argv, ready[1], gate[0]);
    close(gate[0]);
    close(ready[1]);
    char byte;
    CHECK(read(ready[0], &byte, 1) == 1);                   /* the lock is held */
    close(ready[0]);

    snprintf(cache_path, sizeof cache_path, "%s", path);
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", path);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    if (rt) CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK(access(path, F_OK) == 0);

    close(gate[1]);
    CHECK(child_succeeded(holder));
    CHECK_EQ_INT(cached_answers(path, 30), 30);
}

static void test_write_lock_held_by_another_process(void) { check_lock_keeps_answers("write"); }
static void test_file_locked_by_another_process(void) { check_lock_keeps_answers("file"); }

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--child-create") == 0)
        return child_create(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc == 6 && strcmp(argv[1], "--child-lock") == 0)
        return child_lock(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
    if (!offline_cache_begin()) return 1;
    RUN_TEST(test_twenty_processes_create_one_cache_at_once);
    RUN_TEST(test_write_lock_held_by_another_process);
    RUN_TEST(test_file_locked_by_another_process);
    offline_cache_end();
    return TEST_SUMMARY();
}
