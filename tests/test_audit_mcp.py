"""Audit of issue 19's MCP fixes: malformed results stay DecodeErrors or plain text."""

from __future__ import annotations

import toolwire as tw


def test_a_text_block_nested_past_the_json_parsers_depth_stays_text_beside_structured_content():
    deep = "[" * 100_000 + "]" * 100_000
    result = {"content": [{"type": "text", "text": deep}], "structuredContent": {"a": 1}}

    output = tw.from_mcp(result, "c1", "tool").output

    assert isinstance(output, tw.ContentOutput)
    text, json_part = output.value
    assert isinstance(text, tw.Text) and text.text == deep
    assert isinstance(json_part, tw.Json) and json_part.value == {"a": 1}
