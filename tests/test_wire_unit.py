"""A wire is one unit (providers/wire.py, DESIGN.md §6.2): one ``Wire`` holds every fact of a
wire format, one registry finds it, and the planner applies its facts. A wire declared in this
file alone encodes end to end; every built-in wire answers for every fact; the checks the
encoders used to make are the plan's."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import toolwire as tw
from toolwire.capability import capabilities, providers
from toolwire.errors import CapabilityError, ConversationError
from toolwire.plan import Plan, Step, ToolTurn, plan
from toolwire.plan.ids import accepted_id, accepted_name
from toolwire.providers import BUILT_IN, WIRES, Rule, Wire, register, wire_named, wires
from toolwire.providers.spelling import arguments_json
from toolwire.providers.wire import TOOL_CHOICES, Decoder, Spelling, id_rule, name_rule
from toolwire.tools.repair import PreparedTool
from toolwire.wire_size import HTTPX, Style, wire_bytes

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
caps_module = importlib.import_module("toolwire.capability")


# --- a toy wire, declared here and nowhere else ------------------------------------------------


def toy_step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """The toy API's messages, ``{"role", "text"}``, of one step; a file is written as its
    identifier, a call as ``name#id``."""
    if isinstance(step, ToolTurn):
        messages = []
        for result in step.results:
            said = f"{spelling.name(result.name)}#{spelling.call_id(result.call_id)}"
            messages.append({"role": "tool", "text": f"{said}: {_text(result.parts)}"})
        if step.extra:  # parts the plan put after the results (here: merged user parts)
            messages.append({"role": "user", "text": _text(step.extra)})
        return messages
    if isinstance(step, tw.Assistant):
        calls = [f"{spelling.name(c.name)}#{spelling.call_id(c.id)}" for c in step.tool_calls]
        texts = [p.text for p in step.content if isinstance(p, tw.Text)]
        return [{"role": "assistant", "text": " ".join([*texts, *calls])}]
    if isinstance(step, tw.User):
        return [{"role": "user", "text": _text(step.parts)}]
    return [{"role": "system", "text": step.text}]


