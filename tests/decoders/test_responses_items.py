"""Responses API items toolwire does not model as text, thinking or function calls.

Client-side items (shell, apply_patch, custom tools, MCP approval requests) come back as
calls the application answers, each answered with its own output item; built-in tool items
(web search, image generation, MCP calls) as ProviderParts that go back to OpenAI as they
came and are left out for another provider. Every reply is an openai SDK ``Response``
(``Response.model_validate`` checks each item's shape) and every request passes the SDK's
strict request types.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from openai.types.responses import Response
from providers import strict_anthropic, strict_openai_responses

from toolwire.content import File, ProviderPart, Text, ToolCall
from toolwire.decoders import decode
from toolwire.errors import ConversationError, DecodeError
from toolwire.messages import (
    Assistant,
    ExecutionDeniedOutput,
    ToolResult,
    User,
    dump_conversation,
    load_conversation,
)
from toolwire.request import encode

from .responses import openai_response

MODEL = "openai:gpt-5"
CLAUDE = "anthropic:claude-sonnet-4-5"

LOCAL_SHELL = {
    "type": "local_shell_call",
    "id": "lsh_68b1",
    "call_id": "call_shell1",
    "status": "completed",
    "action": {"type": "exec", "command": ["ls", "-la"], "env": {}, "working_directory": "/tmp"},
}
SHELL = {
    "type": "shell_call",
    "id": "sh_68b2",
    "call_id": "call_shell2",
    "status": "completed",
    "action": {"commands": ["pytest -q"], "timeout_ms": 60000, "max_output_length": 4096},
}
APPLY_PATCH = {
    "type": "apply_patch_call",
    "id": "apc_68b3",
    "call_id": "call_patch1",
    "status": "completed",
    "operation": {"type": "update_file", "path": "app.py", "diff": "@@\n-a\n+b\n"},
}
CUSTOM = {
    "type": "custom_tool_call",
    "id": "ctc_68b4",
    "call_id": "call_grammar1",
    "name": "sql",
    "input": "SELECT 1;",
}
APPROVAL = {
    "type": "mcp_approval_request",
    "id": "mcpr_68b5",
    "server_label": "deepwiki",
    "name": "ask_question",
    "arguments": '{"repoName":"openai/codex","question":"How are tools run?"}',
}
WEB_SEARCH = {
    "type": "web_search_call",
    "id": "ws_68b6",
    "status": "completed",
    "action": {"type": "search", "query": "toolwire python"},
}


def response(*items: dict[str, Any]) -> Any:
    """A ``Response`` of ``items``, checked by the SDK's own output item types."""
    reply = openai_response([])
    return Response.model_validate(reply.model_dump(mode="json") | {"output": list(items)})


def message(text: str) -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": []}]
    return {"type": "message", "id": "msg_68b7", "role": "assistant", "status": "completed"} | {
        "content": content
    }


def replayed(reply: Assistant, *results: ToolResult, model: str = MODEL) -> list[dict[str, Any]]:
    """The input items of the request that follows ``reply`` and its results."""
    kwargs = encode([User("Fix the tests."), reply, *results], model).kwargs
    if model == MODEL:
        strict_openai_responses.validate(kwargs)
    else:
        strict_anthropic.validate(kwargs)
    items: list[dict[str, Any]] = kwargs["input" if model == MODEL else "messages"][1:]
    return items


@pytest.mark.parametrize(
    ("item", "name", "arguments"),
    [
        (LOCAL_SHELL, "local_shell", LOCAL_SHELL["action"]),
        (SHELL, "shell", SHELL["action"]),
        (APPLY_PATCH, "apply_patch", APPLY_PATCH["operation"]),
        (CUSTOM, "sql", {"input": "SELECT 1;"}),
        (APPROVAL, "ask_question", {"repoName": "openai/codex", "question": "How are tools run?"}),
    ],
    ids=["local_shell", "shell", "apply_patch", "custom", "mcp_approval"],
)
def test_a_client_side_item_is_a_call_the_application_answers(
    item: dict[str, Any], name: str, arguments: dict[str, Any]
) -> None:
    (call,) = decode(response(item), MODEL).content
    assert isinstance(call, ToolCall)
    assert (call.name, call.arguments, call.provider) == (name, arguments, "openai")
    assert call.id == item.get("call_id", item["id"])


@pytest.mark.parametrize(
    ("item", "answer", "output"),
    [
        (LOCAL_SHELL, "total 0", {"type": "local_shell_call_output", "id": "call_shell1"}),
        (
            APPLY_PATCH,
            "patched app.py",
            {"type": "apply_patch_call_output", "call_id": "call_patch1", "status": "completed"},
        ),
        (CUSTOM, "1 row", {"type": "custom_tool_call_output", "call_id": "call_grammar1"}),
    ],
    ids=["local_shell", "apply_patch", "custom"],
)
def test_the_item_goes_back_as_it_came_and_its_answer_as_its_own_output(
    item: dict[str, Any], answer: str, output: dict[str, Any]
) -> None:
    reply = decode(response(item), MODEL)
    call = reply.tool_calls[0]
    items = replayed(reply, ToolResult.of(call.id, call.name, answer))
    assert items == [item, output | {"output": answer}]


