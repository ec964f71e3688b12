"""Strict validation of Gemini payloads against google-genai 3.4 and Gemini's request rules.

google-genai's models forbid unknown fields (``extra="forbid"``) but are lenient elsewhere: they
accept camelCase aliases, and a ``str`` where bytes belong is base64-decoded. So every Content
and the config are validated in strict mode and must dump back to exactly the dict we sent.
Then the SDK's own request builder for the target's mode (Gemini API or Vertex) turns the
kwargs into the JSON body it would post — it raises for fields the mode does not support —
and ``check_rules`` applies what the service enforces on the conversation.
"""

from __future__ import annotations

import inspect
import re
from functools import cache
from typing import Any

import pydantic
from google import genai
from google.genai import _common, models, types

PARAMETERS = set(inspect.signature(models.Models.generate_content).parameters) - {"self", "model"}
#: Gemini 3 docs: the media types a function response may nest.
NESTED_TYPES = {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
_VERSION = re.compile(r"gemini-(\d{1,2}(?:\.\d+)?)(?:-|$)")
#: google-genai 3.4 FunctionDeclaration.name: "Must start with a letter or an underscore. Must
#: be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of
#: 128." A call or response naming anything else names no declarable function.
FUNCTION_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}")


def validate(kwargs: dict[str, Any], model: str) -> None:
    """Raise ValueError unless ``kwargs`` fit ``generate_content`` for ``model`` exactly."""
    unknown = sorted(set(kwargs) - PARAMETERS)
    if unknown or "contents" not in kwargs:
        raise ValueError(f"generate_content has no parameter(s) {unknown} (or contents is missing)")
    for index, content in enumerate(kwargs["contents"]):
        _exact(f"contents[{index}]", types.Content, content)
    if "config" in kwargs:
        _exact("config", types.GenerateContentConfig, kwargs["config"])
    wire_body(kwargs, model)
    check_rules(kwargs["contents"], model)
    check_names(kwargs["contents"])


def check_names(contents: list[dict[str, Any]]) -> None:
    """Function call and response names follow FunctionDeclaration.name's rule."""
    for index, content in enumerate(contents):
        for part in content["parts"]:
            call = part.get("function_call") or part.get("function_response") or {}
            if call and not FUNCTION_NAME.fullmatch(call["name"]):
                raise ValueError(
                    f"contents[{index}]: function name {call['name']!r} breaks the rule"
                )


def wire_body(kwargs: dict[str, Any], model: str) -> dict[str, Any]:
    """The JSON body google-genai would post for ``generate_content(model=…, **kwargs)``."""
    provider, model_id = model.split(":", 1)
    vertex = provider == "google-vertex"
    params = types._GenerateContentParameters(model=model_id, **kwargs)
    build = (
        models._GenerateContentParameters_to_vertex
        if vertex
        else models._GenerateContentParameters_to_mldev
    )
    body = build(_client(vertex)._api_client, params, None, params)
    return _common.encode_unserializable_types(_common.convert_to_dict(body))  # type: ignore[no-any-return]


@cache
def _client(vertex: bool) -> genai.Client:
    """A client only for its request builder (it sends nothing)."""
    if vertex:
        return genai.Client(vertexai=True, project="strict-validation", location="us-central1")
    return genai.Client(api_key="strict-validation")


def _exact(where: str, model: type[pydantic.BaseModel], value: Any) -> None:
    if not isinstance(value, dict):
        raise ValueError(f"{where} is a {type(value).__name__}, not a dict")
    try:
        parsed = model.model_validate(value, strict=True)
    except pydantic.ValidationError as exc:
        raise ValueError(f"{where} is not a valid {model.__name__}: {exc}") from exc
    dumped = parsed.model_dump(exclude_none=True)
    if dumped != value:
        raise ValueError(f"{where} does not survive {model.__name__} unchanged: {dumped!r:.300}")


def version(model: str) -> float:
    """The Gemini version in a model id (0 when there is none)."""
    found = _VERSION.search(model.lower())
    return float(found.group(1)) if found else 0.0


def check_rules(contents: list[dict[str, Any]], model: str) -> None:
    """Roles, call/response pairing, response shape, nesting and thought signatures."""
    provider = model.split(":", 1)[0]
    gemini = version(model)
    pending: list[tuple[str | None, str]] = []
    for index, content in enumerate(contents):
        role, parts = content["role"], content["parts"]
        if role not in ("user", "model") or not parts:
            raise ValueError(f"contents[{index}]: role {role!r} with {len(parts)} parts")
        calls = [p["function_call"] for p in parts if "function_call" in p]
        responses = [p["function_response"] for p in parts if "function_response" in p]
        _check_answers(index, role, parts, responses, pending)
        if calls and role != "model":
            raise ValueError(f"contents[{index}]: function calls in a {role} content")
        pending = [(call.get("id"), call["name"]) for call in calls]
        if calls and gemini >= 3:
            first = next(p for p in parts if "function_call" in p)
            if "thought_signature" not in first:
                raise ValueError(f"contents[{index}]: the first function call has no signature")
        for response in responses:
            _check_response(index, response, provider, gemini)
    if pending:
        raise ValueError(f"function calls {pending} are never answered")


def _check_answers(
    index: int,
    role: str,
    parts: list[dict[str, Any]],
    responses: list[dict[str, Any]],
    pending: list[tuple[str | None, str]],
) -> None:
    """Calls are answered by the next content: a user content of function responses only,
    one per call, in call order, echoing id and name."""
    if not pending:
        if responses:
            raise ValueError(f"contents[{index}]: function responses without calls before them")
        return
    if role != "user" or len(responses) != len(parts):
        raise ValueError(f"contents[{index}] must hold only the responses to {pending}")
    answered = [(r.get("id"), r["name"]) for r in responses]
    if answered != pending:
        raise ValueError(f"contents[{index}] answers {answered}, not the calls {pending}")


def _check_response(index: int, response: dict[str, Any], provider: str, gemini: float) -> None:
    keys = set(response["response"])
    if keys not in ({"output"}, {"error"}):
        raise ValueError(f"contents[{index}]: response keys {sorted(keys)}, not output or error")
    nested = response.get("parts") or []
    if nested and gemini < 3:
        raise ValueError(f"contents[{index}]: function_response.parts on Gemini {gemini}")
    for part in nested:
        blob = part.get("inline_data") or part.get("file_data") or {}
        if blob.get("mime_type") not in NESTED_TYPES:
            raise ValueError(f"contents[{index}]: {blob.get('mime_type')} nested in a response")
        if "file_data" in part and provider == "google":
            raise ValueError(f"contents[{index}]: a file URI nested on the Gemini API")
