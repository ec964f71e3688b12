"""The account of a client: its base URL and a hash of its key, never the key itself."""

from __future__ import annotations

import anthropic
import openai
from google import genai
from mistralai.client import Mistral

from toolwire.uploads.account import account_of

KEY = "sk-ant-secret-123456"


def test_the_same_key_and_base_url_is_the_same_account_sync_or_async():
    one = account_of(anthropic.Anthropic(api_key=KEY, base_url="http://127.0.0.1:1"))
    two = account_of(anthropic.AsyncAnthropic(api_key=KEY, base_url="http://127.0.0.1:1"))
    assert one == two and one.startswith("http://127.0.0.1:1#")


def test_another_key_or_base_url_is_another_account():
    base = account_of(openai.OpenAI(api_key=KEY, base_url="https://api.openai.com/v1"))
    other_key = account_of(openai.OpenAI(api_key=KEY + "x", base_url="https://api.openai.com/v1"))
    xai = account_of(openai.OpenAI(api_key=KEY, base_url="https://api.x.ai/v1"))
    assert len({base, other_key, xai}) == 3


def test_the_key_never_appears_in_the_account():
    clients = [
        anthropic.Anthropic(api_key=KEY, base_url="http://127.0.0.1:1"),
        openai.OpenAI(api_key=KEY, base_url="http://127.0.0.1:1/v1"),
        genai.Client(api_key=KEY, http_options={"base_url": "http://127.0.0.1:1"}),
        Mistral(api_key=KEY, server_url="http://127.0.0.1:1"),
    ]
    for client in clients:
        account = account_of(client)
        assert KEY not in account and "secret" not in account
        assert account.startswith("http://127.0.0.1:1")


def test_google_and_mistral_accounts_follow_their_key():
    google = [
        account_of(genai.Client(api_key=k, http_options={"base_url": "http://h"})) for k in "ab"
    ]
    mistral = [account_of(Mistral(api_key=k, server_url="http://h")) for k in "ab"]
    assert google[0] != google[1] and mistral[0] != mistral[1]
    assert account_of(genai.Client(api_key="a", http_options={"base_url": "http://h"})).endswith(
        google[0].split("#")[1]
    )
