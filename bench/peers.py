"""toolwire against pydantic-ai and LiteLLM on the same conversations, in one run.

    .venv-bench/bin/python bench/peers.py [--quick] [--no-imports] [--out bench/results.md]

(bench/requirements.txt lists the peers; they are never dependencies of toolwire.)

Measures, for Anthropic, OpenAI Chat, OpenAI Responses, Gemini 3 and Bedrock Claude:
import time in fresh interpreters; one encode of three conversations — (a) 10 text turns,
(b) 40 agent turns with 20 images and 5 PDFs, (c) 8 parallel tool results of 1 MB images —
with its peak memory; an agent loop on (b) that re-encodes the growing history after every
turn; and the JSON request body for a tool returning four 12-megapixel JPEGs, beside
toolwire's token estimate. The floor of one encode, base64 of the media the wire needs as
text, is measured in the same run. Exactly which peer call is timed is documented in
bench/_peers_libs.py. Prints medians and ratios (peer / toolwire) and writes bench/results.md;
asserts nothing about time.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
import types
from importlib.metadata import version
from pathlib import Path
from typing import Any

# --- toolwire internals: the only place this bench names them (renames: edit here) ----------
import toolwire as tw
from toolwire.memo import MEMO as tw_memo
from toolwire.request import encode as tw_encode

TW_FIT = ("toolwire.imagefit", "fit_image")
TW_TOKENS = ("toolwire.tokens", "estimate_tokens")
TW_ENCODE_IMPORT = "from toolwire.request import encode"
# -----------------------------------------------------------------------------------------------

import _peers_data as data  # noqa: E402  (after the toolwire block, on purpose)
import _peers_measure as measure  # noqa: E402
from _peers_libs import TARGETS, LiteLLM, PydanticAI, Target, Toolwire  # noqa: E402

RESULTS = Path(__file__).with_name("results.md")
KEEP_MARK = "<!-- notes below this line are kept when peers.py rewrites the file -->"
IMPORTS = {
    "toolwire": ("import toolwire", TW_ENCODE_IMPORT),
    "pydantic_ai": (
        "import pydantic_ai",
        "from pydantic_ai.models.anthropic import AnthropicModel",
    ),
    "litellm": ("import litellm", "import litellm"),
}


def optional(module: str, name: str) -> Any:
    """A toolwire function that another engineer may not have written yet, or None."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1000:,.1f}"


def ratio(peer: float | None, ours: float | None) -> str:
    if not peer or not ours:
        return "–"
    return f"{peer / ours:,.2f}×"


def mb(n: float | None) -> str:
    return "–" if n is None else f"{n / 1e6:,.2f}"


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