def test_a_shell_call_s_text_answer_is_its_stdout_and_an_error_its_stderr() -> None:
    reply = decode(response(SHELL), MODEL)
    ok = replayed(reply, ToolResult.of("call_shell2", "shell", "3 passed"))[1]
    failed = replayed(reply, ToolResult.of("call_shell2", "shell", RuntimeError("1 failed")))[1]
    assert ok["output"] == [
        {"stdout": "3 passed", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
    ]
    assert failed["output"] == [
        {
            "stdout": "",
            "stderr": "RuntimeError: 1 failed",
            "outcome": {"type": "exit", "exit_code": 1},
        }
    ]


def test_a_shell_call_answered_with_the_tool_s_own_outcomes_sends_them() -> None:
    outcomes = [{"stdout": "", "stderr": "", "outcome": {"type": "timeout"}}]
    reply = decode(response(SHELL), MODEL)
    items = replayed(reply, ToolResult.of("call_shell2", "shell", outcomes))
    assert items[1] == {"type": "shell_call_output", "call_id": "call_shell2", "output": outcomes}


def test_a_failed_patch_is_reported_as_failed() -> None:
    reply = decode(response(APPLY_PATCH), MODEL)
    answer = ToolResult.of("call_patch1", "apply_patch", ValueError("hunk 1 does not apply"))
    assert replayed(reply, answer)[1]["status"] == "failed"


def test_an_mcp_approval_request_is_approved_or_denied_by_its_answer() -> None:
    reply = decode(response(APPROVAL), MODEL)
    approved = replayed(reply, ToolResult.of("mcpr_68b5", "ask_question", ""))
    denied = ToolResult(
        call_id="mcpr_68b5",
        name="ask_question",
        output=ExecutionDeniedOutput(reason="not this repository"),
    )
    assert approved == [
        APPROVAL,
        {"type": "mcp_approval_response", "approval_request_id": "mcpr_68b5", "approve": True},
    ]
    assert replayed(reply, denied)[1] == {
        "type": "mcp_approval_response",
        "approval_request_id": "mcpr_68b5",
        "approve": False,
        "reason": "The tool was not run: execution was denied. Reason: not this repository",
    }


def test_another_provider_gets_the_client_side_call_as_a_plain_tool_call() -> None:
    reply = decode(response(LOCAL_SHELL), MODEL)
    messages = replayed(reply, ToolResult.of("call_shell1", "local_shell", "total 0"), model=CLAUDE)
    use = messages[0]["content"][0]
    assert use == {
        "type": "tool_use",
        "id": "call_shell1",
        "name": "local_shell",
        "input": LOCAL_SHELL["action"],
    }
    assert messages[1]["content"][0]["tool_use_id"] == "call_shell1"


def test_a_client_side_item_toolwire_cannot_answer_is_named_in_the_error() -> None:
    item = {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "status": "completed"}
    item |= {"action": {"type": "screenshot"}, "pending_safety_checks": []}
    reply = {"id": "resp_1", "object": "response", "status": "completed", "output": [item]}
    with pytest.raises(DecodeError, match="cannot answer yet: computer_call"):
        decode(reply, MODEL)


TOOL_SEARCH = {
    "type": "tool_search_call",
    "id": "ts_68b8",
    "call_id": "call_search1",
    "execution": "client",
    "status": "completed",
    "arguments": {"query": "calendar"},
}
FOUND = [
    {
        "type": "function",
        "name": "create_event",
        "description": "Add an event to the calendar.",
        "parameters": {"type": "object", "properties": {"title": {"type": "string"}}},
        "strict": False,
    }
]


def test_a_client_tool_search_is_answered_with_the_tools_it_found() -> None:
    reply = decode(response(TOOL_SEARCH), MODEL)
    (call,) = reply.tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_search1",
        "tool_search",
        {"query": "calendar"},
    )
    items = replayed(reply, ToolResult.of(call.id, call.name, FOUND))
    assert items == [
        TOOL_SEARCH,
        {
            "type": "tool_search_output",
            "call_id": "call_search1",
            "execution": "client",
            "tools": FOUND,
        },
    ]


def test_a_tool_search_answered_with_text_says_what_it_takes() -> None:
    reply = decode(response(TOOL_SEARCH), MODEL)
    with pytest.raises(ConversationError, match="list of tool definitions"):
        replayed(reply, ToolResult.of("call_search1", "tool_search", "create_event"))


