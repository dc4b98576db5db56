"""The night's summary, shown once a session has ended: final places, the
biggest winner and loser, the Hu and Tien Hu, and who pays whom. Read only:
worked out from the seats' totals and the settlement, no statement of its own
beyond the payments the settlement reads."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import GameSession
from ..queries.tables import Place, Standing, by_points, places, standings
from .money import Settlement, settlement


@dataclass(frozen=True)
class Night:
    places: list[Place]  # everyone, best first; ties share a place
    winners: list[Standing]  # who won the most money (several when tied); none if nobody won
    losers: list[Standing]  # who lost the most money; none if nobody lost
    hu: list[Standing]  # who went out with a Hu or a Tien Hu, most first
    hu_count: int  # the night's Hu, all players together
    tien_hu_count: int
    settlement: list[Settlement]

    @property
    def by_points(self) -> bool:
        return bool(self.places) and self.places[0].by_points


def night(session: GameSession) -> Night:
    """The session's summary, from the same standings as its scoreboard."""
    table = standings(session)
    ranked = places(table, by_points(session))
    most = max((s.cents for s in table), default=0)
    least = min((s.cents for s in table), default=0)
    hu = sorted((s for s in table if s.hu or s.tien_hu),
                key=lambda s: (-s.tien_hu, -s.hu))
    return Night(
        places=ranked,
        winners=[s for s in table if most > 0 and s.cents == most],
        losers=[s for s in table if least < 0 and s.cents == least],
        hu=hu,
        hu_count=sum(s.hu for s in table),
        tien_hu_count=sum(s.tien_hu for s in table),
        settlement=settlement(session))
