"""Every class of bad input gets its exception, with the library's envelope, and the store
keeps working afterwards."""

from __future__ import annotations

import json

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog, echo_movies


@pytest.fixture
def search(runtimes):
    runtime = runtimes(HOST_CONFIG)
    runtime.set_provider(ScriptedCatalog(auto=echo_movies))
    store = runtime.search()
    yield store
    store.close()


def still_works(store: cinematic.SearchStore) -> None:
    """The store still searches after the error."""
    store.query_changed("alien")
    store.submitted()
    store.settle(5)
    assert store.state["results"]["phase"] == "loaded"
    assert store.state["results"]["value"][0]["title"] == "alien"


def expect(error_class, call, *args):
    with pytest.raises(error_class) as raised:
        call(*args)
    error = raised.value
    assert isinstance(error, cinematic.CinematicError)
    assert error.status == error_class.STATUS
    assert error.status_name == cinematic.status_name(error.status)
    assert error.details["status"] == error.status_name
    assert error.message == error.details["message"] and error.message
    return error


def test_malformed_json_reports_line_and_column(search):
    error = expect(cinematic.JSONError, search.send, '{"type":\n  "queryChanged", "query": }')
    assert error.details["line"] == 2
    assert isinstance(error.details["column"], int) and error.details["column"] > 0
    assert (error.line, error.column) == (2, error.details["column"])
    assert error.function == "cinematic_store_send"
    for text in ["", "nope", "{", '{"type":"submitted",}', "[1,]", "{'type':'submitted'}"]:
        expect(cinematic.JSONError, search.send, text)
    still_works(search)


@pytest.mark.parametrize("intent, path", [
    ({"type": "queryChanged", "query": 5}, "$.query"),            # wrong type
    ({"type": "queryChanged", "query": None}, "$.query"),
    ({"type": "queryChanged"}, "$.query"),                       # missing member
    ({"type": 7}, "$.type"),
    ({}, "$.type"),
    ({"type": "queryChangd", "query": "x"}, "$.type"),           # unknown intent
    ({"type": "resultsLoaded", "movies": []}, "$.type"),         # internal intents
    ({"type": "searchNow"}, "$.type"),
    ({"type": "searchFailed"}, "$.type"),
    ({"type": "submitted", "force": True}, "$.force"),           # unknown member
    ({"type": "queryChanged", "query": "x", "Query": "y"}, "$.Query"),
])
def test_invalid_intents_name_the_path(search, intent, path):
    error = expect(cinematic.InvalidError, search.send, intent)
    assert error.path == path, error.details
    still_works(search)


def test_intent_that_is_not_an_object(search):
    error = expect(cinematic.InvalidError, search.send, "[]")
    assert error.path == "$"
    # Top-level scalars are well-formed JSON (RFC 8259) that is not an intent.
    for text in ["42", '"submitted"', "null"]:
        error = expect(cinematic.InvalidError, search.send, text)
        assert error.path == "$"
    still_works(search)


def test_too_large(search):
    error = expect(cinematic.TooLargeError, search.send,
                   {"type": "queryChanged", "query": "x" * (1024 * 1024)})
    assert "1 MiB" in error.message or "1048576" in error.message or error.message
    still_works(search)


def test_just_below_the_size_limit_is_parsed_then_the_query_limit_applies(search):
    prefix = '{"type":"queryChanged","query":"'
    text = prefix + "y" * (1024 * 1024 - len(prefix) - 2) + '"}'
    assert len(text.encode()) == 1024 * 1024
    error = expect(cinematic.InvalidError, search.send, text)
    assert "256 characters" in str(error)
    still_works(search)


def test_the_query_limit_counts_characters_not_bytes(search):
    search.send({"type": "queryChanged", "query": "\U0001F3AC" * 256})
    assert search.state["query"] == "\U0001F3AC" * 256
    expect(cinematic.InvalidError, search.send, {"type": "queryChanged", "query": "y" * 257})
    assert search.state["query"] == "\U0001F3AC" * 256


