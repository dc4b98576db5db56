"""The session as a picture for the group chat ("Share the result"): the day,
the places with each player's money (or points), who pays whom and the chart,
in the reader's language, drawn by scorekeeper/charts/picture.py."""

from __future__ import annotations

from flask import Response
from flask_babel import gettext as _
from flask_babel import ngettext

from ... import queries, services
from ...charts import Line
from ...charts.picture import Row, Sheet, png
from ...models import GameSession
from ..filters import long_date, priced, result_name, signed_priced
from .charts import tick


def result_png(game: GameSession) -> bytes:
    """The picture of the session as it stands (its seats, group and players
    loaded): the settlement's statements and one for the chart."""
    table = queries.standings(game)
    by_points = queries.by_points(game)
    places = queries.places(table, by_points)
    plan = services.settlement(game)
    series = queries.running_totals(game.id, [s.player.id for s in table], points=by_points)
    day = long_date(game.started_at, game.group.timezone)
    title = (_("%(group)s: rummy on %(day)s (final)", group=game.group.name, day=day)
             if game.is_finished else
             _("%(group)s: rummy on %(day)s (so far)", group=game.group.name, day=day))
    rounds = max((len(values) for values in series), default=0)
    rows = [Row(f"{place.place}.", place.standing.player.name,
                ngettext("%(num)s point", "%(num)s points", place.standing.points)
                if by_points else signed_priced(place.standing.cents, game.currency),
                0 if by_points else place.standing.cents) for place in places]
    transfers = []
    for settled in plan:
        t = settled.transfer
        words = {"payer": t.payer.name, "payee": t.payee.name,
                 "amount": priced(t.cents, game.currency)}
        transfers.append(_("%(payer)s pays %(payee)s %(amount)s (paid)", **words) if settled.paid
                         else _("%(payer)s pays %(payee)s %(amount)s", **words))
    sheet = Sheet(
        title=title,
        subtitle=ngettext("%(num)s round", "%(num)s rounds", rounds),
        places_title=_("Final places") if game.is_finished else _("Totals"),
        places=rows,
        transfers_title=_("Who pays whom") if game.is_finished else _("Who pays whom so far"),
        transfers=transfers or [_("Nobody owes anything.")],
        chart_title=_("Points round by round") if by_points else _("Money round by round"),
        lines=[Line(s.player.name, values) for s, values in zip(table, series, strict=True)],
        tick=str if by_points else tick)
    return png(sheet)


def picture_response(game: GameSession) -> Response:
    """The picture as its route answers it: a PNG with its file name, kept by
    no cache (it shows the session as it stands)."""
    name = result_name(game.started_at, game.group.timezone)
    return Response(result_png(game), mimetype="image/png", headers={
        "Content-Disposition": f'inline; filename="{name}"',
        "Cache-Control": "private, no-store"})
