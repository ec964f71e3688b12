"""Defects an independent audit of this round found, each pinned (issue 33; plan_request of
issue 30): a re-plan that could never end, rows written that could not be read back, a value
count that could be made quadratic or fooled by UTF-16, failures kept with their tracebacks,
a busy worker pool remembered as a broken file, and bad input that escaped as a bare
exception."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.store import SessionStore
from toolwire.store.trust import MAX_JSON_VALUES, values

EXAMPLES = Path(__file__).parent.parent / "examples"
GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"


def test_a_text_too_large_beside_a_file_left_as_text_ends_in_request_too_large() -> None:
    """Over Groq's 4 MB with no medium to leave out, plan_request re-planned for ever."""
    tone = EXAMPLES / "tone.wav"
    code = f"""
    import toolwire as tw
    wav = tw.File.from_path("{tone}")
    call = tw.ToolCall(id="c1", name="rec", arguments=dict())
    messages = [tw.User("x" * 3_995_000), tw.Assistant([call]), tw.ToolResult.of("c1", "rec", wav)]
    try:
        tw.encode(messages, "{GROQ}", on_unsupported="text")
    except tw.RequestTooLargeError:
        print("refused")
    print(tw.estimate_tokens(messages, "{GROQ}").total > 0)
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["refused", "True"], done.stderr[-2000:]


@pytest.mark.slow
def test_a_row_load_could_not_read_back_is_refused_as_it_is_written(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "store")
    table = [[i, i] for i in range(MAX_JSON_VALUES // 3 + 1)]
    with pytest.raises(tw.StoreError, match=r"JSON values, over the 1,000,000 .* load could not"):
        store.append("s1", tw.ToolResult.of("c1", "query", table))
    store.append("s1", tw.User("hi"))
    assert store.load("s1", max_values=10) == [tw.User("hi")]
    store.append("s1", tw.User(" ".join(["a"] * 20)))  # 20 words, a few values
    with pytest.raises(tw.StoreError, match="pass max_values="):
        store.load("s1", max_values=0)


def test_counting_values_is_linear_in_escaped_quotes_and_reads_utf16_as_json_does() -> None:
    """An unterminated string of 40,000 escaped quotes before a million commas: the old
    pattern tried every quote to the end (hours); a linear count ends well inside the child's
    60 s (a few milliseconds here)."""
    code = (
        "from toolwire.store.trust import MAX_JSON_VALUES, values\n"
        "hostile = '\"' + '\\\\\"' * 40_000 + ',' * 1_100_000\n"
        "print(values(hostile, MAX_JSON_VALUES) == 1)\n"  # one string: commas and all
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stderr[-2000:]
    document = "[" + ",".join(["[]"] * 200_000) + "]"
    assert values(document.encode("utf-16"), 0) == values(document, 0)
    assert values(document.encode("utf-32"), 0) == values(document.encode(), 0)


def test_estimate_and_fit_price_what_the_plan_refuses_instead_of_raising() -> None:
    """A corrupt image over a cell's limits: encode says what is wrong, estimate_tokens and
    fit still answer (they route each file alone where the plan refuses the conversation)."""
    header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (3000).to_bytes(4, "big") * 2 + bytes(9)
    broken = tw.File.from_bytes(header + bytes(64), "image/png", name="broken.png")
    call = tw.ToolCall(id="c1", name="shot", arguments={})
    messages = [tw.User("Look."), tw.Assistant([call]), tw.ToolResult.of("c1", "shot", broken)]
    with pytest.raises(tw.InvalidFileError, match="broken.png"):
        tw.encode(messages, "anthropic:claude-sonnet-4-5")
    assert tw.estimate_tokens(messages, "anthropic:claude-sonnet-4-5").total > 0
    assert len(tw.fit(messages, "openai:gpt-4.1", max_tokens=1_000_000)) == 3


def test_a_failed_fit_is_remembered_by_content_without_its_traceback(monkeypatch) -> None:
    from toolwire import imagefit
    from toolwire.readers import isolation

    imagefit.clear_cache()
    runs = []
    real = isolation.run

    def counted(reader, job):
        runs.append(job.name)
        return real(reader, job)

    monkeypatch.setattr(isolation, "run", counted)
    header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (3000).to_bytes(4, "big") * 2 + bytes(9)
    broken = tw.File.from_bytes(header + bytes(64), "image/png", name="broken.png")
    cell = tw.capabilities("anthropic:claude-sonnet-4-5").cell("image/png")
    for _ in range(3):
        with pytest.raises(tw.InvalidFileError):
            imagefit.fit_image(broken, cell)  # type: ignore[arg-type]
    assert runs == ["broken.png"]
    (kept,) = imagefit._failed.values()
    assert kept.__traceback__ is None and kept.__cause__ is None
    imagefit.clear_cache()


def test_a_busy_worker_pool_is_not_remembered_as_a_broken_file() -> None:
    from toolwire import imagefit
    from toolwire.convert import stripped
    from toolwire.readers.isolation import WorkersBusyError

    imagefit.clear_cache()
    imagefit._remember_failure(("k",), WorkersBusyError("all busy"))
    assert not imagefit._failed
    error = tw.InvalidFileError("bad.pdf: corrupt")
    try:
        raise error from ValueError("inner")
    except tw.InvalidFileError as caught:
        kept = stripped(caught)
    assert str(kept) == "bad.pdf: corrupt" and kept.__traceback__ is None
    assert kept.__cause__ is None and kept.__context__ is None


def test_a_reply_nested_past_the_sdk_depth_is_a_decode_error() -> None:
    from anthropic.types import Message

    nested: dict[str, object] = {"leaf": 1}
    for _ in range(3000):
        nested = {"a": nested}
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": nested}
    reply = Message.model_construct(
        id="msg_1", type="message", role="assistant", model="claude-sonnet-4-5",
        content=[block], stop_reason="tool_use", stop_sequence=None, usage=None,
    )  # fmt: skip
    with pytest.raises(tw.DecodeError, match="cannot read the Message as JSON data"):
        tw.decode(reply, "anthropic:claude-sonnet-4-5")


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": [1, 2]},
        {"type": "object", "properties": {"a": {"type": ["string", 5]}}},
        {"type": "object", "properties": {"a": {"anyOf": "x"}}},
        {"type": "object", "properties": {"a": {"enum": 5}}},
        {"type": "object", "required": 5, "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"a": {"allOf": [5]}}},
    ],
)
@pytest.mark.parametrize(
    ("model", "strict"),
    [("google:gemini-2.5-pro", False), ("ollama:llama3.2", False), ("openai:gpt-4.1", True)],
)
def test_a_schema_keyword_of_the_wrong_shape_is_a_tool_definition_error(
    schema: dict[str, object], model: str, strict: bool
) -> None:
    with contextlib.suppress(tw.ToolwireError):  # a bare TypeError or AttributeError fails here
        tw.encode([tw.User("hi")], model, tools=[tw.Tool("t", "d", schema, strict=strict)])  # type: ignore[arg-type]


def test_a_conversation_file_of_too_many_values_is_refused_before_it_is_parsed(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from toolwire.cli import app

    path = tmp_path / "history.json"
    path.write_text("[" + ",".join(["[]"] * (MAX_JSON_VALUES + 1)) + "]")
    result = CliRunner().invoke(app, ["view", str(path), "-m", "anthropic:claude-sonnet-4-5"])
    assert result.exit_code == 1 and "more than 1,000,000 JSON values" in result.output


def test_a_jpeg_with_megabytes_of_metadata_segments_is_still_measured() -> None:
    from PIL import Image

    from toolwire.headers import image_size

    buffer = io.BytesIO()
    Image.new("RGB", (240, 180)).save(buffer, "JPEG")
    plain = buffer.getvalue()
    segment = b"\xff\xe1" + (65_535).to_bytes(2, "big") + bytes(65_533)  # a full APP1 segment
    padded = plain[:2] + segment * 72 + plain[2:]  # 4.7 MB of extended-XMP-sized segments
    assert len(padded) > 4_500_000 and image_size(padded) == (240, 180)


def test_a_large_log_that_opens_and_closes_with_brackets_is_plain_text() -> None:
    log = b"".join(b"[12:00:%02d] step %d ok [ok]\n" % (i % 60, i) for i in range(20_000))
    assert len(log) > 256 * 1024
    assert tw.File.from_bytes(log).media_type == "text/plain"
    assert tw.File.from_bytes(b'[{"a": 1}, {"b": 2}]').media_type == "application/json"


def test_the_pdfium_page_count_is_taken_in_the_read_worker_never_in_the_host() -> None:
    """Where the page objects do not tell (headers.pdf_page_count), pypdfium2's page tree is
    read in the read worker (its limits, its sandbox); the host never loads pdfium."""
    code = (
        "import sys; from pathlib import Path; import toolwire as tw\n"
        "from toolwire import headers, token_measures\n"
        "headers.pdf_page_count = lambda data: None  # as for a PDF it cannot count\n"
        "token_measures.headers = headers\n"
        f"pdf = tw.File.from_path({str(EXAMPLES / 'report.pdf')!r})\n"
        "pages, how = token_measures.pdf_pages(pdf)\n"
        "print(pages, 'pypdfium2' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    pages, loaded = done.stdout.split()
    assert int(pages) > 0 and loaded == "False"
