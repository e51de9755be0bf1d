"""Mathlib's rewrite lemmas as search moves (issue 33; docs/LEMMAS.md)."""
