"""`import toolwire` stays light, and the public API is exactly what ``__all__`` says.

The import time itself is a figure printed by bench/imports.py, never asserted here.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toolwire

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

HEAVY = (
    "anthropic",
    "openai",
    "google.genai",
    "boto3",
    "botocore",
    "PIL",
    "pypdfium2",
    "pypdf",
    "mistralai",
    "cohere",
    "groq",
    "ollama",
    "mcp",
    "docx",
    "pptx",
)

MODULES_SCRIPT = """
import json, sys
import toolwire
{after}
heavy = json.loads(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))))
"""


def heavy_modules_loaded(after: str = "") -> list[str]:
    """Heavy modules in sys.modules of a fresh interpreter after ``import toolwire`` + ``after``."""
    script = MODULES_SCRIPT.format(after=after)
    command = [sys.executable, "-c", script, json.dumps(HEAVY)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_heavy_module_check_sees_a_heavy_import():
    assert heavy_modules_loaded("import PIL.Image") != []


def test_import_toolwire_loads_no_provider_sdk_image_pdf_office_or_mcp_library():
    assert heavy_modules_loaded() == []


def test_using_the_core_model_loads_none_of_them_either():
    after = (
        f"f = toolwire.File.from_path({str(EXAMPLES / 'photo.png')!r}); f.text_fallback();"
        "toolwire.load_conversation(toolwire.dump_conversation([toolwire.ToolResult.of('c', 'n', [f])]), trust=['paths'])"
    )
    assert heavy_modules_loaded(after) == []


def served_names() -> set[str]:
    """Public names the package answers to: its lazy table, and anything toolwire defines in it."""
    lazy = set(toolwire._LAZY)
    defined = {
        name
        for name, value in vars(toolwire).items()
        if not name.startswith("_")
        and getattr(value, "__module__", "").startswith("toolwire")
        and not isinstance(value, type(toolwire))  # submodules appear as attributes once loaded
    }
    return lazy | defined | {"__version__"}


def test_all_lists_exactly_the_names_the_package_serves():
    assert set(toolwire.__all__) == served_names()
    assert len(toolwire.__all__) == len(set(toolwire.__all__))
    assert dir(toolwire) == sorted(toolwire.__all__)


# Resolve every name in a fresh interpreter that has first imported every module behind the
# names, as a program that has used the whole API has: a submodule named like a function
# (toolwire.request, toolwire.capability, toolwire.decoders) must not shadow that function.
RESOLVE_SCRIPT = """
import importlib, json, types, typing
import toolwire
for module in sorted(set(toolwire._LAZY.values())):
    try:
        importlib.import_module(module)
    except ImportError:
        pass
found = {}
for name in toolwire.__all__:
    try:
        value = getattr(toolwire, name)
    except Exception as exc:
        found[name] = f"{type(exc).__name__}: {exc}"
        continue
    if typing.get_origin(value) in (typing.Annotated, typing.Literal, types.UnionType):
        found[name] = "alias"
    elif isinstance(value, types.ModuleType):
        found[name] = f"{name} is the module {value.__name__}, not the object of that name"
    elif getattr(value, "__name__", None) == name and value.__module__.startswith("toolwire."):
        found[name] = "ok" if value.__doc__ else "no docstring"
    elif type(value).__module__.startswith("toolwire."):  # a ready-made instance (read_file_tool)
        found[name] = "ok" if type(value).__doc__ else "no docstring"
    else:
        found[name] = f"{name} is {value!r}"
print(json.dumps(found))
"""


@functools.cache
def resolved() -> dict[str, str]:
    command = [sys.executable, "-c", RESOLVE_SCRIPT]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", [n for n in toolwire.__all__ if n != "__version__"])
def test_every_public_name_resolves_to_the_documented_object_of_that_name(name):
    assert resolved()[name] in ("ok", "alias")


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="module 'toolwire' has no attribute 'Flie'"):
        toolwire.Flie  # noqa: B018


def test_version_is_a_string():
    assert isinstance(toolwire.__version__, str)
    assert toolwire.__version__.count(".") == 2


# --- the API as a type checker sees it (DESIGN.md §5.1 "The public API is static") ----------


def mypy(folder: Path, source: str, *flags: str) -> list[tuple[int, str, str]]:
    """mypy --strict on ``source`` as a user's script: (line, "error" or "note", text) of what
    it reports there. toolwire is read from where this process imported it, and checked
    silently (the package's own errors are the package test's: ``mypy`` in pyproject.toml)."""
    script = folder / "user.py"
    script.write_text(source)
    env = {**os.environ, "MYPYPATH": str(Path(toolwire.__file__).parents[1])}
    command = [
        sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports",
        "silent", "--cache-dir", str(folder / "cache"), "--show-error-codes", *flags, str(script),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env)
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2: mypy could not run
    found = []
    for line in done.stdout.splitlines():
        match = re.match(r"user\.py:(\d+): (error|note): (.*)", line)
        if match:
            found.append((int(match[1]), match[2], match[3]))
    return found


USER_SCRIPT = """
from collections.abc import Mapping
from pathlib import Path

