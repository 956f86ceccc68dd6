"""The build cache: what keep_only forgets and what it keeps."""

from __future__ import annotations

from catalogue.system.cache import Cache


def stored(cache: Cache, kind: str) -> set[str]:
    return {key for (key,) in cache.connection.execute("SELECT key FROM entries WHERE kind = ?", [kind])}


def test_keep_only_forgets_the_unused_entries_of_its_kind_only():
    cache = Cache(None)
    cache.put_many("text", {"a": 1, "b": 2, "c": 3})
    cache.put_many("other", {"c": 4})
    cache.keep_only("text", ["a", "b"])
    assert stored(cache, "text") == {"a", "b"} and stored(cache, "other") == {"c"}
    assert cache.get_many("text", ["a", "b", "c"]) == {"a": 1, "b": 2}


def test_keep_only_everything_stored_keeps_everything():
    cache = Cache(None)
    cache.put_many("text", {"a": 1, "b": 2})
    cache.keep_only("text", iter(["b", "a", "a"]))  # any iterable, repeats and all
    assert stored(cache, "text") == {"a", "b"}
    cache.put("text", "c", 3)
    cache.keep_only("text", ["c"])
    assert stored(cache, "text") == {"c"}
