"""from_mcp against a real MCP server over stdio, then encoded for every target."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.capability import providers
from toolwire.request import encode

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed")

EXAMPLES = Path(__file__).parents[1] / "examples"
SERVER = Path(__file__).with_name("mcp_server.py")
CALLS = {
    "screenshot": {},
    "record": {},
    "report": {},
    "notes": {},
    "weather": {"city": "Oslo"},
    "fail": {},
    "mislabelled": {},
}
MODELS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-5",
    "openai-chat:gpt-5-mini",
    "google:gemini-3-pro-preview",
    "google-vertex:gemini-3-pro-preview",
    "bedrock:anthropic.claude-sonnet-4-5-v1:0",
    "groq:llama-4-scout",
    "mistral:mistral-large-latest",
    "xai:grok-4",
    "openrouter:openai/gpt-5",
    "ollama:llama3.2-vision",
    "cohere:command-a-vision",
    "openai-compatible:qwen",
]


async def _call_all() -> dict[str, object]:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with mcp.stdio_client(params) as (read, write), mcp.ClientSession(read, write) as session:
        await session.initialize()
        return {tool: await session.call_tool(tool, args) for tool, args in CALLS.items()}


@pytest.fixture(scope="module")
def results():
    """Every tool's CallToolResult, from one real server process."""
    return asyncio.run(_call_all())


def _result(results, tool):
    return tw.from_mcp(results[tool], call_id=f"call-{tool}", name=tool)


def test_an_image_becomes_a_file_with_the_same_bytes(results):
    output = _result(results, "screenshot").output
    assert isinstance(output, tw.ContentOutput)
    (image,) = output.value
    assert image.media_type == "image/png"
    assert image.read() == (EXAMPLES / "photo.png").read_bytes()


def test_audio_becomes_a_file_with_the_same_bytes(results):
    (audio,) = _result(results, "record").output.value
    assert (audio.media_type, audio.kind) == ("audio/wav", "audio")
    assert audio.read() == (EXAMPLES / "tone.wav").read_bytes()


def test_an_embedded_pdf_is_a_file_named_after_its_uri_after_the_text(results):
    text, pdf = _result(results, "report").output.value
    assert text == tw.Text(text="Here is the report.")
    assert (pdf.name, pdf.media_type) == ("q3 report.pdf", "application/pdf")
    assert pdf.read() == (EXAMPLES / "report.pdf").read_bytes()


def test_a_text_resource_is_text_and_links_are_url_files_or_stated(results):
    notes, chart, raw = _result(results, "notes").output.value
    assert notes == tw.Text(text="Resource file:///notes.md (text/markdown):\n# Notes\n\n- first")
    assert chart == tw.File.from_url("https://example.com/charts/q3.png", name="q3-chart")
    assert raw == tw.Text(
        text="Resource link: raw data <file:///srv/data/raw.parquet> — the full table"
    )


def test_structured_content_replaces_its_own_json_dump(results):
    output = _result(results, "weather").output
    assert output == tw.JsonOutput(value={"city": "Oslo", "celsius": 21.5, "sky": None})


def test_is_error_becomes_an_error_output(results):
    result = _result(results, "fail")
    assert result.is_error
    assert result.output == tw.ErrorTextOutput(
        value="Error executing tool fail: quota exceeded for today"
    )


def test_an_image_whose_bytes_contradict_its_type_is_an_error_naming_the_item(results):
    with pytest.raises(
        tw.InvalidFileError,
        match=r"'mislabelled' \(call c9\), content item 0 \(image\).*declared image/png.*application/pdf",
    ):
        tw.from_mcp(results["mislabelled"], call_id="c9", name="mislabelled")


@pytest.mark.parametrize("tool", [t for t in CALLS if t != "mislabelled"])
def test_the_json_dict_of_a_result_maps_like_the_sdk_object(results, tool):
    wire = results[tool].model_dump(mode="json", by_alias=True, exclude_none=True)
    assert tw.from_mcp(wire, f"call-{tool}", tool) == _result(results, tool)


