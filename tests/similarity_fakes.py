"""Stand-ins for similarity_process.main, which the similarity process runs instead (related.ANSWERING)."""

import sys
import time


def failing(requests, answers, stored) -> None:
    """Fails at once, saying why."""
    print("MemoryError: out of memory", file=sys.stderr, flush=True)
    raise SystemExit(1)


def chatty(requests, answers, stored) -> None:
    """Writes something that is not an answer, then never ends by itself."""
    answers.write(b"not a pickle\n")
    answers.flush()
    time.sleep(600)


def where_forked(requests, answers, stored) -> None:
    """Answers, as its related papers, the process it was forked from and whether that had imported t-SNE."""
    import os
    import pickle
    pickle.load(requests)
    answers.write(pickle.dumps((os.getppid(), "sklearn.manifold" in sys.modules)))
    answers.flush()
