"""The ``page`` query parameter of paginated pages."""

from flask import request

PAGE_MAX = 100_000  # beyond any list a group could have; keeps offsets small


def page_number() -> int:
    """The requested page, 1 when missing, unreadable or below 1; numbers past
    PAGE_MAX become PAGE_MAX, a page past the end (the views answer 404)."""
    return max(1, min(request.args.get("page", 1, type=int), PAGE_MAX))
