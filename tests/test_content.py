"""Content parts: exact JSON round trips, File constructors, kind, identifier, text fallback."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from toolwire.content import HEAD_BYTES, File, Json, Text, Thinking, ToolCall
from toolwire.errors import FetchError, InvalidFileError, ToolwireError
from toolwire.mediatypes import DOCX
from toolwire.messages import Part, ToolResult, User
from toolwire.sources import BlobSource, BytesSource, PathSource, ProviderFileSource, UrlSource

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PNG = (EXAMPLES / "photo.png").read_bytes()
NOT_UTF8 = b"\x89PNG\r\n\x1a\n\x00\xff\xfe\x80 not text"  # bytes JSON text could not hold


def blob(root: Path, data: bytes) -> BlobSource:
    digest = hashlib.sha256(data).hexdigest()
    (root / digest[:2]).mkdir(parents=True, exist_ok=True)
    (root / digest[:2] / digest).write_bytes(data)
    return BlobSource(sha256=digest, root=str(root))


def round_trip(part):
    """The part through its own class and through the discriminated Part union."""
    again = type(part).model_validate_json(part.model_dump_json())
    assert again == part
    assert type(again) is type(part)
    return again


def parts(tmp_path: Path) -> list:
    path = tmp_path / "photo.png"
    path.write_bytes(PNG)
    read_path = File.from_path(path, name="read.png")
    read_path.read()
    return [
        Text(text="héllo\nwörld ✓"),
        Json(value={"a": [1, 2.5, None, True], "b": {"c": "d"}, "big": 2**70}),
        Thinking(text="because", signature="sig==", provider="anthropic", id="rs_1"),
        Thinking(text="", signature="opaque", redacted=True),
        ToolCall(id="c1", name="f", arguments={"x": [1, {"y": "z"}]}, signature="ts"),
        ToolCall(id="c2", name="g", arguments={}, invalid_arguments="{not json"),
        File.from_bytes(PNG, name="photo.png"),
        File(source=BytesSource(data=NOT_UTF8), media_type="image/png", text="declared"),
        File.from_path(path),
        read_path,
        File.from_url("https://example.com/a/cat.png?size=big"),
        File.from_url("s3://bucket/key/report.pdf", name="report"),
        File.from_provider_file("openai", "file-abc123", "application/pdf", name="r.pdf"),
        File(source=blob(tmp_path / "blobs", PNG), media_type="image/png"),
    ]


def test_every_part_round_trips_through_json_exactly(tmp_path):
    for part in parts(tmp_path):
        round_trip(part)


def test_every_part_round_trips_through_the_part_union_by_its_type_tag(tmp_path):
    union = TypeAdapter(list[Part | Thinking | ToolCall])
    originals = parts(tmp_path)
    again = union.validate_json(union.dump_json(originals))
    assert again == originals
    assert [type(p) for p in again] == [type(p) for p in originals]


def test_bytes_survive_the_round_trip_bit_for_bit_as_base64():
    file = File(source=BytesSource(data=NOT_UTF8), media_type="image/png")
    encoded = json.loads(file.model_dump_json())["source"]["data"]
    assert base64.urlsafe_b64decode(encoded) == NOT_UTF8  # pydantic writes the URL-safe alphabet
    assert File.model_validate_json(file.model_dump_json()).read() == NOT_UTF8


def test_standard_base64_from_other_tools_loads_too():
    text = base64.b64encode(NOT_UTF8).decode()
    assert "/" in text  # the alphabet differs from the URL-safe one here
    raw = {"type": "file", "source": {"type": "bytes", "data": text}, "media_type": "image/png"}
    assert File.model_validate_json(json.dumps(raw)).read() == NOT_UTF8


def test_python_mode_dump_and_validate_round_trip_too(tmp_path):
    for part in parts(tmp_path):
        assert type(part).model_validate(json.loads(part.model_dump_json())) == part


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_any_json_value_round_trips_exactly(value):
    part = Json(value=value)
    assert part.value == value
    assert Json.model_validate_json(part.model_dump_json()) == part
    assert json.loads(part.compact()) == value


def test_json_stores_what_json_carries_so_the_round_trip_is_exact():
    part = Json(value={"pair": (1, 2), 3: "three"})
    assert part.value == {"pair": [1, 2], "3": "three"}
    assert Json.model_validate_json(part.model_dump_json()) == part


def test_json_value_is_a_copy_not_the_callers_object():
    value = {"items": [1]}
    part = Json(value=value)
    value["items"].append(2)
    assert part.value == {"items": [1]}


@pytest.mark.parametrize(
    ("value", "cause"),
    [
        ({1, 2}, "set is not JSON serializable"),
        (b"raw", "bytes is not JSON serializable"),
        (object(), "object is not JSON serializable"),
        (float("nan"), "Out of range float values"),
        ({"x": float("inf")}, "Out of range float values"),
    ],
)
def test_json_refuses_values_json_cannot_carry_with_a_toolwire_error(value, cause):
    with pytest.raises(ToolwireError, match=cause) as info:
        Json(value=value)
    assert not isinstance(info.value, ValidationError)
    assert "Wrap bytes with File.from_bytes" in str(info.value)


def test_json_refuses_nan_in_json_text_too():
    with pytest.raises(ToolwireError, match="Out of range float values"):
        Json.model_validate_json('{"type": "json", "value": NaN}')


def test_json_compact_is_compact_and_keeps_unicode():
    assert Json(value={"a": [1, 2], "é": "ü"}).compact() == '{"a":[1,2],"é":"ü"}'


def test_parts_are_frozen():
    text = Text(text="a")
    with pytest.raises(ValidationError, match="frozen"):
        text.text = "b"  # type: ignore[misc]


def test_equal_files_hash_alike_and_dedupe_in_a_set():
    assert len({File.from_bytes(PNG), File.from_bytes(PNG), File.from_bytes(PNG, name="x")}) == 2


def test_from_bytes_sniffs_and_normalises():
    assert File.from_bytes(PNG).media_type == "image/png"
    assert File.from_bytes(PNG, media_type="image/x-png").media_type == "image/png"
    assert File.from_bytes(b"a,b\n1,2\n", name="t.csv").media_type == "text/csv"


def test_from_bytes_refuses_empty_and_contradicted_bytes():
    with pytest.raises(InvalidFileError, match="shot.png is empty"):
        File.from_bytes(b"", name="shot.png")
    with pytest.raises(
        InvalidFileError, match="shot.png: declared application/pdf, but the bytes are image/png"
    ):
        File.from_bytes(PNG, media_type="application/pdf", name="shot.png")


def test_a_file_built_directly_refuses_bytes_that_contradict_its_media_type():
    pdf = (EXAMPLES / "report.pdf").read_bytes()
    with pytest.raises(ValidationError, match="declared image/png, but the bytes are application"):
        File(source=BytesSource(data=pdf), media_type="image/png")


def test_a_file_loaded_from_json_refuses_bytes_that_contradict_its_media_type():
    pdf = (EXAMPLES / "report.pdf").read_bytes()
    raw = {
        "type": "file",
        "source": {"type": "bytes", "data": base64.b64encode(pdf).decode()},
        "media_type": "image/png",
        "name": "shot.png",
    }
    with pytest.raises(ValidationError, match="shot.png: declared image/png, but the bytes are"):
        File.model_validate_json(json.dumps(raw))
    with pytest.raises(ValidationError, match="shot.png: declared image/png, but the bytes are"):
        TypeAdapter(Part).validate_python({**raw, "source": BytesSource(data=pdf)})


def test_a_path_file_built_directly_stays_lazy_and_is_checked_at_its_first_read(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes((EXAMPLES / "report.pdf").read_bytes())
    file = File(source=PathSource(path=str(path)), media_type="image/png")
    assert file.source.sha256_pinned is None and file.source._pinned is None  # nothing read
    with pytest.raises(InvalidFileError, match="declared image/png, but the bytes are application"):
        file.read()


def count_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each media-type check content.py makes, by the checking function's name."""
    import toolwire.content

    calls: list[str] = []
    for name in ("check_declared", "check_head"):
        real = getattr(toolwire.content, name)

        def counting(*args, real=real, name=name):
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(toolwire.content, name, counting)
    return calls


