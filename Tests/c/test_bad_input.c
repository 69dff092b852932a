/*
 * Bad input of every kind gets a status and an envelope, never a crash, and the runtime and
 * its stores keep working afterwards.
 */
#include "harness.h"

#define HOST_CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\"}"
#define MIB (1 << 20)

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

/* Checks that the store still works: a valid intent is applied. */
static int probe_counter;
#define CHECK_STORE_WORKS(store)                                                              \
    do {                                                                                      \
        char h_query_[32];                                                                    \
        snprintf(h_query_, sizeof h_query_, "ok-%d", ++probe_counter);                        \
        CHECK_STATUS(send_query((store), h_query_), CINEMATIC_OK);                            \
        char *h_state_ = state_of(store);                                                     \
        CHECK_JSON_EQ(h_state_, "query", h_query_);                                           \
        cinematic_free(h_state_);                                                             \
    } while (0)

/* Sends a bad intent: expected status, the state unchanged, the store still working. */
#define CHECK_BAD_INTENT(store, intent, expected)                                             \
    do {                                                                                      \
        char *h_before_ = state_of(store);                                                    \
        CHECK_STATUS(cinematic_store_send((store), (intent)), (expected));                    \
        char *h_after_ = state_of(store);                                                     \
        CHECK_STR_EQ(h_after_, h_before_);                                                    \
        cinematic_free(h_before_);                                                            \
        cinematic_free(h_after_);                                                             \
    } while (0)

/* A valid intent whose text is exactly size bytes (the query pads it). */
static char *intent_of_size(size_t size) {
    const char *head = "{\"type\":\"queryChanged\",\"query\":\"";
    const char *tail = "\"}";
    char *text = malloc(size + 1);
    size_t h = strlen(head), t = strlen(tail);
    memcpy(text, head, h);
    memset(text + h, 'a', size - h - t);
    memcpy(text + size - t, tail, t);
    text[size] = '\0';
    return text;
}

/* depth nested arrays, empty inside. */
static char *nested_arrays(int depth) {
    char *text = malloc((size_t)depth * 2 + 1);
    memset(text, '[', (size_t)depth);
    memset(text + depth, ']', (size_t)depth);
    text[depth * 2] = '\0';
    return text;
}

