"""Strict validation of Bedrock Converse payloads: botocore's service model and Converse's rules.

botocore's ``ParamValidator`` (what boto3 runs before sending) checks required members, unknown
keys, tagged unions and minimum lengths, but not enums, maximum lengths or patterns, and it
takes a ``str`` where a blob belongs. ``check_shapes`` adds those from the same service model
(and insists on raw ``bytes``: the encoder promises them). ``check_rules`` adds what the service
enforces beyond its schema; each rule names where it comes from.
"""

from __future__ import annotations

import re
from typing import Any

import botocore.session
from botocore.model import Shape
from botocore.validate import ParamValidator

SERVICE = botocore.session.get_session().get_service_model("bedrock-runtime")
INPUT = SERVICE.operation_model("Converse").input_shape
PARAMETERS = set(INPUT.members) - {"modelId"}
# DocumentBlock.name docs: alphanumerics, whitespace (no more than one in a row), hyphens,
# parentheses, square brackets; DocumentBlockNameString: 1-200 characters.
DOCUMENT_NAME = re.compile(r"(?:[A-Za-z0-9()\[\]-]| (?! )){1,200}")
# ToolResultBlock.status docs: "only supported by Amazon Nova and Anthropic Claude 3 and 4 models".
STATUS_FAMILIES = ("anthropic.claude", "amazon.nova")


def validate(kwargs: dict[str, Any], model: str) -> None:
    """Raise ValueError unless ``client.converse(modelId=…, **kwargs)`` would pass botocore's
    validation and the service's rules for ``model`` ('bedrock:model-id')."""
    unknown = sorted(set(kwargs) - PARAMETERS)
    if unknown or "messages" not in kwargs:
        raise ValueError(f"converse has no parameter(s) {unknown} (or messages is missing)")
    params = {"modelId": model.split(":", 1)[1], **kwargs}
    report = ParamValidator().validate(params, INPUT)
    if report.has_errors():
        raise ValueError(report.generate_report())
    check_shapes(params, INPUT, "")
    check_document_names(kwargs["messages"])
    check_rules(kwargs["messages"], model)


def check_shapes(value: Any, shape: Shape, where: str) -> None:
    """Enums, maximum lengths, patterns and raw bytes, walking value and shape together."""
    kind = shape.type_name
    if kind == "structure" and not shape.metadata.get("document"):
        for key, item in value.items():
            check_shapes(item, shape.members[key], f"{where}.{key}")  # type: ignore[attr-defined]
    elif kind == "list":
        for index, item in enumerate(value):
            check_shapes(item, shape.member, f"{where}[{index}]")  # type: ignore[attr-defined]
    elif kind == "string":
        _check_string(value, shape, where)
    elif kind == "blob" and not isinstance(value, bytes):
        raise ValueError(f"{where} is a {type(value).__name__}, not raw bytes")


def _check_string(value: str, shape: Shape, where: str) -> None:
    enum, meta = shape.enum, shape.metadata  # type: ignore[attr-defined]
    if enum and value not in enum:
        raise ValueError(f"{where} = {value!r} is not one of {enum}")
    if "max" in meta and len(value) > meta["max"]:
        raise ValueError(f"{where} is longer than {meta['max']}")
    if "pattern" in meta and not re.fullmatch(meta["pattern"], value):
        raise ValueError(f"{where} = {value!r} does not match {meta['pattern']}")


def documents(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every document block of the request, in order, top level and inside tool results."""
    found = []
    for message in messages:
        for block in message["content"]:
            inner = block.get("toolResult", {}).get("content", [block])
            found += [b["document"] for b in inner if "document" in b]
    return found


def check_document_names(messages: list[dict[str, Any]]) -> None:
    """Each document name follows the DocumentBlock.name rule, and no two are the same."""
    names = [document["name"] for document in documents(messages)]
    bad = [name for name in names if not DOCUMENT_NAME.fullmatch(name)]
    if bad:
        raise ValueError(f"document names {bad} break the DocumentBlock.name rule")
    if len(set(names)) != len(names):
        raise ValueError(f"document names repeat within the request: {names}")


def check_rules(messages: list[dict[str, Any]], model: str) -> None:
    """Converse's conversation rules, as the service answers them."""
    pending: list[str] = []
    for index, message in enumerate(messages):
        role, content = message["role"], message["content"]
        expected = "user" if index % 2 == 0 else "assistant"
        if role != expected:  # "A conversation must start with a user message" / alternate
            raise ValueError(f"messages[{index}] is a {role} message where {expected} must be")
        _check_blocks(index, content, model)
        results = [b["toolResult"]["toolUseId"] for b in content if "toolResult" in b]
        if results != pending:  # "Expected toolResult blocks at messages.N.content for … Ids"
            raise ValueError(f"messages[{index}] answers {results}, not the tool uses {pending}")
        pending = [b["toolUse"]["toolUseId"] for b in content if "toolUse" in b]
    if pending:
        raise ValueError(f"tool uses {pending} are never answered")


def _check_blocks(index: int, content: list[dict[str, Any]], model: str) -> None:
    kinds = [next(iter(block)) for block in content]
    inner = [b for block in content for b in block.get("toolResult", {}).get("content", [])]
    if any(not b["text"].strip() for b in content + inner if "text" in b):
        raise ValueError(f"messages[{index}] has a blank text block (the service rejects it)")
    results = kinds.count("toolResult")
    if kinds[:results] != ["toolResult"] * results:
        raise ValueError(f"messages[{index}]: tool results must come before other blocks")
    if "document" in kinds and "text" not in kinds:
        raise ValueError(f"messages[{index}] holds a document but no text block")
    if any("json" in b and not isinstance(b["json"], dict) for b in inner):
        raise ValueError(f"messages[{index}]: a json block that is not an object")
    statuses = [block["toolResult"] for block in content if "status" in block.get("toolResult", {})]
    if statuses and not any(family in model for family in STATUS_FAMILIES):
        raise ValueError(f"messages[{index}]: status is not supported by {model}")
