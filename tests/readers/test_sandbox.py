"""The read worker is confined (readers/sandbox.py, Linux Landlock and seccomp): a decoder
taken over by a crafted file can read the code it runs and nothing else, write no file, run no
program, and make no socket. Each probe below runs in the worker as a reader does (sent by name);
on Linux the worker must be confined, and a kernel without Landlock fails here with the
reason rather than passing unconfined.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.content import Text
from toolwire.messages import ContentOutput
from toolwire.readers import isolation, sandbox
from toolwire.readers.common import Job, Options

from .helpers import example

pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="Landlock is Linux's: elsewhere the "
        "worker has its memory and time limits only (docs/security.md)"
    ),
    pytest.mark.usefixtures("fresh_isolation"),
]  # fmt: skip


def _said(result: str) -> ContentOutput:
    return ContentOutput(value=[Text(text=result)])


def read_a_path(job: Job) -> ContentOutput:
    """Read the file ``job.name`` names (as a taken-over decoder would try to)."""
    try:
        with open(job.name, "rb") as file:
            return _said(f"read {len(file.read(64))} bytes")
    except OSError as exc:
        return _said(f"refused: {type(exc).__name__}")


def write_a_path(job: Job) -> ContentOutput:
    try:
        with open(job.name, "wb") as file:
            file.write(b"planted")
        return _said("written")
    except OSError as exc:
        return _said(f"refused: {type(exc).__name__}")


def connect_to_a_port(job: Job) -> ContentOutput:
    """Connect to 127.0.0.1 at the port ``job.note`` names."""
    try:
        with socket.create_connection(("127.0.0.1", int(job.note)), timeout=5):
            return _said("connected")
    except OSError as exc:
        return _said(f"refused: {type(exc).__name__}")


def make_sockets(job: Job) -> ContentOutput:
    """A UDP socket and a Unix one (neither is a TCP connection Landlock would see)."""
    made = []
    for family, kind in ((socket.AF_INET, socket.SOCK_DGRAM), (socket.AF_UNIX, socket.SOCK_STREAM)):
        try:
            socket.socket(family, kind).close()
            made.append("made")
        except OSError as exc:
            made.append(f"refused: {type(exc).__name__}")
    return _said(", ".join(made))


def run_a_program(job: Job) -> ContentOutput:
    try:
        done = subprocess.run([sys.executable, "-c", "print('ran')"], capture_output=True)
        return _said(done.stdout.decode().strip() or f"exit {done.returncode}")
    except OSError as exc:
        return _said(f"refused: {type(exc).__name__}")


def unconfined_reason(job: Job) -> ContentOutput:
    return _said(os.environ.get("TOOLWIRE_READ_UNCONFINED", "confined"))


def probe(reader: object, name: str = "probe.bin", note: str = "") -> str:
    job = Job(name, "application/octet-stream", Options(), b"x", 1, note)
    return isolation.run(reader, job).value[0].text  # type: ignore[arg-type, union-attr]


def test_the_kernel_offers_landlock_and_the_worker_is_confined() -> None:
    assert sandbox.abi_version() >= 1, "this Linux has no Landlock: the worker runs unconfined"
    assert probe(unconfined_reason) == "confined"


def test_the_worker_cannot_read_the_users_files(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's")
    assert probe(read_a_path, "/etc/passwd") == "refused: PermissionError"
    assert probe(read_a_path, str(secret)) == "refused: PermissionError"
    assert secret.read_text() == "the user's"  # the caller reads it (as read_file does)


def test_the_worker_can_read_the_code_it_runs() -> None:
    assert probe(read_a_path, tw.__file__).startswith("read ")
    assert probe(read_a_path, sys.executable).startswith("read ")


def test_the_worker_cannot_write_or_run_a_program(tmp_path: Path) -> None:
    planted = tmp_path / "planted.txt"
    assert probe(write_a_path, str(planted)) == "refused: PermissionError"
    assert not planted.exists()
    assert probe(run_a_program).startswith("refused")


def test_the_worker_cannot_open_a_tcp_connection() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        assert probe(connect_to_a_port, note=str(port)) == "refused: PermissionError"
        with socket.create_connection(("127.0.0.1", port), timeout=5):  # the caller can
            pass


def test_the_worker_cannot_make_a_socket_of_any_kind() -> None:
    """seccomp refuses socket(2): no UDP packet or Unix socket leaves the worker either."""
    assert probe(make_sockets) == "refused: PermissionError, refused: PermissionError"
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()  # the caller still can


def test_confined_readers_still_read_every_kind_of_file() -> None:
    for name in ("report.pdf", "memo.docx", "sheet.xlsx", "photo.png", "tone.wav", "deck.pptx"):
        output = tw.read_file(example(name))
        assert output.value, name
    assert probe(unconfined_reason) == "confined"  # the same worker served them all


def test_the_sandbox_can_be_turned_off_for_debugging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLWIRE_READ_SANDBOX", "0")
    assert probe(read_a_path, tw.__file__).startswith("read ")
    assert probe(read_a_path, "/etc/passwd").startswith("read ")


def network_and_user(job: Job) -> ContentOutput:
    shared = os.environ.get("TOOLWIRE_READ_SHARED_NETWORK", "")
    return _said(f"{os.readlink('/proc/self/ns/net')} {os.getuid()} {shared}".strip())


def test_the_worker_cannot_read_the_callers_working_directory_or_sys_path_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller's sys.path holds its working directory ('' and ``-m``'s) and its script's
    directory: the worker imports from the installation only (sandbox.import_paths)."""
    (tmp_path / "secret.txt").write_text("the user's")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend("")
    assert probe(read_a_path, "secret.txt") == "refused: PermissionError"
    assert probe(read_a_path, str(tmp_path / "secret.txt")) == "refused: PermissionError"
    assert probe(unconfined_reason) == "confined"


