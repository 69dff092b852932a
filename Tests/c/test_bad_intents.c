/*
 * Bad intents get a status and an envelope, never a crash, and the store keeps working
 * afterwards: wrong types and missing members, unknown and internal intent types; and
 * search-engine syntax in a query is text, never an error.
 */
#include "bad_input.h"

/* Escapes text as the inside of a JSON string (quote, backslash, tab, newline). */
static void json_escape(const char *text, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = text; *p && n + 3 < size; p++) {
        switch (*p) {
        case '"': out[n++] = '\\'; out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; out[n++] = '\\'; break;
        case '\t': out[n++] = '\\'; out[n++] = 't'; break;
        case '\n': out[n++] = '\\'; out[n++] = 'n'; break;
        default: out[n++] = *p;
        }
    }
    out[n] = '\0';
}

static void test_wrong_types_and_missing_members(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    static const struct { const char *intent, *path; } cases[] = {
        {"[]", "$"},
        {"[{\"type\":\"submitted\"}]", "$"},
        {"{}", "$.type"},
        {"{\"query\":\"dune\"}", "$.type"},
        {"{\"type\":5}", "$.type"},
        {"{\"type\":null}", "$.type"},
        {"{\"type\":[\"submitted\"]}", "$.type"},
        {"{\"type\":\"queryChanged\"}", "$.query"},
        {"{\"type\":\"queryChanged\",\"query\":42}", "$.query"},
        {"{\"type\":\"queryChanged\",\"query\":null}", "$.query"},
        {"{\"type\":\"queryChanged\",\"query\":true}", "$.query"},
        {"{\"type\":\"queryChanged\",\"query\":[\"du\"]}", "$.query"},
        {"{\"type\":\"queryChanged\",\"query\":{\"text\":\"du\"}}", "$.query"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_BAD_INTENT(store, cases[i].intent, CINEMATIC_ERR_INVALID);
        char path[64];
        CHECK_MSG(json_get(h_envelope, "path", path, sizeof path) && strcmp(path, cases[i].path) == 0,
                  "%s: path %s, expected %s (%s)", cases[i].intent, path, cases[i].path, h_envelope);
        char message[256];
        CHECK(json_get(h_envelope, "message", message, sizeof message) && message[0]);
        CHECK_STORE_WORKS(store);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_unknown_and_internal_intents(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    const char *unknown[] = {
        "{\"type\":\"search\"}", "{\"type\":\"\"}", "{\"type\":\"QueryChanged\",\"query\":\"du\"}",
        "{\"type\":\"queryChanged \",\"query\":\"du\"}", "{\"type\":\"SUBMITTED\"}",
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK_BAD_INTENT(store, unknown[i], CINEMATIC_ERR_INVALID);
        CHECK_ENVELOPE_CONTAINS("\"path\":\"$.type\"");
        CHECK_ENVELOPE_CONTAINS("queryChanged"); /* names what hosts may send */
        CHECK_STORE_WORKS(store);
    }
    /* Effect results are internal, whatever payload comes with them. */
    const char *internal[] = {
        "{\"type\":\"resultsLoaded\"}",
        "{\"type\":\"resultsLoaded\",\"movies\":[{\"id\":1,\"title\":\"Fake\"}]}",
        "{\"type\":\"searchNow\"}",
        "{\"type\":\"searchFailed\"}",
        "{\"type\":\"searchFailed\",\"error\":{\"code\":\"network\",\"message\":\"x\"}}",
    };
    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; i++) {
        CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
        CHECK_BAD_INTENT(store, internal[i], CINEMATIC_ERR_INVALID);
        CHECK_ENVELOPE_CONTAINS("\"path\":\"$.type\"");
        CHECK_ENVELOPE_CONTAINS("internal");
        char *state = state_of(store);
        CHECK_JSON_EQ(state, "results.phase", "idle"); /* nothing was searched or loaded */
        cinematic_free(state);
        CHECK_STORE_WORKS(store);
    }
    /* Unknown members in intents are errors naming the member. */
    CHECK_BAD_INTENT(store, "{\"type\":\"queryChanged\",\"query\":\"du\",\"debounce\":0}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.debounce\"");
    CHECK_BAD_INTENT(store, "{\"type\":\"submitted\",\"query\":\"dune\"}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.query\"");
    CHECK_BAD_INTENT(store, "{\"Type\":\"submitted\",\"type\":\"submitted\"}", CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.Type\"");
    CHECK_STORE_WORKS(store);
    int pending = -1;
    CHECK_STATUS(cinematic_store_pending_effects(store, &pending), CINEMATIC_OK);
    CHECK_EQ_INT(pending, 1); /* only the last valid query's debounce */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Search-engine syntax in queries is text: always OK, then loaded (maybe empty), never failed. */
static void test_search_operators_in_queries(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}"); /* the embedded catalog */
    cinematic_store *store = open_search(rt);
    const char *queries[] = {
        "\"dune", "dune\"", "\"\"", "\"dune\"", "\"dune\" AND \"war\"", "d\"u",
        "du*", "*dune", "**", "* *",
        "-dune", "dune -war", "--", "dune --",
        "AND", "OR", "NOT", "dune AND", "OR war", "NOT dune", "AND OR NOT", "dune NOT war",
        "NEAR(dune war)", "NEAR(", "NEAR(dune, 5)", "NEAR", "near(dune", "NEAR/2",
        "title:dune", "title:", ":dune", "::", "title : dune", "{title}: dune", "{title genres}:x",
        "^dune", "^^", "dune^2",
        "(dune", "dune)", "()", "((", "(dune OR war) AND NOT star",
        "o'brien", "'dune'", "''", "dune's", "'; DROP TABLE movies; --",
        "\xf0\x9f\x8e\xac\xf0\x9f\x8e\xac", "dune \xf0\x9f\x8e\xac", "\xd0\xb4\xd1\x8e\xd0\xbd\xd0\xb0",
        "\xe6\x9d\xb1\xe4\xba\xac\xe7\x89\xa9\xe8\xaa\x9e", "\xd8\xa7\xd9\x84\xd9\x83\xd8\xab\xd8\xa8\xd8\xa7\xd9\x86",
        "Am\xc3\xa9lie", "\\dune", "\\\\", "dune\ttab", "line\nbreak", "%_", "a+b", "[dune]", "{dune}", "dune;",
        "rank", "bm25(movies)", "MATCH", "SELECT * FROM movies", "   dune   ", "12", "0x1F",
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        char escaped[512], intent[700];
        json_escape(queries[i], escaped, sizeof escaped);
        snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", escaped);
        CHECK_STATUS(cinematic_store_send(store, intent), CINEMATIC_OK);
        CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK);
        char *state = state_of(store);
        char phase[32] = "";
        json_get(state, "results.phase", phase, sizeof phase);
        CHECK_MSG(strcmp(phase, "loaded") == 0 && json_array_len(state, "results.value") >= 0,
                  "query <%s>: %.300s", queries[i], state);
        CHECK_JSON_EQ(state, "query", escaped);
        cinematic_free(state);
    }
    /* Short ones stay idle. */
    const char *short_queries[] = {"\"", "*", "-", ":", "^", "(", ")", "'", "\xf0\x9f\x8e\xac", " \" "};
    for (size_t i = 0; i < sizeof short_queries / sizeof short_queries[0]; i++) {
        char escaped[64], intent[200];
        json_escape(short_queries[i], escaped, sizeof escaped);
        snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", escaped);
        CHECK_STATUS(cinematic_store_send(store, intent), CINEMATIC_OK);
        CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK);
        char *state = state_of(store);
        CHECK_MSG(state && strstr(state, "\"results\":{\"phase\":\"idle\"}"), "query <%s>: %s", short_queries[i], state);
        cinematic_free(state);
    }
    /* The catalog is intact. */
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.value[0].title", "Dune");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_wrong_types_and_missing_members);
    RUN_TEST(test_unknown_and_internal_intents);
    RUN_TEST(test_search_operators_in_queries);
    return TEST_SUMMARY();
}