def test_from_bytes_checks_the_bytes_once_in_full(monkeypatch):
    calls = count_checks(monkeypatch)
    File.from_bytes(PNG, media_type="image/png")
    assert calls == ["check_declared"]


def test_a_file_is_checked_where_it_is_built_not_again_in_each_message(monkeypatch):
    calls = count_checks(monkeypatch)
    file = File(source=BytesSource(data=PNG), media_type="image/png")
    ToolResult.of("c1", "shot", [file])
    User(["Look:", file])
    assert calls == ["check_head"]


def test_a_docx_named_like_a_spreadsheet_round_trips_through_json():
    memo = File.from_bytes((EXAMPLES / "memo.docx").read_bytes(), name="numbers.xlsx")
    assert memo.media_type == DOCX
    assert len(memo.read()) > HEAD_BYTES  # the zip's directory lies beyond the checked head
    assert File.model_validate_json(memo.model_dump_json()) == memo


@pytest.mark.parametrize(
    ("name", "media_type", "kind"),
    [
        ("photo.png", "image/png", "image"),
        ("report.pdf", "application/pdf", "document"),
        ("memo.docx", DOCX, "document"),
        ("data.csv", "text/csv", "document"),
        ("notes.md", "text/markdown", "document"),
        ("formats/page.html", "text/html", "document"),
        ("tone.mp3", "audio/mpeg", "audio"),
        ("clip.mp4", "video/mp4", "video"),
    ],
)
def test_from_path_sniffs_the_same_type_and_kind_as_from_bytes(name, media_type, kind):
    on_disk = File.from_path(EXAMPLES / name)
    in_memory = File.from_bytes((EXAMPLES / name).read_bytes(), name=Path(name).name)
    assert on_disk.media_type == in_memory.media_type == media_type
    assert on_disk.kind == in_memory.kind == kind
    assert on_disk.read() == in_memory.read()