class Report:
    """Collects sections; prints each as it is finished and writes them all at the end."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.goals: list[str] = []

    def add(self, title: str, body: str) -> None:
        text = f"## {title}\n\n{body}\n"
        print(text, flush=True)
        self.parts.append(text)

    def goal(self, met: bool | None, text: str) -> None:
        mark = "n/a" if met is None else ("met" if met else "MISSED")
        self.goals.append(f"- **{mark}** — {text}")


# --- sections -----------------------------------------------------------------------------------


def imports_section(report: Report, runs: int) -> None:
    rows, plain = [], {}
    for lib, (stmt, for_encode) in IMPORTS.items():
        n = runs * 2 if lib == "toolwire" else runs
        plain[lib] = measure.import_seconds(stmt, n)
        needed = measure.import_seconds(for_encode, n)
        rows.append([lib, f"`{stmt}`", ms(plain[lib]), f"`{for_encode}`", ms(needed)])
    for row in rows:
        row.insert(3, ratio(plain[row[0]], plain["toolwire"]))
    head = ["library", "statement", "ms", "× toolwire", "what one encode needs", "ms"]
    report.add(f"Import (fresh interpreter, median of {runs}+ runs)", table(head, rows))
    factor = plain["pydantic_ai"] / plain["toolwire"]
    report.goal(factor >= 20, f"import {factor:.0f}× faster than pydantic_ai (goal ≥ 20×)")


def single_section(report: Report, libs: dict[str, Any], convs: list[Any], reps: int) -> dict:
    memory_rows: list[list[str]] = []
    worst: dict[str, float] = {}
    for conv in convs:
        rows = []
        r = reps * 3 if not conv.files else reps
        base64_floor = measure.floor_seconds(conv.files, r)
        for target in TARGETS:
            floor = base64_floor if target.needs_base64 else 0.0
            cold = measure.single(libs["toolwire"], conv, target, r, cold=True)
            warm = measure.single(libs["toolwire"], conv, target, r, cold=False)
            pyd = measure.single(libs["pydantic-ai"], conv, target, r)
            lite = measure.single(libs["litellm"], conv, target, r)
            lite_input = measure.build_seconds(libs["litellm"], conv, target, r)
            # LiteLLM's input already holds every file as base64: from the same bytes as the
            # others, its work is the transformation plus that base64 (the floor of all files).
            lite_total = lite.seconds + base64_floor if lite.seconds else None
            peers = [c for c in (pyd.seconds, lite_total) if c]
            fastest = min(peers) if peers else None
            rows.append(
                [
                    target.label,
                    ms(floor) if target.needs_base64 else "raw bytes",
                    ms(cold.seconds) if cold.seconds else cold.note,
                    ms(warm.seconds) if warm.seconds else "–",
                    ms(pyd.seconds) if pyd.seconds else pyd.note,
                    ms(lite.seconds) if lite.seconds else lite.note,
                    ms(lite_total),
                    ms(lite_input),
                    ratio(pyd.seconds, cold.seconds),
                    ratio(lite_total, cold.seconds),
                ]
            )
            memory_rows.append(
                [conv.label[:3], target.label, mb(cold.peak), mb(pyd.peak), mb(lite.peak)]
            )
            if cold.seconds and fastest:
                key = f"{conv.label[:3]} {target.label}"
                worst[key] = cold.seconds / fastest
        head = [
            "target",
            "floor",
            "toolwire",
            "toolwire warm",
            "pydantic-ai",
            "litellm",
            "litellm + base64",
            "(litellm input build)",
            "pydantic-ai / tw",
            "litellm + base64 / tw",
        ]
        title = f"One encode, ms (median of {r}) — {conv.label}, {conv.media_bytes / 1e6:.1f} MB of media"
        report.add(title, table(head, rows))
    head = ["conv", "target", "toolwire", "pydantic-ai", "litellm"]
    report.add(
        "Peak memory of one encode, MB (tracemalloc, toolwire cold)", table(head, memory_rows)
    )
    return worst


def loop_section(report: Report, libs: dict[str, Any], conv: Any, reps: int) -> None:
    rows = []
    for target in TARGETS:
        cells = {name: measure.agent_loop(lib, conv, target, reps) for name, lib in libs.items()}
        # Totals from the same bytes: the encodes plus building each turn's input once (for
        # LiteLLM that is where each new file is base64-encoded).
        total = {
            n: c.seconds + c.extra.get("build", 0.0) if c.seconds else None
            for n, c in cells.items()
        }
        ours = total["toolwire"]
        peers = {n: t for n, t in total.items() if n != "toolwire" and t}
        fastest = min(peers.values()) if peers else None
        row = [target.label]
        for name in ("toolwire", "pydantic-ai", "litellm"):
            c = cells[name]
            row.append(ms(c.seconds) if c.seconds else c.note)
            row.append(ms(c.extra.get("build")))
        row += [ratio(total["pydantic-ai"], ours), ratio(total["litellm"], ours)]
        rows.append(row)
        if ours and fastest:
            factor = fastest / ours
            if target.needs_base64:
                report.goal(
                    factor >= 5,
                    f"agent loop {target.label}: fastest peer / toolwire = {factor:.2f}× (goal ≥ 5×)",
                )
            else:
                report.goal(
                    factor >= 1,
                    f"agent loop {target.label}: fastest peer / toolwire = {factor:.2f}× (goal ≥ 1×, no slower)",
                )
        else:
            report.goal(
                None, f"agent loop {target.label}: {cells['toolwire'].note or 'no peer figure'}"
            )
    head = [
        "target",
        "toolwire",
        "(build)",
        "pydantic-ai",
        "(build)",
        "litellm",
        "(build)",
        "pydantic-ai / tw",
        "litellm / tw",
    ]
    title = (
        f"Agent loop on (b), ms: {len(conv.turns)} encodes of the growing history (median of "
        f"{reps}); (build) = building each turn's native messages once; ratios compare "
        "encodes + build"
    )
    report.add(title, table(head, rows))


def wire_section(report: Report, libs: dict[str, Any], conv: Any) -> None:
    estimate = optional(*TW_TOKENS)
    rows = []
    for target in TARGETS:
        cells = {name: measure.wire_bytes(lib, conv, target) for name, lib in libs.items()}
        size = {n: c.extra.get("bytes") for n, c in cells.items()}
        as_given, as_sent = _tokens(estimate, libs["toolwire"], conv, target)
        peers = [size[n] for n in ("pydantic-ai", "litellm") if size[n]]
        ours = size["toolwire"]
        rows.append(
            [target.label]
            + [
                mb(size[n]) if size[n] else cells[n].note
                for n in ("toolwire", "pydantic-ai", "litellm")
            ]
            + [
                ratio(min(peers), ours) if peers else "–",
                as_given,
                as_sent,
                ms(cells["toolwire"].seconds),
            ]
        )
        if (
            target.key in ("anthropic", "openai-chat", "openai-responses", "gemini-3")
            and ours
            and peers
        ):
            factor = min(peers) / ours
            same = as_given == as_sent and as_given != "n/a"
            report.goal(
                factor >= 4 and same,
                f"12-MP bytes {target.label}: smallest peer body / toolwire = "
                f"{factor:.2f}× (goal ≥ 4×) at token estimate {as_sent} (as given: {as_given})",
            )
    head = [
        "target",
        "toolwire MB",
        "pydantic-ai MB",
        "litellm MB",
        "smallest peer / tw",
        "est. tokens as given",
        "est. tokens as sent",
        "toolwire encode ms (incl. fitting)",
    ]
    media = conv.media_bytes / 1e6
    report.add(f"Bytes on the wire — {conv.label} ({media:.1f} MB of JPEG)", table(head, rows))


def _tokens(estimate: Any, lib: Toolwire, conv: Any, target: Target) -> tuple[str, str]:
    """toolwire's estimate with the photos as given (the provider downscales) and as fitted."""
    if estimate is None or lib.missing(target):
        return "n/a", "n/a"
    native = measure.native_of(lib, conv, target)
    try:
        given = estimate(native, target.toolwire, fit_images=False)
        sent = estimate(native, target.toolwire, fit_images=True)
    except Exception as exc:
        return f"error: {type(exc).__name__}", "n/a"
    return (f"{getattr(given, 'total', given):,}", f"{getattr(sent, 'total', sent):,}")


