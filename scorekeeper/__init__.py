"""Scorekeeper: keeps score for Penang rummy at the card table."""

from .app import create_app

__all__ = ["create_app"]
