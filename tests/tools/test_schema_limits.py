"""Hostile tool schemas (issue 33, high): a 2.4 KB MCP listing whose definitions refer to one
another twice a level ran past 30 s and 1.3 GB on Gemini, Vertex and Ollama (which take no
``$ref``, so references are inlined), and schemas 300 deep raised RecursionError. Each case
runs in a child process: it ends (a child that never does is stopped) as a ToolDefinitionError
naming the tool, in bounded memory, while a target that takes ``$ref`` still gets the schema as it is."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import toolwire as tw
from toolwire.tools.schema import MAX_DEPTH, MAX_INLINED

#: Seconds after which the child is stopped and the test fails: a guard against a walk that
#: never ends (an exponential one), far above any machine's time; speed is not asserted here.
HANG_SECONDS = 120
PEAK_MB = 300


def doubling(levels: int) -> dict[str, object]:
    """Definitions D0..Dn, each referring to the next twice: 2**n subschemas inlined."""
    defs: dict[str, object] = {
        f"D{i}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/$defs/D{i + 1}"},
                "right": {"$ref": f"#/$defs/D{i + 1}"},
            },
        }
        for i in range(levels)
    }
    defs[f"D{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}}, "$defs": defs}


def nested(depth: int) -> dict[str, object]:
    schema: dict[str, object] = {"type": "object", "properties": {}}
    node = schema
    for _ in range(depth):
        inner: dict[str, object] = {"type": "object", "properties": {}}
        node["properties"] = {"next": inner}
        node = inner
    return schema


CHILD = """
import json, sys, time
import toolwire as tw
schema, model = json.loads(sys.argv[1]), sys.argv[2]
start = time.perf_counter()
try:
    tw.encode([tw.User("hi")], model, tools=[tw.Tool("bomb", "A hostile listing.", schema)])
    error = None
except tw.ToolwireError as exc:
    error = type(exc).__name__ + ": " + str(exc)
print(json.dumps({
    "error": error,
    "seconds": time.perf_counter() - start,
    "peak_mb": max(  # VmHWM starts afresh at exec (ru_maxrss starts from the parent's size)
        int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")
    ) / 1024,
}))
"""


def in_child(schema: dict[str, object], model: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD), json.dumps(schema), model],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "model", ["google:gemini-2.5-flash", "google-vertex:gemini-2.5-flash", "ollama:llama3.2"]
)
def test_references_that_double_at_each_level_are_never_expanded(model: str) -> None:
    """Inlining stops at MAX_INLINED subschemas: Ollama, which takes no $ref, refuses the
    tool; Gemini gets it as JSON Schema (parameters_json_schema), references as they are."""
    schema = doubling(30)
    assert len(json.dumps(schema)) < 4096  # a small listing
    found = in_child(schema, model)
    if model.startswith("ollama"):
        assert "tool 'bomb': inlining its $refs" in str(found["error"])
        assert f"{MAX_INLINED:,} subschemas" in str(found["error"])
    else:
        assert found["error"] is None
    assert float(found["peak_mb"]) < PEAK_MB  # type: ignore[arg-type]


def test_a_target_that_takes_refs_gets_the_doubling_schema_as_it_is() -> None:
    request = tw.encode(
        [tw.User("hi")], "anthropic:claude-sonnet-4-5", tools=[tw.Tool("t", "", doubling(30))]
    )
    (tool,) = request.kwargs["tools"]
    assert "$defs" in tool["input_schema"]


@pytest.mark.parametrize("model", ["google:gemini-2.5-flash", "openai:gpt-5", "ollama:llama3.2"])
def test_a_schema_nested_hundreds_deep_is_refused_when_the_tool_is_made(model: str) -> None:
    found = in_child(nested(300), model)
    assert str(found["error"]).startswith(
        f"ToolDefinitionError: tool 'bomb': its parameters nest more than {MAX_DEPTH} levels"
    )


def test_a_schema_within_the_limits_is_spelled_for_every_dialect() -> None:
    tool = tw.Tool("ok", "", nested(MAX_DEPTH // 2 - 2))
    for model in ("google:gemini-2.5-flash", "openai:gpt-5", "ollama:llama3.2"):
        assert tw.encode([tw.User("hi")], model, tools=[tool]).kwargs