static void test_malformed_json(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_BAD_INTENT(store, "{\"type\":\"queryChanged\",\"query\":}", CINEMATIC_ERR_JSON);
    CHECK_ENVELOPE_CONTAINS("\"line\":1");
    CHECK(json_int(h_envelope, "column", -1) > 0);
    CHECK_ENVELOPE_CONTAINS("malformed JSON");
    CHECK_STR_LACKS(h_envelope, "\"path\"");
    CHECK_STORE_WORKS(store);
    /* Line and column point at the problem. */
    CHECK_BAD_INTENT(store, "{\n  \"type\": \"submitted\",\n  oops\n}", CINEMATIC_ERR_JSON);
    CHECK_EQ_INT(json_int(h_envelope, "line", -1), 3);
    CHECK(json_int(h_envelope, "column", -1) >= 3);
    CHECK_STORE_WORKS(store);
    const char *bad[] = {
        "",                                                   /* empty */
        "   \n\t ",                                           /* whitespace only */
        "{",                                                  /* truncated */
        "{\"type\":\"submitted\"",                            /* truncated */
        "{\"type\":\"submitted\",}",                          /* trailing comma */
        "{'type':'submitted'}",                               /* single quotes */
        "{type:\"submitted\"}",                               /* bare key */
        "{\"type\":\"submitted\"} x",                         /* trailing garbage */
        "{\"type\":\"submitted\"}{}",                         /* two documents */
        "{\"type\":\"queryChanged\",\"query\":\"du\",\"x\":NaN}", /* not JSON numbers */
        "{\"type\":\"queryChanged\",\"query\":\"a\\u0000b\"}", /* NUL escape */
        "{\"type\":\"queryChanged\",\"query\":\"du\",\"query\":\"dune\"}", /* duplicate key */
        "{\"type\":\"queryChanged\",\"query\":\"\\ud800\"}",   /* lone surrogate escape */
        "{\"type\":\"queryChanged\",\"query\":\"\\x41\"}",     /* bad escape */
        "{\"type\":\"queryChanged\",\"query\":\"tab\there\"}", /* raw control character */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_BAD_INTENT(store, bad[i], CINEMATIC_ERR_JSON);
        CHECK_ENVELOPE_CONTAINS("\"line\":");
        CHECK_ENVELOPE_CONTAINS("\"column\":");
        CHECK_STORE_WORKS(store);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_invalid_utf8(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    const char *bad[] = {
        "{\"type\":\"queryChanged\",\"query\":\"\xff\"}",             /* never valid */
        "{\"type\":\"queryChanged\",\"query\":\"du\xc3\"}",           /* truncated sequence */
        "{\"type\":\"queryChanged\",\"query\":\"\xc0\xaf\"}",         /* overlong '/' */
        "{\"type\":\"queryChanged\",\"query\":\"\xed\xa0\x80\"}",     /* encoded surrogate */
        "{\"type\":\"queryChanged\",\"query\":\"\xf4\x90\x80\x80\"}", /* beyond U+10FFFF */
        "{\"type\":\"queryChanged\",\"query\":\"\x80\x80\"}",         /* lone continuations */
        "{\"\xfe\":1}",                                               /* in a key */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_BAD_INTENT(store, bad[i], CINEMATIC_ERR_JSON);
        CHECK_STORE_WORKS(store);
    }
    /* Valid UTF-8 and escapes are accepted and come back intact. */
    CHECK_STATUS(send_query(store, "\\ud83c\\udfac \xe6\x9d\xb1\xe4\xba\xac"), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "\xf0\x9f\x8e\xac \xe6\x9d\xb1\xe4\xba\xac");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
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

static void test_size_and_depth_limits(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    /* Exactly 1 MiB is parsed (its query is then over the 256-character limit: invalid, not
       too large), one byte more is too large. */
    char *text = intent_of_size(MIB);
    CHECK_EQ_INT(strlen(text), MIB);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.query\"");
    CHECK_ENVELOPE_CONTAINS("256 characters");
    free(text);
    CHECK_STORE_WORKS(store);
    /* The query limit counts characters, not bytes: 256 four-byte emoji pass, 257 do not. */
    {
        char intent[64 + 257 * 4];
        for (int count = 256; count <= 257; count++) {
            int length = sprintf(intent, "{\"type\":\"queryChanged\",\"query\":\"");
            for (int i = 0; i < count; i++) length += sprintf(intent + length, "\xF0\x9F\x8E\xAC");
            sprintf(intent + length, "\"}");
            CHECK_STATUS(cinematic_store_send(store, intent), count == 256 ? CINEMATIC_OK : CINEMATIC_ERR_INVALID);
        }
        char *state = state_of(store);
        CHECK(state && strstr(state, "\xF0\x9F\x8E\xAC") != NULL);
        cinematic_free(state);
    }
    CHECK_STORE_WORKS(store);
    text = intent_of_size(MIB + 1);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_TOO_LARGE);
    free(text);
    CHECK_STORE_WORKS(store);
    /* Far larger, and larger but malformed: size is checked first. */
    text = intent_of_size(8 * MIB);
    text[40] = '\xff';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_TOO_LARGE);
    CHECK_STATUS(cinematic_runtime_open(text, &(cinematic_runtime *){NULL}), CINEMATIC_ERR_TOO_LARGE);
    cinematic_store *other = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", text, &other), CINEMATIC_ERR_TOO_LARGE);
    CHECK(other == NULL);
    free(text);
    CHECK_STORE_WORKS(store);

    /* Deep nesting: 100000 '[' (unterminated) and 2049 levels are malformed; 2048 levels are
     * well-formed (and then not an intent). */
    text = malloc(100001);
    memset(text, '[', 100000);
    text[100000] = '\0';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(100000);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(2049);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(2048);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$\"");
    free(text);
    /* Deep inside an intent: an unknown member is reported, too deep is malformed. */
    text = malloc(4 * 100000 + 64);
    strcpy(text, "{\"type\":\"submitted\",\"x\":");
    size_t n = strlen(text);
    for (int i = 0; i < 100000; i++) text[n++] = '[';
    text[n] = '\0';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    CHECK_STORE_WORKS(store);
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