def test_a_search_the_server_ran_is_a_provider_part() -> None:
    server = TOOL_SEARCH | {"execution": "server"}
    (part,) = decode(response(server, message("Found it.")), MODEL).content[:1]
    assert isinstance(part, ProviderPart) and part.kind == "tool_search_call"


def test_a_file_in_a_shell_answer_is_refused_with_what_to_do() -> None:
    reply = decode(response(LOCAL_SHELL), MODEL)
    png = File.from_bytes(_png())
    with pytest.raises(ConversationError, match="takes text only"):
        replayed(reply, ToolResult.of("call_shell1", "local_shell", ["listing:", png]))


def test_built_in_tool_items_go_back_to_openai_as_they_came_and_in_place() -> None:
    reply = decode(response(WEB_SEARCH, message("toolwire is a Python library.")), MODEL)
    assert reply.content == (
        ProviderPart(
            provider="openai", wire="openai_responses", kind="web_search_call", data=WEB_SEARCH
        ),
        Text(text="toolwire is a Python library."),
    )
    items = replayed(reply)
    assert items == [WEB_SEARCH, {"role": "assistant", "content": "toolwire is a Python library."}]


def test_a_reply_of_built_in_items_alone_is_not_empty() -> None:
    image = {"type": "image_generation_call", "id": "ig_1", "status": "completed"}
    (part,) = decode(response(image | {"result": "iVBORw0KGgo="}), MODEL).content
    assert isinstance(part, ProviderPart) and part.kind == "image_generation_call"


def test_another_provider_gets_the_text_without_openai_s_items() -> None:
    reply = decode(response(WEB_SEARCH, message("toolwire is a Python library.")), MODEL)
    (sent,) = replayed(reply, model=CLAUDE)
    assert sent == {
        "role": "assistant",
        "content": [{"type": "text", "text": "toolwire is a Python library."}],
    }


def test_openai_chat_completions_get_no_responses_item() -> None:
    reply = decode(response(WEB_SEARCH, message("Found it.")), MODEL)
    kwargs = encode([User("Search."), reply], "openai-chat:gpt-4.1").kwargs
    assert kwargs["messages"][1] == {"role": "assistant", "content": "Found it."}


def test_a_stored_conversation_reloads_its_calls_and_provider_parts_unchanged() -> None:
    reply = decode(response(WEB_SEARCH, LOCAL_SHELL), MODEL)
    history = [User("Fix the tests."), reply, ToolResult.of("call_shell1", "local_shell", "ok")]
    assert load_conversation(dump_conversation(history)) == history


def test_an_answer_s_citations_go_back_to_openai_on_its_text() -> None:
    citation = {
        "type": "url_citation",
        "start_index": 0,
        "end_index": 8,
        "title": "toolwire",
        "url": "https://example.com/toolwire",
    }
    cited = message("toolwire is a Python library.")
    cited["content"][0]["annotations"] = [citation]
    reply = decode(response(WEB_SEARCH, cited), MODEL)
    assert [getattr(p, "kind", None) for p in reply.content] == [
        "web_search_call",
        None,
        "annotations",
    ]
    assert replayed(reply)[1] == {
        "type": "message",
        "role": "assistant",
        "id": "msg_68b7",
        "status": "completed",
        "content": [
            {
                "type": "output_text",
                "text": "toolwire is a Python library.",
                "annotations": [citation],
            }
        ],
    }
    (sent,) = replayed(reply, model=CLAUDE)
    assert sent["content"] == [{"type": "text", "text": "toolwire is a Python library."}]


def test_a_growing_history_answers_a_client_side_call_alike_on_every_request() -> None:
    """Steps spelled for an earlier request are used again (memo): the answer to a
    local_shell_call stays its own output item, not a function_call_output."""
    reply = decode(response(LOCAL_SHELL), MODEL)
    history = [User("List it."), reply, ToolResult.of("call_shell1", "local_shell", "a.txt")]
    first = encode(history, MODEL).kwargs["input"]
    history += [decode(response(message("One file: a.txt.")), MODEL), User("And now?")]
    later = encode(history, MODEL).kwargs
    strict_openai_responses.validate(later)
    assert later["input"][:3] == first
    assert later["input"][2] == {"type": "local_shell_call_output", "id": "call_shell1"} | {
        "output": "a.txt"
    }


def test_a_generated_image_is_a_file_too() -> None:
    png = base64.b64encode(_png()).decode()
    item = {"type": "image_generation_call", "id": "ig_1", "status": "completed"}
    (part,) = decode(response(item | {"result": png, "output_format": "png"}), MODEL).content
    assert isinstance(part, ProviderPart)
    image = part.file()
    assert image is not None and image.media_type == "image/png" and image.read() == _png()


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), "teal").save(buffer, format="PNG")
    return buffer.getvalue()
