"""A conversation from elsewhere cannot make this machine read for it (issue 33): a shared
``history.json`` or session export whose files are local paths, cloud objects (s3://, gs://:
Bedrock and Vertex read them with the caller's credentials) or provider file ids is refused
by ``import_``, ``toolwire view``, ``render --conversation`` and ``tokens --conversation``
unless the caller trusts that kind of source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app
from toolwire.store import SessionStore

CLAUDE = "anthropic:claude-sonnet-4-5"
BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def shared(tmp_path: Path, file: tw.File) -> Path:
    """A conversation file as someone else would hand it over."""
    call = tw.ToolCall(id="c1", name="read", arguments={})
    messages = [tw.User("Look."), tw.Assistant([call]), tw.ToolResult.of("c1", "read", file)]
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(messages))
    return path


SECRETS = {
    "paths": lambda tmp: tw.File.from_path(_secret(tmp), media_type="text/plain"),
    "cloud": lambda tmp: tw.File.from_url("s3://their-bucket/payroll.pdf", "application/pdf"),
    "file-ids": lambda tmp: tw.File.from_provider_file("anthropic", "file_0abc", "image/png"),
}


def _secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("MARKER-only-on-this-machine\n")
    return path


@pytest.mark.parametrize("kind", sorted(SECRETS))
@pytest.mark.parametrize("command", ["view", "render", "tokens"])
def test_the_cli_refuses_a_conversation_file_whose_sources_it_was_not_told_to_trust(
    tmp_path: Path, kind: str, command: str
) -> None:
    path = shared(tmp_path, SECRETS[kind](tmp_path))
    model = BEDROCK if kind == "cloud" else CLAUDE
    args = [command, str(path), "-m", model] if command == "view" else [
        command, "--conversation", str(path), "-m", model
    ]  # fmt: skip
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 1
    assert f"--trust {kind}" in refused.output and "message 2" in refused.output
    assert "MARKER" not in refused.output
    trusted = CliRunner().invoke(app, [*args, "--trust", kind])
    assert "is read with your own access" not in trusted.output


def test_the_view_of_a_trusted_path_shows_it_and_an_untrusted_one_never_reads_it(
    tmp_path: Path,
) -> None:
    path = shared(tmp_path, SECRETS["paths"](tmp_path))
    out = tmp_path / "view.html"
    refused = CliRunner().invoke(app, ["view", str(path), "-m", CLAUDE, "-o", str(out)])
    assert refused.exit_code == 1 and not out.exists()
    shown = CliRunner().invoke(
        app, ["view", str(path), "-m", CLAUDE, "-o", str(out), "--trust", "paths"]
    )
    assert shown.exit_code == 0, shown.output
    assert "MARKER-only-on-this-machine" in out.read_text()


@pytest.mark.parametrize("kind", ["cloud", "file-ids"])
def test_an_import_carries_cloud_objects_and_file_ids_only_when_trusted(
    tmp_path: Path, kind: str
) -> None:
    source = SessionStore(tmp_path / "theirs")
    source.append("s1", tw.User(["Look:", SECRETS[kind](tmp_path)]))
    exported = source.export("s1")
    mine = SessionStore(tmp_path / "mine")
    with pytest.raises(tw.StoreError, match=rf"message 0, file .*trust=\('{kind}',\)"):
        mine.import_(exported)
    assert mine.import_(exported, trust=(kind,)) == "s1"
    with pytest.raises(tw.StoreError, match="trust takes paths, cloud, file-ids, not everything"):
        mine.import_(exported, "s2", trust=("everything",))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_load_conversation_refuses_what_it_was_not_told_to_trust(tmp_path: Path, kind: str) -> None:
    """The Python API applies the CLI's and the store's rule (``foreign.check``): a shared
    history.json cannot make ``tw.load_conversation`` hand back a File that reads
    /etc/passwd, pulls an s3 object through Bedrock or names an uploaded file of yours."""
    text = shared(tmp_path, SECRETS[kind](tmp_path)).read_text()
    for data in (text, text.encode(), json.loads(text)):
        with pytest.raises(
            tw.UntrustedSourceError, match=rf"message 2, file .*trust=\('{kind}',\)"
        ):
            tw.load_conversation(data)
    (_, _, result) = tw.load_conversation(text, trust=[kind])
    assert isinstance(result, tw.ToolResult)
    assert tw.load_conversation(text, trust=kind)[2] == result  # type: ignore[arg-type]
    others = [k for k in SECRETS if k != kind]
    with pytest.raises(tw.UntrustedSourceError, match=f"--trust {kind}"):
        tw.load_conversation(text, trust=others)  # type: ignore[arg-type]
    with pytest.raises(tw.ToolwireError, match="trust takes paths, cloud, file-ids, not all"):
        tw.load_conversation(text, trust=["all"])  # type: ignore[list-item]


def test_a_trusted_path_reads_and_inline_bytes_and_https_need_no_trust(tmp_path: Path) -> None:
    path_file = SECRETS["paths"](tmp_path)
    text = shared(tmp_path, path_file).read_text()
    (_, _, result) = tw.load_conversation(text, trust=("paths",))
    assert result.output.value[0].read() == b"MARKER-only-on-this-machine\n"  # type: ignore[union-attr]
    inline = tw.File.from_bytes(b"MARKER", "text/plain")
    remote = tw.File.from_url("https://example.com/a.png", "image/png")
    messages = [tw.User(["see", inline, remote])]
    assert tw.load_conversation(tw.dump_conversation(messages)) == messages
    odd = json.loads(tw.dump_conversation([tw.User(["see", remote])]))
    odd[0]["content"][1]["source"]["url"] = "ftp://example.com/a.png"
    with pytest.raises(tw.UntrustedSourceError, match="a url source is refused"):
        tw.load_conversation(odd, trust=("paths", "cloud", "file-ids"))


def test_a_dumped_store_session_names_its_blob_root_so_it_reloads_only_as_trusted_paths(
    tmp_path: Path,
) -> None:
    store = SessionStore(tmp_path / "store")
    store.append("s1", tw.User(["Look:", tw.File.from_bytes(b"MARKER", "text/plain")]))
    text = tw.dump_conversation(store.load("s1"))
    with pytest.raises(tw.UntrustedSourceError, match="local path"):
        tw.load_conversation(text)
    (user,) = tw.load_conversation(text, trust=("paths",))
    assert user.parts[1].read() == b"MARKER"  # type: ignore[union-attr]


def test_there_is_one_trust_rule() -> None:
    """The store's import, the CLI's loader and load_conversation call the same check."""
    import inspect

    from toolwire import foreign, messages
    from toolwire.cli import render
    from toolwire.store import trust

    for module in (messages, render, trust):
        assert "check(" in inspect.getsource(module), module.__name__
    assert not hasattr(trust, "TRUST_CHOICES") and foreign.TRUST_CHOICES == (
        "paths",
        "cloud",
        "file-ids",
    )
