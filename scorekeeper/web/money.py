"""The group's money across sessions: who owes whom, "Settle everything"
and its payments, in whole or in part, and taking one back."""

from flask import Blueprint, abort, render_template, url_for

from .. import queries, services
from ..forms.money import PayAcrossForm, UndoPaymentForm
from .access import phone_player_id, require_group, signed_in_group
from .once import answered, changing, once
from .presenters.refusals import refusal

bp = Blueprint("money", __name__)
bp.url_value_preprocessor(require_group)


def _to_plan(_=None) -> str:
    return url_for("money.index", _anchor="everything")


@bp.get("/money")
def index():
    return render_money()


def render_money(error=None, paying=None):
    """The page; ``error`` says why a change was refused, and ``paying`` is
    the form of a part payment to show back as it was typed."""
    me = phone_player_id()
    debts = [d for d in queries.group_debts(signed_in_group().id) if d.nets or d.across]
    return render_template(
        "money/index.html", debts=debts, me=me, error=error, paying=paying,
        # This phone's player first, then the others, most owed first.
        nets={d.currency: sorted(d.nets.items(), key=lambda net: (net[0].id != me, -net[1]))
              for d in debts},
        plans={d.currency: sorted(d.plan, key=lambda t: me not in (t.payer.id, t.payee.id))
               for d in debts})


@bp.post("/money/paid")
@once(redirect_to=_to_plan)
def paid():
    form = PayAcrossForm()
    if not form.validate():
        if form.amount.errors and not form.errors.keys() - {"amount"}:
            return render_money(error=form.amount.errors[0], paying=form)
        abort(400)
    try:
        services.pay(changing(), form.payer_id.data, form.payee_id.data, form.paying(),
                     form.currency.data)
    except services.ServiceError as error:
        form.amount.errors = [refusal(error)] if form.amount.data is not None else []
        return render_money(error=refusal(error), paying=form)
    return answered(None)


@bp.post("/money/undo")
@once(redirect_to=_to_plan)
def undo():
    form = UndoPaymentForm()
    if not form.validate():
        abort(400)
    try:
        services.unpay(changing(), form.payment_id.data)
    except services.ServiceError as error:
        return render_money(error=refusal(error))
    return answered(None)
