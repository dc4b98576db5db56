"""Paying by QR: a player's payment details (their own page, for the group's
signed-in phones only), and the codes of a session's transfers as pictures,
which the settle-up page shows (templates/sessions/_qr.html)."""

from flask import (
    Blueprint,
    Response,
    abort,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from .. import queries, services
from ..backup import MAX_BYTES, size_text
from ..forms.payto import KIND_LABELS, PaytoForm
from ..models import Player
from ..payto import Kind
from ..payto.images import qr_png, qr_svg
from .access import signed_in_group
from .loading import add_session_id, group_row_or_404, load_game_session
from .once import changing
from .presenters.refusals import refusal

bp = Blueprint("payto", __name__)
bp.url_value_preprocessor(load_game_session)


@bp.url_defaults
def _session_id(endpoint, values):
    """The codes' URLs on a session's pages need no session_id (the player's page takes none)."""
    if endpoint in ("payto.code_svg", "payto.code_png"):
        add_session_id(endpoint, values)


PRIVATE = {"Cache-Control": "private, no-store"}


@bp.route("/players/<int:player_id>/payment", methods=["GET", "POST"])
def details(player_id: int):
    person = group_row_or_404(Player, player_id)
    if request.method == "GET":
        form = PaytoForm(formdata=None, data=_shown(person))
        return render_template("payto/details.html", person=person, form=form,
                               saved=request.args.get("saved") == "1", kinds=KIND_LABELS)
    form = PaytoForm()
    if form.validate():
        kind = form.kind.data
        value = form.qr_text.data if kind == Kind.BANK_QR else form.number.data
        try:
            if kind == Kind.BANK_QR and form.photo.data:
                value = services.read_qr_photo(form.photo.data.read())
                form.qr_text.data = value  # shown back, should the text be refused
            services.set_payto(changing(), person, kind, value)
        except services.ServiceError as problem:
            field = form.qr_text if kind == Kind.BANK_QR else form.number
            if not kind:
                field = form.kind
            field.errors = [*field.errors, refusal(problem)]
        else:
            return redirect(url_for(".details", player_id=person.id, saved=1))
    return render_template("payto/details.html", person=person, form=form, saved=False,
                           kinds=KIND_LABELS), 422


@bp.errorhandler(413)
def photo_too_large(error):
    """A photo over MAX_CONTENT_LENGTH, refused unread: the page again, saying so."""
    player_id = (request.view_args or {}).get("player_id")
    if request.endpoint != "payto.details" or player_id is None:
        return error
    person = group_row_or_404(Player, player_id)
    form = PaytoForm(formdata=None, data={"kind": Kind.BANK_QR.value})
    form.photo.errors = [_("That photo is larger than %(size)s, the most an upload may be: "
                           "send a screenshot of the QR code instead.",
                           size=size_text(MAX_BYTES))]
    return render_template("payto/details.html", person=person, form=form, saved=False,
                           kinds=KIND_LABELS), 413


def _shown(person: Player) -> dict:
    """The form's fields as the player's details stand."""
    if person.payto_kind == Kind.BANK_QR:
        return {"kind": person.payto_kind, "qr_text": person.payto_value}
    return {"kind": person.payto_kind, "number": person.payto_value}


CODE = "/sessions/<int:session_id>/settle/qr/<int:payer_id>-<int:payee_id>"


@bp.get(f"{CODE}.svg")
def code_svg(payer_id: int, payee_id: int):
    return Response(qr_svg(_payload(payer_id, payee_id)), mimetype="image/svg+xml",
                    headers=PRIVATE)


@bp.get(f"{CODE}.png")
def code_png(payer_id: int, payee_id: int):
    return Response(qr_png(_payload(payer_id, payee_id)), mimetype="image/png",
                    headers=PRIVATE)


def _payload(payer_id: int, payee_id: int) -> str:
    """The code paying one of the session's transfers, as the settle-up page
    has it: 404 for a transfer not in the settlement (or paid), or whose
    payee has no details of the session's scheme."""
    game = g.game
    codes = services.payment_codes(game, services.settlement(game)) or {}
    payload = codes.get((payer_id, payee_id))
    if payload is None:
        abort(404)
    return payload


ACROSS = "/money/qr/<currency>/<int:payer_id>-<int:payee_id>"


@bp.get(f"{ACROSS}.svg")
def across_svg(currency: str, payer_id: int, payee_id: int):
    return Response(qr_svg(_across_payload(currency, payer_id, payee_id)),
                    mimetype="image/svg+xml", headers=PRIVATE)


@bp.get(f"{ACROSS}.png")
def across_png(currency: str, payer_id: int, payee_id: int):
    return Response(qr_png(_across_payload(currency, payer_id, payee_id)),
                    mimetype="image/png", headers=PRIVATE)


def _across_payload(currency: str, payer_id: int, payee_id: int) -> str:
    """The code paying one of Settle everything's transfers in ``currency``,
    as Who owes whom has it; 404 as for a session's."""
    group = signed_in_group()
    found = queries.group_debts(group, currency)
    payload = services.plan_codes(group, found[0]).get((payer_id, payee_id)) if found else None
    if payload is None:
        abort(404)
    return payload
