"""A small MCP server (FastMCP, called MCPServer since mcp 2) for tests/test_mcp.py, run over stdio.

Its tools return what real servers return: an image, an audio clip, a PDF as an embedded blob
resource, a text resource with resource links, structured content, an error, and an image
whose declared type its bytes contradict.

    python tests/mcp_server.py          # speaks MCP on stdin/stdout
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from mcp.types import (
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]

EXAMPLES = Path(__file__).parents[1] / "examples"
server = MCPServer("toolwire-test", log_level="ERROR")


def _b64(name: str) -> str:
    return base64.b64encode((EXAMPLES / name).read_bytes()).decode("ascii")


@server.tool()
def screenshot() -> ImageContent:
    """A PNG screenshot."""
    return ImageContent(type="image", data=_b64("photo.png"), mimeType="image/png")


@server.tool()
def record() -> AudioContent:
    """One second of a 440 Hz tone."""
    return AudioContent(type="audio", data=_b64("tone.wav"), mimeType="audio/wav")


@server.tool()
def report() -> list[TextContent | EmbeddedResource]:
    """The quarterly report as an embedded PDF resource, after a sentence."""
    pdf = BlobResourceContents(
        uri="file:///reports/q3%20report.pdf", mimeType="application/pdf", blob=_b64("report.pdf")
    )
    return [
        TextContent(type="text", text="Here is the report."),
        EmbeddedResource(type="resource", resource=pdf),
    ]


@server.tool()
def notes() -> list[EmbeddedResource | ResourceLink]:
    """Notes as a text resource, then a link to a chart and a link to a local file."""
    text = TextResourceContents(
        uri="file:///notes.md", mimeType="text/markdown", text="# Notes\n\n- first"
    )
    return [
        EmbeddedResource(type="resource", resource=text),
        ResourceLink(
            type="resource_link",
            uri="https://example.com/charts/q3.png",
            name="q3-chart",
            mimeType="image/png",
        ),
        ResourceLink(
            type="resource_link",
            uri="file:///srv/data/raw.parquet",
            name="raw data",
            description="the full table",
        ),
    ]


@server.tool()
def weather(city: str) -> dict[str, Any]:
    """Structured output: MCPServer sends it as structuredContent and as a JSON text block."""
    return {"city": city, "celsius": 21.5, "sky": None}


@server.tool()
def fail() -> str:
    """Always fails the way tools report failures: an isError result."""
    raise ToolError("quota exceeded for today")


@server.tool()
def mislabelled() -> ImageContent:
    """A PDF that claims to be a PNG."""
    return ImageContent(type="image", data=_b64("report.pdf"), mimeType="image/png")


if __name__ == "__main__":
    server.run("stdio")