def test_a_script_run_from_its_own_directory_cannot_have_that_directory_read(
    tmp_path: Path,
) -> None:
    """End to end: ``python run.py`` in the project directory puts it first on sys.path; a
    file beside the script stays out of the worker's reach, as the working directory does."""
    project = tmp_path / "project"
    project.mkdir()
    (project / ".env").write_text("API_KEY=the user's")
    tests = Path(__file__).parents[1]
    (project / "run.py").write_text(
        "import sys\n"
        f"sys.path.append({str(tests)!r})\n"
        "from readers.test_sandbox import probe, read_a_path\n"
        "import os\n"
        "print(probe(read_a_path, os.path.join(os.path.dirname(__file__), '.env')))\n"
        "print(probe(read_a_path, '.env'))\n"
    )
    here = str(Path(tw.__file__).parents[1])  # this toolwire, wherever the script runs
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "run.py"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.splitlines() == ["refused: PermissionError"] * 2, done.stderr[-2000:]


def test_a_reader_from_a_directory_not_named_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """This module is imported by the worker only because TOOLWIRE_READ_PATHS names the tests
    (tests/conftest.py); without it the worker says so, and is not left broken."""
    monkeypatch.setenv("TOOLWIRE_READ_PATHS", "")
    with pytest.raises(tw.ToolwireError, match="could not load its reader .*TOOLWIRE_READ_PATHS"):
        probe(read_a_path, "/etc/passwd")
    assert tw.read_file(example("photo.png")).value  # toolwire's own readers still load


def test_the_worker_leaves_the_hosts_network_where_user_namespaces_are_allowed() -> None:
    """A second wall beside seccomp and Landlock (sandbox.isolate_network): the worker has its
    own network namespace, its user id mapped to the caller's."""
    allowed = subprocess.run(
        [sys.executable, "-c", "from toolwire.readers import sandbox as s; print(s.isolate_network())"],
        capture_output=True, text=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    if allowed != "None":
        pytest.skip(f"this machine forbids it: {allowed}")
    namespace, uid = probe(network_and_user).split()
    assert namespace != os.readlink("/proc/self/ns/net") and int(uid) == os.getuid()


def test_the_network_namespace_alone_stops_a_tcp_connection() -> None:
    """Without seccomp and Landlock (an older kernel, another architecture), the namespace
    alone keeps a connection to the caller's own listening port from being made."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        code = (
            "import socket; from toolwire.readers import sandbox\n"
            "assert sandbox.isolate_network() is None\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {server.getsockname()[1]}), timeout=5)\n"
            "    print('connected')\n"
            "except OSError as exc:\n"
            "    print(type(exc).__name__, exc.errno)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
        )
    if "AssertionError" in done.stderr:
        pytest.skip("this machine forbids user namespaces")
    assert done.stdout.split() == ["OSError", "101"], done.stderr[-2000:]  # ENETUNREACH


def capabilities_and_nesting(job: Job) -> ContentOutput:
    import ctypes

    with open("/proc/self/status") as status:
        caps = {
            k: v.strip()
            for k, v in (line.split(":", 1) for line in status)
            if k in ("CapEff", "CapBnd")
        }
    libc = ctypes.CDLL(None, use_errno=True)
    nested = libc.unshare(0x10000000)  # CLONE_NEWUSER: every capability, in a namespace of its own
    return _said(f"{caps['CapEff']} {caps['CapBnd']} {nested}")


def test_the_worker_holds_no_capability_and_cannot_gain_one_in_a_nested_namespace() -> None:
    """Run as root (a container's default) or in its own user namespace, the worker keeps no
    capability (no module loaded, no netfilter table written) and cannot make a namespace
    that would give it them back."""
    effective, bounding, nested = probe(capabilities_and_nesting).split()
    assert int(effective, 16) == 0 and int(bounding, 16) == 0
    assert nested == "-1"


def test_a_venv_made_in_the_project_itself_does_not_make_the_project_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m venv .``: the interpreter's prefix is the project; only its standard
    library and site-packages are read then, not the prefix that holds the working directory."""
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path / "src")
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    monkeypatch.setattr(sys, "exec_prefix", str(tmp_path))
    assert str(tmp_path) not in sandbox.import_paths()
    monkeypatch.chdir("/")
    assert str(tmp_path) in sandbox.import_paths()
