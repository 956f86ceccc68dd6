"""The folder a site is published in, as one object: whether a site may be written there or removed
(guard), the lock that makes one build its only writer, the staging folder that replaces it whole,
and what its last build recorded (manifest)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path

from catalogue.publish.files import link_file, link_tree
from catalogue.publish.guard import Holds, check_site_folder, read_folder
from catalogue.publish.manifest import built_from, content_seen_from, read_fingerprint, record_folder, records
from catalogue.publish.record import is_ours, remove_records
from catalogue.publish.staging import Staging, our_spare, site_lock, staged_site, staging_folders
from catalogue.system.removal import remove_tree


class SiteFolder:
    """site/ (or --out): `shown` names it as the user gave it, in every message."""

    def __init__(self, path: Path, shown: str | None = None):
        self.path, self.shown = path, shown or path.as_posix()

    def check(self, inputs: Mapping[str, Path], project: Path, **wording: str) -> Holds:
        """Refuse, in one line, unless a site may be written here (guard.check_site_folder); what it holds."""
        return check_site_folder(self.path, self.shown, inputs, project, **wording)

    def holds(self) -> Holds:
        return read_folder(self.path).holds

    def lock(self) -> AbstractContextManager[None]:
        """Own the folder and its staging folders for the block: a second build or a clean refuses."""
        return site_lock(self.path, self.shown)

    def staged(self) -> AbstractContextManager[Staging]:
        """A staging folder that becomes this folder only if the block succeeds (under the lock)."""
        return staged_site(self.path)

    def fingerprint(self) -> str | None:
        """The fingerprint of everything its last build read."""
        return read_fingerprint(self.path)

    def built_from(self) -> Path | None:
        """The content folder its site was built from (None: unknown)."""
        return built_from(self.path)

    def content_seen(self, content: Path) -> str:
        """`content` as the manifest records it: seen from this folder."""
        return content_seen_from(content, self.path)

    def private(self, name: str) -> Path:
        """Where the build's private file `name` is (manifest.PRIVATE): beside the site, in its record folder."""
        return (records(self.path) or self.path) / name

    def leftovers(self) -> Iterator[Path]:
        """What builds left beside it: staging folders of builds that died, the spare, the record folder."""
        resolved = self.path.resolve()
        if resolved.parent.is_dir():
            yield from staging_folders(resolved)
            if spare := our_spare(resolved):
                yield spare
            if is_ours(record_folder(resolved)):
                yield record_folder(resolved)

    def link(self, relative: str, target: Path) -> None:
        """This site's file or folder at `relative`, hard-linked at `target` (copied where the file
        system cannot link): a later stage or build reuses it without copying."""
        source = self.path / relative
        if source.is_dir():
            link_tree(source, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            link_file(source, target)

    def remove_beside(self) -> None:
        """Remove what builds keep beside the site: the spare, the record folder."""
        if spare := our_spare(self.path.resolve()):
            remove_tree(spare)
        remove_records(self.path)