def test_identifier_is_the_name_when_given_else_a_hash_of_the_bytes():
    digest = hashlib.sha256(PNG).hexdigest()
    assert File.from_bytes(PNG, name="photo.png").identifier == "photo.png"
    assert File.from_bytes(PNG).identifier == "file-" + digest[:12]
    unnamed = File(source=PathSource(path=str(EXAMPLES / "photo.png")), media_type="image/png")
    assert unnamed.identifier == "file-" + digest[:12]


def test_from_path_names_the_file_after_its_basename_unless_told_otherwise():
    assert File.from_path(EXAMPLES / "photo.png").name == "photo.png"
    assert File.from_path(str(EXAMPLES / "photo.png")).identifier == "photo.png"
    assert File.from_path(EXAMPLES / "photo.png", name="dash").identifier == "dash"
    typed = File.from_path(EXAMPLES / "report.pdf", media_type="application/pdf")
    assert typed.identifier == "report.pdf"
    assert round_trip(typed).name == "report.pdf"


@pytest.mark.parametrize(
    ("path", "complaint"),
    [
        ("shot\x00.png", "NUL byte"),
        ("shot\udcff.png", "lone surrogate"),
        (b"shot.png", "not bytes"),
        (42, "not int"),
        (None, "not NoneType"),
    ],
)
def test_from_path_refuses_what_no_file_system_call_takes_with_a_toolwire_error(path, complaint):
    with pytest.raises(InvalidFileError, match=complaint):
        File.from_path(path)


def test_identifier_of_a_url_hashes_the_url_and_of_a_provider_file_the_id():
    url = "https://example.com/cat.png"
    assert File.from_url(url).identifier == "file-" + hashlib.sha256(url.encode()).hexdigest()[:12]
    uploaded = File.from_provider_file("anthropic", "file_011", "image/png")
    assert uploaded.identifier == "file-" + hashlib.sha256(b"file_011").hexdigest()[:12]


IDENTIFIERS_SCRIPT = """
import json, sys
from pathlib import Path
import toolwire as tw
examples = Path(sys.argv[1])
files = [
    tw.File.from_path(examples / "report.pdf"),
    tw.File.from_bytes((examples / "photo.png").read_bytes()),
    tw.File.from_url("https://example.com/cat.png"),
    tw.File.from_provider_file("openai", "file-abc", "application/pdf"),
]
print(json.dumps([f.identifier for f in files]))
"""


def test_identifiers_are_stable_across_processes():
    def identifiers_in_a_fresh_interpreter(seed: str) -> list[str]:
        env = {"PYTHONHASHSEED": seed, "PATH": ""}
        command = [sys.executable, "-c", IDENTIFIERS_SCRIPT, str(EXAMPLES)]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        return json.loads(done.stdout)

    here = [
        File.from_path(EXAMPLES / "report.pdf").identifier,
        File.from_bytes(PNG).identifier,
        File.from_url("https://example.com/cat.png").identifier,
        File.from_provider_file("openai", "file-abc", "application/pdf").identifier,
    ]
    assert identifiers_in_a_fresh_interpreter("1") == here
    assert identifiers_in_a_fresh_interpreter("2") == here


