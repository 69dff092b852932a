/*
 * stress_recording_files: runtimes race for one record path (the files rule under
 * contention). Four threads each loop: open a runtime recording to the same path; exactly
 * the one that gets it records a short session, closes (OK) and replays it (matched); the
 * others are refused with CINEMATIC_ERR_IO ("being written by another runtime") and never
 * damage it. A fifth thread replays whatever is at the path meanwhile: it is always a whole
 * recording (a replaced file is renamed into place, never written over). At the end no
 * temporary file is left. The watchdog fails a stalled thread.
 */
#include "stress.h"
#include <dirent.h>

#define RACERS 4

static char dir[64], path[128];
static atomic_long won, refused, replays;

static void *racer(void *arg) {
    int index = (int)(intptr_t)arg;
    char config[256];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false,\"record\":\"%s\"}", path);
    while (stress_running()) {
        cinematic_runtime *rt = NULL;
        int rc = cinematic_runtime_open(config, &rt);
        if (rc == CINEMATIC_ERR_IO) {
            CHECK_STR_CONTAINS(cinematic_last_error(), "being written by another runtime");
            atomic_fetch_add(&refused, 1);
        } else if (CHECK_MSG(rc == CINEMATIC_OK, "open: %s", cinematic_last_error())) {
            cinematic_store *search = NULL;
            CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &search), CINEMATIC_OK);
            char intent[96];
            for (int i = 0; i < 5; i++) {
                snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"racer %d %d\"}", index, i);
                CHECK_STATUS(cinematic_store_send(search, intent), CINEMATIC_OK);
            }
            CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
            atomic_fetch_add(&won, 1);
        }
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void *replayer(void *arg) {
    int index = (int)(intptr_t)arg;
    while (stress_running()) {
        int matched = 0;
        char *report = NULL;
        int rc = cinematic_replay(path, &matched, &report);
        if (rc == CINEMATIC_OK) {
            /* A whole recording of one session, or one still being written (no end yet). */
            CHECK_MSG(matched == 1, "a recording at the path did not replay: %s", report ? report : "");
            atomic_fetch_add(&replays, 1);
        } else {
            CHECK_MSG(rc == CINEMATIC_ERR_IO || rc == CINEMATIC_ERR_INVALID, "replay: %s", cinematic_last_error());
        }
        cinematic_free(report);
        stress_tick(index);
    }
    stress_finish(index);
    return NULL;
}

static void test_runtimes_racing_for_one_record_path(void) {
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    const char *names[] = {"racer 0", "racer 1", "racer 2", "racer 3", "replayer"};
    stress_begin(RACERS + 1, names);
    pthread_t threads[RACERS + 1];
    for (int i = 0; i < RACERS; i++) pthread_create(&threads[i], NULL, racer, (void *)(intptr_t)i);
    pthread_create(&threads[RACERS], NULL, replayer, (void *)(intptr_t)RACERS);
    for (int i = 0; i <= RACERS; i++) pthread_join(threads[i], NULL);
    stress_end();
    printf("  %ld sessions recorded, %ld opens refused, %ld replays meanwhile\n",
           atomic_load(&won), atomic_load(&refused), atomic_load(&replays));
    CHECK(atomic_load(&won) > 0);
    int matched = 0;
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    DIR *listing = opendir(dir);
    int files = 0;
    for (struct dirent *entry; listing && (entry = readdir(listing));)
        if (entry->d_name[0] != '.' || strstr(entry->d_name, ".tmp-")) files++;
    if (listing) closedir(listing);
    CHECK_MSG(files == 1, "%d files in %s (a temporary one was left)", files, dir);
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_runtimes_racing_for_one_record_path);
    return TEST_SUMMARY();
}
