"""A throwaway PostgreSQL server for the store's tests: a cluster made with the system's
``initdb`` in a temporary folder, on a free port, removed afterwards.

``scripts/install-test-deps.sh`` installs the server where it is missing (CI runs it); a
machine without it fails the PostgreSQL tests saying how to install it, as the browser tests do
for Chromium. ``$PLUNDER_TEST_POSTGRES`` (a SQLAlchemy URL) uses a server of one's own instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

#: how long the cluster may take to start
START_SECONDS = 60.0


def server_bin() -> Path:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    pytest.fail("the PostgreSQL tests need a PostgreSQL server: sh scripts/install-test-deps.sh "
                "(apt-get install -y postgresql), or set PLUNDER_TEST_POSTGRES to a database URL")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def as_owner(command: list[str], owner: str | None) -> list[str]:
    """``command`` run as ``owner`` (PostgreSQL refuses to run as root)."""
    return command if owner is None else ["runuser", "-u", owner, "--", *command]


def cluster() -> Iterator[str]:
    """Start a cluster, yield its URL, stop and remove it."""
    given = os.environ.get("PLUNDER_TEST_POSTGRES")
    if given:
        yield given
        return
    bin_dir = server_bin()
    owner = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="plunder-pg-"))
    if owner is not None:
        shutil.chown(folder, owner)
    data, port = folder / "data", free_port()
    ctl = [str(bin_dir / "pg_ctl"), "-D", str(data)]
    try:
        subprocess.run(as_owner([str(bin_dir / "initdb"), "-A", "trust", "-U", "postgres", "-D", str(data)], owner),
                       check=True, capture_output=True, timeout=START_SECONDS)
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(as_owner([*ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"], owner),
                       check=True, capture_output=True, timeout=START_SECONDS)
        deadline = time.monotonic() + START_SECONDS
        while True:
            made = subprocess.run(as_owner([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                                            "-U", "postgres", "plunder"], owner), capture_output=True)
            if made.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/plunder"
    finally:
        subprocess.run(as_owner([*ctl, "-m", "immediate", "stop"], owner), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
