"""What the system refused (a read-only folder, a full disk, a missing folder), said in one line:
what failed, where, what to do. The command line turns every OSError into such a line."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

WHAT_TO_DO = {
    errno.ENOSPC: "free some space and run again",
    errno.EDQUOT: "free some space and run again",
    errno.EACCES: "make it writable (or readable) for you, or choose another folder",
    errno.EPERM: "make it writable (or readable) for you, or choose another folder",
    errno.EROFS: "choose a folder on a writable disk",
    errno.ENOENT: "check the path, or create the folder",
    # A file where a path needs a folder (`--out README.md/site`), the usual cause of both.
    errno.EEXIST: "is a file there where a folder is needed? Check the path",
    errno.ENOTDIR: "a file stands where a folder is needed; check the path",
}


def fault_message(error: OSError, shown: Callable[[Path], str]) -> str:
    """`path: what failed; what to do`, the path as the user would write it (`shown`)."""
    where = " -> ".join(shown(Path(os.fsdecode(name))) for name in (error.filename, error.filename2)
                        if isinstance(name, (str, bytes)))
    what = error.strerror or str(error) or type(error).__name__
    todo = WHAT_TO_DO.get(error.errno, "run again once that is fixed")
    return f"{where}: {what}; {todo}" if where else f"{what}; {todo}"
