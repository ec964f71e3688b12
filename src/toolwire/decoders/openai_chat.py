"""Chat Completions ``ChatCompletion`` → Assistant (OpenAI, Groq, xAI, OpenRouter, compatible).

Reasoning text that some servers return (``reasoning_content``, ``reasoning``) is kept as
unsigned Thinking of the target's issuer: it goes back where the target's table says the
server takes it (``reasoning_replay``), to that issuer only. A refusal is the message's text.
"""

from __future__ import annotations

import json
from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import finish_reason, first_choice, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a ChatCompletion (as JSON data); ``issuer`` names who signed its thinking."""
    message = first_choice(data, issuer)
    parts: list[Any] = []
    details = message.get("reasoning_details")
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(details, list) and details:  # OpenRouter: each detail kept as it came
        parts += [_detail(d, issuer) for d in details if isinstance(d, dict)]
    elif isinstance(reasoning, str) and reasoning:
        parts.append(Thinking(text=reasoning, provider=issuer))
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(Text(text=content))
    elif isinstance(content, list):
        parts += [
            Text(text=c["text"]) for c in content if c.get("type") == "text" and c.get("text")
        ]
    if message.get("refusal") and not content:
        parts.append(Text(text=message["refusal"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(
            tool_call(call["id"], function.get("name") or "", function.get("arguments") or "")
        )
    return Assistant(content=parts)


def _detail(detail: dict[str, Any], issuer: str) -> Thinking:
    """One of OpenRouter's ``reasoning_details``: its readable text (a reasoning text or a
    summary; an encrypted detail has none), the whole object as the signature, which goes
    back verbatim (``reasoning_replay = "reasoning_details"``)."""
    text = detail.get("text") or detail.get("summary") or ""
    signature = json.dumps(detail, ensure_ascii=False, separators=(",", ":"))
    return Thinking(
        text=text if isinstance(text, str) else "", signature=signature, provider=issuer
    )


describe_stop = finish_reason