import anthropic

import toolwire as tw

MODEL = "anthropic:claude-sonnet-4-5"


def answer(call: tw.ToolCall, photo: Path) -> tw.ToolResult:
    return tw.ToolResult.of(call.id, call.name, tw.File.from_path(photo))


def modes(history: list[tw.Message], model: str) -> list[tw.Mode]:
    policy: tw.OnUnsupported = "text"
    request: tw.Request = tw.encode(history, model, on_unsupported=policy)
    decisions: list[tw.Decision] = request.decisions
    return [decision.mode for decision in decisions]


def costs(history: list[tw.Message], model: str) -> list[tw.FileTokens]:
    estimate: tw.TokenEstimate = tw.estimate_tokens(history, model, detail="low")
    return list(estimate.files)


def sessions(store: tw.SessionStore) -> list[tw.SessionInfo]:
    return store.list_sessions()


def cell(model: str) -> tw.Cell | None:
    caps: tw.Capabilities = tw.capabilities(model)
    return caps.cell("image/png")


def tool() -> tw.ReadFileTool:
    return tw.read_file_tool.bind(root="docs")


def left_out(error: tw.UnsupportedContentError) -> list[tw.Unsupported]:
    return list(error.files)


def step(client: anthropic.Anthropic, store: tw.SessionStore, uploads: tw.Uploads) -> int:
    \"\"\"One turn of an agent loop: the stored session, sent and answered.\"\"\"
    history: list[tw.Message] = store.load("s1")
    done: list[tw.Outcome] = uploads.sync(history, MODEL, client)
    sent = tw.fit(uploads.resolve(history, MODEL), MODEL, 150_000)
    plan: tw.Plan = tw.plan_request(sent, MODEL, tools=[tw.read_file_tool], tool_choice="auto")
    request: tw.Request = tw.spell(plan)
    tokens: int = tw.estimate_tokens(sent, MODEL, plan=plan).total
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, **request.kwargs)
    message: tw.Assistant = tw.decode(reply, MODEL)
    store.append("s1", message, expect=len(history))
    for call in message.tool_calls:
        arguments: Mapping[str, tw.JsonValue] = call.arguments
        output = tw.read_file_tool(**arguments)
        store.append("s1", tw.ToolResult(call_id=call.id, name=call.name, output=output))
    return tokens + len(done)


def streamed(client: anthropic.Anthropic, history: list[tw.Message]) -> tw.Assistant:
    # one streamed turn: deltas rendered as they arrive, the reply decoded whole
    decoder = tw.StreamDecoder(MODEL)
    request = tw.encode(history, MODEL)
    with client.messages.stream(model="claude-opus-4-6", max_tokens=1024, **request.kwargs) as s:
        for event in s:
            for delta in decoder.feed(event):
                if isinstance(delta, tw.TextDelta | tw.ThinkingDelta):
                    print(delta.text, end="")
                elif isinstance(delta, tw.ToolCallFinished):
                    call: tw.ToolCall = delta.call
                    print(call.name)
    stop: str | None = decoder.stop_reason
    print(stop, decoder.usage.get("output_tokens"))
    return decoder.result() if decoder.finished else decoder.partial()


async def streamed_async(client: anthropic.AsyncAnthropic) -> tw.Assistant:
    stream = await client.messages.create(
        model="claude-opus-4-6", max_tokens=1024, messages=[], stream=True
    )
    return await tw.decode_stream_async(stream, MODEL)