def toy_finish(plan: Plan, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The toy API's body: ``{"messages": [...]}``."""
    return {"messages": messages}


def _text(parts: Any) -> str:
    return " ".join(
        f"[file {p.identifier}]" if isinstance(p, tw.File) else getattr(p, "text", "")
        for p in parts
    )


def decode_toy(data: dict[str, Any], issuer: str) -> tw.Assistant:
    """The toy reply: ``{"text", "stop"}``; no text, no part."""
    return tw.Assistant([tw.Text(text=data["text"])] if data.get("text") else [])


TOY = Wire(
    "toy",
    step=toy_step,
    finish=toy_finish,
    decoder=Decoder(decode_toy, lambda data: f"stop={data.get('stop')}"),
    ids=id_rule(r"[0-9a-f]{8}", 8, "", 8, "toy API ids"),
    names=name_rule(r"[a-z0-9_]{1,32}", 32, r"[^a-z0-9_]+", "toy API names"),
    tools=lambda tools, choice: {"tools": [t.name for t in tools]},
    size=HTTPX,
    tool_choices=frozenset(("auto",)),
    roles_alternate=True,
)

#: An override that points a table target at the toy wire, PNGs native in tool results.
TOY_CAPS = {
    "wire": "toy",
    "media": [{"types": ["image/png"], "tool_result": "native", "tool_sources": ["bytes"]}],
}


@pytest.fixture
def toy() -> Iterator[Wire]:
    """The toy wire registered for one test (the registry is the process's)."""
    caps_module._table.cache_clear()
    yield register(TOY)
    WIRES.pop("toy", None)
    WIRES.pop("toy_first", None)
    caps_module._table.cache_clear()


def photo() -> tw.File:
    return tw.File.from_bytes((EXAMPLES / "photo.png").read_bytes(), name="photo.png")


def conversation() -> list[Any]:
    call = tw.ToolCall(id="call-1", name="Get.Photo", arguments={})
    return [
        tw.System("Be brief."),
        tw.User("Look."),
        tw.User("Now."),
        tw.Assistant([call]),
        tw.ToolResult.of("call-1", "Get.Photo", [photo(), "taken"]),
    ]


def test_a_wire_registered_from_a_test_file_encodes_end_to_end(toy: Wire) -> None:
    request = tw.encode(
        conversation(),
        "openai-compatible:any",
        capabilities=TOY_CAPS,
        tools=[tw.Tool("get_photo", "Take a photo.")],
    )
    call_id, name = accepted_id("toy", "call-1"), accepted_name("toy", "Get.Photo")
    assert re.fullmatch(r"[0-9a-f]{8}", call_id) and re.fullmatch(r"et_hoto_[0-9a-f]{8}", name)
    assert request.kwargs == {
        "messages": [
            {"role": "system", "text": "Be brief."},
            {"role": "user", "text": "Look. Now."},  # merged: the toy wire's roles alternate
            {"role": "assistant", "text": f"{name}#{call_id}"},
            {"role": "tool", "text": f"{name}#{call_id}: [file photo.png] taken"},
        ],
        "tools": ["get_photo"],
    }
    assert [(d.identifier, d.mode) for d in request.decisions] == [("photo.png", "native")]
    body = json.dumps(request.kwargs, separators=(",", ":"), ensure_ascii=False)
    assert request.wire_bytes == len(body.encode())  # the toy wire's size style
    assert request.plan is not None and request.plan.wire is toy


def test_a_target_of_the_environment_file_speaks_the_toy_wire_both_ways(
    toy: Wire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "caps.toml"
    path.write_text(
        '[targets.toyco]\nwire = "toy"\n'
        '[[targets.toyco.media]]\ntypes = ["image/png"]\ntool_result = "fallback"\n'
        'user_sources = ["bytes"]\nevidence = "toy docs"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", str(path))
    request = tw.encode(conversation(), "toyco:m1")
    assert [d.mode for d in request.decisions] == ["fallback"]
    assert request.kwargs["messages"][-1] == {
        "role": "user",
        "text": "This is file photo.png: [file photo.png]",
    }
    assert tw.decode({"text": "Done."}, "toyco:m1") == tw.Assistant([tw.Text(text="Done.")])
    with pytest.raises(tw.DecodeError, match=r"an empty message \(stop=length\)"):
        tw.decode({"stop": "length"}, "toyco:m1")


def test_the_toy_wires_rules_are_the_plans_and_its_dialects_choices_the_tools(toy: Wire) -> None:
    with pytest.raises(tw.ToolwireError, match="toy has no tool_choice 'required'"):
        tw.encode(
            [tw.User("hi")],
            "openai-compatible:any",
            capabilities=TOY_CAPS,
            tools=[tw.Tool("get_photo")],
            tool_choice="required",
        )
    with pytest.raises(tw.ToolwireError, match="toy API names"):
        tw.encode(
            [tw.User("hi")], "openai-compatible:any", capabilities=TOY_CAPS, tools=[tw.Tool("Get")]
        )
    first = register(dataclasses.replace(TOY, name="toy_first", starts_with_user=True))
    caps = capabilities("openai-compatible:any", {**TOY_CAPS, "wire": first.name})
    with pytest.raises(ConversationError, match="toy_first wire needs a user message"):
        plan([tw.Assistant([tw.Text(text="Hello.")]), tw.User("Hi.")], caps)


def test_a_misspelt_wire_names_the_registered_ones_and_how_to_register_one(toy: Wire) -> None:
    with pytest.raises(
        CapabilityError, match="wire = 'tyo' is not one of .*toy.*Did you mean 'toy'"
    ):
        capabilities("openai-compatible:any", {"wire": "tyo"})
    with pytest.raises(CapabilityError, match=r"register\(Wire"):
        capabilities("openai-compatible:any", {"wire": "mine"})


def test_a_name_stands_for_one_wire(toy: Wire) -> None:
    assert register(TOY) is TOY  # the same wire again: nothing changes
    with pytest.raises(CapabilityError, match="'toy' is already registered"):
        register(dataclasses.replace(TOY, roles_alternate=False))
    with pytest.raises(CapabilityError, match="'bedrock' is already registered"):
        register(dataclasses.replace(TOY, name="bedrock"))
    with pytest.raises(CapabilityError, match="no wire is named 'toyy'.*Did you mean 'toy'"):
        wire_named("toyy")


# --- every built-in wire has every fact --------------------------------------------------------


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_wire_declares_every_fact_in_its_own_module(name: str) -> None:
    module = importlib.import_module(f"toolwire.providers.{name}")
    wire = wire_named(name)
    assert wire is module.WIRE and wire.name == name and wire.step is module.step
    for field in dataclasses.fields(Wire):
        assert getattr(wire, field.name) is not None or field.name in ("formats", "mark"), (
            field.name
        )
    assert isinstance(wire.ids, Rule) and isinstance(wire.names, Rule)
    assert isinstance(wire.size, Style) and "auto" in wire.tool_choices <= TOOL_CHOICES
    decoder = importlib.import_module(f"toolwire.decoders.{name}")
    assert wire.decoder.decode.__name__ == f"{decoder.__name__}.decode"
    assert wire.decoder.describe_stop({}) == decoder.describe_stop({})


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_wire_answers_where_the_old_tables_were_asked(name: str) -> None:
    wire = wire_named(name)
    assert accepted_id(name, "functions.screenshot:0")  # plan/ids ID_RULES
    assert accepted_name(name, "srv.read file")  # plan/ids NAME_RULES
    assert wire_bytes({"a": "é"}, wire.size) > 0  # wire_size.STYLES
    call = tw.ToolCall(id="c", name="n", arguments={"a": 1})
    assert json.loads(arguments_json(call, wire.separators)) == {"a": 1}  # spelling.SEPARATORS
    prepared = PreparedTool(tw.Tool("get_weather", "Weather."))  # tools.repair
    assert wire.tools([prepared], "auto")  # tools/spell SPELLERS


def test_the_registry_holds_the_built_in_wires_and_every_table_target_names_one() -> None:
    assert set(BUILT_IN) <= set(wires())
    assert {capabilities(f"{p}:any").wire for p in providers()} == set(BUILT_IN)


@pytest.mark.parametrize("provider", providers())
def test_every_target_encodes_and_measures_through_its_wire(provider: str) -> None:
    call = tw.ToolCall(id="call 1", name="get weather", arguments={"city": "Oslo"})
    messages = [
        tw.User("Hi."),
        tw.Assistant([call]),
        tw.ToolResult.of("call 1", "get weather", "7°"),
    ]
    request = tw.encode(messages, f"{provider}:any", tools=[tw.Tool("get_weather", "Weather.")])
    assert request.plan is not None and request.plan.wire.name == request.wire
    assert request.wire_bytes > 0


def test_encoding_for_one_wire_imports_that_wires_module_only() -> None:
    code = (
        "import sys, toolwire as tw; tw.encode([tw.User('hi')], 'anthropic:claude-sonnet-4-5'); "
        "print(sorted(m for m in sys.modules if m.startswith('toolwire.providers.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['toolwire.providers.anthropic', 'toolwire.providers.wire']"


# --- the plan checks what the encoders used to ------------------------------------------------

BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def test_the_plan_refuses_a_converse_conversation_without_a_user_message_first() -> None:
    with pytest.raises(ConversationError, match="needs a user message with content first"):
        plan([tw.Assistant([tw.Text(text="Hello.")]), tw.User("Hi.")], capabilities(BEDROCK))


def test_the_plan_refuses_a_type_converse_has_no_format_for_naming_the_formats() -> None:
    cell = {"types": ["audio/wav"], "tool_result": "native", "tool_sources": ["bytes"]}
    caps = capabilities(BEDROCK, {"media": [cell]})
    tone = tw.File.from_bytes((EXAMPLES / "tone.wav").read_bytes(), name="tone.wav")
    call = tw.ToolCall(id="c1", name="listen", arguments={})
    messages = [tw.User("Go."), tw.Assistant([call]), tw.ToolResult.of("c1", "listen", tone)]
    with pytest.raises(CapabilityError, match=r"no format for audio/wav \(file tone.wav\)"):
        plan(messages, caps)


def test_the_plan_refuses_a_user_message_right_after_mistral_tool_results() -> None:
    caps = capabilities("mistral:mistral-large-latest", {"user_after_tool": "message"})
    call = tw.ToolCall(id="abcdefgh1", name="fetch", arguments={})
    messages = [tw.User("Go."), tw.Assistant([call]), tw.ToolResult.of("abcdefgh1", "fetch", "ok")]
    with pytest.raises(CapabilityError, match="no user message may follow them directly"):
        plan([*messages, tw.User("More.")], caps)
    assert plan(messages + [tw.User("More.")], capabilities("mistral:mistral-large-latest"))
