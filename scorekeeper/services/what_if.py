"""What if: a session's money under other house rules, side by side with
the money as played. Read only: the rounds are scored again by the same
path that a correction of the house rules takes (played_round), and
nothing is written, versioned or audited."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import GameSession, Round, RoundEntry
from ..rules import HouseRules, WhatIf, what_if
from ._common import check_new_rules, played_round


def session_what_if(session: GameSession, rules: HouseRules) -> WhatIf[str]:
    """Every round of ``session`` scored again under ``rules``, by player
    name. RulesRefused for rules past the app's limits, ServiceError for
    rules the table as it sits can't be dealt by (as a correction of the
    house rules would be refused); a round the rules refuse is said on it."""
    check_new_rules(session, rules)
    rounds = db.session.scalars(
        sa.select(Round).where(Round.session_id == session.id).order_by(Round.number)
        .options(selectinload(Round.entries).joinedload(RoundEntry.player)))
    return what_if(map(played_round, rounds), rules,
                   [seat.player.name for seat in session.seats])