history: list[tw.Message] = [
    tw.System("Be brief."),
    tw.User([tw.Text(text="hi"), tw.File.from_bytes(b"%PDF-1.4 x", "application/pdf")]),
    tw.Assistant([tw.ToolCall(id="c1", name="shot", arguments={"path": "a.png"})]),
    answer(tw.ToolCall(id="c1", name="shot", arguments={}), Path("a.png")),
]
output: tw.ToolOutput = tw.to_output({"a": 1})
reply: tw.Assistant = tw.decode({}, "anthropic:claude-sonnet-4-5")
out: tw.ContentOutput = tw.read_file("a.png")
value: tw.JsonValue = tw.Json(value=[1, "two", {"three": 3.0}]).value
kept = tw.load_conversation(tw.dump_conversation(history))
"""


@pytest.mark.slow
def test_a_user_script_type_checks_under_mypy_strict(tmp_path):
    """The API is visible to static tools: literal __all__, py.typed, every returned type;
    the request's kwargs splat into the SDK's own typed call."""
    assert mypy(tmp_path, USER_SCRIPT) == []


#: A user's mistakes, each marked with its name: mypy --strict reports each on its line.
MISUSES = """
import toolwire as tw

MODEL = "anthropic:claude-sonnet-4-5"
history: list[tw.Message] = [tw.User("hi")]
store = tw.SessionStore("store")

tw.encode([{"role": "user", "content": "hi"}], MODEL)  # misuse: dict for a message
store.append("s1", {"role": "user", "content": "hi"})  # misuse: dict for a stored message
tw.encode(history, MODEL, on_unsupported="covnert")  # misuse: misspelled policy
tw.estimate_tokens(history, MODEL, on_unsupported="txt")  # misuse: misspelled estimate policy
tw.encode(history, MODEL, tools="read_file")  # misuse: str for tools
tw.File.from_bytes("a photo")  # misuse: str for bytes
print(tw.encode(history, MODEL).decisions[0].modes)  # misuse: no such Decision field
tw.encode(tw.User("hi"), MODEL)  # misuse: one message for the conversation
store.extend("s1", tw.User("hi"))  # misuse: one message for the messages to store
tw.Flie.from_path("a.png")  # misuse: misspelled public name
"""
_MARKED = {
    line.split("# misuse: ")[1]: number
    for number, line in enumerate(MISUSES.splitlines(), start=1)
    if "# misuse: " in line
}


@pytest.fixture(scope="module")
def misuse_errors(tmp_path_factory):
    found = mypy(tmp_path_factory.mktemp("misuses"), MISUSES)
    return [(line, text) for line, kind, text in found if kind == "error"]


@pytest.mark.parametrize("misuse", list(_MARKED))
@pytest.mark.slow
def test_mypy_strict_reports_a_misuse_once_on_its_line(misuse, misuse_errors):
    assert [text for line, text in misuse_errors if line == _MARKED[misuse]] != []
    assert len([line for line, _ in misuse_errors if line == _MARKED[misuse]]) == 1


@pytest.mark.slow
def test_mypy_strict_reports_nothing_else_in_the_script_of_misuses(misuse_errors):
    assert [(line, text) for line, text in misuse_errors if line not in _MARKED.values()] == []


def _public_members() -> list[tuple[str, str, str]]:
    """(label, kind, expression) for every public name and, of the classes (and ready-made
    instances) among them, the constructor and every public method, property and field that
    toolwire defines: kind "function", "method", "property" or "value"."""
    found = []
    for name in toolwire.__all__:
        value = getattr(toolwire, name)
        if inspect.isfunction(value):
            found.append((name, "function", f"tw.{name}"))
            continue
        if isinstance(value, type):
            cls, subject = value, "x"
            found.append((name, "value", f"tw.{name}"))  # the constructor
        elif type(value).__module__.startswith("toolwire."):
            cls, subject = type(value), f"tw.{name}"
        else:
            continue  # a type alias
        for attr in _own_attributes(cls):
            member = inspect.getattr_static(cls, attr, None)  # None: a pydantic field
            if isinstance(member, property | functools.cached_property):
                kind = "property"
            elif inspect.isfunction(member) or isinstance(member, classmethod | staticmethod):
                kind = "method"
            else:
                kind = "value"
            found.append((f"{name}.{attr}", kind, f"{subject}.{attr}"))
    return found


def _own_attributes(cls: type) -> list[str]:
    """Public attributes ``cls`` and its toolwire bases define (not pydantic's or object's)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("toolwire."):
            names |= set(vars(klass)) | set(getattr(klass, "__annotations__", {}))
    return sorted(n for n in names if not n.startswith(("_", "model_")) or n == "__call__")


