"""Local stand-ins for the Files APIs (127.0.0.1 only): they check each request strictly and
record what arrived, so tests point the official SDKs at them instead of a provider.

One ``FilesServer(flavour)`` per API: "anthropic", "openai", "xai", "google", "mistral".
Every request that breaks the API's rules (a missing beta header, a wrong purpose, a
multipart body without a filename, a Gemini chunk at the wrong offset) is answered 400 and
listed in ``violations``; tests assert that list stays empty.
"""

from __future__ import annotations

import email.parser
import email.policy
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANTHROPIC_BETA = "files-api-2025-04-14"
PURPOSES = {"openai": "user_data", "xai": "assistants", "mistral": "ocr"}


@dataclass
class Received:
    """One upload as the server saw it."""

    flavour: str
    file_id: str
    filename: str
    media_type: str
    sha256: str
    size: int
    fields: dict[str, str]


@dataclass
class State:
    """What the server does next and what it has seen."""

    flavour: str
    uploads: list[Received] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    gets: int = 0
    failures: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    delay: float = 0.0
    expires_in: float | None = 3600.0
    processing_polls: int = 0  # Gemini: GETs answered PROCESSING before ACTIVE
    fail_processing: bool = False
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        state = self.server.state
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with state.lock:
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        try:
            if state.delay:
                time.sleep(state.delay)
            self._post(state, body)
        finally:
            with state.lock:
                state.in_flight -= 1

    def do_GET(self) -> None:  # noqa: N802
        state = self.server.state
        name = self.path.split("?")[0].removeprefix("/v1beta/").removeprefix("/v1/")
        if state.flavour != "google" or name not in state.files:
            return self._refuse(state, 404, f"GET {self.path}: no such file")
        if not self.headers.get("x-goog-api-key"):
            return self._refuse(state, 401, "GET without x-goog-api-key")
        with state.lock:
            state.gets += 1
            file = state.files[name]
            if file["state"] == "PROCESSING" and state.gets > state.processing_polls:
                file["state"] = "FAILED" if state.fail_processing else "ACTIVE"
                if state.fail_processing:
                    file["error"] = {"code": 3, "message": "video codec not supported"}
        self._json(200, file)

    # --- per API ---------------------------------------------------------------------------

    def _post(self, state: State, body: bytes) -> None:
        if state.failures:
            status, answer = state.failures.pop(0)
            return self._json(status, answer)
        if state.flavour == "google":
            return self._google(state, body)
        path = self.path.split("?")[0]
        if path != "/v1/files":
            return self._refuse(state, 404, f"POST {self.path}: not the upload endpoint")
        problem = self._auth_problem(state)
        parsed = _multipart(self.headers.get("Content-Type", ""), body)
        if problem or isinstance(parsed, str):
            return self._refuse(state, 400, problem or str(parsed))
        fields, upload = parsed
        problem = _fields_problem(state.flavour, fields, upload)
        if problem:
            return self._refuse(state, 400, problem)
        assert upload is not None
        received = self._record(state, upload, fields)
        self._json(200, _answer(state, received))

    def _auth_problem(self, state: State) -> str | None:
        if state.flavour == "anthropic":
            keyed = self.headers.get("x-api-key") or self.headers.get("Authorization")
            if not keyed or not self.headers.get("anthropic-version"):
                return "anthropic upload without a key or anthropic-version"
            if ANTHROPIC_BETA not in (self.headers.get("anthropic-beta") or ""):
                return f"anthropic upload without the {ANTHROPIC_BETA} beta header"
            return None
        if not (self.headers.get("Authorization") or "").startswith("Bearer "):
            return f"{state.flavour} upload without a Bearer key"
        return None

    def _google(self, state: State, body: bytes) -> None:
        path = self.path.split("?")[0]
        if path in ("/upload/v1beta/files", "/upload/v1/files"):
            if not self.headers.get("x-goog-api-key"):
                return self._refuse(state, 401, "google upload without x-goog-api-key")
            return self._google_start(state, body)
        # The session URL is the credential for the chunks (no key on them).
        session = state.sessions.get(path.removeprefix("/session/"))
        if session is None:
            return self._refuse(state, 404, f"POST {self.path}: no upload session")
        command = self.headers.get("X-Goog-Upload-Command", "")
        if int(self.headers.get("X-Goog-Upload-Offset", "-1")) != len(session["data"]):
            return self._refuse(state, 400, "google chunk at the wrong offset")
        session["data"] += body
        if "finalize" not in command:
            return self._reply(200, b"", {"x-goog-upload-status": "active"})
        if len(session["data"]) != session["size"]:
            return self._refuse(state, 400, "google upload finalized at the wrong size")
        upload = (session["name"], session["mime"], session["data"])
        received = self._record(state, upload, {})
        file = _answer(state, received)
        state.files[received.file_id] = file
        self._reply(200, json.dumps({"file": file}).encode(), {"x-goog-upload-status": "final"})

    def _google_start(self, state: State, body: bytes) -> None:
        if self.headers.get("X-Goog-Upload-Protocol") != "resumable" or (
            self.headers.get("X-Goog-Upload-Command") != "start"
        ):
            return self._refuse(state, 400, "google upload is not a resumable start")
        meta = json.loads(body or b"{}").get("file", {})
        size = int(self.headers.get("X-Goog-Upload-Header-Content-Length", "-1"))
        mime = self.headers.get("X-Goog-Upload-Header-Content-Type") or meta.get("mimeType")
        if size <= 0 or not mime:
            return self._refuse(state, 400, "google start without size or mime type")
        token = f"s{len(state.sessions)}"
        state.sessions[token] = {
            "name": meta.get("displayName") or "",
            "mime": mime,
            "size": size,
            "data": b"",
        }
        url = f"http://127.0.0.1:{self.server.server_port}/session/{token}"
        self._reply(200, b"{}", {"x-goog-upload-url": url, "x-goog-upload-status": "active"})

    # --- plumbing ---------------------------------------------------------------------------

    def _record(
        self, state: State, upload: tuple[str, str, bytes], fields: dict[str, str]
    ) -> Received:
        filename, media_type, data = upload
        with state.lock:
            number = len(state.uploads) + 1
            prefix = {"anthropic": "file_011", "google": "files/", "mistral": "mf-"}
            file_id = prefix.get(state.flavour, "file-") + f"{number:04d}"
            received = Received(
                state.flavour, file_id, filename, media_type,
                hashlib.sha256(data).hexdigest(), len(data), fields,
            )  # fmt: skip
            state.uploads.append(received)
        return received

    def _refuse(self, state: State, status: int, problem: str) -> None:
        state.violations.append(problem)
        self._json(status, {"error": {"type": "invalid_request_error", "message": problem}})

    def _json(self, status: int, value: Any) -> None:
        self._reply(status, json.dumps(value).encode(), {"Content-Type": "application/json"})

    def _reply(self, status: int, data: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: State


def _multipart(
    content_type: str, body: bytes
) -> tuple[dict[str, str], tuple[str, str, bytes] | None] | str:
    if not content_type.startswith("multipart/form-data"):
        return f"upload is {content_type or 'no content type'}, not multipart/form-data"
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    fields: dict[str, str] = {}
    upload = None
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename()
        data = part.get_payload(decode=True) or b""
        if name == "file":
            if not filename or part.get_content_type() == "text/plain" and not data:
                return "the file part has no filename"
            upload = (filename, part.get_content_type(), data)
        else:
            fields[str(name)] = data.decode()
    return fields, upload


def _fields_problem(
    flavour: str, fields: dict[str, str], upload: tuple[str, str, bytes] | None
) -> str | None:
    if upload is None or not upload[2]:
        return "no file part (or an empty one)"
    if flavour == "anthropic":
        allowed = {"expires_in_seconds"}
        seconds = fields.get("expires_in_seconds")
        if seconds is not None and not 3600 <= int(seconds) <= 7_776_000:
            return f"expires_in_seconds {seconds} out of range"
    else:
        allowed = {"purpose", "expires_after[anchor]", "expires_after[seconds]", "visibility"}
        if fields.get("purpose") != PURPOSES[flavour]:
            return f"{flavour} purpose {fields.get('purpose')!r}, expected {PURPOSES[flavour]!r}"
        seconds = fields.get("expires_after[seconds]")
        if seconds is not None and (
            fields.get("expires_after[anchor]") != "created_at"
            or not 3600 <= int(seconds) <= 2_592_000
        ):
            return f"expires_after {fields} is not what the API takes"
    extra = set(fields) - allowed
    return f"unexpected form fields {sorted(extra)}" if extra else None


def _answer(state: State, received: Received) -> dict[str, Any]:
    now = time.time()
    expires = now + state.expires_in if state.expires_in is not None else None
    iso = lambda t: datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z")  # noqa: E731
    if state.flavour == "anthropic":
        return {
            "id": received.file_id, "type": "file", "filename": received.filename,
            "mime_type": received.media_type, "size_bytes": received.size,
            "created_at": iso(now), "downloadable": False,
            "expires_at": iso(expires) if expires else None,
        }  # fmt: skip
    if state.flavour == "google":
        return {
            "name": received.file_id, "displayName": received.filename,
            "mimeType": received.media_type, "sizeBytes": str(received.size),
            "createTime": iso(now), "expirationTime": iso(expires or now + 172800),
            "uri": f"https://generativelanguage.googleapis.com/v1beta/{received.file_id}",
            "state": "PROCESSING" if state.processing_polls else "ACTIVE", "source": "UPLOADED",
        }  # fmt: skip
    answer: dict[str, Any] = {
        "id": received.file_id, "object": "file", "bytes": received.size,
        "created_at": int(now), "filename": received.filename,
        "purpose": PURPOSES[state.flavour],
    }  # fmt: skip
    if state.flavour == "mistral":
        answer.update(sample_type="ocr_input", source="upload")
    else:
        answer.update(status="processed", expires_at=int(expires) if expires else None)
    return answer


@contextmanager
def files_server(flavour: str) -> Iterator[tuple[str, State]]:
    """A running stand-in for ``flavour``'s Files API: (its base URL, its state)."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.state = State(flavour)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", server.state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
