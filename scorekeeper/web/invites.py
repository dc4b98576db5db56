"""Invite links ("Get the others in"): a QR code and a link that sign a
phone in to the group without the passphrase, for a couple of hours and a
table's phones (services/invites.py). The link's token is shown once, on the
page the phone that made it opens next: it is carried there in that phone's
own cookie and dropped as the page shows it; the server keeps only its hash.
A phone opening the link answers one question, "Which player are you?", and
that answer signs it in: a GET changes nothing, so a chat app fetching the
link for a preview takes no place."""

import base64

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .. import queries, services
from ..extensions import db
from ..forms.groups import ButtonForm
from ..limits import INVITE_HOURS, INVITE_PHONES
from ..models import Group, Invite
from . import phone_choice
from .access import (
    client_address,
    current_group,
    device_label,
    phone_choice_in,
    set_phone_player,
    signed_in,
    signed_in_group,
)
from .access import sign_in as remember_group
from .loading import group_row_or_404
from .once import answered, changing, once
from .presenters.changes import phone_words

bp = Blueprint("invites", __name__)
bp.add_app_template_global(phone_words)  # the invite links' list: "made from Ben's phone"

# The cookie's entry holding the token of a link just made.
JUST_MADE = "invite_made"


@bp.get("/group/invite")
@signed_in
def index():
    return render_template("invites/index.html", group=signed_in_group(),
                           invites=queries.open_invites(signed_in_group()),
                           made=_just_made(), form=ButtonForm(),
                           hours=INVITE_HOURS, phones=INVITE_PHONES)


def _to_index(_=None) -> str:
    return url_for("invites.index")


@bp.post("/group/invite")
@signed_in
@once(redirect_to=_to_index)
def create():
    """A double tap makes one link: the second request, a repeat of the
    change, is shown the link the first made (its token is the key's)."""
    if not ButtonForm().validate():
        abort(400)
    change = changing()
    try:
        invite, token = services.create_invite(change)
    except services.Repeated:
        session[JUST_MADE] = services.invite_token(change)
        raise
    session[JUST_MADE] = token
    return answered(invite)


@bp.post("/group/invite/<int:invite_id>/revoke")
@signed_in
def revoke(invite_id):
    if not ButtonForm().validate():
        abort(400)
    try:
        services.revoke_invite(changing(), group_row_or_404(Invite, invite_id))
    except services.ServiceError:
        pass  # revoked already, from another phone: the page shows it so
    return redirect(url_for(".index"))


def _just_made() -> dict | None:
    """The link this phone has just made, shown this once: its address and QR
    code; None once shown, or if it closed meanwhile."""
    token = session.pop(JUST_MADE, None)
    if not isinstance(token, str):
        return None
    invite = services.invite_named(token)
    if (invite is None or invite.group_id != signed_in_group().id
            or services.state_of(invite) is not services.InviteState.OPEN):
        return None
    url = url_for(".join", token=token, _external=True)
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathFillImage).to_string()
    return {"invite": invite, "url": url,
            "qr": "data:image/svg+xml;base64," + base64.b64encode(image).decode()}


# The link's own page, for a phone not signed in (yet)


@bp.route("/join/<token>", methods=["GET", "POST"])
def join(token):
    opened = services.open_invite(token, address=client_address())
    if opened.invite is None or opened.state is not services.InviteState.OPEN:
        return _closed(opened.state)
    invite = opened.invite
    group = db.session.get(Group, invite.group_id)
    assert group is not None  # the invite's row goes with its group
    if current_group() == group:
        return _page(invite, group, signed_in_already=True)
    players = queries.known_players(group)
    chosen, chosen_player = phone_choice_in(group.id)
    if request.method == "POST":
        answer: phone_choice.Answer | None
        if chosen and "player" not in request.form and "name" not in request.form:
            # "Join": the phone stays whose it said it was, and keeps its name.
            answer, question = phone_choice.Answer(chosen_player), phone_choice.ask()
            label = device_label() or phone_choice.phone_name(answer, players)
        else:
            answer, question = phone_choice.answer(players)
            label = phone_choice.phone_name(answer, players) if answer is not None else ""
        if answer is None:
            return _page(invite, group, players=players, question=question), 422
        try:
            added = services.use_invite(services.Change(group, device=label), invite,
                                        new_player=answer.new)
        except services.InviteClosed as closed:
            return _closed(closed.state)
        remember_group(group, label)
        set_phone_player(added.id if added is not None else answer.player_id)
        return redirect(url_for("home.index"))
    return _page(invite, group, players=players, question=phone_choice.ask(),
                 chosen=chosen, chosen_player=chosen_player)


def _page(invite: Invite, group: Group, **context):
    response = Response(render_template("invites/join.html", invite=invite, group=group,
                                        **context))
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _closed(state: services.InviteState):
    """Why the link opens nothing, and what to do: 404 for a link that never
    was (or long ago), 410 for one that was and is no longer."""
    response = Response(render_template("invites/closed.html", state=state.name.lower(),
                                        hours=INVITE_HOURS),
                        404 if state is services.InviteState.UNKNOWN else 410)
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    response.cache_control.no_store = True
    return response
