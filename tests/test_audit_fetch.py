"""Audit of the URL fetcher: addresses Python 3.11's is_global calls global but that are not."""

from __future__ import annotations

import pytest

import toolwire as tw
from toolwire.fetch import fetch_url


@pytest.mark.parametrize(
    "url",
    [
        "http://192.0.0.8/x.png",  # IETF protocol assignments (RFC 6890)
        "http://[fec0::1]/x.png",  # IPv6 site-local (RFC 3879)
        "http://[::ffff:192.0.0.8]/x.png",  # the same, IPv4-mapped
    ],
)
def test_addresses_that_are_not_globally_reachable_are_refused_before_connecting(url):
    with pytest.raises(tw.FetchError, match="resolves to a non-public address"):
        fetch_url(url, deadline=2)
