"""The `toolwire` command as a whole: every command's help and the "Command line" page of the
docs (docs/cli.md) name the same commands and the same flags."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer.main

from toolwire.cli import app

CLI_PAGE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def help_flags() -> dict[str, set[str]]:
    """Each command (``sessions render`` for subcommands) -> the long flags its help lists."""
    found: dict[str, set[str]] = {}

    def walk(group: Any, prefix: str) -> None:
        for name, command in group.commands.items():
            if hasattr(command, "commands"):  # a group: `sessions`
                walk(command, f"{prefix}{name} ")
                continue
            found[prefix + name] = {
                flag
                for param in command.params
                if param.param_type_name == "option" and not param.hidden
                for flag in param.opts
                if flag.startswith("--") and flag != "--help"
            }

    walk(typer.main.get_command(app), "")
    return found


def readme_flags() -> dict[str, set[str]]:
    """The same, from the ```sh block under "# Command line" (comments after # ignored)."""
    section = CLI_PAGE.read_text("utf-8").split("# Command line\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    found: dict[str, set[str]] = {}
    for line in block.splitlines():
        words = line.split("#", 1)[0].split()
        if not words or words[0] != "toolwire":
            continue
        command = " ".join(words[1:3]) if words[1] == "sessions" else words[1]
        found.setdefault(command, set()).update(re.findall(r"--[a-z][a-z-]*", " ".join(words)))
    return found


def test_the_command_line_page_names_every_command_and_exactly_its_flags() -> None:
    assert readme_flags() == help_flags()


def test_hidden_and_removed_spellings_are_not_on_the_command_line_page() -> None:
    block = CLI_PAGE.read_text("utf-8").split("# Command line\n", 1)[1].split("## ", 1)[0]
    assert "--text-fallbacks" not in block and "on_unsupported=" not in block
