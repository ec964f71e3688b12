"""One error hierarchy, and messages that say what, where, what is allowed and what to do."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from toolwire import errors
from toolwire.content import File, Json
from toolwire.errors import (
    FileChangedError,
    InvalidFileError,
    MissingDependencyError,
    ToolwireError,
    Unsupported,
    UnsupportedContentError,
    missing_dependency,
    suggest,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PNG = (EXAMPLES / "photo.png").read_bytes()

ERROR_CLASSES = [
    cls
    for _, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, Exception)
    and not issubclass(cls, Warning)  # ToolwireWarning: a warnings category, never raised
    and cls.__module__ == errors.__name__
]


def test_the_errors_module_defines_the_whole_hierarchy():
    assert len(ERROR_CLASSES) >= 12


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_every_error_is_a_toolwire_error_with_a_docstring(cls):
    assert issubclass(cls, ToolwireError)
    assert cls.__doc__ and cls.__doc__.strip()


def test_the_one_warning_is_a_user_warning_with_a_docstring():
    assert issubclass(errors.ToolwireWarning, UserWarning)
    assert not issubclass(errors.ToolwireWarning, ToolwireError)
    assert errors.ToolwireWarning.__doc__


@pytest.mark.parametrize(
    ("cls", "builtin"),
    [
        (errors.InvalidFileError, ValueError),
        (errors.UnknownModelError, ValueError),
        (errors.CapabilityError, ValueError),
        (errors.ConversationError, ValueError),
        (errors.DecodeError, ValueError),
        (errors.UnsupportedContentError, ValueError),
        (errors.MissingDependencyError, ImportError),
        (errors.PathNotAllowedError, PermissionError),
    ],
)
def test_errors_are_also_the_builtin_exception_callers_already_catch(cls, builtin):
    assert issubclass(cls, builtin)


def test_a_changed_file_is_an_invalid_file():
    assert issubclass(FileChangedError, InvalidFileError)


def test_a_contradicted_media_type_names_the_file_both_types_and_the_fix():
    with pytest.raises(InvalidFileError) as info:
        File.from_bytes(PNG, media_type="application/pdf", name="q3.pdf")
    assert str(info.value) == (
        "q3.pdf: declared application/pdf, but the bytes are image/png; "
        "fix the media type or the file"
    )


def test_unrecognisable_bytes_name_the_file_and_ask_for_a_media_type():
    with pytest.raises(InvalidFileError) as info:
        File.from_bytes(bytes(range(256)), name="dump.bin")
    assert (
        str(info.value) == "dump.bin: cannot tell the media type from its bytes; pass media_type=…"
    )


def test_a_missing_path_names_it_and_chains_the_os_error(tmp_path):
    path = tmp_path / "nope.png"
    with pytest.raises(InvalidFileError) as info:
        File.from_path(path)
    assert str(info.value) == f"{path}: no such file"
    assert isinstance(info.value.__cause__, FileNotFoundError)


def test_a_changed_file_names_the_path_both_hashes_and_the_fix(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path)
    file.read()
    path.write_bytes(PNG + b"!")
    with pytest.raises(FileChangedError) as info:
        File.model_validate_json(file.model_dump_json()).read()
    message = str(info.value)
    assert message.startswith(f"{path} changed on disk after it was first read (sha256 ")
    assert message.endswith("re-create the File to send the new content")


def test_a_value_json_cannot_carry_names_the_part_the_cause_and_what_works():
    with pytest.raises(ToolwireError) as info:
        Json(value={"ids": {1, 2}})
    message = str(info.value)
    assert message.startswith(
        "Json value is not JSON data (Object of type set is not JSON serializable)"
    )
    assert "Use str, int, float, bool, None, lists and dicts" in message
    assert isinstance(info.value.__cause__, TypeError)


def test_unsupported_content_lists_every_file_what_is_accepted_and_the_way_out():
    files = [
        Unsupported(3, "voice.wav", "audio/wav", "no audio in tool results"),
        Unsupported(5, "clip.mp4", "video/mp4", "no video at all"),
    ]
    error = UnsupportedContentError("mistral:mistral-large", files, "image/png, application/pdf")
    assert str(error).splitlines() == [
        "mistral:mistral-large cannot take 2 file(s) in this conversation:",
        "  - voice.wav (audio/wav) in message 3: no audio in tool results",
        "  - clip.mp4 (video/mp4) in message 5: no video at all",
        "It accepts: image/png, application/pdf.",
        'Pass on_unsupported="convert" to convert each file to what the model reads (PDF '
        'pages and text, Markdown, video frames, PNG), on_unsupported="text" to send each '
        "file's text description instead, or choose a model that accepts these media.",
    ]
    assert error.files == files
    assert error.model == "mistral:mistral-large"


def test_suggest_offers_close_names_only():
    assert suggest("antropic", ["anthropic", "openai", "google"]) == " Did you mean 'anthropic'?"
    assert suggest("zzz", ["anthropic", "openai"]) == ""


def test_a_missing_dependency_names_the_extra_to_install():
    error = missing_dependency("pypdfium2", "files")
    assert isinstance(error, MissingDependencyError)
    assert (
        str(error) == "pypdfium2 is not installed; install it with: pip install 'toolwire[files]'"
    )
