"""ObjectBlobs on moto's S3 server (an emulator on 127.0.0.1, reached as a real bucket is)."""

from __future__ import annotations

import hashlib

import boto3
import pytest

import toolwire as tw
from toolwire.store.objects import ObjectBlobs

from . import servers
from .conftest import fresh_prefix

DATA = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
ENV = ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION")


def _key(url: str, digest: str) -> tuple[str, str]:
    bucket, _, prefix = url[len("s3://") :].partition("/")
    return bucket, f"{prefix}/{digest[:2]}/{digest}"


def test_explicit_options_reach_the_bucket_without_the_environment(s3_server, monkeypatch):
    for name in ENV:
        monkeypatch.delenv(name)
    options = {
        "endpoint": s3_server,
        "access_key_id": "toolwire-test",
        "secret_access_key": "toolwire-test",
        "region": "us-east-1",
    }
    blobs = ObjectBlobs(fresh_prefix(), options)
    digest = blobs.put(DATA)
    assert (digest, blobs.get(digest), blobs.has(digest)) == (
        hashlib.sha256(DATA).hexdigest(),
        DATA,
        True,
    )


def test_an_object_larger_than_recorded_is_refused_before_it_is_downloaded(s3_server):
    url = fresh_prefix()
    blobs = ObjectBlobs(url)
    digest = blobs.put(DATA)
    bucket, key = _key(url, digest)
    boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=DATA * 3)
    with pytest.raises(tw.StoreError, match=rf"blob {digest} .* is {3 * len(DATA)} bytes, not the"):
        blobs.fetch(digest, len(DATA), 1 << 30)
    with pytest.raises(tw.StoreError, match=rf"blob {'0' * 64} is missing"):
        blobs.fetch("0" * 64, None, 1 << 30)


def test_gc_leaves_objects_that_are_not_blobs_alone(s3_server):
    url = fresh_prefix()
    bucket, _ = _key(url, "0" * 64)
    foreign = f"{url.partition(bucket + '/')[2]}/notes/readme.txt"
    boto3.client("s3").put_object(Bucket=bucket, Key=foreign, Body=b"not a blob")
    blobs = ObjectBlobs(url)
    orphan = blobs.put(DATA)
    assert blobs.sweep(keep=set()) == 1
    assert not blobs.has(orphan)
    assert boto3.client("s3").get_object(Bucket=bucket, Key=foreign)["Body"].read() == b"not a blob"


def test_a_bucket_that_does_not_exist_is_a_store_error_naming_it(s3_server, tmp_path):
    with pytest.raises(tw.StoreError, match=r"^cannot open the blob store s3://no-such-bucket-h"):
        tw.SessionStore(tmp_path, blobs="s3://no-such-bucket-here/p")  # when it opens (issue 35)
    boto3.client("s3").create_bucket(Bucket="going-away")
    store = tw.SessionStore(tmp_path, blobs="s3://going-away/p")
    boto3.client("s3").delete_bucket(Bucket="going-away")  # gone after the store opened
    with pytest.raises(
        tw.StoreError, match=r"^session 's1': cannot write blob .* to s3://going-away/p: "
    ) as info:
        store.append("s1", tw.User([tw.File.from_bytes(DATA)]))
    assert len(str(info.value)) < 600  # obstore's request dump is cut to its first line
    assert str(info.value).endswith("(NoSuchBucket: The specified bucket does not exist)")
    assert "s1" not in store  # nothing of the session was written
    store.close()


def test_a_file_url_names_a_blob_directory(tmp_path):
    with tw.SessionStore(tmp_path / "rows", blobs=f"file://{tmp_path}/bytes") as store:
        store.append("s1", tw.User([tw.File.from_bytes(DATA)]))
        assert store.load("s1")[0].content[0].read() == DATA
    assert (tmp_path / "bytes" / hashlib.sha256(DATA).hexdigest()[:2]).is_dir()


def test_the_emulator_is_what_the_environment_points_at(s3_server):
    import os

    assert os.environ["AWS_ENDPOINT_URL"] == s3_server
    assert s3_server.startswith("http://127.0.0.1:")
    assert servers.BUCKET in [b["Name"] for b in boto3.client("s3").list_buckets()["Buckets"]]


class _Counting:
    """obstore with its calls counted."""

    def __init__(self, module):
        self.module, self.calls = module, []

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append(name)
            return getattr(self.module, name)(*args, **kwargs)

        return call


def test_putting_bytes_already_stored_costs_a_head_not_a_download(s3_server, monkeypatch):
    url = fresh_prefix()
    blobs = ObjectBlobs(url)
    digest = blobs.put(DATA)
    counting = _Counting(blobs._obstore)
    monkeypatch.setattr(blobs, "_obstore", counting)
    assert blobs.put(DATA) == digest
    assert counting.calls == ["put", "head"]
    bucket, key = _key(url, digest)
    damaged = DATA[:-1] + b"\0"  # same size, so only the bytes can tell
    boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=damaged)
    counting.calls.clear()
    assert blobs.put(DATA) == digest
    assert counting.calls == ["put", "head", "get", "put"]  # ETag differs: fetched, replaced
    assert blobs.get(digest) == DATA
