"""Run the README's Python example ("## Use it") against the installed toolwire, as a new user.

`scripts/dev release` builds the wheel, installs it with the extras the example names into a
fresh virtual environment, and runs this file with that environment's Python. No provider is
called: the Anthropic SDK is pointed (ANTHROPIC_BASE_URL) at a small local server that answers
like the Messages API (first a call of the example's `screenshot` tool, then an answer) and
keeps the requests, so the check also sees what the loop sent.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def reply(content: list[dict[str, object]], stop_reason: str) -> dict[str, object]:
    """A Messages API response holding ``content``."""
    return {
        "id": "msg_readme",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 3},
    }


CALL = {"type": "tool_use", "id": "toolu_readme", "name": "screenshot", "input": {}}
REPLIES = [reply([CALL], "tool_use"), reply([{"type": "text", "text": "A dashboard."}], "end_turn")]


def example(readme: Path) -> str:
    """The first Python block under the README's "## Use it" heading."""
    text = readme.read_text(encoding="utf-8")
    section = text.split("\n## Use it\n", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    if found is None:
        sys.exit(f"{readme}: no python block under '## Use it'")
    return found.group(1)


def serve(requests: list[dict[str, object]]) -> ThreadingHTTPServer:
    class Messages(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server hook's name
            body = self.rfile.read(int(self.headers["Content-Length"]))
            requests.append({"path": self.path, "body": json.loads(body)})
            data = json.dumps(REPLIES[min(len(requests), len(REPLIES)) - 1]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Messages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    code = example(Path(sys.argv[1]).resolve())
    requests: list[dict[str, object]] = []
    server = serve(requests)
    os.environ["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{server.server_address[1]}"
    os.environ["ANTHROPIC_API_KEY"] = "sk-ant-readme-check"
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        from PIL import Image  # the files extra the README installs

        Image.new("RGB", (1280, 800), (40, 90, 160)).save("dash.png")  # the example's file
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md (## Use it)", "exec"), {"__name__": "__main__"})
    server.shutdown()
    import toolwire

    printed = out.getvalue()
    where = Path(toolwire.__file__).resolve()
    problems = []
    if Path(sys.argv[1]).resolve().parent in where.parents:
        problems.append(f"toolwire was imported from the source tree ({where}), not the wheel")
    if not re.search(r"^dash\.png native ", printed, re.M):
        problems.append(f"the example printed no 'dash.png native …' decision: {printed!r}")
    if len(requests) != 2 or not printed.endswith("A dashboard.\n"):
        problems.append(f"the loop did not end after the tool turn: {len(requests)} requests")
    first = json.dumps(requests[0]["body"]) if requests else ""
    if '"name": "screenshot"' not in first:
        problems.append(f"the first request offered no screenshot tool: {first[:500]}")
    sent = json.dumps(requests[-1]["body"]) if requests else ""
    if '"tool_result"' not in sent or '"image"' not in sent:
        problems.append(f"the Messages API got no image inside a tool_result: {sent[:500]}")
    if problems:
        sys.exit("README example: " + "; ".join(problems))
    print(f"README example ran on toolwire {toolwire.__version__} from {where.parent}:")
    print(printed, end="")


if __name__ == "__main__":
    main()
