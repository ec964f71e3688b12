"""Fixtures every test directory may use."""

from __future__ import annotations

import pytest

from toolwire import capability


@pytest.fixture
def fresh_model_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget which unknown models this process has warned about (one ToolwireWarning each)
    and the resolved capabilities, so a test sees the warning whatever ran before it."""
    monkeypatch.setattr(capability, "_warned", set())
    monkeypatch.setattr(capability, "_resolved", {})
