/*
 * When a benchmark started a host: the parent puts CLOCK_MONOTONIC's microseconds in
 * CINEMATIC_BENCH_SPAWNED_US just before it spawns the host, and the host prints how long after
 * that its first result came (since_spawn_us: loading the program and its libraries included,
 * what a cold start costs). catalog-host and fts5-host print it alike.
 */
#ifndef CINEMATIC_BENCH_SPAWN_CLOCK_H
#define CINEMATIC_BENCH_SPAWN_CLOCK_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Prints "since_spawn_us N" when the parent said when it spawned this process. */
static void print_since_spawn(void) {
    const char *spawned = getenv("CINEMATIC_BENCH_SPAWNED_US");
    if (!spawned) return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    printf("since_spawn_us %.0f\n", t.tv_sec * 1e6 + t.tv_nsec / 1e3 - strtod(spawned, NULL));
}
#endif
