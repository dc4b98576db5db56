"""The settlement as a message for the group chat (settle up, the night's
summary): the group and the day, each player's net, then who pays whom. Plain
text: a name that could reorder the text after it (U+202E) is isolated."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from flask_babel import ngettext

from ...models import GameSession
from ...queries import Place
from ...services import Settlement
from ..filters import isolated, long_date, priced, signed_priced


def chat_message(game: GameSession, places: Sequence[Place], plan: Sequence[Settlement]) -> str:
    """The message: "<group>: rummy on Sat 28 Nov 2026 (final)", each player's
    net (points, in a session played for points only), best first, and the
    transfers; in this phone's language."""
    day = long_date(game.started_at, game.group.timezone)
    group = isolated(game.group.name)
    lines = [_("%(group)s: rummy on %(day)s (final)", group=group, day=day) if game.is_finished
             else _("%(group)s: rummy on %(day)s (so far)", group=group, day=day)]
    for own in places:
        s = own.standing
        net = (ngettext("%(num)s point", "%(num)s points", s.points) if own.by_points
               else signed_priced(s.cents, game.currency))
        lines.append(f"{own.place}. {isolated(s.player.name)} {net}")
    lines.append(_("Who pays whom:"))
    for settled in plan:
        transfer = settled.transfer
        payer, payee = isolated(transfer.payer.name), isolated(transfer.payee.name)
        amount = priced(transfer.cents, game.currency)
        lines.append(_("%(payer)s pays %(payee)s %(amount)s (paid)", payer=payer, payee=payee,
                       amount=amount) if settled.paid
                     else _("%(payer)s pays %(payee)s %(amount)s", payer=payer, payee=payee,
                            amount=amount))
    if not plan:
        lines.append(_("Nobody owes anything."))
    return "\n".join(lines)
