"""Memory the build no longer needs, given back to the system before the search index is made:
Pagefind, a process of its own, needs as much again, and the machine holds both at once."""

from __future__ import annotations

import ctypes
import gc


def give_back() -> None:
    """Free what nothing refers to (cycles too: the collector is off while the site is planned),
    then ask glibc to return its free heap pages, which freed blocks otherwise leave with the process
    (elsewhere there is no malloc_trim, and the C library keeps them as it does)."""
    gc.collect()
    try:
        trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except OSError:  # no C library to load by that name
        return
    if trim is not None:
        trim(0)
