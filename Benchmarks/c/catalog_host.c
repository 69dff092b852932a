/*
 * catalog-host: a C host's cost of a catalog, for `make bench` (Benchmarks/cinematic-bench,
 * CatalogCost.swift). Opens a runtime on a catalog, searches QUERY, and prints, one
 * "key value" line each:
 *   first_result_us   cinematic_runtime_open -> the first search result in the state
 *   first_title       that result's title
 *   rss_kib, anon_kib, file_kib  the process's resident memory then, and what of it the
 *                     process allocated and what are mapped files' pages (memory.h)
 *   second_runtime_kib  what a second runtime on the same catalog added, once it searched
 *   typed_rss_kib, typed_anon_kib, typed_file_kib  resident memory after searching every
 *                     line of KEYSTROKES (optional), and its split,
 *   keystroke_p50_us, keystroke_p99_us   each of those searches, intent sent to state settled
 * With --results TSV instead, prints for each query of a relevance set (its second column)
 * the titles and years of its first page, one line each: two libraries' outputs compared
 * line by line say whether search answers the same.
 *
 *   catalog-host CATALOG QUERY [KEYSTROKES]     CATALOG: "embedded" or an index path
 *   catalog-host CATALOG --results TSV
 */
#define _POSIX_C_SOURCE 200809L
#include "memory.h"
#include "spawn_clock.h"
#include <cinematic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void check(int status, const char *what) {
    if (status == CINEMATIC_OK) return;
    fprintf(stderr, "catalog-host: %s: %s %s\n", what, cinematic_status_name(status), cinematic_last_error() ? cinematic_last_error() : "");
    exit(1);
}

/* Searches `query` in `store` and returns the state (owned by the caller) once it settled. */
static char *search(cinematic_store *store, const char *query) {
    char intent[1200];
    snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", query);
    check(cinematic_store_send(store, intent), "sending the query");
    check(cinematic_store_send(store, "{\"type\":\"submitted\"}"), "submitting");
    check(cinematic_store_settle(store, 60000), "waiting for results");
    char *state = NULL;
    check(cinematic_store_state(store, &state), "reading the state");
    return state;
}

static cinematic_store *open_search(const char *catalog, cinematic_runtime **runtime) {
    char config[1200];
    if (strcmp(catalog, "embedded") == 0) snprintf(config, sizeof config, "{\"catalog\":\"embedded\",\"favorites\":\":memory:\"}");
    else snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"},\"favorites\":\":memory:\"}", catalog);
    check(cinematic_runtime_open(config, runtime), "opening the runtime");
    cinematic_store *store = NULL;
    check(cinematic_store_open(*runtime, "search", NULL, &store), "opening search");
    return store;
}

static int by_value(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* Prints each result's "title (year)" of `state`, separated by " | ". */
static void print_results(const char *query, const char *state) {
    printf("%s\t", query);
    for (const char *p = strstr(state, "\"title\":\""); p; p = strstr(p, "\"title\":\"")) {
        p += 9;
        const char *end = p;
        while (*end && !(*end == '"' && end[-1] != '\\')) end++;
        const char *year = strstr(end, "\"year\":");
        printf("%.*s (%ld) | ", (int)(end - p), p, year ? strtol(year + 7, NULL, 10) : 0L);
        p = end;
    }
    printf("\n");
}

static int results(const char *catalog, const char *path) {
    cinematic_runtime *runtime = NULL;
    cinematic_store *store = open_search(catalog, &runtime);
    FILE *lines = fopen(path, "r");
    char line[1100];
    while (lines && fgets(line, sizeof line, lines)) {
        if (line[0] == '#') continue;
        char *query = strchr(line, '\t');
        if (!query) continue;
        query++;
        query[strcspn(query, "\t\n")] = 0;
        if (!query[0] || strpbrk(query, "\"\\")) continue;
        char *state = search(store, query);
        print_results(query, state);
        cinematic_free(state);
    }
    if (lines) fclose(lines);
    check(cinematic_runtime_close(runtime), "closing");
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[2], "--results") == 0) return results(argv[1], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: %s CATALOG QUERY [KEYSTROKES]\n", argv[0]);
        return 2;
    }
    double start = now_us();
    cinematic_runtime *runtime = NULL;
    cinematic_store *store = open_search(argv[1], &runtime);
    char *state = search(store, argv[2]);
    double took = now_us() - start;
    const char *title = strstr(state, "\"title\":\"");
    char first[200] = "none";
    if (title) {
        title += 9;
        size_t length = strcspn(title, "\"");
        snprintf(first, sizeof first, "%.*s", (int)(length < 190 ? length : 190), title);
    }
    cinematic_free(state);
    printf("first_result_us %.0f\nfirst_title %s\n", took, first);
    print_since_spawn();
    print_memory();
    long before = rss_kib();
    cinematic_runtime *second = NULL;
    cinematic_store *other = open_search(argv[1], &second);
    cinematic_free(search(other, argv[2]));
    printf("second_runtime_kib %ld\n", rss_kib() - before);
    check(cinematic_runtime_close(second), "closing");
    if (argc > 3) {
        FILE *lines = fopen(argv[3], "r");
        char line[1100];
        static double took[100000];
        int count = 0;
        while (lines && fgets(line, sizeof line, lines) && count < 100000) {
            line[strcspn(line, "\n")] = 0;
            if (!line[0] || strpbrk(line, "\"\\")) continue;
            double started = now_us();
            cinematic_free(search(store, line));
            took[count++] = now_us() - started;
        }
        if (lines) fclose(lines);
        print_memory_as("typed_");
        if (count > 0) {
            qsort(took, (size_t)count, sizeof took[0], by_value);
            printf("keystroke_p50_us %.0f\nkeystroke_p99_us %.0f\n", took[count / 2], took[(int)((count - 1) * 0.99 + 0.5)]);
        }
    }
    check(cinematic_runtime_close(runtime), "closing");
    return 0;
}
