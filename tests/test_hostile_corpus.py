"""The hostile corpus of issue 33's audit, each case in a child process with its cost asserted:
CPU time under 10 s (the host's and its read worker's: unlike wall time, CPU time does not
grow when other work shares the machine; a child that never ends is stopped at
``HANG_SECONDS``) and the host's peak resident memory under 300 MB (``VmHWM``, reset once the
input is built: ``/proc/self/clear_refs``). The read worker's own peak is bounded by its limit (readers.isolation:
``TOOLWIRE_READ_MEMORY_MB``, 2 GiB by default; the figure asserted is the largest of the
child's children, a setup helper included) and is not added to the host's.

Each case builds its input in the child (the host holds it, as it would in use), then runs
the operation an attacker reaches: an import, a stored row, a tool listing, a reply, a file.
The same defences are tested in detail elsewhere (tests/store/test_fuzz_formats.py,
tests/tools/test_schema_limits.py, tests/decoders/test_deep_arguments.py,
tests/test_hostile_headers.py, tests/test_fit_in_worker.py, tests/readers/test_hostile.py for
read_file's own corpus); here each is held to the same time and memory bounds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CPU_SECONDS = 10.0
PEAK_MB = 300
HANG_SECONDS = 120

#: The child: ``setup`` builds the input (not timed), ``attack`` is timed; prints one line.
CHILD = """
import json, os, resource, sys, tempfile, time
import toolwire as tw
from toolwire.readers import isolation
tmp = tempfile.mkdtemp()
{setup}
def attack():
{attack}
with open("/proc/self/clear_refs", "w") as refs:  # the peak from here: setup's is not counted
    refs.write("5")
before = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
try:
    outcome = attack()
except tw.ToolwireError as exc:
    kinds = [c.__name__ for c in type(exc).__mro__ if issubclass(c, tw.ToolwireError)]
    outcome = "/".join(kinds) + ": " + str(exc)[:300]
