"""asyncio: ``async for state in store.states()`` over queued delivery (loop.add_reader on
the runtime's fd; no threads, no polling sleeps)."""

from __future__ import annotations

import asyncio
import threading

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog, echo_movies, search_state


def run(coroutine, timeout=10):
    async def bounded():
        return await asyncio.wait_for(coroutine, timeout)

    return asyncio.run(bounded())


def test_async_for_over_queued_states_with_the_embedded_catalog():
    threads_before = threading.active_count()

    async def main():
        loop = asyncio.get_running_loop()
        with cinematic.Runtime(delivery="queued", clock="manual") as runtime, runtime.search() as search:
            fd = runtime.fileno()
            callback_threads = []
            search.subscribe(lambda state: callback_threads.append(threading.get_ident()))
            seen = []
            async for state in search.states():
                seen.append(state)
                if len(seen) == 1:
                    assert state == search_state("")
                    assert loop._selector.get_key(fd) is not None  # watched by add_reader
                    search.query_changed("dune")
                    runtime.advance_clock(250)
                elif state["results"]["phase"] == "loaded":
                    break
            assert [s["results"]["phase"] for s in seen] == ["idle", "idle", "loading", "loaded"]
            assert seen[-1]["results"]["value"][0]["title"] == "Dune"
            assert set(callback_threads) == {threading.get_ident()}
            return fd

    fd = run(main())
    assert threading.active_count() == threads_before  # the binding started no threads
    assert fd >= 0


def test_stream_ends_when_the_store_closes_and_reader_is_shared():
    async def main():
        loop = asyncio.get_running_loop()
        runtime = cinematic.Runtime(dict(HOST_CONFIG, delivery="queued"))
        runtime.set_provider(ScriptedCatalog(auto=echo_movies))
        first, second = runtime.search(), runtime.search()
        fd = runtime.fileno()

        async def collect(store, query):
            seen = []
            async with store.states() as stream:
                async for state in stream:
                    seen.append(state)
                    if len(seen) == 1:
                        store.query_changed(query)
                        store.submitted()
                    elif state["results"]["phase"] == "loaded":
                        store.close()  # the stream ends after this
            return seen

        a, b = await asyncio.gather(collect(first, "alien"), collect(second, "brazil"))
        assert a[-1]["results"]["value"][0]["title"] == "alien"
        assert b[-1]["results"]["value"][0]["title"] == "brazil"
        # Both streams are finished: the reader was removed with the last one.
        with pytest.raises(KeyError):
            loop._selector.get_key(fd)
        runtime.close()

    run(main())


def test_stream_ends_when_the_runtime_closes():
    async def main():
        runtime = cinematic.Runtime(dict(HOST_CONFIG, delivery="queued"))
        search = runtime.search()
        states = []
        async for state in search.states():
            states.append(state)
            runtime.close()
        assert states == [search_state("")]

    run(main())


def test_callback_exception_reaches_the_async_consumer():
    class Boom(Exception):
        pass

    async def main():
        with cinematic.Runtime(dict(HOST_CONFIG, delivery="queued")) as runtime, runtime.search() as search:
            def failing(state):
                if state["query"] == "boom":
                    raise Boom("in a subscriber")

            search.subscribe(failing)
            with pytest.raises(Boom):
                async for state in search.states():
                    if state["query"] == "":
                        search.query_changed("boom")
            # The stream is still usable afterwards? A new one is.
            async for state in search.states():
                assert state["query"] == "boom"
                break

    run(main())


def test_async_for_with_immediate_delivery():
    async def main():
        with cinematic.Runtime(HOST_CONFIG) as runtime:
            runtime.set_provider(ScriptedCatalog(auto=echo_movies))
            with runtime.search() as search:
                phases = []
                stream = search.states()
                async for state in stream:
                    phases.append(state["results"]["phase"])
                    if len(phases) == 1:
                        search.query_changed("heat")
                        search.submitted()
                    elif phases[-1] == "loaded":
                        break
                await stream.aclose()
                assert phases == ["idle", "idle", "loading", "loaded"]
                assert search.subscriber_count == 0

    run(main())
