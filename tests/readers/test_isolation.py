"""Parsing in the read worker (readers/isolation.py): limits, crashes, reuse, threads.

The crashing readers are module-level functions of this module: the worker imports it to run
them (a reader is sent by name), exactly as it imports toolwire's own readers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from convert.files import pdf_bomb

import toolwire as tw
from toolwire.content import Text
from toolwire.errors import InvalidFileError, PathNotAllowedError, ResourceLimitError, ToolwireError
from toolwire.messages import ContentOutput
from toolwire.readers import isolation, limits
from toolwire.readers.common import Job, Options

from .helpers import example, outcome

MB = 1024 * 1024


#: Each test starts and ends with the default settings and no worker running.
pytestmark = pytest.mark.usefixtures("fresh_isolation")


# Readers the worker runs: each misbehaves the way a native decoder does on a crafted file.


def process_id(job: Job) -> ContentOutput:
    return ContentOutput(value=[Text(text=str(os.getpid()))])


def nested_process_id(job: Job) -> ContentOutput:
    inner = isolation.run(process_id, job).value[0].text
    return ContentOutput(value=[Text(text=f"{os.getpid()} {inner}")])


def address_space_limit(job: Job) -> ContentOutput:
    import resource

    return ContentOutput(value=[Text(text=str(resource.getrlimit(resource.RLIMIT_AS)[0]))])


def pixel_cap(job: Job) -> ContentOutput:
    return ContentOutput(value=[Text(text=str(limits.MAX_IMAGE_PIXELS))])


def abort(job: Job) -> ContentOutput:
    os.abort()


def allocate_a_gigabyte(job: Job) -> ContentOutput:
    hoard = bytearray(1024 * MB)
    return ContentOutput(value=[Text(text=str(len(hoard)))])


def sleep_a_minute(job: Job) -> ContentOutput:
    time.sleep(60)
    return ContentOutput(value=[Text(text="awake")])


def refuse_the_path(job: Job) -> ContentOutput:
    raise PathNotAllowedError(f"{job.name} is not yours to read")


def fail_inside_a_parser(job: Job) -> ContentOutput:
    return {}["missing"]  # type: ignore[no-any-return]


def return_a_foreign_object(job: Job) -> ContentOutput:
    import collections

    return collections.OrderedDict()  # type: ignore[return-value]


def render_with_pdfium(job: Job) -> ContentOutput:
    """pdfium itself, without toolwire's PDF checks, rendering the first page."""
    import pypdfium2

    page = pypdfium2.PdfDocument(job.data)[0]
    page.render(scale=2).to_pil()
    return ContentOutput(value=[Text(text="rendered")])


def job(name: str = "crafted.bin", data: bytes = b"x", media_type: str = "image/png") -> Job:
    return Job(name, media_type, Options(), data, len(data), "")


def crash() -> ContentOutput:
    return isolation.run(abort, job())


def timed(call):
    start = time.monotonic()
    result = outcome(call)
    return result, time.monotonic() - start


def worker_pid() -> int:
    return int(isolation.run(process_id, job()).value[0].text)


