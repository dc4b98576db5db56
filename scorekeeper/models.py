"""Database rows, typed with Mapped[...]; no request or g access here."""

from .extensions import db  # noqa: F401  (models are declared on db.Model)
