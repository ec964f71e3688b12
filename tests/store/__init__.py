"""Tests of toolwire.store: blobs, migrations, sessions, and real multi-process use."""
