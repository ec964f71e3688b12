"""read_file_tool (readers/tool.py): a valid tool definition, confined, errors as tool output."""

from __future__ import annotations

import dataclasses
import os

import jsonschema
import pytest
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionToolParam
from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from toolwire.messages import ContentOutput, ErrorTextOutput
from toolwire.readers import ReadFileTool, read_file_tool

from .helpers import copy_example


def _strict(typed_dict: type) -> TypeAdapter:
    """A validator for an SDK TypedDict that rejects unknown keys."""
    return TypeAdapter(with_config(ConfigDict(extra="forbid"))(typed_dict))


def test_the_parameters_are_a_valid_json_schema_object():
    schema = read_file_tool.parameters
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["required"] == ["path"]
    assert set(schema["properties"]) == {"path", "page_start", "page_end", "offset", "limit", "raw"}
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"path": "a.pdf", "page_start": 20})
    assert not validator.is_valid({"page_start": 20})
    assert not validator.is_valid({"path": "a.pdf", "offset": -1})


def test_the_definition_fits_anthropic_and_openai_tool_types():
    tool = read_file_tool
    anthropic = {
        "name": tool.name,
        "description": tool.description,
        "input_schema": tool.parameters,
    }
    _strict(ToolParam).validate_python(anthropic)
    openai = {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        },
    }
    TypeAdapter(ChatCompletionToolParam).validate_python(openai)
    with pytest.raises(ValidationError):  # the strict check itself can fail
        _strict(ToolParam).validate_python({**anthropic, "parameters": {}})


def test_parameters_are_a_fresh_copy_each_time():
    read_file_tool.parameters["properties"].clear()
    assert "path" in read_file_tool.parameters["properties"]


def test_a_bound_tool_reads_under_its_root(tmp_path):
    copy_example("report.pdf", tmp_path)
    tool = read_file_tool.bind(root=tmp_path)
    assert tool.root == str(tmp_path) and read_file_tool.root is None
    result = tool(path="report.pdf", page_start=1, page_end=2)
    assert isinstance(result, ContentOutput)
    assert "Page 2 of 3." in result.value[0].text


def test_the_default_tool_is_confined_to_the_working_directory(tmp_path, monkeypatch):
    inside = tmp_path / "work"
    inside.mkdir()
    copy_example("notes.md", inside)
    (tmp_path / "secret.txt").write_text("do not read\n")
    monkeypatch.chdir(inside)
    assert isinstance(read_file_tool(path="notes.md"), ContentOutput)
    result = read_file_tool(path="../secret.txt")
    assert isinstance(result, ErrorTextOutput)
    assert "outside the allowed root" in result.value


def test_a_bad_file_becomes_an_error_output_for_the_model(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    result = read_file_tool.bind(tmp_path)(path="empty.txt")
    assert result == ErrorTextOutput(value="empty.txt is empty (0 bytes); there is nothing to read")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"path": "a.txt", "pages": 3},
            "read_file has no argument 'pages'. Did you mean 'page_start', 'page_end'?",
        ),
        ({}, "read_file needs a 'path' argument"),
        ({"path": 7}, "read_file needs a 'path' argument"),
        ({"path": "a.txt", "offset": "ten"}, "offset='ten' is not allowed"),
    ],
)
def test_bad_arguments_from_a_model_are_explained_in_the_output(tmp_path, arguments, message):
    (tmp_path / "a.txt").write_text("text\n")
    result = read_file_tool.bind(tmp_path)(**arguments)
    assert isinstance(result, ErrorTextOutput)
    assert message in result.value


def test_the_tool_is_a_frozen_value():
    with pytest.raises(dataclasses.FrozenInstanceError):
        read_file_tool.root = "/"  # type: ignore[misc]
    assert ReadFileTool(root="/srv") == read_file_tool.bind("/srv")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("a\0.txt", "read_file: path 'a\\x00.txt' holds a NUL byte"),
        ("\ud800.txt", "cannot be encoded for the file system"),
        ("\udc80.txt", "no such file"),
        ("x" * 5000, "File name too long"),
    ],
    ids=["nul", "lone-surrogate", "undecodable-byte", "long-name"],
)
def test_odd_paths_from_a_model_become_error_outputs_it_can_read(tmp_path, path, message):
    result = read_file_tool.bind(tmp_path)(path=path)
    assert isinstance(result, ErrorTextOutput)
    assert message in result.value
    result.value.encode("utf-8")  # sendable to any provider: odd characters are escaped


def test_a_hard_link_is_refused_unless_the_tool_is_bound_with_allow_hardlinks(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("outside\n")
    os.link(tmp_path / "secret.txt", root / "linked.txt")
    refused = read_file_tool.bind(root)(path="linked.txt")
    assert isinstance(refused, ErrorTextOutput)
    assert "allow_hardlinks=True" in refused.value
    allowed = read_file_tool.bind(root, allow_hardlinks=True)(path="linked.txt")
    assert isinstance(allowed, ContentOutput)
    assert "outside" in allowed.value[0].text


def test_a_removed_working_directory_is_an_error_output_not_a_crash(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    result = read_file_tool(path="notes.md")
    assert isinstance(result, ErrorTextOutput)
    assert "cannot find its root directory" in result.value
