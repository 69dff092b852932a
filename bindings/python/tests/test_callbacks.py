"""Subscriptions, queued delivery, and what happens to exceptions raised in callbacks.

Documented behaviour: the exception is logged on the "cinematic" logger and kept on the
runtime; the next call on that runtime or any of its stores raises that same exception
object (send/settle/dispatch/advance_clock/respond also check when they return)."""

from __future__ import annotations

import gc
import logging
import select
import threading

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog, echo_movies, search_state


class Boom(Exception):
    pass


def host_runtime(runtimes, **options):
    runtime = runtimes(dict(HOST_CONFIG, **options))
    runtime.set_provider(ScriptedCatalog(auto=echo_movies))
    return runtime


def test_subscribe_gets_current_then_each_distinct_state_and_unsubscribes(runtimes):
    runtime = host_runtime(runtimes)
    with runtime.search() as search:
        seen = []
        unsubscribe = search.subscribe(seen.append)
        assert seen == [search_state("")]
        search.query_changed("alien")
        search.submitted()
        search.settle(5)
        assert [s["results"]["phase"] for s in seen] == ["idle", "idle", "loading", "loaded"]
        assert seen[-1] == search.state
        unsubscribe()
        unsubscribe()  # idempotent
        assert search.subscriber_count == 0
        search.query_changed("aliens")
        search.submitted()
        search.settle(5)
        assert seen[-1]["query"] == "alien"


def test_several_subscribers_share_a_store(runtimes):
    runtime = host_runtime(runtimes)
    with runtime.search() as search:
        first, second = [], []
        search.subscribe(first.append)
        search.query_changed("du")
        search.subscribe(second.append)  # joins with the current state
        assert second == [search_state("du")]
        assert len(first) == 2  # no duplicate of the current state for the first
        search.submitted()
        search.settle(5)
        assert first[-1] == second[-1] == search.state
        assert first[1:] == second


def test_queued_delivery_runs_callbacks_in_dispatch_on_this_thread(runtimes):
    runtime = host_runtime(runtimes, delivery="queued")
    with runtime.search() as search:
        seen, threads = [], []

        def on_state(state):
            seen.append(state)
            threads.append(threading.get_ident())

        search.subscribe(on_state)
        assert seen == []  # waits for dispatch
        fd = runtime.fileno()
        assert select.select([fd], [], [], 5)[0] == [fd]
        assert runtime.dispatch() == 1
        assert seen == [search_state("")]
        assert select.select([fd], [], [], 0)[0] == []  # nothing waits: not readable

        search.query_changed("alien")
        search.submitted()
        state = search.wait_for(lambda s: s["results"]["phase"] == "loaded", 5)
        assert state["results"]["value"][0]["title"] == "alien"
        assert set(threads) == {threading.get_ident()}
        assert runtime.dispatch() == 0


def test_callback_may_send_state_and_close(runtimes):
    runtime = host_runtime(runtimes)
    search = runtime.search()
    log = []

    def on_state(state):
        log.append(search.state["query"])
        if state["query"] == "a":
            search.query_changed("ab")       # reentrant send: delivered after we return
        elif state["query"] == "ab":
            search.close()                   # closing from inside a callback

    search.subscribe(on_state)
    search.query_changed("a")
    assert search.closed
    assert log[-1] == "ab"
    with pytest.raises(cinematic.ClosedError):
        search.send({"type": "submitted"})


def test_exception_in_state_callback_is_logged_and_raised_by_the_next_call(runtimes, caplog):
    runtime = host_runtime(runtimes)
    with runtime.search() as search:
        boom = Boom("from the callback")
        others = []

        def failing(state):
            if state["results"]["phase"] == "loaded":
                raise boom

        search.subscribe(failing)
        search.subscribe(others.append)
        search.query_changed("alien")
        with caplog.at_level(logging.ERROR, logger="cinematic"):
            with pytest.raises(Boom) as raised:
                # The callback runs during one of these (on the sender's thread or a library
                # thread); whichever call it ran during raises it when it returns.
                search.submitted()
                search.settle(5)
        assert raised.value is boom
        assert raised.value.__traceback__ is not None
        records = [r for r in caplog.records if r.name == "cinematic"]
        assert len(records) == 1 and records[0].exc_info[1] is boom
        assert "state callback" in records[0].getMessage()
        # The other subscriber still got the state, and the next calls work normally.
        assert others[-1]["results"]["phase"] == "loaded"
        assert search.state["results"]["phase"] == "loaded"
        search.settle(5)


def test_exception_while_subscribing_is_raised_by_the_next_call_on_any_store(runtimes):
    runtime = host_runtime(runtimes)
    search, other = runtime.search(), runtime.search()

    def failing(state):
        raise Boom("initial state")

    unsubscribe = search.subscribe(failing)  # immediate: the current state arrives at once
    with pytest.raises(Boom):
        other.pending_effects  # the next call on the runtime or any of its stores
    assert other.pending_effects == 0  # raised once
    unsubscribe()


