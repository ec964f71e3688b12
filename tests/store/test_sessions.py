"""SessionStore: exact replay, blobs stored once, export/import, deletion and errors."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.capability import providers
from toolwire.request import encode as tw_encode
from toolwire.sources import BlobSource, BytesSource
from toolwire.store import SessionStore
from toolwire.store.codec import file_dicts, files_of, replace_files

EXAMPLES = Path(__file__).parents[2] / "examples"

#: One model per provider of DESIGN.md §3 (a test below keeps this in step with the table).
MODELS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-5",
    "openai-chat:gpt-5-mini",
    "google:gemini-3-pro-preview",
    "google-vertex:gemini-3-pro-preview",
    "bedrock:anthropic.claude-sonnet-4-5-v1:0",
    "groq:llama-4-scout",
    "mistral:mistral-large-latest",
    "xai:grok-4",
    "openrouter:openai/gpt-5",
    "ollama:llama3.2-vision",
    "cohere:command-a-vision",
    "openai-compatible:qwen",
]


def encode(messages, model):
    """encode with text fallbacks, so every file of every target gets a Decision."""
    return tw_encode(messages, model, on_unsupported="text")


def conversation(tmp_path):
    shot = tmp_path / "shot.png"
    shutil.copy(EXAMPLES / "photo.png", shot)
    jpeg = (EXAMPLES / "rotated.jpg").read_bytes()
    return [
        tw.System("You look at files."),
        tw.User([tw.Text(text="Compare these."), tw.File.from_bytes(jpeg, name="rotated.jpg")]),
        tw.Assistant(
            [
                tw.Thinking(text="Look first.", signature="sig-1", provider="anthropic"),
                tw.ToolCall(id="c1", name="screenshot", arguments={}),
                tw.ToolCall(id="c2", name="fetch", arguments={"what": "report", "limit": None}),
            ]
        ),
        tw.ToolResult.of("c1", "screenshot", tw.File.from_path(shot)),
        tw.ToolResult.of(
            "c2",
            "fetch",
            [
                tw.File.from_path(EXAMPLES / "report.pdf", name="report.pdf"),
                "and the tone",
                tw.File.from_path(EXAMPLES / "tone.wav"),
                {"pages": 3, "type": "file", "source": {"type": "blob", "sha256": "0" * 64}},
                tw.File.from_url("https://example.com/chart.png"),
                tw.File.from_provider_file(
                    "anthropic", "file_011", "application/pdf", name="o.pdf"
                ),
            ],
        ),
        tw.Assistant("Done."),
    ]


def inlined(messages):
    """The conversation with every local file's bytes inline: what 'the same content' means."""

    def inline(file):
        if not file.source.is_local:
            return file
        return file.model_copy(update={"source": BytesSource(data=file.read())})

    return json.loads(tw.dump_conversation([replace_files(m, inline) for m in messages]))


def test_a_loaded_session_has_the_same_messages_and_bytes(tmp_path):
    conv = conversation(tmp_path)
    store = SessionStore(tmp_path / "store")
    assert store.extend("s1", conv) == list(range(len(conv)))
    loaded = store.load("s1")
    assert inlined(loaded) == inlined(conv)
    assert [loaded[i] for i in (0, 2, 5)] == [conv[i] for i in (0, 2, 5)]
    assert loaded[3].output.value[0].identifier == conv[3].output.value[0].identifier


def test_a_loaded_session_holds_the_parts_of_its_messages_in_tuples(tmp_path):
    store = SessionStore(tmp_path / "store")
    store.extend("s1", conversation(tmp_path))
    _, user, assistant, shot, fetched, _ = store.load("s1")
    parts = [user.content, assistant.content, shot.output.value, fetched.output.value]
    assert [type(p) for p in parts] == [tuple] * 4


def test_positions_count_up_per_session(tmp_path):
    store = SessionStore(tmp_path)
    assert [store.append("a", tw.User(f"a{n}")) for n in range(3)] == [0, 1, 2]
    assert store.append("b", tw.User("b0")) == 0
    assert store.extend("a", [tw.User("a3"), tw.User("a4")]) == [3, 4]
    assert [m.content for m in store.load("a")] == [f"a{n}" for n in range(5)]


@pytest.mark.parametrize("what_happens", ["moved", "changed", "deleted"])
def test_a_session_re_encodes_byte_identically_after_its_file_is(tmp_path, what_happens):
    conv = conversation(tmp_path)
    model = "anthropic:claude-sonnet-4-5"
    before = json.dumps(encode(conv, model).to_json())
    store = SessionStore(tmp_path / "store")
    store.extend("s1", conv)
    shot = tmp_path / "shot.png"
    if what_happens == "moved":
        shot.rename(tmp_path / "elsewhere.png")
    elif what_happens == "changed":
        shot.write_bytes((EXAMPLES / "sample.webp").read_bytes())
    else:
        shot.unlink()
    assert (
        json.dumps(encode(SessionStore(tmp_path / "store").load("s1"), model).to_json()) == before
    )


