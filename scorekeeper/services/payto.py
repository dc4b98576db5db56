"""Payment details: how a player is paid by QR (a DuitNow ID, a PayNow
proxy, or their own bank's QR), set from a signed-in phone, and the codes
that settle a session's transfers with them (scorekeeper.payto builds them)."""

from __future__ import annotations

from datetime import date

from .. import payto
from ..audit import PaytoChanged
from ..limits import PAYTO_MAX
from ..models import GameSession, Group, Player, utcnow, wall_clock
from ..payto.images import read_photo
from ..queries.debts import Debts
from .money import Settlement
from .protocol import N_, Change, ServiceError, applying

NOT_A_CODE = N_("This is not the text of a payment QR: paste what your bank app's \"receive "
                "money\" QR holds, or upload a photo of that QR.")
# What each of payto's refusals says (payto.PayloadError's code).
REFUSALS = {
    "bad_mobile_my": N_("A Malaysian mobile number is 01 and 8 or 9 more digits, such as "
                        "012-345 6789 (or +60 12-345 6789)."),
    "bad_mobile_sg": N_("A Singapore mobile number has 8 digits starting with 8 or 9, such as "
                        "9123 4567 (or +65 9123 4567)."),
    "bad_mykad": N_("A MyKad number has 12 digits, such as 900101-07-1234."),
    "bad_business": N_("A business registration number has SSM's 12 digits (such as "
                       "201901000005), or is an older one such as 1234567-X."),
    "bad_uen": N_("A UEN has 9 or 10 letters and digits, such as 201403121W."),
    "empty": N_("Paste the text of your bank's QR, or upload a photo of it."),
    "bad_crc": N_("This QR's check digits (its CRC) do not match: part of it is missing or was "
                  "changed. Paste it again, or upload a photo of the QR."),
    "no_account": N_("This QR names no account to pay: it is not a \"receive money\" code."),
    "other_country": N_("This QR pays in another country or currency (%(where)s): the app makes "
                        "codes for DuitNow (Malaysia, RM) and PayNow (Singapore, S$) only."),
    "not_image": N_("That file is not a picture the app can read: upload a photo as JPEG or "
                    "PNG."),
    "no_qr": N_("No QR code was found in that photo: take it again closer and straight on, "
                "the whole code in the frame."),
}


class PaytoRefused(ServiceError):
    """Payment details the app can't take, and why."""


def refused(error: payto.PayloadError) -> PaytoRefused:
    message = REFUSALS.get(error.code, NOT_A_CODE)
    return (PaytoRefused(message, where=error.detail) if "%(where)s" in message
            else PaytoRefused(message))


def clean_payto(kind: str, value: str) -> tuple[str, str]:
    """The details as stored (a kind of payto.Kind, or "" for none, and the
    value tidied); PaytoRefused says what is wrong with them."""
    if not kind:
        return "", ""
    try:
        chosen = payto.Kind(kind)
    except ValueError:
        raise PaytoRefused(N_("Choose how you are paid from the list.")) from None
    if len(value) > PAYTO_MAX:
        raise PaytoRefused(N_("That is longer than payment details can be: at most %(most)s "
                              "characters."), most=PAYTO_MAX)
    try:
        return kind, payto.tidied(chosen, value)
    except payto.PayloadError as error:
        raise refused(error) from None


def read_qr_photo(data: bytes) -> str:
    """The text of the QR code in a photo; PaytoRefused if there is none."""
    try:
        return read_photo(data)
    except payto.PayloadError as error:
        raise refused(error) from None


def set_payto(change: Change, player: Player, kind: str, value: str) -> None:
    """Set (or, with ``kind`` "", take away) how ``player`` is paid by QR;
    the history of changes keeps which kinds, not the numbers."""
    kind, value = clean_payto(kind, value)
    if (kind, value) == (player.payto_kind, player.payto_value):
        return
    with applying(change) as done:
        done.audit(PaytoChanged(player.name, player.payto_kind, kind))
        player.payto_kind, player.payto_value = kind, value


def payment_codes(session: GameSession,
                  plan: list[Settlement]) -> dict[tuple[int, int], str] | None:
    """The code (an EMVCo payload) for each transfer of ``plan`` not yet paid
    whose payee has details of the session's scheme, by (payer id, payee id),
    for what is still owed of it. None for a currency that neither
    DuitNow nor PayNow takes."""
    return codes_for(session.currency,
                     wall_clock(session.started_at, session.group.timezone).date(),
                     [(s.transfer.payer, s.transfer.payee, s.owed.left)
                      for s in plan if not s.paid])


def codes_for(currency: str, day: date,
              transfers: list[tuple[Player, Player, int]]) -> dict[tuple[int, int], str] | None:
    """The codes paying ``transfers`` (payer, payee, cents) in ``currency``,
    with the reference of ``day``, for those whose payee has details of its
    scheme, by (payer id, payee id); None for a currency neither scheme takes."""
    scheme = payto.scheme_for(currency)
    if scheme is None:
        return None
    ref = payto.reference(day)
    codes = {}
    for payer, payee, cents in transfers:
        if not payee.payto_kind:
            continue
        try:
            codes[payer.id, payee.id] = payto.payload_for(
                payto.Kind(payee.payto_kind), payee.payto_value, scheme,
                payto.Request(cents, ref, payee.name))
        except (payto.PayloadError, ValueError):
            continue  # details of the other scheme (a DuitNow ID at a game in S$): no code
    return codes


def plan_codes(group: Group, debts: Debts) -> dict[tuple[int, int], str]:
    """The codes of Settle everything's transfers in the group's ``debts`` of
    one currency (queries.group_debts), with today's reference where the
    group plays."""
    return codes_for(debts.currency, wall_clock(utcnow(), group.timezone).date(),
                     [(t.payer, t.payee, t.cents) for t in debts.plan]) or {}
