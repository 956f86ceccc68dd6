"""The build cache's values as JSON bytes and back (Codec).

JSON is written and read by orjson, several times faster than the standard library's json on the
cache's values (every paper's view is read back at each build). What orjson cannot write exactly is
written by json as before: a string holding a lone surrogate (a YAML escape can make one), an integer
past 64 bits (orjson would read it back as a float), a float that is not finite (orjson would write
null). Such an entry starts with a space, which orjson never writes, and is read by json.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import fields

import orjson

JSON_MARK = b" "  # before what json wrote (orjson never starts with a space)


class _NotPlainJson(Exception):
    """A value orjson would not write, or read back, as json does."""


class Codec:
    """Cache values to JSON and back: None, bools, numbers, strings, tuples (JSON arrays), lists
    and the catalogue's frozen records, each tagged with its class's name. Reading refuses any
    other tag, so a stored value can only ever become data."""

    def __init__(self, classes: Iterable[type]):
        self.classes = {cls.__name__: cls for cls in classes}
        self.fields = {name: {field.name for field in fields(cls)} for name, cls in self.classes.items()}

    def encode(self, value: object) -> bytes:
        try:
            # Copied out at its size: orjson grows its buffer by doubling and shrinks it in place, and
            # a put of many values would leave the memory between them in pieces too small to reuse.
            return bytes(memoryview(orjson.dumps(self._plain(value, strict=True))))
        except (orjson.JSONEncodeError, _NotPlainJson):
            text = json.dumps(self._plain(value), ensure_ascii=False, separators=(",", ":"))
            return JSON_MARK + text.encode("utf-8", "surrogatepass")  # a lone surrogate comes back as it was

    def decode(self, data: bytes) -> object:
        """The value; ValueError (or TypeError) for anything this codec did not write."""
        if data.startswith(JSON_MARK):
            return self._restore(json.loads(data))
        try:
            plain = orjson.loads(data)
        except orjson.JSONDecodeError:  # an entry of a cache written before this codec, by json
            plain = json.loads(data)
        return self._restore(plain)

    def _plain(self, value: object, strict: bool = False) -> object:
        kind = type(value)
        if kind is str or kind is bool or value is None:
            return value
        if kind is int:
            if strict and not -2 ** 63 <= value < 2 ** 64:
                raise _NotPlainJson
            return value
        if kind is float:
            if strict and not math.isfinite(value):
                raise _NotPlainJson
            return value
        if kind is tuple:
            return [item if type(item) is str else self._plain(item, strict) for item in value]
        if kind is list:
            return {"@": "list", "items": [item if type(item) is str else self._plain(item, strict) for item in value]}
        if self.classes.get(kind.__name__) is kind:
            return {"@": kind.__name__, **{name: item if type(item) is str else self._plain(item, strict)
                                           for name, item in vars(value).items()}}
        raise TypeError(f"the build cache cannot keep a {kind.__name__}")

    def _restore(self, data: object) -> object:
        kind = type(data)
        if kind is list:
            return tuple([self._restore(item) if type(item) in _NESTED else item for item in data])
        if kind is not dict:
            return data
        tag = data.pop("@", None)
        if tag == "list" and data.keys() == {"items"} and type(data["items"]) is list:
            return [self._restore(item) if type(item) in _NESTED else item for item in data["items"]]
        if tag not in self.classes or data.keys() != self.fields[tag]:
            raise ValueError(f"not a known type, or not its fields: {tag!r}")
        for name, item in data.items():
            if type(item) in _NESTED:
                data[name] = self._restore(item)
        record = object.__new__(self.classes[tag])  # as pickle makes it: every field is there, checked above
        object.__setattr__(record, "__dict__", data)
        return record


_NESTED = {list, dict}  # what JSON gives that _restore must turn back into a value (the rest is as it was)