def test_deep_nesting(search):
    deep = '{"type":"queryChanged","query":"x","deep":' + "[" * 5000 + "]" * 5000 + "}"
    expect(cinematic.JSONError, search.send, deep)
    still_works(search)


def test_invalid_utf8(search):
    for raw in [b'{"type":"queryChanged","query":"\xff"}',
                b'{"type":"queryChanged","query":"\xc3"}',           # truncated sequence
                b'{"type":"queryChanged","query":"\xed\xa0\x80"}',   # a UTF-16 surrogate
                b'{"type":"queryChanged","query":"\xc0\xaf"}']:      # overlong
        expect(cinematic.JSONError, search.send_raw, raw)
    # A lone surrogate in a Python str cannot be UTF-8 either: the library says so.
    expect(cinematic.JSONError, search.send, {"type": "queryChanged", "query": "a\udc80"})
    still_works(search)


def test_duplicate_keys_and_nul_escapes(search):
    expect(cinematic.JSONError, search.send, '{"type":"queryChanged","query":"a","query":"b"}')
    expect(cinematic.JSONError, search.send, '{"type":"queryChanged","query":"a\\u0000b"}')
    still_works(search)


def test_non_ascii_queries_round_trip(search):
    search.query_changed("Amélie ✓")
    assert search.state["query"] == "Amélie ✓"


def test_closed_store(runtimes):
    runtime = runtimes(HOST_CONFIG)
    store = runtime.search()
    store.close()
    store.close()  # idempotent at the Python level
    assert store.closed
    error = expect(cinematic.ClosedError, store.send, {"type": "submitted"})
    assert error.function == "cinematic_store_send"
    expect(cinematic.ClosedError, lambda: store.state)
    expect(cinematic.ClosedError, lambda: store.pending_effects)
    expect(cinematic.ClosedError, store.settle, 1)
    expect(cinematic.ClosedError, store.subscribe, lambda state: None)
    # The runtime is fine.
    with runtime.search() as other:
        other.query_changed("ok")
        assert other.state["query"] == "ok"


def test_closed_runtime_closes_its_stores(runtimes):
    runtime = runtimes(HOST_CONFIG)
    store = runtime.search()
    runtime.close()
    assert store.closed and runtime.closed
    expect(cinematic.ClosedError, store.send, {"type": "submitted"})
    expect(cinematic.ClosedError, runtime.open_store, "search")
    expect(cinematic.ClosedError, runtime.advance_clock, 1)
    runtime.close()  # idempotent


def test_unknown_feature(runtimes):
    runtime = runtimes(HOST_CONFIG)
    error = expect(cinematic.UnknownFeatureError, runtime.open_store, "serach")
    assert "serach" in error.message
    expect(cinematic.UnknownFeatureError, runtime.open_store, "")
    with runtime.search() as search:
        search.query_changed("fine")


@pytest.mark.parametrize("args, error_class", [
    ({"debounceMs": 1}, cinematic.InvalidError),
    ("[]", cinematic.InvalidError),
    ("{", cinematic.JSONError),
])
def test_bad_store_args(runtimes, args, error_class):
    runtime = runtimes(HOST_CONFIG)
    expect(error_class, runtime.open_store, "search", args)
    assert runtime.open_store("search", {}).state["query"] == ""


@pytest.mark.parametrize("config, path", [
    ({"clock": "sundial"}, "$.clock"),
    ({"delivery": "eventually"}, "$.delivery"),
    ({"catalog": "cloud"}, "$.catalog"),
    ({"catalog": {"path": ""}}, "$.catalog.path"),
    ({"catalog": {"path": "/tmp/x.sqlite", "extra": 1}}, "$.catalog.extra"),
    ({"favorites": 3}, "$.favorites"),
    ({"favourites": ":memory:"}, "$.favourites"),
    ({"search": {"debounceMs": -1}}, "$.search.debounceMs"),
    ({"search": {"debounceMs": 60001}}, "$.search.debounceMs"),
    ({"search": {"debounce": 5}}, "$.search.debounce"),
])
def test_bad_config(config, path):
    with pytest.raises(cinematic.InvalidError) as raised:
        cinematic.Runtime(config)
    assert raised.value.path == path, raised.value.details
    assert raised.value.function == "cinematic_runtime_open"


