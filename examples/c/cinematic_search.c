/*
 * cinematic-search: search the movie catalog through libcinematic's C API.
 *
 *   cinematic-search dune              results table
 *   cinematic-search --json dune       the final state as JSON
 *   cinematic-search --type star wars  types the query letter by letter, 100 ms apart,
 *                                      printing every state and the catalog requests made
 *
 * Build: cc cinematic_search.c $(pkg-config --cflags --libs cinematic jansson)
 */
#include <cinematic.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What the state callback has seen; callbacks of one runtime never run concurrently, the
 * mutex only guards against the main thread reading while a library thread writes. */
struct observer {
    pthread_mutex_t lock;
    int states;
    int requests;              /* searches started: states entering "loading" for a new query */
    char last_loading_query[512];
    int print_states;
};

static void fail(const char *what, int status) {
    fprintf(stderr, "cinematic-search: %s failed: %s %s\n", what, cinematic_status_name(status),
            cinematic_last_error() ? cinematic_last_error() : "");
    exit(1);
}

static void on_state(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    struct observer *observer = userdata;
    json_t *state = json_loads(state_json, 0, NULL);
    const char *query = json_string_value(json_object_get(state, "query"));
    const char *phase = json_string_value(json_object_get(json_object_get(state, "results"), "phase"));
    pthread_mutex_lock(&observer->lock);
    observer->states++;
    if (phase && query && strcmp(phase, "loading") == 0 && strcmp(query, observer->last_loading_query) != 0) {
        observer->requests++;
        snprintf(observer->last_loading_query, sizeof observer->last_loading_query, "%s", query);
    }
    if (observer->print_states) {
        json_t *value = json_object_get(json_object_get(state, "results"), "value");
        if (value)
            printf("  state: query \"%s\", %s, %zu movies\n", query, phase, json_array_size(value));
        else
            printf("  state: query \"%s\", %s\n", query, phase);
    }
    pthread_mutex_unlock(&observer->lock);
    json_decref(state);
}

static void print_table(const char *state_json) {
    json_t *state = json_loads(state_json, 0, NULL);
    json_t *results = json_object_get(state, "results");
    const char *phase = json_string_value(json_object_get(results, "phase"));
    if (phase && strcmp(phase, "failed") == 0) {
        json_t *error = json_object_get(results, "error");
        printf("search failed: %s: %s\n", json_string_value(json_object_get(error, "code")),
               json_string_value(json_object_get(error, "message")));
    } else if (!phase || strcmp(phase, "loaded") != 0) {
        printf("no results (%s)\n", phase ? phase : "?");
    } else {
        json_t *movies = json_object_get(results, "value");
        printf("%-48s %4s %5s %6s %8s  %s\n", "title", "year", "min", "rating", "votes", "genres");
        size_t index;
        json_t *movie;
        json_array_foreach(movies, index, movie) {
            char genres[128] = "";
            size_t g;
            json_t *genre;
            json_array_foreach(json_object_get(movie, "genres"), g, genre) {
                if (g) strncat(genres, ",", sizeof genres - strlen(genres) - 1);
                strncat(genres, json_string_value(genre), sizeof genres - strlen(genres) - 1);
            }
            printf("%-48.48s %4lld %5lld %6.1f %8lld  %s\n", json_string_value(json_object_get(movie, "title")),
                   (long long)json_integer_value(json_object_get(movie, "year")),
                   (long long)json_integer_value(json_object_get(movie, "runtime")),
                   json_number_value(json_object_get(movie, "rating")),
                   (long long)json_integer_value(json_object_get(movie, "votes")), genres);
        }
        if (json_array_size(movies) == 0) printf("no movie matches\n");
    }
    json_decref(state);
}

int main(int argc, char **argv) {
    int as_json = 0, typing = 0, first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--json") == 0) as_json = 1;
        else if (strcmp(argv[first], "--type") == 0) typing = 1;
        else {
            fprintf(stderr, "usage: %s [--json] [--type] query...\n", argv[0]);
            return 2;
        }
    }
    char query[512] = "";
    for (int i = first; i < argc; i++) {
        if (i > first) strncat(query, " ", sizeof query - strlen(query) - 1);
        strncat(query, argv[i], sizeof query - strlen(query) - 1);
    }
    if (!query[0]) {
        fprintf(stderr, "usage: %s [--json] [--type] query...\n", argv[0]);
        return 2;
    }

    cinematic_runtime *runtime;
    cinematic_store *search;
    int status;
    if ((status = cinematic_runtime_open(NULL, &runtime)) != CINEMATIC_OK) fail("opening the runtime", status);
    if ((status = cinematic_store_open(runtime, "search", NULL, &search)) != CINEMATIC_OK) fail("opening search", status);

    struct observer observer = {.lock = PTHREAD_MUTEX_INITIALIZER, .print_states = typing};
    cinematic_store_observe(search, on_state, &observer);

    size_t length = strlen(query);
    for (size_t typed = typing ? 1 : length; typed <= length; typed++) {
        json_t *intent = json_pack("{s:s, s:s%}", "type", "queryChanged", "query", query, typed);
        char *text = json_dumps(intent, JSON_COMPACT);
        if (typing) {
            pthread_mutex_lock(&observer.lock);
            printf("typed \"%.*s\"\n", (int)typed, query);
            pthread_mutex_unlock(&observer.lock);
        }
        if ((status = cinematic_store_send(search, text)) != CINEMATIC_OK) fail("sending", status);
        free(text);
        json_decref(intent);
        if (typing) nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
    }
    if (!typing && (status = cinematic_store_send(search, "{\"type\":\"submitted\"}")) != CINEMATIC_OK) fail("submitting", status);
    if ((status = cinematic_store_settle(search, 30000)) != CINEMATIC_OK) fail("waiting for results", status);

    char *state;
    if ((status = cinematic_store_state(search, &state)) != CINEMATIC_OK) fail("reading the state", status);
    if (as_json) puts(state);
    else print_table(state);
    cinematic_free(state);
    if (typing) {
        pthread_mutex_lock(&observer.lock);
        printf("catalog requests: %d for %zu keystrokes (%d states)\n", observer.requests, length, observer.states);
        pthread_mutex_unlock(&observer.lock);
    }
    cinematic_runtime_close(runtime);
    return 0;
}
