"""Money: balances, the fewest transfers, transfers marked paid."""

from __future__ import annotations

from dataclasses import dataclass

from ..audit import PaymentPaid, PaymentUnpaid
from ..models import (
    GameSession,
    Payment,
)
from ..rules import (
    Transfer,
    settle,
)
from ._common import session_of
from .protocol import N_, Change, ServiceError, applying


def balances(session: GameSession) -> dict[int, int]:
    """Each player's money over the session, in cents, by player id."""
    return {seat.player_id: seat.net_cents for seat in session.seats}


@dataclass(frozen=True)
class Settlement:
    transfer: Transfer  # payer and payee are Players
    paid: bool


def settlement(session: GameSession) -> list[Settlement]:
    """The fewest transfers that settle the session, each marked if paid."""
    players = {seat.player_id: seat.player for seat in session.seats}
    by_name = {p.name: p for p in players.values()}
    transfers = settle({players[pid].name: cents for pid, cents in balances(session).items()})
    paid = {(p.payer_id, p.payee_id, p.cents) for p in session.payments}
    result = []
    for t in transfers:
        payer, payee = by_name[t.payer], by_name[t.payee]
        result.append(Settlement(Transfer(payer, payee, t.cents),
                                 (payer.id, payee.id, t.cents) in paid))
    return result


def set_paid(change: Change, payer_id: int, payee_id: int, cents: int, paid: bool) -> None:
    """Mark one of the session's transfers as paid, or not paid."""
    session = session_of(change)
    due = {(s.transfer.payer.id, s.transfer.payee.id, s.transfer.cents)
           for s in settlement(session)}
    key = (payer_id, payee_id, cents)
    if key not in due:
        raise ServiceError(N_("That transfer is not part of the settlement any more"))
    with applying(change) as done:
        names = {seat.player_id: seat.player.name for seat in session.seats}
        marked = PaymentPaid if paid else PaymentUnpaid
        done.audit(marked(names[payer_id], names[payee_id], cents))
        for payment in list(session.payments):
            if (payment.payer_id, payment.payee_id, payment.cents) == key:
                session.payments.remove(payment)
        if paid:
            session.payments.append(Payment(payer_id=payer_id, payee_id=payee_id, cents=cents))
