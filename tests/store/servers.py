"""Real servers for the store tests: a private PostgreSQL 15 cluster and an S3 endpoint.

PostgreSQL: the Debian server binaries (``/usr/lib/postgresql/*/bin``), ``initdb`` into a
temporary directory and ``pg_ctl start`` listening on 127.0.0.1 on a free port. ``initdb``
refuses to run as root, so under root (CI) the cluster runs as the unprivileged ``nobody``
(``runuser``), which owns the temporary directory. ``fsync=off``: the tests kill clients,
never the server, so the server's own durability is not what they measure.

S3: moto's standalone server (``ThreadedMotoServer``) on 127.0.0.1 — an *emulator* of the S3
API, not AWS. The store reaches it exactly as it would a real bucket: through
``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY`` and
``AWS_DEFAULT_REGION`` in the environment (inherited by the writer processes).

Either failing to start is an error with the reason, never a skip.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUCKET = "toolwire-tests"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        raise RuntimeError(
            f"PostgreSQL's {name} is not installed (apt-get install postgresql); the "
            "PostgreSQL store tests need a real server"
        )
    return found[-1]


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "nobody", "--", *command] if os.geteuid() == 0 else command


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(
        _as_server_user(command), capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}): {done.stderr or done.stdout}")


@contextmanager
def postgres() -> Iterator[str]:
    """A running private cluster; yields the URL of its ``postgres`` database."""
    base = Path(tempfile.mkdtemp(prefix="toolwire-pg-"))
    if os.geteuid() == 0:
        shutil.chown(base, "nobody")
    data = base / "data"
    pg_ctl = _pg_bin("pg_ctl")
    try:
        _run([_pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "toolwire"], "initdb")
        # PostgreSQL takes no port 0: the free port is picked after initdb's seconds, just
        # before the server binds it, so another process has the least time to take it.
        port = _free_port()
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c fsync=off"
        log = str(base / "server.log")
        _run([pg_ctl, "-D", str(data), "-o", options, "-l", log, "-w", "start"], "pg_ctl start")
        try:
            yield f"postgresql://toolwire@127.0.0.1:{port}/postgres"
        finally:
            _run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], "pg_ctl stop")
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def s3() -> Iterator[str]:
    """A running moto S3 server with the bucket BUCKET; the AWS_* settings point at it."""
    import boto3
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    # Port 0: the server binds a port the kernel picks and keeps it (a port found free and
    # bound later could be taken in between, and moto's start() then waits for ever).
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    settings = {
        "AWS_ENDPOINT_URL": f"http://{host}:{port}",
        "AWS_ACCESS_KEY_ID": "toolwire-test",
        "AWS_SECRET_ACCESS_KEY": "toolwire-test",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    saved = {key: os.environ.get(key) for key in settings}
    os.environ.update(settings)
    try:
        boto3.client("s3").create_bucket(Bucket=BUCKET)
        yield settings["AWS_ENDPOINT_URL"]
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.stop()
