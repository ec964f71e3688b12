"""Uploads.sync through the official sync SDK clients, then resolve + encode sending ids."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest

import toolwire as tw

from .conftest import ANTHROPIC, FLAVOURS, GEMINI, GEMINI_3, MISTRAL, OPENAI, XAI, history, pdf, png


def sent_json(messages: list, model: str) -> str:
    return json.dumps(tw.encode(messages, model).to_json())


@pytest.mark.parametrize("model", [ANTHROPIC, OPENAI, GEMINI])
def test_a_file_is_uploaded_once_and_its_id_is_reused_on_every_later_turn(serve, model):
    client, state = serve(FLAVOURS[model])
    uploads = tw.Uploads()
    report = pdf(seed=1)
    turn = history(report)
    first = uploads.sync(turn, model, client)
    for extra in range(3):  # three more turns, the same file in the history
        turn = [*turn, tw.User(f"and now {extra}?")]
        again = uploads.sync(turn, model, client)
        assert [o.uploaded for o in again] == [False]
        assert again[0].file_id == first[0].file_id
    assert len(state.uploads) == 1
    assert state.uploads[0].sha256 == hashlib.sha256(report.read()).hexdigest()
    wire = sent_json(uploads.resolve(turn, model), model)
    assert first[0].file_id.rsplit("/", 1)[-1] in wire
    assert len(wire) < 5_000  # the 200 KB of bytes are not in the request


def test_encode_sends_the_id_inside_the_anthropic_tool_result(serve):
    client, _ = serve("anthropic")
    uploads = tw.Uploads()
    turn = history(pdf(seed=2, name="report.pdf"))
    [outcome] = uploads.sync(turn, ANTHROPIC, client)
    request = tw.encode(uploads.resolve(turn, ANTHROPIC), ANTHROPIC)
    block = request.kwargs["messages"][-1]["content"][0]["content"][0]
    assert block == {
        "type": "document",
        "source": {"type": "file", "file_id": outcome.file_id},
        "title": "report.pdf",
    }
    assert request.decisions[0].mode == "native"
    assert uploads.betas(ANTHROPIC) == ["files-api-2025-04-14"]
    assert uploads.request_headers(ANTHROPIC) == {"anthropic-beta": "files-api-2025-04-14"}
    assert uploads.request_headers(OPENAI) == {}


def test_resolved_messages_hold_their_parts_in_tuples(serve):
    client, _ = serve("anthropic")
    uploads = tw.Uploads()
    turn = [*history(pdf(seed=3)), tw.User(["And this one:", pdf(seed=4)])]
    uploads.sync(turn, ANTHROPIC, client)
    _, _, result, user = uploads.resolve(turn, ANTHROPIC)
    for parts in (result.output.value, user.content):
        assert type(parts) is tuple
        assert parts[-1].source.type == "provider_file"


def test_gemini_files_are_used_only_once_active_after_processing(serve):
    client, state = serve("google")
    state.processing_polls = 3
    uploads = tw.Uploads()
    turn = history(pdf(seed=3))
    [outcome] = uploads.sync(turn, GEMINI, client)
    assert state.gets == 4  # three PROCESSING answers, then ACTIVE
    assert outcome.file_id.endswith(state.uploads[0].file_id)
    parts = tw.encode(uploads.resolve(turn, GEMINI), GEMINI).kwargs["contents"][-1]["parts"]
    assert {"file_data": {"file_uri": outcome.file_id, "mime_type": "application/pdf"}} in parts


def test_a_gemini_file_that_fails_processing_is_an_upload_error_and_not_cached(serve):
    client, state = serve("google")
    state.processing_polls, state.fail_processing = 1, True
    uploads = tw.Uploads()
    turn = history(pdf(seed=4, name="clip.pdf"))
    with pytest.raises(tw.UploadError, match=r"google could not process clip\.pdf.*codec"):
        uploads.sync(turn, GEMINI, client)
    assert uploads.resolve(turn, GEMINI) == turn


def test_a_gemini_file_still_processing_at_the_deadline_is_an_upload_error(serve):
    client, state = serve("google")
    state.processing_polls = 10_000
    uploads = tw.Uploads(processing_timeout=0.3)
    with pytest.raises(tw.UploadError, match="still processing"):
        uploads.sync(history(pdf(seed=5)), GEMINI, client)


def test_a_position_that_takes_bytes_but_no_id_keeps_the_bytes(serve):
    client, state = serve("google")
    uploads = tw.Uploads()
    image = png(seed=6)  # Gemini 3 takes it inside function_response.parts, inline only
    assert uploads.sync(history(image), GEMINI_3, client) == []
    assert uploads.sync([tw.User(["look", image])], GEMINI_3, client)[0].uploaded
    assert len(state.uploads) == 1


def test_files_below_min_bytes_and_targets_listing_no_ids_stay_inline(serve):
    client, state = serve("mistral")
    uploads = tw.Uploads()
    assert uploads.sync(history(png(seed=7)), MISTRAL, client) == []  # table: images by URL only
    anthropic, seen = serve("anthropic")
    small = pdf(size=1_000, seed=8)
    assert uploads.sync(history(small), ANTHROPIC, anthropic) == []
    assert uploads.sync(history(small), ANTHROPIC, anthropic, min_bytes=0)[0].uploaded
    assert (len(state.uploads), len(seen.uploads)) == (0, 1)


def test_an_id_about_to_expire_is_uploaded_again(serve):
    client, state = serve("openai")
    state.expires_in = 60  # within the 600 s margin: stale at once
    uploads = tw.Uploads()
    turn = history(pdf(seed=9))
    first = uploads.sync(turn, OPENAI, client)[0].file_id
    assert uploads.resolve(turn, OPENAI) == turn  # no fresh id to send
    state.expires_in = 3600
    second = uploads.sync(turn, OPENAI, client)[0].file_id
    assert first != second and len(state.uploads) == 2
    assert uploads.sync(turn, OPENAI, client)[0].uploaded is False


def test_an_id_the_provider_no_longer_knows_is_uploaded_once_more_after_forget(serve):
    client, state = serve("anthropic")
    uploads = tw.Uploads()
    turn = history(pdf(seed=10))
    gone = uploads.sync(turn, ANTHROPIC, client)[0].file_id
    # The messages call answered 404 "file not found" for ``gone``: the caller forgets it.
    assert uploads.forget(ANTHROPIC, gone) == 1
    renewed = uploads.sync(turn, ANTHROPIC, client)
    assert renewed[0].uploaded and renewed[0].file_id != gone
    assert uploads.sync(turn, ANTHROPIC, client)[0].uploaded is False
    assert len(state.uploads) == 2


def test_a_failed_upload_names_file_provider_and_sdk_message_and_caches_nothing(serve):
    client, state = serve("anthropic")
    state.failures.append((413, {"type": "error", "error": {"message": "file too large"}}))
    uploads = tw.Uploads()
    turn = history(pdf(seed=11, name="big.pdf"))
    with pytest.raises(tw.UploadError) as caught:
        uploads.sync(turn, ANTHROPIC, client)
    message = str(caught.value)
    assert "big.pdf" in message and "anthropic" in message and "file too large" in message
    assert uploads.resolve(turn, ANTHROPIC) == turn
    assert uploads.sync(turn, ANTHROPIC, client)[0].uploaded  # the claim was released
    assert len(state.uploads) == 1


def test_one_failure_among_several_uploads_keeps_the_others(serve):
    client, state = serve("openai")
    state.failures.append((400, {"error": {"message": "unsupported file"}}))
    uploads = tw.Uploads(max_workers=1)
    turn = history(pdf(seed=12), pdf(seed=13), pdf(seed=14))
    with pytest.raises(tw.UploadError, match="unsupported file"):
        uploads.sync(turn, OPENAI, client)
    assert len(state.uploads) == 2
    again = uploads.sync(turn, OPENAI, client)
    assert sorted(o.uploaded for o in again) == [False, False, True]


def test_uploads_run_concurrently_up_to_max_workers(serve):
    client, state = serve("anthropic")
    state.delay = 0.2
    uploads = tw.Uploads(max_workers=3)
    outcomes = uploads.sync(history(*(pdf(seed=20 + i) for i in range(7))), ANTHROPIC, client)
    assert len({o.file_id for o in outcomes}) == 7
    assert state.max_in_flight == 3


def test_the_same_content_twice_in_a_conversation_is_uploaded_once(serve):
    client, state = serve("openai")
    same = pdf(seed=30)
    outcomes = tw.Uploads().sync(history(same, same, pdf(seed=31)), OPENAI, client)
    assert len(outcomes) == 2 and len(state.uploads) == 2


def test_two_threads_syncing_the_same_content_upload_it_once(serve):
    client, state = serve("anthropic")
    state.delay = 0.3
    uploads = tw.Uploads()
    turn = history(pdf(seed=32))
    found: list[str] = []
    threads = [
        threading.Thread(
            target=lambda: found.append(uploads.sync(turn, ANTHROPIC, client)[0].file_id)
        )
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(state.uploads) == 1 and found[0] == found[1]


def test_progress_reports_bytes_done_and_total_per_file(serve):
    client, _ = serve("google")
    seen: list[tuple[str, int, int]] = []
    lock = threading.Lock()

    def progress(identifier: str, done: int, total: int) -> None:
        with lock:
            seen.append((identifier, done, total))

    files = [pdf(size=300_000, seed=40, name="a.pdf"), pdf(size=150_000, seed=41, name="b.pdf")]
    tw.Uploads().sync(history(*files), GEMINI, client, progress=progress)
    for file in files:
        mine = [(done, total) for name, done, total in seen if name == file.name]
        total = len(file.read())
        assert mine[-1] == (total, total)
        assert all(0 < done <= total == t for done, t in mine)


def test_images_are_uploaded_as_the_planner_would_send_them(serve):
    client, state = serve("anthropic")
    uploads = tw.Uploads()
    big = png(edge=2000, seed=50)  # Anthropic fits images to 1568 px
    turn = history(big)
    uploads.sync(turn, ANTHROPIC, client)
    sent = state.uploads[0]
    assert sent.size < len(big.read())
    resolved = uploads.resolve(turn, ANTHROPIC)
    file = resolved[-1].output.value[0]
    assert file.media_type == sent.media_type and file.name == "shot50.png"
    assert uploads.file_id_for(ANTHROPIC, big) == file.source.file_id


def test_xai_documents_go_by_id_in_the_user_message(serve):
    client, state = serve("xai")
    uploads = tw.Uploads()
    turn = history(pdf(seed=60))
    [outcome] = uploads.sync(turn, XAI, client)
    wire = sent_json(uploads.resolve(turn, XAI), XAI)
    assert outcome.file_id in wire and state.uploads[0].fields["purpose"] == "assistants"


def test_resolve_returns_the_same_message_objects_while_the_ids_stay(serve):
    client, _ = serve("anthropic")
    uploads = tw.Uploads()
    turn = history(pdf(seed=70))
    uploads.sync(turn, ANTHROPIC, client)
    first, second = uploads.resolve(turn, ANTHROPIC), uploads.resolve(turn, ANTHROPIC)
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert first[0] is turn[0]


def test_remember_records_an_upload_made_elsewhere():
    uploads = tw.Uploads(account="acct-1")
    report = pdf(seed=80)
    uploads.remember(ANTHROPIC, report, "file_from_elsewhere")
    assert uploads.file_id_for(ANTHROPIC, report) == "file_from_elsewhere"
    assert uploads.file_id_for(ANTHROPIC, report, account="acct-2") is None
    uploads.remember(OPENAI, report, "file-old", expires_at=1.0)
    assert uploads.file_id_for(OPENAI, report) is None


def test_a_target_without_a_files_api_is_a_clear_error():
    with pytest.raises(tw.ToolwireError, match="cannot reference uploaded files"):
        tw.Uploads().file_id_for("bedrock:anthropic.claude-sonnet-4-5", pdf())


def test_sync_with_an_async_client_points_to_async_sync(serve):
    client, _ = serve("openai", asynchronous=True)
    with pytest.raises(tw.ToolwireError, match="async_sync"):
        tw.Uploads().sync(history(pdf()), OPENAI, client)


@pytest.mark.parametrize("model", [ANTHROPIC, OPENAI, GEMINI, "openai-chat:gpt-4.1"])
def test_a_file_sent_by_id_keeps_the_position_its_bytes_had(serve, model):
    client, _ = serve(FLAVOURS.get(model, "openai"))
    uploads = tw.Uploads()
    turn = [*history(pdf(seed=90)), tw.User(["and this one", pdf(seed=91, name="mine.pdf")])]
    inline = tw.encode(turn, model).decisions
    uploads.sync(turn, model, client)
    by_id = tw.encode(uploads.resolve(turn, model), model).decisions
    assert [(d.message_index, d.identifier, d.mode) for d in by_id] == [
        (d.message_index, d.identifier, d.mode) for d in inline
    ]


def test_capability_overrides_decide_what_goes_by_id_as_they_do_for_encode(serve):
    client, state = serve("mistral")
    no_ids = {"media": [{"types": ["application/pdf"], "tool_result": "fallback",
                         "user_sources": ["bytes"], "evidence": "test override"}]}  # fmt: skip
    uploads = tw.Uploads()
    turn = history(pdf(seed=95))
    with pytest.raises(tw.ToolwireError, match="none of its models' positions takes a file id"):
        uploads.sync(turn, MISTRAL, client, capabilities=no_ids)
    [outcome] = uploads.sync(turn, MISTRAL, client)  # the package table: PDFs by id
    assert outcome.uploaded and state.uploads[0].fields["purpose"] == "ocr"
    resolved = uploads.resolve(turn, MISTRAL)
    assert resolved[-1].output.value[0].source.file_id == outcome.file_id
    with pytest.raises(tw.ToolwireError, match="cannot reference uploaded files"):
        uploads.resolve(turn, MISTRAL, capabilities=no_ids)
