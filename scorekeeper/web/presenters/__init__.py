"""Presenters: what the pages show of stored things, in words, for any
blueprint (changes.py: the audit trail; rules.py: house rules)."""
