"""estimate_tokens prices the plan that encode sends: for every target, each file's mode in
the estimate is its mode in ``encode(..., on_unsupported="text")``, count limits included."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from providers.test_conformance import MODELS

from toolwire.content import File, Text, ToolCall
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import encode
from toolwire.tokens import estimate_tokens

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = ("photo.png", "report.pdf", "tone.wav", "clip.mp4", "memo.docx", "notes.md")


def conversation(files: list[File]) -> list[object]:
    calls = [ToolCall(id=f"call_{i}", name="fetch", arguments={}) for i in range(len(files))]
    return [
        User([Text(text="look"), File.from_path(EXAMPLES / "photo.png", name="first.png")]),
        Assistant(calls),
        *(ToolResult.of(c.id, c.name, [f]) for c, f in zip(calls, files, strict=True)),
        User("and now?"),
    ]


def modes_agree(messages: list[object], model: str) -> None:
    request = encode(messages, model, on_unsupported="text")
    estimate = estimate_tokens(messages, model)
    sent = sorted((d.message_index, d.identifier, d.mode) for d in request.decisions)
    priced = sorted((f.message_index, f.identifier, f.mode) for f in estimate.files)
    assert priced == sent


@pytest.mark.parametrize("model", MODELS)
def test_estimate_and_request_agree_on_how_each_file_travels(model):
    modes_agree(conversation([File.from_path(EXAMPLES / n) for n in FILES]), model)


def many_images(count: int) -> list[File]:
    from PIL import Image

    images = []
    for i in range(count):
        buffer = io.BytesIO()
        Image.new("RGB", (64, 48), (i * 9 % 256, 80, 160)).save(buffer, "PNG")
        images.append(File.from_bytes(buffer.getvalue(), "image/png", f"shot-{i}.png"))
    return images


def test_images_beyond_bedrocks_count_limit_are_priced_as_the_text_encode_sends():
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    messages = conversation(many_images(24))
    modes_agree(messages, model)
    priced = [f.mode for f in estimate_tokens(messages, model).files]
    assert priced.count("text") == 11  # 25 images, 20 per request: down to 10, then 4 more
    assert priced[0] == "text" and priced[-1] != "text"


def test_a_lone_tool_result_is_still_priced_file_by_file():
    result = ToolResult.of("c", "shot", File.from_path(EXAMPLES / "photo.png"))
    estimate = estimate_tokens([result], "anthropic:claude-sonnet-4-5")
    assert [f.mode for f in estimate.files] == ["native"]
