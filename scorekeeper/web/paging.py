"""The ``page`` query parameter of paginated pages."""

from flask import abort, request

PAGE_MAX = 100_000  # beyond any list a group could have; keeps offsets small


def page_number() -> int:
    """The requested page, 1 when missing or unreadable; a page below 1 is not
    found, and numbers past PAGE_MAX become PAGE_MAX, a page past the end (the
    views answer 404)."""
    number = request.args.get("page", 1, type=int)
    if number < 1:
        abort(404)
    return min(number, PAGE_MAX)
