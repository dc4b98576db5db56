"""What a phone's own player ("This is Ann's phone") sees first: their place
at the session. Worked out from what the page has loaded already: no
statement of its own."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import GameSession
from .tables import Place, Standing, places


def seated_player(session: GameSession, player_id: int | None) -> int | None:
    """``player_id`` if that player has a seat at the session (now or before
    they left), else None: a phone's player from another table marks nothing."""
    if player_id is None:
        return None
    return player_id if any(seat.player_id == player_id for seat in session.seats) else None


def own_standing(standings: Sequence[Standing], player_id: int | None,
                 by_points: bool = False) -> Place | None:
    """The player's standing and place (``places``)."""
    return next((own for own in places(standings, by_points)
                 if own.standing.player.id == player_id), None)
