"""The views' part of marking a payment and taking one back, shared by
settle up (a session's transfers) and "Who owes whom" (across sessions):
the form checked, the service called, a refusal shown on the page with
what was typed."""

from collections.abc import Callable

from flask import abort

from .. import services
from ..forms.money import PayForm, UndoPaymentForm
from .once import answered, changing
from .presenters.refusals import refusal


def mark_paid(form: PayForm, page: Callable, currency: str | None = None):
    """``page(error=…, paying=form)`` renders the page again after a refusal."""
    if not form.validate():
        if form.amount.errors and not form.errors.keys() - {"amount"}:
            return page(error=form.amount.errors[0], paying=form)
        abort(400)
    try:
        services.pay(changing(), form.payer_id.data, form.payee_id.data, form.paying(),
                     currency)
    except services.ServiceError as error:
        form.amount.errors = [refusal(error)] if form.amount.data is not None else []
        return page(error=refusal(error), paying=form)
    return answered(None)


def take_back(page: Callable):
    """``page(error=…)`` renders the page again after a refusal."""
    form = UndoPaymentForm()
    if not form.validate():
        abort(400)
    try:
        services.unpay(changing(), form.payment_id.data)
    except services.ServiceError as error:
        return page(error=refusal(error))
    return answered(None)