def test_the_model_list_covers_every_provider_in_the_table():
    assert sorted(m.split(":", 1)[0] for m in MODELS) == sorted(providers())


@pytest.mark.parametrize("model", MODELS)
def test_a_stored_session_encodes_for_every_target_like_the_original(tmp_path, model):
    conv = conversation(tmp_path)
    store = SessionStore(tmp_path / "store")
    store.extend("s1", conv)
    request = encode(store.load("s1"), model)
    assert request.to_json() == encode(conv, model).to_json()
    files = [f.identifier for m in conv for f in files_of(m)]
    assert len(files) == 6
    assert [d.identifier for d in request.decisions] == files  # every file got a Decision


def test_the_database_holds_no_absolute_root_so_the_store_can_move(tmp_path):
    store = SessionStore(tmp_path / "here")
    store.extend("s1", conversation(tmp_path))
    store.close()
    with closing(sqlite3.connect(tmp_path / "here" / "sessions.db")) as conn:
        bodies = " ".join(row[0] for row in conn.execute("SELECT body FROM messages"))
    assert str(tmp_path) not in bodies
    assert '"type":"blob"' in bodies
    shutil.move(tmp_path / "here", tmp_path / "there")
    loaded = SessionStore(tmp_path / "there").load("s1")
    shot = loaded[3].output.value[0]
    assert isinstance(shot.source, BlobSource)
    assert shot.source.root == str(tmp_path / "there" / "blobs")
    assert shot.read() == (EXAMPLES / "photo.png").read_bytes()


def test_a_dumped_session_reloads_into_files_that_read(tmp_path):
    store = SessionStore(tmp_path / "store")
    store.extend("s1", conversation(tmp_path))
    text = tw.dump_conversation(store.load("s1"))
    reloaded = tw.load_conversation(text, trust=("paths", "file-ids"))  # its own: a blob root
    assert reloaded[3].output.value[0].read() == (EXAMPLES / "photo.png").read_bytes()
    assert inlined(reloaded) == inlined(store.load("s1"))


def test_url_and_provider_file_sources_are_stored_as_they_are(tmp_path):
    url = tw.File.from_url("https://example.com/chart.png")
    held = tw.File.from_provider_file("openai", "file-abc", "application/pdf")
    store = SessionStore(tmp_path)
    store.append("s1", tw.User([url, held]))
    assert store.load("s1")[0].content == (url, held)
    assert list(store.blobs.digests()) == []


def test_identical_bytes_are_stored_once(tmp_path):
    photo = (EXAMPLES / "photo.png").read_bytes()
    store = SessionStore(tmp_path)
    for n in range(3):
        store.append(f"s{n}", tw.User([tw.File.from_bytes(photo)]))
        store.append(f"s{n}", tw.User([tw.File.from_path(EXAMPLES / "photo.png", name=f"{n}.png")]))
    assert len(list(store.blobs.digests())) == 1
    assert store.blobs.size() == len(photo)


def test_export_is_self_contained_and_import_restores_it(tmp_path):
    conv = conversation(tmp_path)
    store = SessionStore(tmp_path / "a")
    store.extend("s1", conv)
    exported = store.export("s1")
    store.close()
    shutil.rmtree(tmp_path / "a")
    (tmp_path / "shot.png").unlink()
    sources = [f["source"]["type"] for m in json.loads(exported)["messages"] for f in file_dicts(m)]
    assert sources == ["bytes"] * 4 + ["url", "provider_file"]
    other = SessionStore(tmp_path / "b")
    with pytest.raises(tw.StoreError, match=r"provider file id .* trust=\('file-ids',\)"):
        other.import_(exported)  # an id of the exporter's account, read with the importer's
    assert other.import_(exported, trust=("file-ids",)) == "s1"
    assert other.import_(exported, session_id="copy", trust=("file-ids",)) == "copy"
    assert inlined(other.load("s1")) == inlined(other.load("copy"))
    assert json.loads(exported)["messages"] == inlined(other.load("s1"))
    assert len(list(other.blobs.digests())) == 4


def test_import_refuses_an_existing_session_and_foreign_json(tmp_path):
    store = SessionStore(tmp_path)
    store.append("s1", tw.User("hi"))
    with pytest.raises(tw.StoreError, match="'s1' already exists"):
        store.import_(store.export("s1"))
    with pytest.raises(tw.StoreError, match="not a toolwire session export"):
        store.import_('[{"role": "user", "content": "hi"}]')
    with pytest.raises(tw.StoreError, match="not JSON"):
        store.import_("{truncated")


def test_import_checks_for_the_session_inside_its_write_transaction(tmp_path, monkeypatch):
    """Two stores (say, two processes) import the same id: the second to commit is refused,
    even when the first commits after the second's early look, while its blobs are written."""
    source = SessionStore(tmp_path / "source")
    source.append("s1", tw.User([tw.File.from_bytes((EXAMPLES / "photo.png").read_bytes())]))
    exported = source.export("s1")
    first, second = SessionStore(tmp_path / "shared"), SessionStore(tmp_path / "shared")
    put = second.blobs.put

    def put_while_the_other_store_imports(data: bytes) -> str:
        first.import_(exported)
        return put(data)

    monkeypatch.setattr(second.blobs, "put", put_while_the_other_store_imports)
    with pytest.raises(tw.StoreError, match="^session 's1' already exists"):
        second.import_(exported)
    assert len(second.load("s1")) == 1
    assert [info.messages for info in second.list_sessions()] == [1]