@pytest.fixture(scope="module")
def public_types(tmp_path_factory):
    """label -> (kind, the type mypy reveals) of every public member."""
    members = _public_members()
    lines = ["import toolwire as tw", ""]
    labels = {}
    for label, kind, expression in members:
        owner = label.split(".")[0]
        if expression.startswith("x."):
            lines.append(f"def _{len(lines)}(x: tw.{owner}) -> None:")
            lines.append(f"    reveal_type({expression})")
        else:
            lines.append(f"reveal_type({expression})")
        labels[len(lines)] = (label, kind)
    notes = mypy(tmp_path_factory.mktemp("public"), "\n".join(lines) + "\n")
    found = {}
    for line, kind, text in notes:
        assert kind == "note" and text.startswith("Revealed type is "), text
        found[labels[line][0]] = (labels[line][1], text.removeprefix("Revealed type is ")[1:-1])
    assert set(found) == {label for label, _, _ in members}
    return found


#: ``Any`` a public signature keeps: the SDK call's keyword arguments (``Request.kwargs``),
#: which each SDK types its own way; as ``dict[str, object]`` they could not be splatted into
#: that call under a type checker. mypy also spells ``Callable[..., T]`` (any function) and
#: what an ``async def`` returns with ``Any``.
KEPT_ANY = {
    "Request": "kwargs: dict[str, Any]",
    "Request.kwargs": "dict[str, Any]",
}
_SPELLED_ANY = ("def (*Any, **Any)", "typing.Coroutine[Any, Any, ")


@pytest.mark.slow
def test_no_public_signature_is_typed_any(public_types):
    typed_any = {}
    for label, (_, revealed) in public_types.items():
        rest = revealed.replace(KEPT_ANY.get(label, "\0"), "")
        for spelled in _SPELLED_ANY:
            rest = rest.replace(spelled, "")
        if re.search(r"\bAny\b", rest):
            typed_any[label] = revealed
    assert typed_any == {}


def returned_types(revealed: str) -> list[str]:
    """What a callable type mypy revealed returns (each variant of an overload), e.g.
    ``def (x: int) -> list[str]`` → ``["list[str]"]``; ``def ()`` → ``["None"]``."""
    found = []
    start = revealed.find("def ")
    while start != -1:
        end = _closing(revealed, revealed.index("(", start))
        if revealed.startswith(" -> ", end + 1):
            body = revealed[end + 5 :]
            found.append(body[: _type_end(body)])
        else:
            found.append("None")
        start = revealed.find("def ", end)
    return found


def _closing(text: str, opening: int) -> int:
    depth = 0
    for at in range(opening, len(text)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[at], 0)
        if depth == 0:
            return at
    raise AssertionError(f"unbalanced: {text}")


def _type_end(text: str) -> int:
    """Where the type at the start of ``text`` ends: at a comma or closing bracket of the
    text around it."""
    depth = 0
    for at, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            if depth == 0:
                return at
            depth -= 1
        elif char == "," and depth == 0:
            return at
    return len(text)


def test_returned_types_reads_a_revealed_callable():
    assert returned_types("def (x: def (int) -> str) -> list[a.B]") == ["list[a.B]"]
    assert returned_types("Overload(def (x: int), def (x: str) -> a.C)") == ["None", "a.C"]
    assert returned_types("tuple[int, a.D]") == []


def test_every_class_a_public_function_method_or_property_returns_is_exported(public_types):
    """A user can name what the API gives them: ``tw.<Class>`` is the very class."""
    unexported = {}
    for label, (kind, revealed) in public_types.items():
        if kind in ("function", "method"):
            returned = returned_types(revealed)
        elif kind == "property":
            returned = [revealed]
        else:
            continue
        for path in re.findall(r"\btoolwire(?:\.\w+)+", " ".join(returned)):
            module, _, name = path.rpartition(".")
            defined = getattr(importlib.import_module(module), name)
            if getattr(toolwire, name, None) is not defined:
                unexported.setdefault(label, []).append(path)
    assert unexported == {}
