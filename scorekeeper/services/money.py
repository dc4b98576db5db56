"""Money: balances, the fewest transfers, payments marked (in whole or in
part, for a session or across sessions) and taken back."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..audit import GroupPaid, GroupUnpaid, PaymentPaid, PaymentUnpaid
from ..extensions import db
from ..models import GameSession, Payment, Player
from ..phrases import Amount
from ..queries.debts import Debts, Owed, PaymentRow, SessionRef, group_debts
from ..rules import Transfer, settle
from ..rules.ledger import settled_alone
from .protocol import N_, Change, ServiceError, applying


def balances(session: GameSession) -> dict[int, int]:
    """Each player's money over the session, in cents, by player id."""
    return {seat.player_id: seat.net_cents for seat in session.seats}


@dataclass(frozen=True)
class Settlement:
    """One of the session's transfers (the fewest that settle it) as it
    stands: what is paid of it, in whole or in part (queries/debts.py)."""

    transfer: Transfer  # payer and payee are Players
    owed: Owed

    @property
    def paid(self) -> bool:
        return not self.owed.left

    @property
    def part(self) -> bool:
        """Paid in part: something paid, something left."""
        return 0 < self.owed.left < self.owed.cents


def debts_of(session: GameSession) -> Debts:
    """The group's debts in the session's currency."""
    found = group_debts(session.group, session.currency)
    return found[0] if found else Debts.none(session.currency)


def settlement(session: GameSession, debts: Debts | None = None) -> list[Settlement]:
    """The fewest transfers that settle the session, each as it stands: of a
    session settled by its own payments, from its own rows alone."""
    if session.settled:
        return _settled(session)
    debts = debts or debts_of(session)
    return [Settlement(Transfer(o.payer, o.payee, o.cents), o)
            for o in debts.of_session(session.id)]


def _settled(session: GameSession) -> list[Settlement]:
    players = {seat.player_id: seat.player for seat in session.seats}
    ref = SessionRef(session.id, session.started_at, session.is_finished)
    result = []
    for t in settle(balances(session)):
        paid = tuple(PaymentRow.of(p) for p in session.payments
                     if (p.payer_id, p.payee_id) == (t.payer, t.payee))
        owed = Owed(ref, players[t.payer], players[t.payee], t.cents, t.cents, 0, paid)
        result.append(Settlement(Transfer(owed.payer, owed.payee, t.cents), owed))
    return result


def _settle_alone(session: GameSession, without: Payment | None = None) -> None:
    """Whether the session is settled by its own payments, as they now stand."""
    session.settled = settled_alone(
        balances(session), [(p.payer_id, p.payee_id, p.cents) for p in session.payments
                            if p is not without])


def pay(change: Change, payer_id: int, payee_id: int, cents: int,
        currency: str | None = None) -> None:
    """Mark ``cents`` paid from one player to another: of the change's
    session's transfer between them (all that is left of it, or part); or,
    for the group's change, across sessions in ``currency``: from a player
    who owes to one who is owed, at most what either still has to pay or
    get. (Settle everything's plan is worked out again after each payment and
    may pair the rest otherwise; a transfer of the plan the page showed stays
    payable all the same.)"""
    if cents <= 0:
        raise ServiceError(N_("An amount is always positive."))
    session = change.session
    if session is not None:
        currency = session.currency
    found = _still_owed(change, payer_id, payee_id, currency)
    if found is None:
        raise ServiceError(N_("That transfer is not part of the settlement any more"))
    payer, payee, left = found
    assert currency is not None  # found: a session's, or the currency given
    if cents > left:
        raise ServiceError(N_("Only %(left)s is still owed."), left=Amount(left, currency))
    with applying(change, moves_money=True) as done:
        if session is not None:
            done.audit(PaymentPaid(payer.name, payee.name, cents, left))
        else:
            done.audit(GroupPaid(payer.name, payee.name, cents, left, currency))
        db.session.add(Payment(group_id=change.group.id, session=session, payer_id=payer_id,
                               payee_id=payee_id, cents=cents, currency=currency))
        if session is not None:
            _settle_alone(session)


def _still_owed(change: Change, payer_id: int, payee_id: int,
                currency: str | None) -> tuple[Player, Player, int] | None:
    """The payer, the payee and what is left to pay between them: of the
    change's session's transfer, or, for the group's change, the most that
    one who owes can pay one who is owed in ``currency``; None if nothing."""
    if change.session is not None:
        owed = next((s.owed for s in settlement(change.session)
                     if (s.owed.payer.id, s.owed.payee.id) == (payer_id, payee_id)), None)
        return (owed.payer, owed.payee, owed.left) if owed and owed.left else None
    found = group_debts(change.group, currency) if currency is not None else []
    nets = {player.id: (player, cents)
            for player, cents in (found[0].nets.items() if found else ())}
    if payer_id not in nets or payee_id not in nets:
        return None
    (payer, owes), (payee, is_owed) = nets[payer_id], nets[payee_id]
    left = min(-owes, is_owed)
    return (payer, payee, left) if left > 0 else None


def unpay(change: Change, payment_id: int) -> None:
    """Take back a payment marked: for the change's session, or, for the
    group's change, one across sessions."""
    session = change.session
    payment = db.session.scalar(sa.select(Payment).where(
        Payment.id == payment_id, Payment.group_id == change.group.id,
        Payment.session_id == session.id if session else Payment.session_id.is_(None)))
    if payment is None:
        raise ServiceError(N_("That payment was taken back already"))
    with applying(change, moves_money=True) as done:
        names = {row.id: row.name for row in db.session.execute(sa.select(
            Player.id, Player.name).where(Player.id.in_((payment.payer_id, payment.payee_id))))}
        payer, payee = names[payment.payer_id], names[payment.payee_id]
        done.audit(PaymentUnpaid(payer, payee, payment.cents) if session else
                   GroupUnpaid(payer, payee, payment.cents, None, payment.currency))
        db.session.delete(payment)
        if session is not None:
            _settle_alone(session, without=payment)