def is_reaped(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # succeeds for a running process and for a zombie not yet reaped
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(
    "name",
    ["photo.png", "report.pdf", "memo.docx", "data.csv", "notes.md", "tone.wav", "clip.mp4"],
)
def test_an_ordinary_file_reads_the_same_in_the_worker_as_in_process(name):
    isolated = tw.read_file(example(name))
    isolation.configure(enabled=False)
    assert tw.read_file(example(name)) == isolated


def test_the_worker_is_another_process_and_is_reused_across_reads():
    first = worker_pid()
    assert first != os.getpid()
    assert worker_pid() == first


def test_a_read_inside_the_worker_runs_in_that_worker_not_in_another_process():
    outer, inner = isolation.run(nested_process_id, job()).value[0].text.split()
    assert outer == inner != str(os.getpid())


def test_a_cap_changed_in_the_caller_applies_in_the_worker(monkeypatch):
    assert isolation.run(pixel_cap, job()).value[0].text == str(limits.MAX_IMAGE_PIXELS)
    monkeypatch.setattr(limits, "MAX_IMAGE_PIXELS", 1234)
    assert isolation.run(pixel_cap, job()).value[0].text == "1234"


def test_with_isolation_off_readers_run_in_the_calling_process():
    isolation.configure(enabled=False)
    assert worker_pid() == os.getpid()


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_the_worker_runs_under_the_configured_address_space_limit():
    assert isolation.run(address_space_limit, job()).value[0].text == str(2048 * MB)
    isolation.configure(memory_bytes=768 * MB)
    assert isolation.run(address_space_limit, job()).value[0].text == str(768 * MB)


def test_a_reader_that_aborts_becomes_a_resource_limit_error_naming_file_and_limit():
    error = outcome(lambda: isolation.run(abort, job("crash.png")))
    assert isinstance(error, ResourceLimitError)
    message = str(error)
    assert message.startswith("crash.png could not be read as PNG image: ")
    assert "killed by SIGABRT" in message and "memory limit of 2048 MB" in message
    assert "TOOLWIRE_READ_MEMORY_MB" in message and "configure(memory_bytes=...)" in message
    # "killed by SIGABRT", not the time limit: the crash was seen when it happened


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_a_reader_that_allocates_past_the_memory_limit_is_refused_not_the_caller():
    isolation.configure(memory_bytes=512 * MB)
    error = outcome(lambda: isolation.run(allocate_a_gigabyte, job("huge.png")))
    assert isinstance(error, ResourceLimitError)
    assert "huge.png" in str(error) and "memory limit of 512 MB (MemoryError)" in str(error)


def test_a_reader_past_the_time_limit_is_stopped_and_its_worker_reaped():
    pid = worker_pid()
    isolation.configure(seconds=1)
    error, seconds = timed(lambda: isolation.run(sleep_a_minute, job("slow.png")))
    assert isinstance(error, ResourceLimitError)
    message = str(error)
    assert message.startswith("slow.png could not be read as PNG image: ")
    assert "time limit of 1 s per file" in message and "TOOLWIRE_READ_SECONDS" in message
    # The time limit the worker pool enforces: not before it, and long before the reader's
    # minute of sleep would end (a bound on the code, not on how busy the CPU is).
    assert 1 <= seconds < 30
    assert is_reaped(pid)


def test_after_a_crash_the_next_read_works_in_a_new_worker():
    before = worker_pid()
    assert isinstance(outcome(lambda: isolation.run(abort, job())), ResourceLimitError)
    assert is_reaped(before)
    assert worker_pid() not in (before, os.getpid())
    assert tw.read_file(example("photo.png")).value[0].text.startswith("photo.png: PNG image")


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
@pytest.mark.slow
def test_a_pdf_bomb_that_aborts_pdfium_leaves_the_caller_alive(tmp_path):
    pytest.importorskip("pypdfium2")
    isolation.configure(memory_bytes=512 * MB)
    bomb = pdf_bomb()
    error = outcome(
        lambda: isolation.run(render_with_pdfium, job("bomb.pdf", bomb, "application/pdf"))
    )
    assert isinstance(error, ResourceLimitError)
    assert "bomb.pdf" in str(error) and "memory limit of 512 MB" in str(error)
    path = tmp_path / "bomb.pdf"
    path.write_bytes(bomb)
    error = outcome(lambda: tw.read_file(path))  # read_file's own checks may refuse it sooner
    assert isinstance(error, InvalidFileError) and "bomb.pdf" in str(error)
    assert tw.read_file(example("report.pdf")).value[0].text.startswith("report.pdf: PDF")


def test_a_toolwire_error_in_the_worker_reaches_the_caller_as_the_same_class_and_message():
    error = outcome(lambda: isolation.run(refuse_the_path, job("secret.png")))
    assert type(error) is PathNotAllowedError
    assert str(error) == "secret.png is not yours to read"


def test_another_exception_in_the_worker_becomes_invalid_file_with_its_traceback_as_cause():
    error = outcome(lambda: isolation.run(fail_inside_a_parser, job("odd.png")))
    assert type(error) is InvalidFileError
    assert str(error) == (
        "odd.png could not be read as PNG image (KeyError: 'missing'); the file is probably corrupt"
    )
    assert isinstance(error.__cause__, isolation.WorkerTraceback)
    assert "fail_inside_a_parser" in str(error.__cause__)


def test_the_caller_accepts_only_toolwire_outputs_and_errors_from_the_worker():
    error = outcome(lambda: isolation.run(return_a_foreign_object, job("odd.png")))
    assert type(error) is InvalidFileError
    assert str(error) == (
        "odd.png: the read worker sent an invalid reply (collections.OrderedDict is not "
        "something a read worker sends)"
    )
    assert worker_pid() != os.getpid()  # the worker itself is fine and still serves


@pytest.mark.parametrize(
    ("executable", "message"),
    [
        ("/bin/false", "read_file's worker process did not start (exit status 1;"),
        ("/nonexistent/python", "read_file could not start its worker process ("),
    ],
)
def test_a_worker_that_cannot_start_is_an_error_saying_how_to_read_in_process(
    monkeypatch, executable, message
):
    if not os.path.exists("/bin/false") and executable == "/bin/false":
        pytest.skip("no /bin/false here")
    monkeypatch.setattr(sys, "executable", executable)
    error = outcome(lambda: tw.read_file(example("notes.md")))
    assert isinstance(error, ToolwireError) and str(error).startswith(message)
    assert "TOOLWIRE_READ_ISOLATION=0" in str(error)


def test_reads_from_many_threads_each_get_their_own_result_while_one_crashes():
    isolation.configure(workers=2)
    names = ["photo.png", "report.pdf", "data.csv", "notes.md"] * 3
    isolation.configure(enabled=False)
    expected = {name: tw.read_file(example(name)) for name in set(names)}
    isolation.configure(enabled=True)
    results: dict[int, object] = {}

    def read(index: int, name: str) -> None:
        results[index] = outcome(lambda: tw.read_file(example(name)))

    threads = [threading.Thread(target=read, args=item) for item in enumerate(names)]
    threads.append(threading.Thread(target=lambda: results.update(crash=outcome(crash))))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert isinstance(results.pop("crash"), ResourceLimitError)
    assert [results[index] for index in range(len(names))] == [expected[n] for n in names]


def test_shutdown_reaps_the_workers_and_the_next_read_starts_one():
    pid = worker_pid()
    isolation.shutdown()
    assert is_reaped(pid)
    assert worker_pid() != pid


ENVIRONMENT_SCRIPT = "from toolwire.readers import isolation; print(isolation.settings())"


def settings_under(**environment: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **environment}
    command = [sys.executable, "-c", ENVIRONMENT_SCRIPT]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def test_the_environment_sets_the_limits_and_can_turn_isolation_off():
    done = settings_under(
        TOOLWIRE_READ_MEMORY_MB="512",
        TOOLWIRE_READ_SECONDS="5.5",
        TOOLWIRE_READ_WORKERS="3",
        TOOLWIRE_READ_QUEUE_SECONDS="7",
        TOOLWIRE_READ_ISOLATION="0",
    )
    assert done.stdout.strip() == (
        f"Settings(enabled=False, memory_bytes={512 * MB}, seconds=5.5, workers=3, "
        "queue_seconds=7.0)"
    )


def test_a_malformed_environment_value_is_an_error_naming_the_variable():
    done = settings_under(TOOLWIRE_READ_SECONDS="soon")
    assert "ToolwireError: TOOLWIRE_READ_SECONDS='soon' is not a number" in done.stderr


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        ({"seconds": 0}, "seconds=0"),
        ({"memory_bytes": -1}, "memory_bytes=-1"),
        ({"workers": 0}, "workers=0"),
    ],
)
def test_configure_refuses_limits_that_cannot_work(change, shown):
    with pytest.raises(ToolwireError, match=f"read isolation: {shown} is not allowed"):
        isolation.configure(**change)