def test_the_call_that_finds_a_pending_exception_does_not_do_its_work(runtimes):
    runtime = host_runtime(runtimes)
    with runtime.search() as search:
        def failing(state):
            raise Boom("initial")

        search.subscribe(failing)           # recorded; subscribe returns normally
        with pytest.raises(Boom):
            search.query_changed("x")       # raised on entry: the intent was not sent
        assert search.state["query"] == ""


def test_only_the_first_pending_exception_is_kept(runtimes, caplog):
    runtime = host_runtime(runtimes, delivery="queued")
    with runtime.search() as first, runtime.search() as second, \
            caplog.at_level(logging.ERROR, logger="cinematic"):
        first.subscribe(lambda state: (_ for _ in ()).throw(Boom("#1")))
        second.subscribe(lambda state: (_ for _ in ()).throw(Boom("#2")))
        with pytest.raises(Boom, match="#1"):
            runtime.dispatch()
        assert first.state["query"] == "" and runtime.dispatch() == 0  # #2 was only logged
        messages = [str(r.exc_info[1]) for r in caplog.records if r.exc_info]
        assert messages == ["#1", "#2"]
        assert "still pending" in caplog.records[1].getMessage()


def test_exception_in_queued_callback_is_raised_by_dispatch_after_all_ran(runtimes, caplog):
    runtime = host_runtime(runtimes, delivery="queued")
    with runtime.search() as first, runtime.search() as second:
        seen = []

        def failing(state):
            raise Boom("queued")

        first.subscribe(failing)
        second.subscribe(seen.append)
        with caplog.at_level(logging.ERROR, logger="cinematic"):
            with pytest.raises(Boom):
                runtime.dispatch()
        assert len(seen) == 1  # the second store's callback ran in the same dispatch
        assert any(r.exc_info and isinstance(r.exc_info[1], Boom) for r in caplog.records)
        assert runtime.dispatch() == 0


def test_exception_in_provider_is_logged_and_raised(runtimes, caplog):
    runtime = runtimes(HOST_CONFIG)

    logged = threading.Event()
    records = []

    class Handler(logging.Handler):
        def emit(self, record):
            records.append(record)
            logged.set()

    handler = Handler()
    logging.getLogger("cinematic").addHandler(handler)

    def provider(request_id, request):
        raise Boom(f"provider {request['op']}")

    runtime.set_provider(provider)
    search = runtime.search()
    with caplog.at_level(logging.ERROR, logger="cinematic"):
        search.query_changed("dune")
        with pytest.raises(Boom, match="provider search"):
            # The request goes out on a library thread: if the provider already failed when
            # advance_clock returns, advance_clock raises it; else the next call does.
            runtime.advance_clock(250)
            assert logged.wait(5)  # the binding keeps the exception, then logs it
            search.pending_effects
        logging.getLogger("cinematic").removeHandler(handler)
        assert search.pending_effects == 1  # the request still waits for an answer
        assert logged.wait(5) and "catalog provider" in records[0].getMessage()
        assert isinstance(records[0].exc_info[1], Boom)
        runtime.set_provider(None)  # so the cancel that closing causes reaches no provider
        search.close()
    runtime.close()
    assert runtime.closed


def test_callbacks_are_released_on_unsubscribe_and_close(runtimes):
    runtime = host_runtime(runtimes)
    store = runtime.search()

    class Callback:
        def __call__(self, state):
            pass

    callback = Callback()
    import weakref

    ref = weakref.ref(callback)
    unsubscribe = store.subscribe(callback)
    del callback
    gc.collect()
    assert ref() is not None  # held while C may call it
    unsubscribe()
    gc.collect()
    assert ref() is None

    callback = Callback()
    ref = weakref.ref(callback)
    store.subscribe(callback)
    del callback
    store.close()
    gc.collect()
    assert ref() is None


def test_runtime_closed_by_garbage_collection():
    runtime = cinematic.Runtime(HOST_CONFIG)
    store = runtime.search()
    finalizer = runtime._finalizer
    assert finalizer.alive
    del runtime, store
    gc.collect()
    assert not finalizer.alive


def test_an_answer_given_while_the_runtime_closes_is_dropped(runtimes):
    """A provider that answers from its request callback while the runtime closes (here: it
    closes the runtime itself first) gets "closed" from respond; closing abandons every
    request, so that answer is dropped, not raised from the next call (seen under load, when
    a request callback ran during close())."""
    runtime = host_runtime(runtimes)
    asked = threading.Event()

    def provider(request_id, request):
        if request.get("op") == "cancel":
            return None
        runtime.close()
        asked.set()
        return {"movies": []}

    runtime.set_provider(provider)
    search = runtime.search()
    search.query_changed("dune")
    runtime.advance_clock(250)
    assert asked.wait(5)
    runtime.close()   # raised ClosedError("cinematic_runtime_respond: closed") before
    assert runtime.closed
