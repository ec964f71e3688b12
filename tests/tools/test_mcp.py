"""tools_from_mcp (tools/mcp.py): a real MCP server's tools/list answer becomes Tools that every
target takes."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.messages import User
from toolwire.request import encode
from toolwire.tools import ToolDefinitionError, spell

from .helpers import MODELS, validate, with_fragment

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed")

SERVER = Path(__file__).parents[1] / "mcp_server.py"


async def _list_tools() -> object:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with mcp.stdio_client(params) as (read, write), mcp.ClientSession(read, write) as session:
        await session.initialize()
        return await session.list_tools()


@pytest.fixture(scope="module")
def listed() -> object:
    """The ListToolsResult of tests/mcp_server.py, from one real server process."""
    return asyncio.run(_list_tools())


def test_each_listed_tool_becomes_a_tool_with_its_input_schema(listed) -> None:
    tools = tw.tools_from_mcp(listed)
    names = [t.name for t in tools]
    assert names == [t.name for t in listed.tools]  # type: ignore[attr-defined]
    assert "weather" in names
    weather = tools[names.index("weather")]
    assert weather.parameters["properties"]["city"]["type"] == "string"
    assert weather.parameters["required"] == ["city"]
    assert all(isinstance(t, tw.Tool) and t.parameters["type"] == "object" for t in tools)


def test_the_json_form_and_the_tool_list_give_the_same_tools(listed) -> None:
    as_json = listed.model_dump(mode="json", by_alias=True, exclude_none=True)  # type: ignore[attr-defined]
    assert "inputSchema" in as_json["tools"][0]
    assert tw.tools_from_mcp(as_json) == tw.tools_from_mcp(listed)
    assert tw.tools_from_mcp(listed.tools) == tw.tools_from_mcp(listed)  # type: ignore[attr-defined]


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_the_servers_tools_fit_every_targets_sdk_types(listed, provider) -> None:
    model = MODELS[provider]
    tools = [tw.read_file_tool, *tw.tools_from_mcp(listed)]
    kwargs = with_fragment(
        encode([User("hi")], model).kwargs, spell(tools, "auto", capabilities(model))
    )
    validate(kwargs, model)


@pytest.mark.parametrize(
    ("listed", "message"),
    [
        ("tools", "got str"),
        ({"tools": [{"name": "a"}]}, "MCP tool 0 ('a') has no name or no inputSchema"),
        ({"tools": [object()]}, "not an mcp.types.Tool"),
    ],
)
def test_a_malformed_listing_is_a_clear_error(listed, message) -> None:
    with pytest.raises(ToolDefinitionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tw.tools_from_mcp(listed)
