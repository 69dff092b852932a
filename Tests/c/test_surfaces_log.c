/*
 * test_surfaces_log: the rules hold on the stderr log (CINEMATIC_LOG=stderr), a surface
 * added after 0.2's favorites: no host thread waits on it, even when nobody reads stderr.
 */
#include "harness.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* CINEMATIC_LOG=stderr with a stderr nobody drains: sends never wait for it (the library's
 * own thread writes, and drops past its bound). Runs in a child (it replaces stderr). */
static void test_a_stderr_log_nobody_reads_never_blocks_the_host(void) {
    fflush(stdout);
    int pipes[2];
    CHECK(pipe(pipes) == 0);
    pid_t child = fork();
    if (child == 0) {                                   /* a fresh process: exec ourselves */
        close(pipes[0]);
        dup2(pipes[1], 2);                              /* a pipe nobody reads: fills at 64 KB */
        setenv("CINEMATIC_LOG", "stderr", 1);
        execl("/proc/self/exe", "test_surfaces_log", "stderr-child", (char *)NULL);
        _exit(20);
    }
    close(pipes[1]);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the host blocked on a stderr nobody reads (%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    close(pipes[0]);
}


/* The child of the stderr test, in its own process: stderr is a pipe nobody reads. */
static int stderr_child(void) {
    alarm(30);                                          /* blocked: killed by the alarm */
    cinematic_runtime *rt = NULL;
    if (cinematic_runtime_open("{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false}", &rt) != CINEMATIC_OK) return 10;
    cinematic_store *search = NULL;
    if (cinematic_store_open(rt, "search", NULL, &search) != CINEMATIC_OK) return 11;
    char query[64];
    for (int i = 0; i < 20000; i++) {                  /* ~2 MB of log lines */
        snprintf(query, sizeof query, "a query for the log %d", i);
        if (send_query(search, query) != CINEMATIC_OK) return 12;
    }
    if (cinematic_runtime_close(rt) != CINEMATIC_OK) return 13;
    _exit(0);                                           /* the stderr thread may still be blocked: fine */
}


int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "stderr-child") == 0) return stderr_child();
    RUN_TEST(test_a_stderr_log_nobody_reads_never_blocks_the_host);
    return TEST_SUMMARY();
}
