"""Tests of toolwire.decoders: provider responses → Assistant, and back through encode."""
