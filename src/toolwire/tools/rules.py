"""What each family of targets takes in a tool's parameters (``repair.SchemaRules``), each
rule with its source. A target names its family in capabilities.toml (``tool_schema``);
without one it gets ``JSON_SCHEMA``: one object at the root, as every provider's function
calling takes the arguments as named parameters."""

from __future__ import annotations

import re

from .repair import SchemaRules

_ROOT = (
    'anthropics/claude-code#5319: 400 "input_schema does not support oneOf, allOf, or anyOf '
    'at the top level"; the arguments are one object of named parameters on every provider'
)
_KEYS = re.compile(r"[a-zA-Z0-9_.-]{1,64}")
_KEYS_SOURCE = (
    '400 "input_schema.properties: Property keys should match pattern '
    "'^[a-zA-Z0-9_.-]{1,64}$'\" (beautyfree/appstore-connect-mcp#2; on Bedrock, "
    "aws-solutions-library-samples/accelerated-intelligent-document-processing-on-aws#709)"
)
_ITEMS = (
    'OpenAI function calling: an array schema without items is rejected ("array schema '
    'missing items", PrefectHQ/fastmcp#2464)'
)

JSON_SCHEMA = SchemaRules("json-schema", root_source=_ROOT)
RULES = {
    "json-schema": JSON_SCHEMA,
    "anthropic": SchemaRules(
        "anthropic", root_source=_ROOT, property_names=_KEYS, property_names_source=_KEYS_SOURCE
    ),
    "nova": SchemaRules(
        "nova",
        root_source=_ROOT,
        root_keywords=frozenset(("type", "properties", "required")),
        root_keywords_source=(
            'recorded ValidationException "#/toolConfig/tools/2/toolSpec/inputSchema/json: '
            'extraneous key [definitions] is not permitted" (zed-industries/zed#28521; '
            "pydantic/pydantic-ai#1623): Nova's input schema takes type, properties and "
            "required at its root"
        ),
    ),
    "openai": SchemaRules(
        "openai", root_source=_ROOT, array_items=True, array_items_source=_ITEMS, strict_mode=True
    ),
    "openai-chat": SchemaRules(
        "openai-chat",
        root_source=_ROOT,
        array_items=True,
        array_items_source=_ITEMS,
        strict_mode=True,
        max_tools=128,
        max_tools_source=(
            "OpenAI's 400 \"Invalid 'tools': array too long. Expected an array with maximum "
            'length 128" (code array_above_max_length; Upsonic/Upsonic#176)'
        ),
    ),
    "chat-compatible": SchemaRules(
        "chat-compatible",
        root_source=_ROOT,
        array_items=True,
        array_items_source=_ITEMS,
        strict_mode=True,
    ),
    "gemini": SchemaRules(
        "gemini",
        root_source=_ROOT,
        property_names=re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"),
        property_names_source=(
            'Vertex AI FunctionDeclaration.parameters: "Parameter names must start with a '
            "letter or an underscore and must only contain chars a-z, A-Z, 0-9, or "
            'underscores with a maximum length of 64"'
        ),
        json_schema_source=(
            'google-genai FunctionDeclaration.parameters_json_schema ("Describes the parameters '
            'to the function in JSON Schema format"; mutually exclusive with parameters); on '
            "Vertex too: google-genai's own replay test test_function_declaration_with_callable "
            "(google/genai/tests/models/test_generate_content_tools.py at 66807187, run with "
            "use_vertex True and False) sends parameters_json_schema to gemini-2.5-pro and gets "
            "function calls back"
        ),
        forced_parameters_source=(
            "a declaration without parameters under function calling mode ANY gets 400 "
            "INVALID_ARGUMENT (googleapis/python-genai#981); pydantic/pydantic-ai#1998 fixed "
            "it by always declaring the parameters, and pydantic-ai sends every declaration "
            'as parameters_json_schema; an empty OBJECT in parameters gets 400 "should be '
            'non-empty for OBJECT type" (agno-agi/agno#2112)'
        ),
        required_declared=True,
        required_declared_source=(
            'Gemini API 400 "GenerateContentRequest.tools[0].function_declarations[32]'
            '.parameters.required[0]: property is not defined" (anomalyco/opencode#3140, '
            "MarkusPfundstein/mcp-obsidian#105)"
        ),
    ),
    "claude-on-openai-chat": SchemaRules(
        "claude-on-openai-chat",
        root_source=_ROOT,
        property_names=_KEYS,
        property_names_source=_KEYS_SOURCE,
        array_items=True,
        array_items_source=_ITEMS,
        strict_mode=True,
    ),
}