def test_delete_collects_only_blobs_no_longer_referenced(tmp_path):
    photo = tw.File.from_path(EXAMPLES / "photo.png")
    wav = tw.File.from_path(EXAMPLES / "tone.wav")
    store = SessionStore(tmp_path)
    store.append("keep", tw.User([photo]))
    store.append("drop", tw.User([photo, wav]))
    assert store.delete("drop") == 1
    assert "drop" not in store
    assert list(store.blobs.digests()) == [photo.source.sha256()]
    assert store.load("keep")[0].content[0].read() == photo.read()
    assert store.delete("keep") == 1
    assert list(store.blobs.digests()) == []
    with pytest.raises(tw.StoreError, match="no session 'keep'"):
        store.delete("keep")


def test_gc_collects_a_blob_that_no_message_references(tmp_path):
    store = SessionStore(tmp_path)
    store.append("s1", tw.User([tw.File.from_path(EXAMPLES / "photo.png")]))
    orphan = store.blobs.put(b"written by a process killed before its row committed")
    assert store.gc() == 1
    assert not store.blobs.has(orphan)
    assert len(list(store.blobs.digests())) == 1


def test_a_corrupt_blob_is_an_error_naming_the_session_and_file(tmp_path):
    store = SessionStore(tmp_path)
    store.append("s1", tw.User("look"))
    store.append("s1", tw.User([tw.File.from_path(EXAMPLES / "photo.png", name="photo.png")]))
    (digest,) = store.blobs.digests()
    store.blobs.path(digest).write_bytes(b"\x89PNG\r\n\x1a\n not the photo any more")
    with pytest.raises(
        tw.InvalidFileError, match=r"session 's1', message 1, file photo\.png.*corrupt"
    ):
        store.load("s1")
    lazy = store.load("s1", verify=False)
    with pytest.raises(tw.InvalidFileError, match="corrupt"):
        lazy[1].content[0].read()


def test_a_missing_blob_is_an_error_naming_the_session_and_file(tmp_path):
    store = SessionStore(tmp_path)
    store.append("s1", tw.User([tw.File.from_path(EXAMPLES / "tone.wav")]))
    (digest,) = store.blobs.digests()
    store.blobs.path(digest).unlink()
    with pytest.raises(
        tw.InvalidFileError,
        match=f"session 's1', message 0, file tone.wav: blob {digest[:12]}.*missing",
    ):
        store.load("s1")


def test_an_unknown_session_is_an_error_suggesting_close_ids(tmp_path):
    store = SessionStore(tmp_path)
    store.append("support-42", tw.User("hi"))
    with pytest.raises(tw.StoreError, match="no session 'support-43'.*'support-42'"):
        store.load("support-43")


def test_a_missing_file_at_append_names_session_and_file_and_stores_nothing(tmp_path):
    gone = tmp_path / "gone.png"
    shutil.copy(EXAMPLES / "photo.png", gone)
    file = tw.File.from_path(gone, media_type="image/png")
    gone.unlink()
    store = SessionStore(tmp_path / "store")
    store.append("s1", tw.User("first"))
    with pytest.raises(
        tw.InvalidFileError, match=f"session 's1', new message 1, file gone.png: {gone}"
    ):
        store.extend("s1", [tw.User("second"), tw.ToolResult.of("c1", "t", file)])
    assert [m.content for m in store.load("s1")] == ["first"]


def test_a_value_that_is_not_a_message_is_refused(tmp_path):
    store = SessionStore(tmp_path)
    with pytest.raises(tw.StoreError, match="cannot store str; pass a System, User"):
        store.append("s1", "hello")
    with pytest.raises(tw.StoreError, match="non-empty string"):
        store.append("", tw.User("hello"))
    assert store.append("s1", {"role": "user", "content": "as JSON"}) == 0


def test_list_sessions_counts_messages_files_and_bytes(tmp_path):
    photo = EXAMPLES / "photo.png"
    store = SessionStore(tmp_path)
    store.extend("a", [tw.User([tw.File.from_path(photo)]), tw.User([tw.File.from_path(photo)])])
    store.append("b", tw.User("no files"))
    (a, b) = store.list_sessions()
    assert (a.id, a.messages, a.files, a.file_bytes) == ("a", 2, 1, photo.stat().st_size)
    assert (b.id, b.messages, b.files, b.file_bytes) == ("b", 1, 0, 0)
    assert a.created_at <= a.updated_at


def test_opening_a_store_that_does_not_exist_without_create_fails(tmp_path):
    with pytest.raises(tw.StoreError, match="no session store at"):
        SessionStore(tmp_path / "nowhere", create=False)
    assert not (tmp_path / "nowhere").exists()