static void test_bad_configs(void) {
    static const struct { const char *config, *path; } invalid[] = {
        {"{\"clok\":\"manual\"}", "$.clok"},
        {"{\"clock\":\"fast\"}", "$.clock"},
        {"{\"clock\":1}", "$.clock"},
        {"{\"clock\":null}", "$.clock"},
        {"{\"delivery\":\"later\"}", "$.delivery"},
        {"{\"delivery\":true}", "$.delivery"},
        {"{\"catalog\":\"remote\"}", "$.catalog"},
        {"{\"catalog\":\"Host\"}", "$.catalog"},
        {"{\"catalog\":5}", "$.catalog"},
        {"{\"catalog\":{}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":\"\"}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":7}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":\"/tmp/x.sqlite\",\"mode\":\"ro\"}}", "$.catalog.mode"},
        {"{\"favorites\":\"\"}", "$.favorites"},
        {"{\"favorites\":3}", "$.favorites"},
        {"{\"search\":{\"debounceMs\":-1}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":60001}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":\"250\"}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":2.5}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":null}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounce\":100}}", "$.search.debounce"},
        {"{\"search\":[]}", "$.search"},
        {"{\"search\":250}", "$.search"},
        {"{\"clock\":\"manual\",\"catalog\":\"host\",\"extra\":{}}", "$.extra"},
        {"[]", "$"},
        {"[{\"catalog\":\"host\"}]", "$"},
    };
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        cinematic_runtime *rt = (cinematic_runtime *)&invalid; /* a sentinel: must become NULL */
        CHECK_STATUS(cinematic_runtime_open(invalid[i].config, &rt), CINEMATIC_ERR_INVALID);
        CHECK(rt == NULL);
        char path[64];
        CHECK_MSG(json_get(h_envelope, "path", path, sizeof path) && strcmp(path, invalid[i].path) == 0,
                  "%s: path %s, expected %s (%s)", invalid[i].config, path, invalid[i].path, h_envelope);
    }
    const char *malformed[] = {"", "{", "{\"clock\":\"manual\",\"clock\":\"system\"}", "{\"clock\":\"\xff\"}",
                               "{\"clock\":\"manual\"} {}"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        cinematic_runtime *rt = (cinematic_runtime *)&invalid;
        CHECK_STATUS(cinematic_runtime_open(malformed[i], &rt), CINEMATIC_ERR_JSON);
        CHECK(rt == NULL);
        CHECK_ENVELOPE_CONTAINS("\"line\":");
    }
    /* The boundaries that are valid. */
    const char *valid[] = {
        "{}",
        "{\"catalog\":\"host\",\"search\":{\"debounceMs\":0}}",
        "{\"catalog\":\"host\",\"search\":{\"debounceMs\":60000}}",
        "{\"catalog\":\"host\",\"search\":{}}",
        "{\"catalog\":\"host\",\"clock\":\"system\",\"delivery\":\"immediate\",\"favorites\":\":memory:\"}",
        "{\"catalog\":\"host\",\"clock\":\"manual\",\"delivery\":\"queued\"}",
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(cinematic_runtime_open(valid[i], &rt), CINEMATIC_OK);
        CHECK(rt != NULL);
        if (rt) CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    }
    /* A catalog that cannot be built is an I/O error. */
    cinematic_runtime *rt = (cinematic_runtime *)&invalid;
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":{\"path\":\"/proc/no-such-dir/catalog.sqlite\"}}", &rt),
                 CINEMATIC_ERR_IO);
    CHECK(rt == NULL);
    /* NULL out. */
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":\"host\"}", NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_open(NULL, NULL), CINEMATIC_ERR_MISUSE);
}

