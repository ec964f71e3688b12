"""What ``decode`` gives every wire: a message whose parts are a tuple, as every message holds
them, so a decoded reply appended to a history cannot change after it was encoded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from toolwire.decoders import decode
from toolwire.messages import Assistant, dump_conversation, load_conversation
from toolwire.providers import BUILT_IN

from . import test_bedrock, test_cohere, test_mistral, test_ollama, test_openai_chat
from . import test_openai_responses as responses_api
from .responses import anthropic_thinking_message, gemini_parallel_calls

#: wire -> (a model on it, a reply of thinking, text and parallel calls, as its SDK gives it)
REPLIES: dict[str, tuple[str, Callable[[], Any]]] = {
    "anthropic": ("anthropic:claude-sonnet-4-5", anthropic_thinking_message),
    "bedrock": (test_bedrock.MODEL, lambda: test_bedrock.converse(*test_bedrock.CONTENT)),
    "cohere": (test_cohere.MODEL, test_cohere.reply),
    "google": ("google:gemini-3-pro-preview", gemini_parallel_calls),
    "mistral": (test_mistral.MODEL, test_mistral.reply),
    "ollama": (test_ollama.MODEL, test_ollama.reply),
    "openai_chat": (test_openai_chat.MODEL, test_openai_chat.parallel_calls_reply),
    "openai_responses": (responses_api.MODEL, responses_api.reply),
}


def test_every_wire_has_a_reply_here() -> None:
    assert sorted(REPLIES) == sorted(BUILT_IN)  # WIRES also holds wires tests register


@pytest.mark.parametrize("wire", sorted(REPLIES))
def test_every_wire_decodes_a_reply_to_a_message_of_tuples(wire: str) -> None:
    model, reply = REPLIES[wire]
    message = decode(reply(), model)
    assert isinstance(message, Assistant) and type(message.content) is tuple
    assert len(message.tool_calls) >= 2 and type(message.tool_calls) is tuple
    with pytest.raises(AttributeError):
        message.content.append(message.content[0])  # type: ignore[attr-defined]
    (stored,) = load_conversation(dump_conversation([message]))
    assert stored == message and type(stored.content) is tuple
