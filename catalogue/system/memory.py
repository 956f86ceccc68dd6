"""Memory the build no longer needs, given back to the system as the search index is made: Pagefind,
a process of its own, needs as much again, and the machine holds both at once."""

from __future__ import annotations

import ctypes
import gc
import sys


def give_back() -> None:
    """Free what nothing refers to (cycles too: the collector is off while the site is planned),
    then, on Linux with glibc, ask it to return its free heap pages: freed blocks otherwise stay
    with the process. Other C libraries have no such call."""
    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    if trim is not None:
        trim.argtypes = [ctypes.c_size_t]
        trim(0)
