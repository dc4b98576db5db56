"""What every table's rows share: money in cents, house rules kept as
JSON, times in UTC, and a model's Core table."""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from typing import cast
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from ..extensions import Base
from ..rules import HouseRules

# Money columns and money totals are 64-bit on every database: a round at
# 100,000.00 a point passes 32 bits.
Cents = sa.BigInteger


class HouseRulesType(sa.TypeDecorator[HouseRules]):
    """HouseRules kept as JSON (HouseRules.to_json): built once when a row is
    read, not on every use. A HouseRules is frozen, so the ORM sees a change
    only when a new one is assigned; Core inserts take HouseRules too."""

    impl = sa.JSON
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if not isinstance(value, HouseRules):
            raise TypeError(f"house rules are stored from a HouseRules, not {type(value)}")
        return value.to_json()

    def process_result_value(self, value, dialect):
        return None if value is None else _rules_of(json.dumps(value, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _rules_of(document: str) -> HouseRules:
    """The HouseRules of a stored JSON document. Every page of a session reads
    its row several times, and a group plays by a few sets of rules: each is
    built once per process. (HouseRules is frozen, so rows may share one.)"""
    return HouseRules.from_json(json.loads(document))


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def wall_clock(moment: datetime, zone: str) -> datetime:
    """A stored (naive UTC) time as the clock reads in ``zone``, an IANA name."""
    return moment.replace(tzinfo=UTC).astimezone(ZoneInfo(zone))


def table(model: type[Base]) -> sa.Table:
    """A model's table, for the Core statements of the busiest writes."""
    return cast(sa.Table, model.__table__)