def test_import_toolwire_starts_no_worker():
    script = (
        "import toolwire, toolwire.readers, subprocess; "
        "from toolwire.readers import isolation; "
        "print(isolation._pool is None)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "True"


def test_a_worker_whose_file_failed_is_replaced_and_one_that_succeeded_is_kept() -> None:
    """A file that failed may have got hold of its decoder: the next file gets a fresh worker
    (issue 33); a worker whose reads succeed is reused."""
    first = isolation.run(process_id, job()).value[0].text
    assert isolation.run(process_id, job()).value[0].text == first  # kept
    with pytest.raises(PathNotAllowedError):
        isolation.run(refuse_the_path, job("theirs.png"))
    after = isolation.run(process_id, job()).value[0].text
    assert after != first
    assert isolation.run(process_id, job()).value[0].text == after


@pytest.mark.slow
def test_a_read_waits_for_a_busy_worker_at_most_queue_seconds() -> None:
    """Hostile files keeping every worker busy hold up an unrelated read for at most
    ``queue_seconds``, then it is refused with an error saying why and what to raise."""
    isolation.configure(workers=1, seconds=3, queue_seconds=0.4)
    busy = threading.Thread(target=lambda: pytest.raises(ResourceLimitError, crash_slowly))
    busy.start()
    time.sleep(0.5)  # the slow read holds the one worker
    error = outcome(lambda: isolation.run(process_id, job("tiny.png")))
    busy.join()  # without the wait limit the tiny read would wait for the worker, then succeed
    assert isinstance(error, ResourceLimitError)
    assert str(error).startswith("tiny.png was not read: all 1 read workers stayed busy")
    assert "queue_seconds" in str(error)
    assert isolation.run(process_id, job("tiny.png")).value  # free again: read


def crash_slowly() -> ContentOutput:
    return isolation.run(sleep_a_minute, job("slow.png"))