isolation.shutdown()  # reaps the read worker, so its CPU and peak count below
after = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
cpu = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before))
with open("/proc/self/status") as status:
    host = max(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
print(json.dumps(dict(outcome=str(outcome), cpu=cpu, host_mb=host,
                      worker_mb=after[1].ru_maxrss / 1024)))
"""

EXAMPLES = Path(__file__).parent.parent / "examples"

CASES: dict[str, tuple[str, str, str]] = {  # name: (setup, attack, expected outcome regex)
    "an export of 20 million empty lists (1.6 GB parsed)": (
        'text = \'{"format": "toolwire.session", "version": 1, "id": "s", "messages": [\''
        " + '[],' * 20_000_000 + '[]]}'",
        "return tw.SessionStore(tmp).import_(text)",
        r"^StoreError/.*more than 1,000,000 JSON values",
    ),
    "a stored row of 20 million empty lists": (
        "import sqlite3\n"
        "store = tw.SessionStore(tmp)\n"
        "store.append('s1', tw.User('hi'))\n"
        "with sqlite3.connect(os.path.join(tmp, 'sessions.db')) as conn:\n"
        "    conn.execute('UPDATE messages SET body = ?', ('[' + '[],' * 20_000_000 + '[]]',))",
        "return tw.SessionStore(tmp).load('s1')",
        r"^StoreError/.*more than 1,000,000 JSON values",
    ),
    "a stored row whose content is a number": (
        "import sqlite3\n"
        "store = tw.SessionStore(tmp)\n"
        "store.append('s1', tw.User('hi'))\n"
        "with sqlite3.connect(os.path.join(tmp, 'sessions.db')) as conn:\n"
        '    conn.execute(\'UPDATE messages SET body = ?\', (\'{"role": "user", "content": 5}\',))',
        "return tw.SessionStore(tmp).load('s1')",
        r"^StoreError/.*message 0 is unreadable: user.content",
    ),
    "a 2 KB tool listing whose $refs double 40 times (Ollama inlines them)": (
        "defs = {f'D{i}': {'type': 'object', 'properties': {'l': {'$ref': f'#/$defs/D{i + 1}'},"
        " 'r': {'$ref': f'#/$defs/D{i + 1}'}}} for i in range(40)}\n"
        "defs['D40'] = {'type': 'string'}\n"
        "schema = {'type': 'object', 'properties': {'root': {'$ref': '#/$defs/D0'}}, '$defs': defs}",
        "return tw.encode([tw.User('hi')], 'ollama:llama3.2',"
        " tools=[tw.Tool('bomb', 'A hostile listing.', schema)])",
        r"ToolDefinitionError.*: tool 'bomb'",
    ),
    "a tool schema 5,000 levels deep": (
        "schema = {'type': 'string'}\n"
        "for _ in range(5000):\n"
        "    schema = {'type': 'object', 'properties': {'next': schema}}",
        "return tw.encode([tw.User('hi')], 'ollama:llama3.2', tools=[tw.Tool('deep', 'd', schema)])",
        r"ToolDefinitionError.*: .*'deep'",
    ),
    "tool-call arguments 200,000 levels deep in a reply": (
        "args = '{\"a\": ' * 200_000 + '1' + '}' * 200_000\n"
        "call = {'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': args}}\n"
        "reply = {'id': 'x', 'object': 'chat.completion', 'created': 1, 'model': 'gpt-4.1',"
        " 'choices': [{'index': 0, 'finish_reason': 'tool_calls', 'message': {'role':"
        " 'assistant', 'content': None, 'tool_calls': [call]}}]}",
        "(call,) = tw.decode(reply, 'openai-chat:gpt-4.1').tool_calls\n"
        "return f'kept as text: {call.arguments == {} and len(call.invalid_arguments or \"\")}'",
        r"kept as text: \d{6}",
    ),
    "a 20 MB JPEG of fill bytes": (
        "data = b'\\xff\\xd8' + b'\\xff' * 20_000_000",
        "return tw.encode([tw.User(['see', tw.File.from_bytes(data, 'image/jpeg', name='fill.jpg')])],"
        " 'anthropic:claude-sonnet-4-5')",
        r"^(InvalidFileError|UnsupportedContentError)/.*fill.jpg",
    ),
    "a 40 MB JSON-looking blob from an MCP server": (
        "data = b'[' + b'[],' * 13_000_000 + b'[]]'",
        "return tw.File.from_bytes(data).media_type",
        r"application/json|text/plain",
    ),
    "a 2.5 KB WebP of 60 megapixels fitted for Claude": (
        "import subprocess\n"
        "path = os.path.join(tmp, 'huge.webp')\n"
        "subprocess.run([sys.executable, '-c', 'import sys; from PIL import Image; Image.new(\"RGB\",'"
        " ' (10_000, 6_000), (30, 120, 200)).save(sys.argv[1], \"WEBP\", lossless=True)', path],"
        " check=True)",
        "request = tw.encode([tw.User(['see', tw.File.from_path(path)])],"
        " 'anthropic:claude-sonnet-4-5')\n"
        "return f'fitted: {request.decisions[0].mode}'",
        r"fitted: |InvalidFileError|ResourceLimitError",
    ),
    "a shared conversation file naming /etc/passwd": (
        "call = tw.ToolCall(id='c1', name='read', arguments={})\n"
        "text = tw.dump_conversation([tw.User('Look.'), tw.Assistant([call]),"
        " tw.ToolResult.of('c1', 'read', tw.File.from_path('/etc/passwd', media_type='text/plain'))])",
        "return tw.load_conversation(text)",
        r"^UntrustedSourceError/.*message 2, file passwd: a local path \(/etc/passwd\)",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_case_ends_as_expected_within_time_and_host_memory(case: str) -> None:
    setup, attack, expected = CASES[case]
    code = CHILD.format(setup=setup, attack=textwrap.indent(attack, "    "))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert re.search(expected, result["outcome"], re.DOTALL), result["outcome"]
    assert result["cpu"] < CPU_SECONDS, f"{result['cpu']:.1f} s of CPU"
    assert result["host_mb"] < PEAK_MB, f"host peak {result['host_mb']:.0f} MB"
    assert result["worker_mb"] < 2048, f"worker peak {result['worker_mb']:.0f} MB"