@pytest.mark.parametrize(
    ("url", "media_type"),
    [
        ("https://example.com/a/cat.PNG", "image/png"),
        ("https://example.com/photo.jpeg?w=200#top", "image/jpeg"),
        ("s3://bucket/docs/report.pdf", "application/pdf"),
        ("gs://bucket/notes.md", "text/markdown"),
        ("https://example.com/memo.docx", DOCX),
        ("https://example.com/clip.webm", "video/webm"),
    ],
)
def test_from_url_takes_the_type_from_the_extension(url, media_type):
    file = File.from_url(url)
    assert file.media_type == media_type
    assert isinstance(file.source, UrlSource)


def test_from_url_without_a_known_extension_asks_for_the_media_type():
    with pytest.raises(
        InvalidFileError, match=r"https://example.com/download\?id=7: .*pass media_type"
    ):
        File.from_url("https://example.com/download?id=7")
    assert File.from_url("https://example.com/download?id=7", "image/png").media_type == "image/png"


def test_provider_and_url_files_have_no_local_bytes():
    for file in (
        File.from_url("https://x.test/a.png"),
        File.from_provider_file("openai", "f", "image/png"),
    ):
        with pytest.raises(FetchError, match="no local bytes"):
            file.read()
    uploaded = File.from_provider_file("openai", "file-1", "application/pdf")
    assert uploaded.source == ProviderFileSource(provider="openai", file_id="file-1")


@pytest.mark.parametrize(
    ("name", "fallback"),
    [
        ("photo.png", "[Image: photo.png, 640x480, 245 KB]"),
        ("rotated.jpg", "[Image: rotated.jpg, 300x400, 7.7 KB]"),  # as displayed (EXIF 6)
        ("sample.webp", "[Image: sample.webp, 320x240, 2.1 KB]"),
        ("report.pdf", "[PDF: report.pdf, 3 pages, 35 KB]"),
        ("tone.wav", "[Audio: tone.wav, 1.0 s, 31 KB]"),
        ("tone.mp3", "[Audio: tone.mp3, 4.4 KB]"),
        ("clip.mp4", "[Video: clip.mp4, 6.4 KB]"),
        ("memo.docx", "[Document: memo.docx, 36 KB]"),
    ],
)
def test_text_fallback_describes_binary_files_from_their_headers(name, fallback):
    assert File.from_path(EXAMPLES / name, name=name).text_fallback() == fallback


def test_text_fallback_of_a_text_file_carries_its_text():
    fallback = File.from_path(EXAMPLES / "data.csv", name="data.csv").text_fallback()
    header, body = fallback.split("\n", 1)
    assert header == "[CSV: data.csv, 402 B]"
    assert body == (EXAMPLES / "data.csv").read_text()


def test_text_fallback_appends_a_declared_text_and_labels_unnamed_files_by_identifier():
    file = File(source=BytesSource(data=PNG), media_type="image/png", text="A red square.")
    assert file.text_fallback() == f"[Image: {file.identifier}, 640x480, 245 KB]\nA red square."


def test_text_fallback_of_remote_files_names_where_they_are():
    assert File.from_url("https://x.test/cat.png", name="cat.png").text_fallback() == (
        "[Image: cat.png, https://x.test/cat.png]"
    )
    uploaded = File.from_provider_file("openai", "file-9", "application/pdf", name="r.pdf")
    assert uploaded.text_fallback() == "[PDF: r.pdf, openai file file-9]"


FALLBACKS_SCRIPT = """
import sys
from pathlib import Path
import toolwire as tw
for path in sorted(Path(sys.argv[1]).rglob("*")):
    if path.is_file() and path.name != "make_examples.py" and "__pycache__" not in path.parts:
        tw.File.from_path(path).text_fallback()
heavy = ("PIL", "pypdfium2", "pypdf", "docx", "pptx", "openpyxl", "mutagen", "av")
print(sorted(m for m in sys.modules if m.split(".")[0] in heavy))
"""


def test_text_fallbacks_of_every_example_decode_headers_only_no_media_library():
    command = [sys.executable, "-c", FALLBACKS_SCRIPT, str(EXAMPLES)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ("plain é".encode(), "plain é"),
        (b"\xef\xbb\xbfwith BOM", "with BOM"),
        ("utf-16 é".encode("utf-16"), "utf-16 é"),
        ("latin-1 é".encode("latin-1"), "latin-1 é"),
    ],
)
def test_read_text_decodes_utf8_utf16_with_bom_and_falls_back_to_latin1(data, text):
    assert File.from_bytes(data, media_type="text/plain").read_text() == text
