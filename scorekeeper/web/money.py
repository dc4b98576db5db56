"""The group's money across sessions: who owes whom, "Settle everything"
and its payments, in whole or in part, and taking one back."""

from flask import Blueprint, render_template, request, url_for

from .. import queries, services
from ..forms.money import PayAcrossForm
from .access import phone_player_id, require_group, signed_in_group
from .once import fresh_token, once
from .payments import mark_paid, take_back

bp = Blueprint("money", __name__)
SHOWN_SESSIONS = 20
bp.url_value_preprocessor(require_group)


def _to_plan(_=None) -> str:
    return url_for("money.index", _anchor="everything")


@bp.get("/money")
def index():
    return fresh_token() or render_money()


def render_money(error=None, paying=None):
    """The page; ``error`` says why a change was refused, and ``paying`` is
    the form of a part payment to show back as it was typed."""
    me = phone_player_id()
    debts = [d for d in queries.group_debts(signed_in_group()) if d.nets or d.across]
    every = "all" in request.args
    return render_template(
        "money/index.html", debts=debts, me=me, error=error, paying=paying, every=every,
        still_open={d.currency: _latest(d.open(), every) for d in debts},
        live_state=queries.playing(signed_in_group().id).state,
        codes={d.currency: services.plan_codes(signed_in_group(), d) for d in debts},
        # This phone's player first, then the others, most owed first.
        nets={d.currency: sorted(d.nets.items(), key=lambda net: (net[0].id != me, -net[1]))
              for d in debts},
        plans={d.currency: sorted(d.plan, key=lambda t: me not in (t.payer.id, t.payee.id))
               for d in debts})


def _latest(open_: list[queries.Owed], every: bool) -> tuple[list[queries.Owed], int]:
    """The transfers still open of the latest SHOWN_SESSIONS sessions (or
    all), and how many sessions are left out: a group that never marks
    payments can owe from hundreds of sessions."""
    sessions = sorted({o.session for o in open_}, key=lambda s: (s.started_at, s.id))
    left_out = 0 if every else max(0, len(sessions) - SHOWN_SESSIONS)
    shown = set(sessions[left_out:])
    return [o for o in open_ if o.session in shown], left_out


@bp.post("/money/paid")
@once(redirect_to=_to_plan)
def paid():
    form = PayAcrossForm()
    return mark_paid(form, render_money, form.currency.data)


@bp.post("/money/undo")
@once(redirect_to=_to_plan)
def undo():
    return take_back(render_money)
