"""Thin blueprints, one module per area of the app."""
