"""route(): where one file goes for one target, and why — the only reader of capability cells."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from toolwire.capability import Cell, capabilities, with_cell
from toolwire.content import File
from toolwire.errors import FetchError
from toolwire.routes import route, source_kind
from toolwire.sources import BlobSource

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PHOTO = (EXAMPLES / "photo.png").read_bytes()
PHOTO_DIGEST = hashlib.sha256(PHOTO).hexdigest()
CLAUDE = capabilities("anthropic:claude-sonnet-4-5")
BEDROCK_CLAUDE = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")


def photo() -> File:
    return File.from_bytes(PHOTO, name="photo.png")


def test_source_kinds_use_the_capability_vocabulary(tmp_path: Path) -> None:
    openai = capabilities("openai:gpt-5")
    blob = tmp_path / PHOTO_DIGEST[:2] / PHOTO_DIGEST
    blob.parent.mkdir()
    blob.write_bytes(PHOTO)
    files = {
        "bytes": photo(),
        "path": File.from_path(EXAMPLES / "photo.png"),
        "blob": File(source=BlobSource(sha256=PHOTO_DIGEST, root=str(tmp_path)), media_type="image/png"),
        "https": File.from_url("https://example.com/a.png"),
        "http": File.from_url("http://example.com/a.png"),
        "s3": File.from_url("s3://bucket/a.png"),
        "gs": File.from_url("gs://bucket/a.png"),
        "own id": File.from_provider_file("openai", "file-1", "image/png"),
        "other id": File.from_provider_file("anthropic", "file-1", "image/png"),
    }  # fmt: skip
    kinds = {label: source_kind(file, openai) for label, file in files.items()}
    assert kinds == {
        "bytes": "bytes",
        "path": "bytes",
        "blob": "bytes",
        "https": "url",
        "http": "url",
        "s3": "s3",
        "gs": "gcs",
        "own id": "file_id",
        "other id": "foreign",
    }


def test_a_file_in_a_tool_result_goes_natively_where_the_cell_says_native() -> None:
    chosen = route(photo(), True, CLAUDE, None, None)
    assert chosen.mode == "native"
    assert chosen.file == photo()
    assert chosen.reason.startswith("inside the tool result (anthropic SDK ToolResultBlockParam")
    assert chosen.notes == ()


def test_a_sibling_cell_puts_the_file_beside_the_results() -> None:
    nova = capabilities("bedrock:amazon.nova-pro-v1:0")
    pdf = File.from_path(EXAMPLES / "report.pdf")
    chosen = route(pdf, True, nova, None, None)
    assert chosen.mode == "sibling"
    assert chosen.reason.startswith("beside the tool results, in the same message (recorded")


def test_a_fallback_cell_puts_the_file_in_a_labelled_user_message() -> None:
    chosen = route(photo(), True, capabilities("openai-chat:gpt-5-mini"), None, None)
    assert chosen.mode == "fallback"
    assert chosen.reason.startswith("in a labelled user message after the tool results (")


def test_a_file_in_a_user_message_is_native_there() -> None:
    chosen = route(photo(), False, capabilities("openai-chat:gpt-5-mini"), None, None)
    assert chosen.mode == "native"
    assert chosen.reason.startswith("in the user message (")


def test_a_media_type_the_table_does_not_know_has_no_route() -> None:
    bmp = File.from_path(EXAMPLES / "formats" / "image.bmp")
    chosen = route(bmp, True, CLAUDE, None, None)
    assert chosen.mode == "none"
    assert chosen.reason == "anthropic:claude-sonnet-4-5 has no route for image/bmp"


def test_an_error_cell_has_no_route_and_gives_its_evidence() -> None:
    wav = File.from_path(EXAMPLES / "tone.wav")
    for in_tool_result in (True, False):
        chosen = route(wav, in_tool_result, CLAUDE, None, None)
        assert chosen.mode == "none"
        assert (
            chosen.reason
            == "anthropic SDK 2.12: no audio content block type anywhere in MessageParam"
        )


def test_an_error_cell_with_user_sources_still_takes_the_file_in_a_user_message() -> None:
    caps = with_cell(CLAUDE, "audio/wav", user_sources=("bytes",), evidence="test")
    wav = File.from_path(EXAMPLES / "tone.wav")
    assert route(wav, False, caps, None, None).mode == "native"
    assert route(wav, True, caps, None, None).mode == "none"


def test_a_cell_listing_no_sources_has_no_route_and_says_so() -> None:
    caps = with_cell(CLAUDE, "image/png", tool_result="fallback", user_sources=())
    chosen = route(photo(), True, caps, None, None)
    assert (chosen.mode, chosen.reason) == (
        "none",
        "anthropic:claude-sonnet-4-5 lists no source for image/png in a tool result or a user message",
    )
    native_only = with_cell(CLAUDE, "image/png", user_sources=())
    chosen = route(photo(), False, native_only, None, None)
    assert chosen.reason.endswith("lists no source for image/png in a user message")


def test_a_source_the_tool_result_cannot_take_falls_back_to_the_user_message() -> None:
    gemini = capabilities("google:gemini-3-pro-preview")
    uploaded = File.from_provider_file("google", "files/abc", "image/png")
    chosen = route(uploaded, True, gemini, None, None)
    assert chosen.mode == "fallback"
    assert chosen.file is uploaded


def test_a_url_nobody_there_takes_is_refused_without_a_fetcher() -> None:
    remote = File.from_url("https://example.com/photo.png")
    chosen = route(remote, True, BEDROCK_CLAUDE, None, None)
    assert chosen.mode == "none"
    assert chosen.reason == (
        "its URL source is not accepted there (bytes, s3 only); "
        "pass fetch_urls=True (or a fetcher) to download it"
    )


def test_a_url_is_downloaded_through_the_fetcher_and_the_decision_notes_it() -> None:
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        return PHOTO

    remote = File.from_url("https://example.com/photo.png")
    chosen = route(remote, True, BEDROCK_CLAUDE, fetch, None)
    assert asked == ["https://example.com/photo.png"]
    assert chosen.mode == "native"
    assert chosen.file.read() == PHOTO
    assert chosen.file.identifier == remote.identifier  # the labels keep the URL's identifier
    assert chosen.notes == ("downloaded from https://example.com/photo.png",)


def test_a_url_the_target_takes_by_url_is_not_downloaded() -> None:
    def fetch(url: str) -> bytes:
        raise AssertionError("must not download")

    remote = File.from_url("https://example.com/photo.png")
    chosen = route(remote, True, CLAUDE, fetch, None)
    assert chosen.mode == "native" and chosen.file is remote


def test_a_fetcher_failure_is_wrapped_in_a_fetch_error_naming_the_url() -> None:
    def fetch(url: str) -> bytes:
        raise ConnectionRefusedError("nobody home")

    remote = File.from_url("https://example.com/photo.png")
    with pytest.raises(FetchError, match="fetching https://example.com/photo.png failed") as info:
        route(remote, True, BEDROCK_CLAUDE, fetch, None)
    assert isinstance(info.value.__cause__, ConnectionRefusedError)


def test_a_fetch_error_from_the_fetcher_passes_through_unchanged() -> None:
    refusal = FetchError("refused by policy")

    def fetch(url: str) -> bytes:
        raise refusal

    with pytest.raises(FetchError) as info:
        route(File.from_url("https://example.com/photo.png"), True, BEDROCK_CLAUDE, fetch, None)
    assert info.value is refusal


def test_another_providers_file_id_cannot_be_referenced() -> None:
    foreign = File.from_provider_file("openai", "file-123", "image/png")
    chosen = route(foreign, True, CLAUDE, None, None)
    assert chosen.mode == "none"
    assert chosen.reason == "it is a openai file id, which anthropic cannot reference"


def test_a_source_scheme_the_cell_does_not_list_is_named() -> None:
    chosen = route(File.from_url("s3://bucket/photo.png"), True, CLAUDE, None, None)
    assert chosen.reason == "its s3 source is not accepted there (bytes, url, file_id)"
    nothing = with_cell(CLAUDE, "image/png", tool_sources=(), user_sources=("bytes",))
    assert route(File.from_url("gs://b/p.png"), False, nothing, None, None).reason == (
        "its gcs source is not accepted there (bytes)"
    )


def test_a_file_over_the_size_limit_has_no_route() -> None:
    caps = with_cell(CLAUDE, "image/png", max_bytes=1000)
    chosen = route(photo(), True, caps, None, None)
    assert chosen.mode == "none"
    assert chosen.reason == "it is 245 KB; the limit there is 1000 B"


def test_a_file_at_the_size_limit_is_accepted() -> None:
    caps = with_cell(CLAUDE, "image/png", max_bytes=len(PHOTO))
    assert route(photo(), True, caps, None, None).mode == "native"


def test_images_are_fitted_and_the_note_is_kept() -> None:
    seen: list[tuple[str, Cell]] = []
    smaller = File.from_path(EXAMPLES / "sample.webp")

    def fit(file: File, cell: Cell) -> tuple[File, str | None]:
        seen.append((file.identifier, cell))
        return smaller, "resized to 64x64"

    chosen = route(photo(), True, CLAUDE, None, fit)
    assert seen == [("photo.png", CLAUDE.cell("image/png"))]
    assert chosen.file is smaller
    assert chosen.notes == ("resized to 64x64",)


def test_fitting_that_changes_nothing_adds_no_note() -> None:
    chosen = route(photo(), True, CLAUDE, None, lambda file, cell: (file, None))
    assert chosen.notes == ()


def test_only_local_images_are_fitted() -> None:
    def fit(file: File, cell: Cell) -> tuple[File, str | None]:
        raise AssertionError(f"must not fit {file.identifier}")

    pdf = File.from_path(EXAMPLES / "report.pdf")
    assert route(pdf, True, CLAUDE, None, fit).mode == "native"
    remote = File.from_url("https://example.com/photo.png")
    assert route(remote, True, CLAUDE, None, fit).mode == "native"


def test_problems_of_both_positions_are_reported_once_each() -> None:
    # Gemini 3: the tool result takes bytes only, the user message bytes and file ids.
    gemini = capabilities("google:gemini-3-pro-preview")
    chosen = route(File.from_url("s3://bucket/p.png"), True, gemini, None, None)
    assert chosen.reason == (
        "its s3 source is not accepted there (bytes); "
        "its s3 source is not accepted there (bytes, file_id)"
    )
    same = with_cell(gemini, "image/png", tool_sources=("bytes",), user_sources=("bytes",))
    chosen = route(File.from_url("s3://bucket/p.png"), True, same, None, None)
    assert chosen.reason == "its s3 source is not accepted there (bytes)"