static void test_store_open_errors(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = (cinematic_store *)&store;
    CHECK_STATUS(cinematic_store_open(rt, "nosuchfeature", NULL, &store), CINEMATIC_ERR_UNKNOWN_FEATURE);
    CHECK(store == NULL);
    CHECK_ENVELOPE_CONTAINS("nosuchfeature");
    CHECK_ENVELOPE_CONTAINS("search"); /* names what exists */
    const char *unknown[] = {"", "Search", "SEARCH", "search ", "searc", "search\xff"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        store = (cinematic_store *)&store;
        CHECK_STATUS(cinematic_store_open(rt, unknown[i], NULL, &store), CINEMATIC_ERR_UNKNOWN_FEATURE);
        CHECK(store == NULL);
    }
    store = (cinematic_store *)&store;
    CHECK_STATUS(cinematic_store_open(rt, NULL, NULL, &store), CINEMATIC_ERR_MISUSE);
    CHECK(store == NULL);
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, NULL), CINEMATIC_ERR_MISUSE);
    /* Arguments: NULL or {} only. */
    static const struct { const char *args; int status; const char *path; } args[] = {
        {"{\"x\":1}", CINEMATIC_ERR_INVALID, "$.x"},
        {"{\"query\":\"dune\"}", CINEMATIC_ERR_INVALID, "$.query"},
        {"[]", CINEMATIC_ERR_INVALID, "$"},
        {"nope", CINEMATIC_ERR_JSON, NULL},
        {"", CINEMATIC_ERR_JSON, NULL},
        {"{\"a\":1,\"a\":2}", CINEMATIC_ERR_JSON, NULL},
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        store = (cinematic_store *)&store;
        CHECK_STATUS(cinematic_store_open(rt, "search", args[i].args, &store), args[i].status);
        CHECK(store == NULL);
        if (args[i].path) {
            char path[64];
            CHECK_MSG(json_get(h_envelope, "path", path, sizeof path) && strcmp(path, args[i].path) == 0,
                      "%s: path %s, expected %s", args[i].args, path, args[i].path);
        }
    }
    /* The runtime still opens stores. */
    store = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", "{}", &store), CINEMATIC_OK);
    CHECK(store != NULL);
    CHECK_STORE_WORKS(store);
    cinematic_store *second = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", " { } ", &second), CINEMATIC_OK);
    CHECK(second != NULL && second != store);
    CHECK_STORE_WORKS(second);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* NULL handles, foreign handles, NULL required pointers. */
