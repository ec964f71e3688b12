"""The README and the documentation pages stay honest: their Python compiles (snippets taken
from the examples included), the README's relative links lead to files that exist, the README
stays short, and the agent-loop page covers every target.

`scripts/dev test` also builds the site with `mkdocs build --strict`, which fails on a broken
link, anchor, snippet or docstring reference inside docs/."""

from __future__ import annotations

import ast
import importlib
import os
import re
import sys
from pathlib import Path

import pytest

from toolwire.capability import providers

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^(?P<indent>[ \t]*)```python\n(?P<code>.*?)^(?P=indent)```", re.M | re.S)
SNIPPET = re.compile(r'^[ \t]*--8<-- "(?P<path>[^":]+)(?::(?P<section>[a-z][-_0-9a-z]*))?"$', re.M)
MARKER = re.compile(r"--8<-- \[(?:start|end):[a-z][-_0-9a-z]*\]")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def section(path: str, name: str | None) -> str:
    """What pymdownx.snippets includes for ``path:name``: the lines between the markers."""
    text = (ROOT / path).read_text("utf-8")
    if name is not None:
        start, end = f"--8<-- [start:{name}]", f"--8<-- [end:{name}]"
        assert start in text and end in text, f"{path} has no snippet section {name!r}"
        text = text.split(start, 1)[1].split("\n", 1)[1].split(end, 1)[0]
    return "\n".join(line for line in text.splitlines() if not MARKER.search(line))


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """Each ```python block of a page (snippets resolved, indentation removed), with its line."""
    text = page.read_text("utf-8")
    blocks = []
    for found in FENCE.finditer(text):
        indent = len(found["indent"])
        code = "\n".join(line[indent:] for line in found["code"].splitlines())
        code = SNIPPET.sub(lambda m: section(m["path"], m["section"]), code)
        blocks.append((text.count("\n", 0, found.start()) + 1, code))
    return blocks


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_block_compiles(page: Path) -> None:
    problems = []
    for line, code in python_blocks(page):
        try:  # examples may await at the top level, as in a notebook or `python -m asyncio`
            compile(code, f"{page.name}:{line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError as exc:
            problems.append(f"block at line {line}: {exc}")
    assert problems == []


def test_the_pages_hold_python_blocks_and_the_agent_loop_page_includes_the_examples() -> None:
    blocks = {page.name: python_blocks(page) for page in PAGES}
    assert sum(len(found) for found in blocks.values()) > 20
    loop = "\n".join(code for _, code in blocks["agent-loop.md"])
    assert "async def run(" in loop and "def _anthropic_call(" in loop and "PROVIDERS" in loop


def test_a_python_block_that_does_not_compile_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```python\nrequest = tw.encode(history, …)\n```\n", "utf-8")
    [(line, code)] = python_blocks(page)
    assert line == 3
    with pytest.raises(SyntaxError):
        compile(code, "page.md", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def test_every_relative_link_in_the_readme_points_at_a_file_that_exists() -> None:
    prose = re.sub(r"^```.*?^```", "", README.read_text("utf-8"), flags=re.M | re.S)
    prose = re.sub(r"`[^`\n]*`", "", prose)  # code, not links
    targets = [m["target"] for m in LINK.finditer(prose)]
    relative = [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]
    assert len(relative) > 10
    missing = [t for t in relative if not (ROOT / t.split("#", 1)[0]).exists()]
    assert missing == []


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len(README.read_text("utf-8").splitlines()) <= 200


def test_the_agent_loop_page_has_a_row_for_every_target() -> None:
    page = (ROOT / "docs" / "agent-loop.md").read_text("utf-8")
    rows = set(re.findall(r"^\| `([a-z-]+)`", page, re.M))
    assert rows == set(providers())
    readme_rows = set(re.findall(r"^\| `([a-z-]+)`", README.read_text("utf-8"), re.M))
    assert set(providers()) <= readme_rows


def test_the_agent_loop_page_names_each_targets_credential_as_the_example_checks_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        table = importlib.import_module("_agent_providers").PROVIDERS
    finally:
        sys.path.remove(str(ROOT / "examples"))
    for name in [n for n in os.environ if n.endswith("_API_KEY") or n.startswith("GOOGLE_")]:
        monkeypatch.delenv(name)
    for setting in ("OLLAMA_HOST", "OPENAI_COMPATIBLE_BASE_URL"):  # nothing listens on port 9
        monkeypatch.setenv(setting, "http://127.0.0.1:9")
    page = (ROOT / "docs" / "agent-loop.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)`(.*)$", page, re.M))
    for target, provider in table.items():
        if target == "bedrock":  # boto3's own credential chain, named in words
            continue
        said = provider.missing()
        assert said is not None, target
        named = set(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", said))
        assert named and all(f"`{n}`" in rows[target] for n in named), (target, said)