def test_import_toolwire_does_not_import_mcp():
    import subprocess

    code = "import sys, toolwire as tw; tw.from_mcp; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _png() -> str:
    return base64.b64encode((EXAMPLES / "photo.png").read_bytes()).decode()


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ({"content": []}, tw.TextOutput(value="")),
        (
            {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
            tw.TextOutput(value="a\nb"),
        ),
        ({"content": [], "structuredContent": [1, 2]}, tw.JsonOutput(value=[1, 2])),
        (
            {"content": [{"type": "text", "text": "3 rows"}], "structuredContent": {"rows": 3}},
            tw.ContentOutput(value=[tw.Text(text="3 rows"), tw.Json(value={"rows": 3})]),
        ),
        (
            {
                "content": [{"type": "text", "text": '{"code": 7}'}],
                "structuredContent": {"code": 7},
                "isError": True,
            },
            tw.ErrorJsonOutput(value={"code": 7}),
        ),
        (
            {
                "content": [{"type": "text", "text": "no"}],
                "structured_content": {"code": 7},
                "is_error": True,
            },
            tw.ErrorTextOutput(value='no\n{"code":7}'),
        ),
        (
            {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x"}]}},
            tw.TextOutput(value="x"),
        ),
    ],
)
def test_results_without_files_map_to_the_plainest_output(wire, expected):
    assert tw.from_mcp(wire, "c1", "tool").output == expected


def test_an_error_with_an_image_states_the_image_in_its_text():
    wire = {
        "isError": True,
        "content": [
            {"type": "text", "text": "render failed"},
            {"type": "image", "data": _png(), "mimeType": "image/png"},
        ],
    }
    output = tw.from_mcp(wire, "c1", "render").output
    assert isinstance(output, tw.ErrorTextOutput)
    assert output.value.startswith("render failed\n[Image: file-")
    assert "640x480" in output.value


def test_a_link_whose_media_type_cannot_be_told_is_stated_as_text():
    wire = {
        "content": [
            {"type": "resource_link", "uri": "https://example.com/api/item", "name": "item"}
        ]
    }
    assert tw.from_mcp(wire, "c1", "t").output == tw.TextOutput(
        value="Resource link: item <https://example.com/api/item>"
    )


@pytest.mark.parametrize(
    ("wire", "message"),
    [
        (
            {"content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]},
            "item 0 \\(image\\): the data is not valid base64",
        ),
        (
            {"content": [{"type": "video", "data": ""}]},
            "item 0 has type 'video'; MCP tool results hold",
        ),
        ({"content": "text"}, "not a CallToolResult"),
        ("just text", "not a CallToolResult"),
    ],
)
def test_malformed_results_are_errors_naming_the_call_and_item(wire, message):
    with pytest.raises(tw.ToolwireError, match=message):
        tw.from_mcp(wire, "c1", "tool")


def _conversation(results) -> list:
    tools = [t for t in CALLS if t != "mislabelled"]
    calls = [tw.ToolCall(id=f"call-{t}", name=t, arguments=CALLS[t]) for t in tools]
    return [
        tw.User("Use every tool."),
        tw.Assistant(calls),
        *(_result(results, t) for t in tools),
        tw.Assistant("All done."),
    ]


def test_the_model_list_covers_every_provider_in_the_table():
    assert sorted(m.split(":", 1)[0] for m in MODELS) == sorted(providers())


@pytest.mark.parametrize("model", MODELS)
def test_mcp_results_encode_for_every_target_with_a_decision_per_file(results, model, tmp_path):
    conversation = _conversation(results)
    request = encode(conversation, model, on_unsupported="text")
    assert [(d.identifier, d.media_type) for d in request.decisions] == [
        (f.identifier, f.media_type)
        for m in conversation
        if isinstance(m, tw.ToolResult) and isinstance(m.output, tw.ContentOutput)
        for f in m.output.value
        if isinstance(f, tw.File)
    ]
    json.dumps(request.to_json())  # JSON-safe
    store = tw.SessionStore(tmp_path)
    store.extend("mcp", conversation)
    assert encode(store.load("mcp"), model, on_unsupported="text").to_json() == request.to_json()


WHERE = "MCP result of 'tool' \\(call c1\\), content item"


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ({"type": "resource", "resource": "file:///a.pdf"}, "0 \\(resource\\): 'resource' is str"),
        ({"type": "resource", "resource": ["x"]}, "0 \\(resource\\): 'resource' is list"),
        ({"type": "resource", "resource": None}, "0 \\(resource\\): 'resource' is NoneType"),
        ({"type": "resource"}, "0 \\(resource\\): 'resource' is NoneType, not an object"),
        ("hello", "0 is str, not an object with a 'type'"),
        (None, "0 is NoneType, not an object with a 'type'"),
        ({"type": "text", "text": {"a": 1}}, "0: text is dict, not a string"),
        ({"type": "image", "data": _png(), "mimeType": 5}, "0: mimeType is int, not a string"),
        (
            {"type": "resource", "resource": {"uri": "file:///n.md", "text": ["a"]}},
            "0: text is list, not a string",
        ),
        ({"type": "resource", "resource": {"uri": 7, "text": "a"}}, "0: uri is int"),
        ({"type": "resource_link", "uri": "https://e.com/a.png", "name": 5}, "0: name is int"),
        ({"type": "resource_link", "uri": ["https://e.com/a.png"]}, "0: uri is list"),
        (
            {"type": "resource_link", "uri": "https://e.com/a", "description": {}},
            "0: description is dict",
        ),
        (
            {"type": "resource_link", "uri": "https://[::1/a.png", "name": "a"},
            "0 is a malformed 'resource_link' block \\(ValueError: Invalid IPv6 URL",
        ),
    ],
)
def test_a_malformed_block_is_a_decode_error_naming_the_call_and_item(block, message):
    with pytest.raises(tw.DecodeError, match=f"{WHERE} {message}"):
        tw.from_mcp({"content": [block]}, "c1", "tool")