static void test_null_and_foreign_handles(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    int value = 0;
    char *json = NULL;
    cinematic_store *out = NULL;

    /* NULL handles. */
    CHECK_STATUS(cinematic_runtime_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_fd(NULL, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_advance_clock(NULL, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_set_provider(NULL, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(NULL, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_open(NULL, "search", NULL, &out), CINEMATIC_ERR_MISUSE);
    CHECK(out == NULL);
    CHECK_STATUS(cinematic_store_close(NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(NULL, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(NULL, &json), CINEMATIC_ERR_MISUSE);
    CHECK(json == NULL);
    CHECK_STATUS(cinematic_store_observe(NULL, recorder_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_settle(NULL, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(NULL, &value), CINEMATIC_ERR_MISUSE);

    /* NULL required pointers. */
    CHECK_STATUS(cinematic_runtime_fd(rt, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(store, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(store, NULL), CINEMATIC_ERR_MISUSE);

    /* A store where a runtime is expected and the other way round. */
    cinematic_runtime *store_as_rt = (cinematic_runtime *)(void *)store;
    cinematic_store *rt_as_store = (cinematic_store *)(void *)rt;
    CHECK_STATUS(cinematic_runtime_close(store_as_rt), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_fd(store_as_rt, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_dispatch(store_as_rt, &value), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_advance_clock(store_as_rt, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_set_provider(store_as_rt, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(store_as_rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_open(store_as_rt, "search", NULL, &out), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_close(rt_as_store), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_send(rt_as_store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_state(rt_as_store, &json), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_observe(rt_as_store, recorder_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_settle(rt_as_store, 10), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_pending_effects(rt_as_store, &value), CINEMATIC_ERR_MISUSE);

    /* Pointers that were never handles: a C object's address, small integers, all ones. */
    int local = 0;
    void *garbage[] = {&local, (void *)(uintptr_t)1, (void *)(uintptr_t)2, (void *)(uintptr_t)3,
                       (void *)(uintptr_t)0xdeadbeef, (void *)UINTPTR_MAX, (void *)(UINTPTR_MAX - 1)};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        CHECK_STATUS(cinematic_store_send(garbage[i], "{\"type\":\"submitted\"}"), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_store_close(garbage[i]), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_runtime_advance_clock(garbage[i], 1), CINEMATIC_ERR_MISUSE);
        CHECK_STATUS(cinematic_runtime_close(garbage[i]), CINEMATIC_ERR_MISUSE);
    }

    /* Everything still works. */
    CHECK_STORE_WORKS(store);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Closed handles answer closed, from every function. */
static void test_closed_handles(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    cinematic_store *kept = open_search(rt);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    int value = 0;
    char *json = NULL;
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_ERR_CLOSED);
    CHECK_ENVELOPE_CONTAINS("closed");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_send(store, "not json"), CINEMATIC_ERR_CLOSED); /* handle first */
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK(json == NULL);
    CHECK_STATUS(cinematic_store_observe(store, recorder_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_settle(store, 10), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_pending_effects(store, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STORE_WORKS(kept); /* another store of the runtime is unaffected */

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    cinematic_store *out = NULL;
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_fd(rt, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &value), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 10), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &out), CINEMATIC_ERR_CLOSED);
    CHECK(out == NULL);
    CHECK_STATUS(cinematic_store_send(kept, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);

    /* Handles are never reused: new objects get new handles. */
    cinematic_runtime *rt2 = open_runtime(HOST_CONFIG);
    cinematic_store *store2 = open_search(rt2);
    CHECK(rt2 != rt && (void *)store2 != (void *)store && (void *)store2 != (void *)kept);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_ERR_CLOSED);
    CHECK_STORE_WORKS(store2);
    CHECK_STATUS(cinematic_runtime_close(rt2), CINEMATIC_OK);
}

/* Runtime functions used in a mode that does not allow them. */
static void test_wrong_mode_and_bad_arguments(void) {
    cinematic_runtime *rt = open_runtime("{\"catalog\":\"host\"}"); /* system clock */
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 10), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("manual");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, -1), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, INT64_MIN), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 0), CINEMATIC_OK);
    /* Bad answers to requests that were never made. */
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_respond(rt, UINT64_MAX, "{\"movies\":[]}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{"), CINEMATIC_ERR_JSON);
    char *huge = intent_of_size(MIB + 1);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, huge), CINEMATIC_ERR_TOO_LARGE);
    free(huge);
    CHECK_STORE_WORKS(store);
    /* A too-large answer to a real request fails that request with invalidResponse. */
    provider p;
    provider_init(&p, rt, PROVIDER_HOLD);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &p), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK(provider_wait(&p, "search", 1, 5000));
    provider_call call = {0};
    CHECK(provider_call_at(&p, "search", 0, &call));
    huge = intent_of_size(MIB + 1);
    CHECK_STATUS(cinematic_runtime_respond(rt, call.id, huge), CINEMATIC_ERR_TOO_LARGE);
    free(huge);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    CHECK_JSON_EQ(state, "results.error.code", "invalidResponse");
    cinematic_free(state);
    /* The request is over: a good answer now is a late one. */
    CHECK_STATUS(cinematic_runtime_respond(rt, call.id, "{\"movies\":[]}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    state = state_of(store);
    CHECK_JSON_EQ(state, "results.phase", "failed");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    provider_destroy(&p);

    /* The provider functions need a "host" catalog. */
    rt = open_runtime("{\"clock\":\"manual\"}");
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("host");
    CHECK_STATUS(cinematic_runtime_set_provider(rt, NULL, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, "{\"movies\":[]}"), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_respond(rt, 1, NULL), CINEMATIC_ERR_MISUSE);
    store = open_search(rt);
    CHECK_STORE_WORKS(store);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* "Results go through out-pointers, which are set to NULL / -1 / 0 on failure." */
static void test_out_pointers_reset_on_failure(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    int fd = 42, count = 42;
    char *json = (char *)&fd;
    CHECK_STATUS(cinematic_runtime_fd(NULL, &fd), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(fd, -1);
    count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(NULL, &count), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(count, 0);
    count = 42;
    CHECK_STATUS(cinematic_store_pending_effects(NULL, &count), CINEMATIC_ERR_MISUSE);
    CHECK_EQ_INT(count, 0);
    CHECK_STATUS(cinematic_store_state(NULL, &json), CINEMATIC_ERR_MISUSE);
    CHECK(json == NULL);

    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    count = 42;
    CHECK_STATUS(cinematic_store_pending_effects(store, &count), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(count, 0);
    json = (char *)&fd;
    CHECK_STATUS(cinematic_store_state(store, &json), CINEMATIC_ERR_CLOSED);
    CHECK(json == NULL);

    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    fd = 42;
    CHECK_STATUS(cinematic_runtime_fd(rt, &fd), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(fd, -1);
    count = 42;
    CHECK_STATUS(cinematic_runtime_dispatch(rt, &count), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(count, 0);
    cinematic_store *out = (cinematic_store *)&fd;
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &out), CINEMATIC_ERR_CLOSED);
    CHECK(out == NULL);
}

/* A top-level scalar is a well-formed JSON document (RFC 8259), so by the header's rule
 * ("A well-formed document that is not a valid intent, config or argument gives
 * CINEMATIC_ERR_INVALID naming the offending path") it is invalid at "$", not malformed. */
static void test_top_level_scalars_are_invalid_not_json(void) {
    const char *scalars[] = {"null", "42", "true", "\"queryChanged\"", " 1.5 "};
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        CHECK_BAD_INTENT(store, scalars[i], CINEMATIC_ERR_INVALID);
        if (i == 0) CHECK_ENVELOPE_CONTAINS("\"path\":\"$\"");
        cinematic_runtime *other = NULL;
        CHECK_STATUS(cinematic_runtime_open(scalars[i], &other), CINEMATIC_ERR_INVALID);
        cinematic_store *out = NULL;
        CHECK_STATUS(cinematic_store_open(rt, "search", scalars[i], &out), CINEMATIC_ERR_INVALID);
        CHECK_STORE_WORKS(store);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_malformed_json);
    RUN_TEST(test_invalid_utf8);
    RUN_TEST(test_wrong_types_and_missing_members);
    RUN_TEST(test_unknown_and_internal_intents);
    RUN_TEST(test_size_and_depth_limits);
    RUN_TEST(test_search_operators_in_queries);
    RUN_TEST(test_bad_configs);
    RUN_TEST(test_store_open_errors);
    RUN_TEST(test_null_and_foreign_handles);
    RUN_TEST(test_closed_handles);
    RUN_TEST(test_wrong_mode_and_bad_arguments);
    RUN_TEST(test_top_level_scalars_are_invalid_not_json);
    RUN_TEST(test_out_pointers_reset_on_failure);
    return TEST_SUMMARY();
}
