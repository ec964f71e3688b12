"""Store backends for the conformance suite: every test that takes ``backend`` runs on each.

- ``sqlite+dir``: the default, a directory with ``sessions.db`` and ``blobs/``;
- ``postgres+dir``: a fresh database on the private cluster, blobs in a directory;
- ``postgres+s3``: a fresh database, blobs under a fresh prefix of the S3 emulator's bucket;
- ``sqlite+s3``: SQLite rows, blobs in the S3 emulator.

The servers start once per test run (``servers``); if one cannot start, its tests fail with
the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolwire.store import SessionStore

from . import servers

_counter = itertools.count()


@dataclass(frozen=True)
class Backend:
    """Where one test's store lives: ``location`` (directory or postgresql:// URL), ``blobs``."""

    name: str
    location: str
    blobs: str | None

    def open(self) -> SessionStore:
        return SessionStore(self.location, blobs=self.blobs)

    @property
    def args(self) -> list[str]:
        """For a writer process: location and blobs ("" for the default)."""
        return [self.location, self.blobs or ""]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    with servers.postgres() as url:
        yield url


@pytest.fixture(scope="session")
def s3_server() -> Iterator[str]:
    with servers.s3() as endpoint:
        yield endpoint


def fresh_database(server_url: str) -> str:
    """A new, empty database on the cluster; its URL."""
    import psycopg

    name = f"t{next(_counter)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def fresh_prefix() -> str:
    return f"s3://{servers.BUCKET}/t{next(_counter)}-{id(_counter)}"


BACKENDS = ["sqlite+dir", "postgres+dir", "postgres+s3", "sqlite+s3"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    rows, blobs = request.param.split("+")
    location = str(tmp_path / "store")
    if rows == "postgres":
        location = fresh_database(request.getfixturevalue("pg_server"))
    blob_location = str(tmp_path / "blobs") if rows == "postgres" else None
    if blobs == "s3":
        request.getfixturevalue("s3_server")
        blob_location = fresh_prefix()
    return Backend(request.param, location, blob_location)