def test_bad_config_json_and_type():
    with pytest.raises(cinematic.JSONError):
        cinematic.Runtime("{")
    with pytest.raises(cinematic.InvalidError):
        cinematic.Runtime("[]")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cinematic.Runtime(42)  # type: ignore[arg-type]


def test_unbuildable_catalog_is_io():
    with pytest.raises(cinematic.CinematicIOError) as raised:
        cinematic.Runtime({"catalog": {"path": "/proc/nonexistent/dir/catalog.sqlite"}})
    assert raised.value.status_name == "io"
    assert raised.value.function == "cinematic_runtime_open"


def test_misuse(runtimes):
    system_clock = runtimes({"catalog": "host"})
    expect(cinematic.MisuseError, system_clock.advance_clock, 10)
    expect(cinematic.MisuseError, system_clock.fileno)  # immediate delivery has no fd
    assert system_clock.dispatch() == 0                 # ... and nothing to dispatch
    embedded = runtimes()
    expect(cinematic.MisuseError, embedded.set_provider, lambda rid, req: None)
    expect(cinematic.MisuseError, embedded.respond, 1, {"movies": []})
    manual = runtimes(HOST_CONFIG)
    expect(cinematic.InvalidError, manual.advance_clock, -1)


def test_settle_inside_a_callback_is_misuse(runtimes):
    runtime = runtimes(HOST_CONFIG)
    store = runtime.search()
    seen = []

    def callback(state):
        try:
            store.settle(1)
        except cinematic.MisuseError as error:
            seen.append(error)

    store.subscribe(callback)
    assert len(seen) == 1 and seen[0].status_name == "misuse"


def test_bad_provider_answers(runtimes):
    runtime = runtimes(HOST_CONFIG)
    catalog = ScriptedCatalog()
    runtime.set_provider(catalog)
    with runtime.search() as search:
        for i, answer in enumerate(['{"movies":', '{"movies": 3}', '{"movies": [{"id": "x", "title": "t"}]}']):
            search.query_changed(f"query {i}")
            search.submitted()
            request_id = catalog.wait_for("search", i + 1)[i][0]
            with pytest.raises((cinematic.JSONError, cinematic.InvalidError)):
                runtime.respond(request_id, answer)
            search.settle(5)
            assert search.state["results"]["error"]["code"] == "invalidResponse"
        # Unknown keys in answers are ignored (forward compatibility).
        search.query_changed("fine")
        search.submitted()
        request_id = catalog.wait_for("search", 4)[3][0]
        runtime.respond(request_id, {"movies": [{"id": 9, "title": "Fine", "colour": True}], "next": 2})
        search.settle(5)
        assert search.state["results"]["value"][0]["title"] == "Fine"


def test_unserializable_intent_is_a_python_type_error(search):
    with pytest.raises(TypeError):
        search.send({"type": "queryChanged", "query": object()})
    with pytest.raises(TypeError):
        search.send(42)  # type: ignore[arg-type]
    still_works(search)


def test_error_envelope_is_plain_json(search):
    with pytest.raises(cinematic.InvalidError) as raised:
        search.send({"type": "nope"})
    assert json.loads(json.dumps(raised.value.details)) == raised.value.details
    assert "nope" in str(raised.value)


def test_status_names():
    names = [cinematic.status_name(i) for i in range(9)]
    assert names == ["ok", "json", "invalid", "unknown_feature", "io", "closed", "misuse",
                     "timeout", "too_large"]
    assert cinematic.status_name(99) == "unknown"
    assert issubclass(cinematic.SettleTimeoutError, TimeoutError)