def test_the_item_named_in_an_error_is_the_malformed_one():
    wire = {"content": [{"type": "text", "text": "ok"}, {"type": "resource", "resource": 3}]}
    with pytest.raises(tw.DecodeError, match=f"{WHERE} 1 \\(resource\\): 'resource' is int"):
        tw.from_mcp(wire, "c1", "tool")


def _blob(payload: bytes) -> dict:
    blob = base64.b64encode(payload).decode()
    resource = {"uri": "file:///a.txt", "blob": blob, "mimeType": "text/plain"}
    return {"content": [{"type": "resource", "resource": resource}]}


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_embedded_data_is_capped_at_exactly_max_bytes_whatever_its_padding(size):
    wire = _blob(b"hello!"[:size])
    (file,) = tw.from_mcp(wire, "c1", "tool", max_bytes=size).output.value
    assert file.read() == b"hello!"[:size]
    with pytest.raises(tw.InvalidFileError, match=f"holds {size} bytes, over the {size - 1} B"):
        tw.from_mcp(wire, "c1", "tool", max_bytes=size - 1)


def test_the_default_cap_is_50_mb_and_is_checked_before_decoding():
    from toolwire.mcp import MAX_EMBEDDED_BYTES

    assert MAX_EMBEDDED_BYTES == 50 * 1024 * 1024
    length = (MAX_EMBEDDED_BYTES // 3 + 1) * 4  # base64 of 50 MB + 1 or 2 bytes, no padding
    wire = {"content": [{"type": "image", "data": "!" * length, "mimeType": "image/png"}]}
    # not valid base64 at all: only a size check made before decoding can report the size
    with pytest.raises(tw.InvalidFileError, match="item 0 \\(image\\): .* over the 50 MB cap"):
        tw.from_mcp(wire, "c1", "tool")


def _sdk_result(kind: str, payload: bytes):
    types = mcp.types
    data = base64.b64encode(payload).decode()
    block = {
        "image": lambda: types.ImageContent(type="image", data=data, mimeType="image/png"),
        "audio": lambda: types.AudioContent(type="audio", data=data, mimeType="audio/wav"),
        "resource": lambda: types.EmbeddedResource(
            type="resource",
            resource=types.BlobResourceContents(
                uri="file:///photo.png", blob=data, mimeType="image/png"
            ),
        ),
    }[kind]()
    return types.CallToolResult(content=[block])


@pytest.mark.parametrize(
    ("kind", "example"), [("image", "photo.png"), ("audio", "tone.wav"), ("resource", "photo.png")]
)
def test_sdk_results_with_embedded_files_over_the_cap_are_refused(kind, example):
    payload = (EXAMPLES / example).read_bytes()
    result = _sdk_result(kind, payload)
    (file,) = tw.from_mcp(result, "c1", "tool", max_bytes=len(payload)).output.value
    assert file.read() == payload
    with pytest.raises(tw.InvalidFileError, match=f"{WHERE} 0 \\({kind}.* over the "):
        tw.from_mcp(result, "c1", "tool", max_bytes=len(payload) - 1)
