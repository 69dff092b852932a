/*
 * Tests/c/test_store.h, the C TestStore, used for search promises 1 to 3 (each step asserts
 * exactly which members changed) and watched failing: an unasserted change and a wrong value
 * are reported (counted here as expected failures, then the counts are restored).
 */
#include "test_store.h"

#define DUNE_ANSWER "{\"movies\":[{\"id\":15249,\"title\":\"Dune\",\"year\":1984}]}"

/* docs/testing.md shows this function (tests/test_docs_testing.py checks it is the same). */
static void test_search_dune(void) {
    ts_store ts;
    if (!ts_open(&ts, "search", NULL)) return;
    ts_answer(&ts, "\"query\":\"dune\"", DUNE_ANSWER);
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"du\"}", "query", "query=du");
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"dune\"}", "query", "query=dune");
    ts_advance(&ts, 249);
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"dune\"}", "");  /* the same query: nothing changes */
    ts_advance(&ts, 250);
    TS_RECEIVE(&ts, "searchNow", "results", "results.phase=loading", "results.query=dune");
    TS_RECEIVE(&ts, "resultsLoaded", "results,pagesLoaded,isExhausted",
               "results.value[0].title=Dune", "results.value[0].year=1984", "pagesLoaded=1");
    TS_FINISH(&ts);  /* one searchNow only: the replaced debounces fed nothing back */
}

/* Promise 2: a short query resets at once and cancels the pending search. */
static void test_short_query(void) {
    ts_store ts;
    if (!ts_open(&ts, "search", NULL)) return;
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"du\"}", "query");
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"d\"}", "query", "results.phase=idle");
    ts_advance(&ts, 1000);
    TS_FINISH(&ts);  /* the debounce never fired */
}

/* Promise 3: the late "du" answer is dropped: no intent comes of it. */
static void test_stale_answer(void) {
    ts_store ts;
    if (!ts_open(&ts, "search", NULL)) return;
    ts_answer(&ts, "\"query\":\"du\"", NULL); /* held */
    ts_answer(&ts, "\"query\":\"dune\"", DUNE_ANSWER);
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"du\"}", "query");
    ts_advance(&ts, 250);
    TS_RECEIVE(&ts, "searchNow", "results", "results.query=du");
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"dune\"}", "query");
    ts_advance(&ts, 250);
    TS_RECEIVE(&ts, "searchNow", "results", "results.query=dune");
    TS_RECEIVE(&ts, "resultsLoaded", "results,pagesLoaded,isExhausted", "results.value[0].title=Dune");
    CHECK(ts_respond(&ts, "\"query\":\"du\"", "{\"movies\":[{\"id\":1,\"title\":\"Duck Soup\",\"year\":1933}]}"));
    TS_FINISH(&ts);
}

/* The helper reports what differs: run a wrong expectation and count the failures it records. */
static void test_failures_are_reported(void) {
    ts_store ts;
    if (!ts_open(&ts, "search", NULL)) return;
    pthread_mutex_lock(&h_lock);
    int passed = h_passed, failed = h_failed;
    pthread_mutex_unlock(&h_lock);
    fprintf(stderr, "(two expected TestStore failures follow)\n");
    TS_SEND(&ts, "{\"type\":\"queryChanged\",\"query\":\"dune\"}", "", "query=dunes"); /* unasserted change, wrong value */
    pthread_mutex_lock(&h_lock);
    int recorded = h_failed - failed;
    h_passed = passed;
    h_failed = failed;
    pthread_mutex_unlock(&h_lock);
    CHECK_EQ_INT(recorded, 2);
    ts_advance(&ts, 250);
    TS_RECEIVE(&ts, "searchNow", "results");
    CHECK(ts_respond(&ts, "dune", "{\"movies\":[]}")); /* no canned answer: it was held */
    TS_RECEIVE(&ts, "resultsLoaded", "results,pagesLoaded,isExhausted");
    TS_FINISH(&ts);
}

int main(void) {
    RUN_TEST(test_search_dune);
    RUN_TEST(test_short_query);
    RUN_TEST(test_stale_answer);
    RUN_TEST(test_failures_are_reported);
    return TEST_SUMMARY();
}
