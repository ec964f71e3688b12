"""PostgreSQL rows (psycopg 3 with a connection pool), for many workers on many hosts.

Each append is one READ COMMITTED transaction. Its upsert of the session's row takes that
row's lock until commit, so appends to one session are serialised (the position query after
the lock sees the previous writer's rows) while other sessions' appends run in parallel.
Appends hold a shared advisory lock and ``delete``/``gc`` an exclusive one (session-level,
held across the epoch moves): see ``store.rows`` for why that makes collection safe.

Connections come from a ``psycopg_pool.ConnectionPool`` (1 to ``POOL_SIZE`` per store, i.e.
per process); psycopg is imported only when such a store is opened.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from ..errors import MissingDependencyError, StoreError
from .pg_migrations import migrate
from .rows import Cursor, Rows, bump_epoch

#: The advisory-lock key appends share and collections take exclusively.
COLLECT_LOCK = 0x746F6F6C_67630000
#: Connections a store's pool opens at most (one per thread using the store at once).
POOL_SIZE = 4
#: Seconds to wait for the database to answer a new connection, unless the URL's
#: ``connect_timeout`` or SessionStore(connect_timeout=) says otherwise (libpq's floor: 2).
CONNECT_TIMEOUT_S = 5.0
#: How long a thread waits for a free connection of the pool (all POOL_SIZE in use).
POOL_WAIT_S = 30.0


class PostgresRows(Rows):
    """The rows of a store in the PostgreSQL database ``url`` names (postgresql://…).

    Opening connects once, directly, with ``connect_timeout`` seconds to answer: a wrong port
    or host fails in that time with libpq's own reason ("Connection refused"), which a pool
    retrying in the background would only log. That connection runs the migrations; the pool
    opens after it.
    """

    def __init__(self, url: str, connect_timeout: float | None = None) -> None:
        self.where = _redacted(url)
        psycopg, pool_module = _import()
        self._psycopg = psycopg
        timeout = _connect_timeout(psycopg, url, connect_timeout, self.where)
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=timeout) as conn:
                migrate(conn, self.where)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot open the session database {self.where}: {_cause(exc)} "
                f"(connect_timeout {timeout} s)"
            ) from exc
        try:
            self._pool = pool_module.ConnectionPool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                kwargs={"autocommit": True, "connect_timeout": timeout},
                open=False,
                timeout=POOL_WAIT_S,
            )
            self._pool.open(wait=True, timeout=max(timeout, POOL_WAIT_S))
        except (psycopg.Error, pool_module.PoolTimeout) as exc:
            self._close_quietly()
            raise StoreError(f"cannot open the session database {self.where}: {exc}") from exc
        except BaseException:
            self._close_quietly()
            raise

    @property
    def pool(self) -> Any:
        """The ``psycopg_pool.ConnectionPool`` (autocommit connections), for companion tables
        such as the Uploads id cache (``toolwire.uploads.cache_postgres``)."""
        return self._pool

    def close(self) -> None:
        self._pool.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[Cursor]:
        with self._errors(), self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (COLLECT_LOCK,))
            yield _Qmark(conn)

    @contextlib.contextmanager
    def _collecting(self) -> Iterator[Cursor]:
        with self._errors(), self._pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (COLLECT_LOCK,))
            try:
                bump_epoch(_Qmark(conn))
                with conn.transaction():
                    yield _Qmark(conn)
            finally:
                bump_epoch(_Qmark(conn))
                conn.execute("SELECT pg_advisory_unlock(%s)", (COLLECT_LOCK,))

    @contextlib.contextmanager
    def _read(self) -> Iterator[Cursor]:
        with self._errors(), self._pool.connection() as conn:
            yield _Qmark(conn)

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except self._psycopg.Error as exc:
            raise StoreError(f"session store {self.where}: {exc}") from exc

    def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            self._pool.close()


class _Qmark:
    """A psycopg connection that takes the shared SQL's ``?`` placeholders."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._conn.execute(sql.replace("?", "%s"), params)


def _import() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise MissingDependencyError(
            "a postgresql:// session store needs psycopg 3 and psycopg-pool: "
            "pip install 'toolwire[postgres]'"
        ) from exc
    return psycopg, psycopg_pool


def _connect_timeout(psycopg: Any, url: str, given: float | None, where: str) -> int:
    """Whole seconds for libpq: the argument, else the URL's ``connect_timeout``, else
    CONNECT_TIMEOUT_S; at least 2 (libpq's floor: it reads anything less as 2)."""
    if given is None:
        try:
            named = psycopg.conninfo.conninfo_to_dict(url).get("connect_timeout")
        except psycopg.Error as exc:
            raise StoreError(f"{where} is not a PostgreSQL URL: {_cause(exc)}") from exc
        given = float(named) if named not in (None, "") else CONNECT_TIMEOUT_S
    if not given > 0:
        raise StoreError(f"connect_timeout must be a positive number of seconds, not {given!r}")
    return max(2, math.ceil(given))


def _cause(exc: BaseException) -> str:
    """psycopg's message on one line (libpq adds a hint line: "Is the server running…")."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _redacted(url: str) -> str:
    """The URL with any password (``user:…@``, ``?password=…``) replaced by ***, for messages."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    pairs = [p.partition("=") for p in parts.query.split("&")] if parts.query else []
    query = "&".join(  # libpq takes password and sslpassword as parameters too
        f"{key}=***" if sep and "password" in key.lower() else key + sep + value
        for key, sep, value in pairs
    )
    if (netloc, query) == (parts.netloc, parts.query):
        return url
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")
