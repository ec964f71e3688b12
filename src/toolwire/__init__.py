"""toolwire: multimodal tool results that work on every major LLM provider.

Everything public is re-exported here. Modules that need heavy dependencies (encoders,
readers, the store, MCP) load on first use, so ``import toolwire`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_CONTENT = ("File", "Json", "JsonValue", "ProviderPart", "Text", "Thinking", "ToolCall")
_SOURCES = ("BlobSource", "BytesSource", "PathSource", "ProviderFileSource", "UrlSource")
_ERRORS = (
    "BudgetError",
    "CapabilityError",
    "ConflictError",
    "ConversationError",
    "DecodeError",
    "FetchError",
    "FileChangedError",
    "InvalidFileError",
    "MissingDependencyError",
    "PathNotAllowedError",
    "ResourceLimitError",
    "StoreError",
    "ToolwireError",
    "ToolwireWarning",
    "UnknownModelError",
    "UnsupportedContentError",
    "UntrustedSourceError",
    "UploadError",
)
_MESSAGES = (
    "Assistant",
    "ContentOutput",
    "ErrorJsonOutput",
    "ErrorTextOutput",
    "ExecutionDeniedOutput",
    "JsonOutput",
    "Message",
    "System",
    "TextOutput",
    "ToolOutput",
    "ToolResult",
    "User",
    "dump_conversation",
    "load_conversation",
    "to_output",
)

_STREAMS = ("StreamDecoder", "decode_stream", "decode_stream_async")
_DELTAS = (
    "StreamDelta",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallDelta",
    "ToolCallFinished",
    "ToolCallStarted",
)

# Every public name is served lazily (PEP 562): name -> module that defines it. Building the
# pydantic models costs ~70 ms, so it happens on first use, not on `import toolwire`.
_LAZY = {
    **dict.fromkeys(_CONTENT, "toolwire.content"),
    **dict.fromkeys(_SOURCES, "toolwire.sources"),
    **dict.fromkeys(_ERRORS, "toolwire.errors"),
    **dict.fromkeys(_MESSAGES, "toolwire.messages"),
    "encode": "toolwire.request",
    "plan_request": "toolwire.request",
    "spell": "toolwire.request",
    "Request": "toolwire.request",
    "Plan": "toolwire.plan",
    "Decision": "toolwire.plan",
    "Limit": "toolwire.plan",
    "Resize": "toolwire.plan",
    "Repeat": "toolwire.plan",
    "Position": "toolwire.plan",
    "CachePoint": "toolwire.plan.cache",
    "Mode": "toolwire.plan",
    "OnUnsupported": "toolwire.plan",
    "OnBudget": "toolwire.plan",
    "ToolNote": "toolwire.tools.repair",
    "Unsupported": "toolwire.errors",
    "Cell": "toolwire.capability",
    "ReadFileTool": "toolwire.readers",
    "FileTokens": "toolwire.tokens",
    "SessionInfo": "toolwire.store",
    "capabilities": "toolwire.capability",
    "Capabilities": "toolwire.capability",
    "decode": "toolwire.decoders",
    **dict.fromkeys(_STREAMS, "toolwire.decoders.stream"),
    **dict.fromkeys(_DELTAS, "toolwire.decoders.deltas"),
    "read_file": "toolwire.readers",
    "read_file_tool": "toolwire.readers",
    "estimate_tokens": "toolwire.tokens",
    "TokenEstimate": "toolwire.tokens",
    "fit": "toolwire.context",
    "ContextBudgetError": "toolwire.context",
    "RequestTooLargeError": "toolwire.plan.budgets",
    "SessionStore": "toolwire.store",
    "BlobStore": "toolwire.store",
    "from_mcp": "toolwire.mcp",
    "view": "toolwire.viewer",
    "Tool": "toolwire.tools",
    "ToolDefinitionError": "toolwire.tools",
    "tools_from_mcp": "toolwire.tools",
    "Uploads": "toolwire.uploads",
    "Outcome": "toolwire.uploads",
}

# Literal, so that type checkers see what is exported; tests/test_import.py checks that it
# names exactly the lazily served names.
__all__ = [
    "Assistant",
    "BlobSource",
    "BlobStore",
    "BudgetError",
    "BytesSource",
    "CachePoint",
    "CapabilityError",
    "Capabilities",
    "ConflictError",
    "Cell",
    "ContentOutput",
    "ContextBudgetError",
    "ConversationError",
    "DecodeError",
    "Decision",
    "ErrorJsonOutput",
    "ErrorTextOutput",
    "ExecutionDeniedOutput",
    "FetchError",
    "File",
    "FileChangedError",
    "FileTokens",
    "InvalidFileError",
    "Json",
    "JsonOutput",
    "JsonValue",
    "Limit",
    "Message",
    "MissingDependencyError",
    "Mode",
    "OnBudget",
    "OnUnsupported",
    "Outcome",
    "PathNotAllowedError",
    "PathSource",
    "Plan",
    "Position",
    "ProviderFileSource",
    "ProviderPart",
    "ReadFileTool",
    "Repeat",
    "Request",
    "RequestTooLargeError",
    "Resize",
    "ResourceLimitError",
    "SessionInfo",
    "SessionStore",
    "StoreError",
    "StreamDecoder",
    "StreamDelta",
    "System",
    "Text",
    "TextDelta",
    "TextOutput",
    "Thinking",
    "ThinkingDelta",
    "TokenEstimate",
    "Tool",
    "ToolCall",
    "ToolCallDelta",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolDefinitionError",
    "ToolNote",
    "ToolOutput",
    "ToolResult",
    "ToolwireError",
    "ToolwireWarning",
    "UnknownModelError",
    "Unsupported",
    "UnsupportedContentError",
    "UntrustedSourceError",
    "UploadError",
    "Uploads",
    "UrlSource",
    "User",
    "__version__",
    "capabilities",
    "decode",
    "decode_stream",
    "decode_stream_async",
    "dump_conversation",
    "encode",
    "estimate_tokens",
    "fit",
    "from_mcp",
    "load_conversation",
    "plan_request",
    "read_file",
    "read_file_tool",
    "spell",
    "to_output",
    "tools_from_mcp",
    "view",
]


# Hidden from type checkers: a module ``__getattr__`` would make every name, misspelled ones
# too, an ``Any`` to them. They read the imports at the end, which name exactly ``__all__``.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'toolwire' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .capability import Capabilities, Cell, capabilities
    from .content import File, Json, JsonValue, ProviderPart, Text, Thinking, ToolCall
    from .context import ContextBudgetError, fit
    from .decoders import decode
    from .decoders.deltas import (
        StreamDelta,
        TextDelta,
        ThinkingDelta,
        ToolCallDelta,
        ToolCallFinished,
        ToolCallStarted,
    )
    from .decoders.stream import StreamDecoder, decode_stream, decode_stream_async
    from .errors import (
        BudgetError,
        CapabilityError,
        ConflictError,
        ConversationError,
        DecodeError,
        FetchError,
        FileChangedError,
        InvalidFileError,
        MissingDependencyError,
        PathNotAllowedError,
        ResourceLimitError,
        StoreError,
        ToolwireError,
        ToolwireWarning,
        UnknownModelError,
        Unsupported,
        UnsupportedContentError,
        UntrustedSourceError,
        UploadError,
    )
    from .mcp import from_mcp
    from .messages import (
        Assistant,
        ContentOutput,
        ErrorJsonOutput,
        ErrorTextOutput,
        ExecutionDeniedOutput,
        JsonOutput,
        Message,
        System,
        TextOutput,
        ToolOutput,
        ToolResult,
        User,
        dump_conversation,
        load_conversation,
        to_output,
    )
    from .plan import Decision, Limit, Mode, OnBudget, OnUnsupported, Plan, Position, Repeat, Resize
    from .plan.budgets import RequestTooLargeError
    from .plan.cache import CachePoint
    from .readers import ReadFileTool, read_file, read_file_tool
    from .request import Request, encode, plan_request, spell
    from .sources import BlobSource, BytesSource, PathSource, ProviderFileSource, UrlSource
    from .store import BlobStore, SessionInfo, SessionStore
    from .tokens import FileTokens, TokenEstimate, estimate_tokens
    from .tools import Tool, ToolDefinitionError, tools_from_mcp
    from .tools.repair import ToolNote
    from .uploads import Outcome, Uploads
    from .viewer import view
