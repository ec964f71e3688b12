"""Run in a subprocess by race.py: sync one file into a shared store, print its id.

argv: store directory (or postgresql:// URL), Files API stand-in URL, path of the file to
upload, and optionally the store's blob location. Prints "ready"
once set up, then waits for a line on stdin before syncing.
"""

from __future__ import annotations

import json
import sys

import anthropic

import toolwire as tw


def main() -> None:
    store_dir, url, path = sys.argv[1:4]
    blobs = sys.argv[4] if len(sys.argv) > 4 else None
    uploads = tw.Uploads(store=tw.SessionStore(store_dir, blobs=blobs))
    client = anthropic.Anthropic(api_key="sk-shared", base_url=url, max_retries=0)
    call = tw.ToolCall(id="toolu_01", name="fetch", arguments={})
    turn = [
        tw.User("read it"),
        tw.Assistant([call]),
        tw.ToolResult.of("toolu_01", "fetch", tw.File.from_path(path)),
    ]
    print("ready", flush=True)
    sys.stdin.readline()  # the parent says go to both children at once
    [outcome] = uploads.sync(turn, "anthropic:claude-sonnet-4-5", client)
    print(json.dumps({"file_id": outcome.file_id, "uploaded": outcome.uploaded}))


if __name__ == "__main__":
    main()
