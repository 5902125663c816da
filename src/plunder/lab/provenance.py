"""Where a lab result comes from: the exact code (the Plunder version, the git commit in a
checkout and a hash of the installed sources), the time and the command, so a stored row or a
report can be traced and shared, and a row made by other code is not taken for this code's.

The commit is read from the checkout's ``.git`` files (no git process, no network); outside a
checkout (an installed package) it is left empty, and the sources' hash names the code alone. The
hash is taken in a checkout too: a commit does not name edits not yet committed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import shlex
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

#: the longest command line kept with a result (the rest is cut, so a row stays small)
MAX_COMMAND_CHARS = 2000


def version() -> str:
    """The installed Plunder's version (``unknown`` when run from sources that were never installed)."""
    try:
        return metadata.version("plunder")
    except metadata.PackageNotFoundError:
        return "unknown"


def commit(start: Path | None = None) -> str:
    """The git commit of the checkout holding this package, '' outside one (or when unreadable)."""
    here = (start or Path(__file__)).resolve()
    for folder in here.parents:
        git = folder / ".git"
        if git.is_file():  # a worktree: "gitdir: PATH"
            text = git.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return ""
            git = (folder / text.partition(":")[2].strip()).resolve()
        if git.is_dir():
            return _head(git)
    return ""


def _head(git: Path) -> str:
    """The commit ``HEAD`` names in the git folder ``git`` ('' when it cannot be read)."""
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head
        ref = head.partition(":")[2].strip()
        common = git
        if (git / "commondir").is_file():  # a worktree keeps its branches in the main folder
            common = (git / (git / "commondir").read_text(encoding="utf-8").strip()).resolve()
        for base in (git, common):
            if (base / ref).is_file():
                return (base / ref).read_text(encoding="utf-8").strip()
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text(encoding="utf-8").splitlines():
                sha, _, name = line.partition(" ")
                if name == ref:
                    return sha
    except OSError:
        pass
    return ""


@functools.cache
def sources(package: str = "plunder") -> str:
    """The first 16 hex digits of the SHA-256 of the installed ``package``'s Python sources: every
    ``.py`` file under it, by path (relative to the package) and contents, in path order; '' when
    the package cannot be found."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return ""
    if spec is None:
        return ""
    if spec.submodule_search_locations:
        files = [(Path(root), path) for root in spec.submodule_search_locations
                 for path in sorted(Path(root).rglob("*.py"))]
    else:  # a module of one file
        files = [(Path(spec.origin).parent, Path(spec.origin))] if spec.origin else []
    digest = hashlib.sha256()
    for root, path in files:
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def code(package: str | None = None) -> str:
    """The exact code a result comes from, in words: Plunder's version, its git commit (in a
    checkout) and the hash of its sources (:func:`sources`); and when a game comes from another
    ``package``, that package's version and sources' hash too. Two results of one text were made
    by the same code (up to files that are not Python: a game's assets). Read once a process: the
    code that runs is the code loaded, whatever is committed or edited on disk afterwards."""
    found = commit()
    out = f"plunder {version()}" + (f" commit {found[:12]}" if found else "") + f" sources {sources()}"
    if package and package != "plunder":
        try:
            theirs = metadata.version(package)
        except metadata.PackageNotFoundError:
            theirs = "unknown"
        out += f"; {package} {theirs} sources {sources(package)}"
    return out


def now() -> str:
    """The time in UTC, ISO 8601 to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def command(argv: list[str] | None = None) -> str:
    """The command line that is running, as a shell would quote it (cut to :data:`MAX_COMMAND_CHARS`)."""
    args = list(sys.argv if argv is None else argv)
    if args:
        args[0] = Path(args[0]).name
    return shlex.join(args)[:MAX_COMMAND_CHARS]


def made() -> dict[str, str]:
    """How a result is being made, in words for a report: version, commit (in a checkout), the
    sources' hash, date, command."""
    out = {"Plunder version": version(), "sources (SHA-256, 16 digits)": sources()}
    if commit():
        out["git commit"] = commit()
    return {**out, "date (UTC)": now(), "command": command()}
