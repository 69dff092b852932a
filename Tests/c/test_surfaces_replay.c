/*
 * test_surfaces_replay: the rules hold on replay, a surface added after 0.2's favorites: it
 * opens nothing that can block, refuses impossible sequences naming the line, and its memory
 * is bounded by the longest line, not by the file.
 */
#include "harness.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: a call blocked (watchdog)\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
}

/* Replay opens nothing that can block (a FIFO with no writer), and refuses impossible
 * sequences naming the line; a last line cut short is replayed up to it. */
static void test_replay_refuses_hostile_files_without_blocking(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    signal(SIGALRM, on_alarm);
    alarm(20);
    int matched = 7;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("not a regular file");
    alarm(0);

    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    static const char *session = "{\"event\":\"session\",\"t\":0,\"config\":{\"clock\":\"manual\",\"catalog\":\"host\"}}\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s", session, "{\"event\":\"session\",\"t\":1,\"config\":{}}\n");
    CHECK(write_file(path, text));
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 2: a second \\\"session\\\"");
    snprintf(text, sizeof text, "%s%s", session, "{\"event\":\"advance\",\"t\":50}\n{\"event\":\"advance\",\"t\":20}\n");
    CHECK(write_file(path, text));
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 3: time goes backwards");
    snprintf(text, sizeof text, "%s%s", session,
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n"
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n");
    CHECK(write_file(path, text));
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 3: store 1 is opened a second time");

    /* Cut short: replayed up to the last complete line, reported incomplete. */
    snprintf(text, sizeof text, "%s%s", session,
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n{\"event\":\"int");
    CHECK(write_file(path, text));
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    CHECK_JSON_EQ(report, "complete", "false");
    CHECK_JSON_EQ(report, "cutLine", "3");
    h_wire_log("replay", NULL, report);
    cinematic_free(report);

    /* A line over 1 MiB in a regular file: too_large, before the rest is read. */
    FILE *file = fopen(path, "w");
    fputs(session, file);
    for (int i = 0; i < (1 << 20) + 10; i++) fputc('x', file);
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_TOO_LARGE);
    CHECK_ENVELOPE_CONTAINS("recording line 2 is larger than");
    remove_tempdir(dir);
}

static long peak_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/* Replay reads a recording as a stream: a 64 MB recording (lines of 256 KB the replay
 * reads and skips) costs memory of a few lines, not of the file (0.2.0 held every line
 * parsed: ~20x the file). */
static void test_replay_memory_is_bounded_by_the_longest_line(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/big.jsonl", dir);
    FILE *file = fopen(path, "w");
    fputs("{\"event\":\"session\",\"t\":0,\"config\":{\"clock\":\"manual\",\"catalog\":\"host\"}}\n", file);
    static char filler[256 * 1024];
    memset(filler, 'a', sizeof filler - 1);
    for (int i = 0; i < 256; i++) fprintf(file, "{\"event\":\"providerRequest\",\"t\":%d,\"requestId\":%d,\"request\":{\"pad\":\"%s\"}}\n", i, i, filler);
    fputs("{\"event\":\"end\",\"t\":300}\n", file);
    fclose(file);
    long before = peak_kib();
    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    cinematic_free(report);
    long grown = peak_kib() - before;
#ifdef __SANITIZE_ADDRESS__ /* AddressSanitizer's quarantine keeps freed memory: no RSS bound there */
    grown = 0;
#endif
    printf("  replaying a %d MB recording raised peak memory by %ld KiB\n", 64, grown);
    CHECK_MSG(grown < 24 * 1024, "replaying a 64 MB recording raised peak memory by %ld KiB", grown);
    remove_tempdir(dir);
}


int main(void) {
    RUN_TEST(test_replay_refuses_hostile_files_without_blocking);
    RUN_TEST(test_replay_memory_is_bounded_by_the_longest_line);
    return TEST_SUMMARY();
}
