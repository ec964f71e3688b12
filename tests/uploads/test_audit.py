"""Audit of the upload account: a credential carried in the base URL is hashed, never kept."""

from __future__ import annotations

import hashlib

import anthropic
import openai

from toolwire.uploads.account import account_of


def test_a_password_or_key_in_the_base_url_never_appears_in_the_account():
    clients = [
        openai.OpenAI(api_key="k", base_url="https://bob:sk-proxy-secret@proxy.example/v1"),
        openai.OpenAI(api_key="k", base_url="https://proxy.example/v1?key=sk-proxy-secret"),
        anthropic.Anthropic(api_key="k", base_url="https://bob:sk-proxy-secret@proxy.example"),
    ]
    for client in clients:
        account = account_of(client)
        assert "sk-proxy-secret" not in account and "bob" not in account
        assert account.startswith("https://proxy.example")


def test_another_credential_in_the_base_url_is_another_account():
    def account(url: str) -> str:
        return account_of(openai.OpenAI(api_key="k", base_url=url))

    urls = ["https://a:1@proxy.example/v1", "https://a:2@proxy.example/v1"]
    urls += ["https://proxy.example/v1?key=1", "https://proxy.example/v1"]
    assert len({account(u) for u in urls}) == 4


def test_a_base_url_without_credentials_keeps_its_account():
    client = openai.OpenAI(api_key="k", base_url="https://api.openai.com/v1")
    assert (
        account_of(client) == "https://api.openai.com/v1#" + hashlib.sha256(b"k").hexdigest()[:12]
    )
