"""The settlement as a message for the group chat (settle up, the night's
summary): the group and the day, each player's net, then who pays whom. Plain
text: a name that could reorder the text after it (U+202E) is isolated."""

from __future__ import annotations

from collections.abc import Sequence

from ...models import GameSession
from ...queries import Place
from ...services import Settlement
from ..filters import isolated, long_date, priced, signed_priced


def chat_message(game: GameSession, places: Sequence[Place], plan: Sequence[Settlement]) -> str:
    """The message: "<group>: rummy on Sat 28 Nov 2026 (final)", each player's
    net (points, in a session played for points only), best first, and the transfers."""
    day = long_date(game.started_at, game.group.timezone)
    state = "final" if game.is_finished else "so far"
    lines = [f"{isolated(game.group.name)}: rummy on {day} ({state})"]
    for own in places:
        s = own.standing
        net = (f"{s.points} {'point' if s.points == 1 else 'points'}" if own.by_points
               else signed_priced(s.cents, game.currency))
        lines.append(f"{own.place}. {isolated(s.player.name)} {net}")
    lines.append("Who pays whom:")
    lines += [f"{isolated(s.transfer.payer.name)} pays {isolated(s.transfer.payee.name)} "
              f"{priced(s.transfer.cents, game.currency)}" + (" (paid)" if s.paid else "")
              for s in plan]
    if not plan:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)
