"""A tiny MCP server for examples/agent.py, spoken over stdio.

Two tools that return what real MCP servers return: ``screenshot`` an image (examples/photo.png)
and ``weather(city)`` structured content (made-up figures: this is an example, not a forecast).

    python examples/mcp_server.py       # speaks MCP on stdin/stdout
"""

from __future__ import annotations

import base64
import zlib
from pathlib import Path
from typing import TypedDict

from mcp.types import ImageContent

try:
    from mcp.server.mcpserver import MCPServer
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef,attr-defined]

PHOTO = Path(__file__).with_name("photo.png")
SKIES = ("clear", "cloudy", "rain", "snow")

server = MCPServer("toolwire-example", log_level="ERROR")


class Weather(TypedDict):
    """The current weather in a city."""

    city: str
    celsius: float
    sky: str


@server.tool()
def screenshot() -> ImageContent:
    """Take a screenshot of the user's screen (a PNG image)."""
    data = base64.b64encode(PHOTO.read_bytes()).decode("ascii")
    # Validated from the wire names, which mcp 1.x and 2.x share.
    return ImageContent.model_validate({"type": "image", "data": data, "mimeType": "image/png"})


@server.tool()
def weather(city: str) -> Weather:
    """The current weather in a city: temperature in °C and the state of the sky."""
    seed = zlib.crc32(city.strip().lower().encode("utf-8"))  # same city, same answer
    return Weather(city=city, celsius=round(seed % 350 / 10 - 5, 1), sky=SKIES[seed % len(SKIES)])


if __name__ == "__main__":
    server.run("stdio")
