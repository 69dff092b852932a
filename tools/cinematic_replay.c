/*
 * cinematic-replay: replays a recorded session (runtime config "record") in a fresh runtime
 * with the manual clock and checks that every state matches (cinematic_replay).
 *
 *   cinematic-replay [--json] PATH
 *
 * Exit status: 0 every state matched; 1 a state diverged (the first divergence is printed:
 * the intent, the expected and the actual state); 2 the recording cannot be read or the
 * command line is wrong. `python -m cinematic.replay PATH` is the same tool in Python.
 */
#include <cinematic.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

enum { EXIT_MATCHED = 0, EXIT_DIVERGED = 1, EXIT_ERROR = 2 };

/* Prints "  label: <compact JSON of member>" (null when absent). */
static void print_member(const char *label, json_t *object, const char *key) {
    char *text = json_dumps(json_object_get(object, key), JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
    printf("  %-9s %s\n", label, text ? text : "null");
    free(text);
}

static int describe(const char *report_text) {
    json_t *report = json_loads(report_text, 0, NULL);
    if (!report) {
        fprintf(stderr, "cinematic-replay: unreadable report: %s\n", report_text);
        return EXIT_ERROR;
    }
    int matched = json_is_true(json_object_get(report, "matched"));
    json_int_t states = json_integer_value(json_object_get(report, "states"));
    if (matched) {
        printf("replay matched: %lld states of %lld stores, %lld lines\n", (long long)states,
               (long long)json_integer_value(json_object_get(report, "stores")),
               (long long)json_integer_value(json_object_get(report, "lines")));
    } else {
        json_t *divergence = json_object_get(report, "divergence");
        json_t *line = json_object_get(divergence, "line");
        if (json_is_integer(line)) printf("replay diverged at line %lld: ", (long long)json_integer_value(line));
        else printf("replay diverged after the last recorded state: ");
        printf("%s store %lld, state %lld (%lld states matched before)\n",
               json_string_value(json_object_get(divergence, "feature")),
               (long long)json_integer_value(json_object_get(divergence, "store")),
               (long long)json_integer_value(json_object_get(divergence, "index")), (long long)states);
        print_member("intent:", divergence, "intent");
        print_member("replayed:", divergence, "replayedIntent");
        print_member("expected:", divergence, "expected");
        print_member("actual:", divergence, "actual");
    }
    json_decref(report);
    return matched ? EXIT_MATCHED : EXIT_DIVERGED;
}

int main(int argc, char **argv) {
    int as_json = argc == 3 && strcmp(argv[1], "--json") == 0;
    if (argc != 2 + as_json || argv[argc - 1][0] == '-') {
        fprintf(stderr, "usage: cinematic-replay [--json] PATH\n");
        return EXIT_ERROR;
    }
    int matched = 0;
    char *report = NULL;
    int rc = cinematic_replay(argv[argc - 1], &matched, &report);
    if (rc != CINEMATIC_OK) {
        const char *why = cinematic_last_error();
        fprintf(stderr, "cinematic-replay: %s: %s\n", cinematic_status_name(rc), why ? why : "");
        return EXIT_ERROR;
    }
    int status;
    if (as_json) {
        printf("%s\n", report);
        status = matched ? EXIT_MATCHED : EXIT_DIVERGED;
    } else {
        status = describe(report);
    }
    cinematic_free(report);
    return status;
}
