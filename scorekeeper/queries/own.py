"""What a phone's own player ("This is Ann's phone") sees first: their place
at the session. Worked out from what the page has loaded already: no
statement of its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import GameSession
from .tables import Standing


def seated_player(session: GameSession, player_id: int | None) -> int | None:
    """``player_id`` if that player has a seat at the session (now or before
    they left), else None: a phone's player from another table marks nothing."""
    if player_id is None:
        return None
    return player_id if any(seat.player_id == player_id for seat in session.seats) else None


@dataclass(frozen=True)
class Own:
    standing: Standing
    place: int  # competition ranking: 1, 1, 3
    tied: bool
    by_points: bool  # ranked by points (a points-only session), else by money

    @property
    def ordinal(self) -> str:
        """ "1st", "2nd", "11th", "joint 2nd". """
        n = self.place
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{'joint ' if self.tied else ''}{n}{suffix}"


def own_standing(standings: Sequence[Standing], player_id: int | None,
                 by_points: bool = False) -> Own | None:
    """The player's standing and place: most money first, or fewest points
    first when the session is played for points only."""
    mine = next((s for s in standings if s.player.id == player_id), None)
    if mine is None:
        return None

    def score(standing: Standing) -> int:
        return standing.points if by_points else -standing.cents

    ahead = sum(score(s) < score(mine) for s in standings)
    tied = sum(score(s) == score(mine) for s in standings) > 1
    return Own(mine, ahead + 1, tied, by_points)
