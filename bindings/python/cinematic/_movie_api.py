"""The movie API's addresses: the catalog source a server is, the runtime config that
declares it, and the URL that answers each provider request."""

from __future__ import annotations

from typing import Any, Dict, Mapping
from urllib.parse import quote, urlencode

__all__ = ["source_of", "catalog_config", "api_url"]


def source_of(base_url: str) -> str:
    """The catalog source a movie API at ``base_url`` declares to the runtime: the URL without
    a trailing slash (``http://127.0.0.1:8631/`` and ``http://127.0.0.1:8631`` are one source).
    The library's offline cache keeps each source's answers apart (docs/wire.md, "Offline
    cache")."""
    return base_url.rstrip("/")


def catalog_config(base_url: str) -> Dict[str, str]:
    """The runtime config's ``catalog`` for a movie API at ``base_url``: a host catalog that
    declares its source, so the offline cache never shows this server's answers for another.

    Example::

        runtime = cinematic.Runtime({"catalog": catalog_config(url)})
        runtime.set_provider(HttpCatalogProvider(runtime, url))
    """
    return {"host": source_of(base_url)}


def api_url(base: str, request: Mapping[str, Any]) -> str:
    """The URL under ``base`` (no trailing slash) that answers a provider request; ValueError
    for an unknown op."""
    op, page = request.get("op"), int(request.get("page") or 1)
    if op == "search":
        return f"{base}/search/movie?{urlencode({'query': request.get('query', ''), 'page': page})}"
    if op == "discover":
        section = str(request.get("section", ""))
        if section == "popular":
            return f"{base}/movie/popular?page={page}"
        if section == "topRated":
            return f"{base}/movie/top_rated?page={page}"
        return f"{base}/discover/movie?{urlencode({'with_genres': section, 'page': page})}"
    if op == "movie":
        return f"{base}/movie/{quote(str(request.get('id')))}"
    raise ValueError(f"unknown op {op!r}")