# --- main -----------------------------------------------------------------------------------------


def header(convs: list[Any]) -> str:
    versions = {p: version(p) for p in ("toolwire", "pydantic-ai-slim", "litellm", "pillow")}
    lines = [
        "# toolwire against pydantic-ai and LiteLLM",
        "",
        f"Generated by `bench/peers.py` on {time.strftime('%Y-%m-%d %H:%M')} — Python "
        f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
        + ".",
        "",
        "Ratios are peer / toolwire: above 1× toolwire is faster (or smaller). What each library's"
        " timed call is, exactly, is in `bench/_peers_libs.py`'s docstring. *toolwire* is a cold"
        " encode (fresh File objects, empty base64 cache); *toolwire warm* repeats it in the same"
        " process. *floor* is base64 of every file to text. LiteLLM's input already holds its"
        " files as base64 data URLs, so from the same bytes its work is its transformation plus"
        " that base64 (*litellm + base64*, the figure the goals use); *litellm input build*"
        " (building its whole input: the base64 and the dicts) is shown for reference.",
        "",
        "Conversations: "
        + "; ".join(
            f"{c.label}: {len(c.messages)} messages, {len(c.files)} files, {c.media_bytes / 1e6:.1f} MB"
            for c in convs
        )
        + ".",
        "",
    ]
    return "\n".join(lines)


def write(report: Report, convs: list[Any], out: Path) -> None:
    kept = ""
    if out.exists() and KEEP_MARK in out.read_text():
        kept = out.read_text().split(KEEP_MARK, 1)[1]
    goals = "## Goals\n\n" + "\n".join(report.goals) + "\n"
    body = header(convs) + "\n" + goals + "\n" + "\n".join(report.parts)
    out.write_text(body + "\n" + KEEP_MARK + (kept or "\n"))
    print(goals)
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--no-imports", action="store_true", help="skip the import timings")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"  # before anything imports litellm
    import logging

    logging.getLogger("LiteLLM").setLevel(logging.ERROR)  # its merge warnings are not results
    reps, loop_reps, import_runs = (3, 1, 3) if args.quick else (7, 3, 5)
    started = time.perf_counter()
    api = types.SimpleNamespace(tw=tw, encode=tw_encode, clear=tw_memo.clear)
    libs = {"toolwire": Toolwire(api), "pydantic-ai": PydanticAI(), "litellm": LiteLLM()}
    convs = [data.text_only(), data.agent_session(), data.parallel_tools()]
    photos = data.twelve_megapixel()
    report = Report()
    if not args.no_imports:
        imports_section(report, import_runs)
    worst = single_section(report, libs, convs, reps)
    for key, factor in worst.items():
        report.goal(
            factor <= 1.1,
            f"one encode {key}: toolwire / fastest peer = {factor:.2f}× (goal ≤ 1.1×)",
        )
    loop_section(report, libs, convs[1], loop_reps)
    wire_section(report, libs, photos)
    print(f"total {time.perf_counter() - started:.0f} s", file=sys.stderr)
    write(report, [*convs, photos], args.out)


if __name__ == "__main__":
    main()
