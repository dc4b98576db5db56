"""Presenters: what the pages show of stored things, in words, for any
blueprint (changes.py: the audit trail; rules.py: house rules; problems.py:
the rules engine's problems and warnings; refusals.py: the refusals that
carry them)."""
