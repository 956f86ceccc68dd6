"""The similarity process: what the process that related.py forks beside a build runs (`main`),
reading the build's texts and the last map from one pipe and answering related papers, then the
map, on another, while it reads and stores the related papers' state in the cache itself.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import threading
from pathlib import Path
from typing import BinaryIO

from catalogue.discovery.kept_related import RelatedState, found_related
from catalogue.discovery.map import MapState, full_map, may_keep_map, updated_map
from catalogue.discovery.related import MAP_CLUSTERS, MAP_TOOLS
from catalogue.system.cache import Cache


def main(requests: BinaryIO, answers: BinaryIO, named: tuple[str, str, str] | None) -> None:
    """Answer one build (related.py forks a process to run this; `python -m
    catalogue.discovery.similarity_process [CACHE_FILE KIND KEY]` runs it on stdin and stdout): on
    `requests`, pickled, the texts, the last build's map (a MapState as a tuple, or None) and where
    the related papers' state is kept (the cache's file, the entry's kind and key; or None); on
    `answers`, pickled as plain tuples (reading them needs no scikit-learn), first each paper's
    related papers (their indices), then each paper's place on the map, then the map's
    groups (map_groups), then the new MapState as a tuple. It stores the new RelatedState where the
    last one was kept once the related papers are sent, before the map is drawn, which so does not
    hold it. `named`, that place is read at once, while the build ingests."""
    # (Only a cache that exists: the build makes a new one, with its key.)
    cache, last_related = _stored_related(named if named and Path(named[0]).is_file() else None)
    small = last_related is None or len(RelatedState(*last_related).computed) <= MAP_CLUSTERS
    loading = threading.Thread(target=lambda: [importlib.import_module(name) for name in MAP_TOOLS], daemon=True)
    if small:  # no state, or a small catalogue's: its map will be laid out anew, so load what that needs now
        loading.start()
    texts, last_map, stored = pickle.load(requests)
    last_map = MapState(*last_map) if last_map else None
    if not small and not may_keep_map(texts, last_map):  # loaded while related papers are found
        loading.start()
    where = tuple(stored) if stored else None
    if where != named or cache is None:  # not read at the start, or asked with another cache than the one named
        if cache:
            cache.close()
        cache, last_related = _stored_related(where)
    neighbours, related = found_related(texts, RelatedState(*last_related) if last_related else None)
    del last_related
    pickle.dump([tuple(n.index for n in found) for found in neighbours], answers)
    answers.flush()  # the build writes paper pages while the map is drawn
    if cache:  # stored before the map is drawn, and let go: the map needs none of it
        cache.put(where[1], where[2], tuple(related))
        cache.keep_only(where[1], [where[2]])
        cache.close()
    del related
    state = updated_map(texts, last_map, neighbours)
    del neighbours, last_map  # a map laid out anew reads only the texts
    if state is None:
        if loading.is_alive():
            loading.join()  # not two threads importing one package: either could see it half made
        state = full_map(texts)
    pickle.dump(state.positions, answers)
    pickle.dump(state.groups, answers)
    pickle.dump(tuple(state), answers)
    answers.flush()


def _stored_related(where: tuple[str, str, str] | None) -> tuple[Cache | None, tuple | None]:
    """The cache of (file, kind, key) and the RelatedState kept there as a tuple (or None); (None, None) for no place."""
    if where is None:
        return None, None
    cache = Cache(Path(where[0]))
    return cache, cache.get(where[1], where[2])


if __name__ == "__main__":
    main(sys.stdin.buffer, sys.stdout.buffer, tuple(sys.argv[1:4]) if len(sys.argv) == 4 else None)
