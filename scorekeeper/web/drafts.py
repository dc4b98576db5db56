"""The round filled in together, as JSON for together.js: the coming round's
hands and problems, and a player's hand saved from a phone (a POST with the
CSRF token in its X-CSRFToken header). Without JavaScript the round form
shows the saved hands and posts every row, as on one phone. And "Clear this
round's hands", a form's POST.

What is wrong with one hand is told in full to the phone that entered it and
to a phone of its player, who put it right; every other phone is told that
it is to be checked, and where (README, "Enter a round, together"). A hand
still being typed on a phone is not in: every phone says where it is being
typed (the strip, its row, the scoreboard's card), and until when it waits
for that phone."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask_babel import ngettext

from .. import queries, services
from ..audit import Action
from ..forms.rounds import ClearHandsForm, read_sent_hand
from ..limits import DEVICE_MAX
from ..models import utcnow
from ..services import Draft, Hand, Place
from .access import device_label, phone_player_id, sign_in_public_id
from .filters import isolated
from .loading import add_session_id, load_game_session
from .once import answered, changing, once
from .presenters.changes import LAPSE_WORDS, describe_all, entered_words, phone_words, typing_words
from .presenters.problems import all_words
from .presenters.refusals import refusal
from .sent_json import takes_json

bp = Blueprint("drafts", __name__, url_prefix="/sessions/<int:session_id>/draft")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)
# A hand being typed, in words, for the round form and the scoreboard's card.
bp.add_app_template_global(typing_words)
bp.record_once(lambda state: state.app.jinja_env.globals.update(lapse_words=LAPSE_WORDS))


def _kept(saved: services.Saved) -> dict:
    """What a repeat of the save is answered (its key keeps it): the hand as
    saved, and the round it recorded; not the round's state, which the phone
    asks for anew (together.js)."""
    hand = saved.hand
    answer: dict = {"hand": {"outcome": hand.outcome, "cards": hand.cards,
                             "version": hand.version}}
    if saved.recorded is not None:
        answer["recorded"] = {"number": saved.recorded,
                              "url": url_for("rounds.show", number=saved.recorded)}
    return answer


@bp.get("")
def state():
    return _state(services.read_draft(g.game), not g.game.is_finished)


@bp.get("/saved/<int:number>")
def saved(number: int):
    """Round ``number`` as saved, for a phone that was filling it in together
    when another phone saved it (round-saved.js): its page and its edit
    page, the phone that saved it if a change since the version ``since``
    added it, and its hands."""
    hands = queries.round_hands(g.game, number)
    if not hands:
        return {"error": f"There is no round {number}."}, 404
    since = request.args.get("since", type=int)
    added = [event for event in (queries.changes_since(g.game, since) if since is not None else [])
             if event.action == Action.ROUND_ADD]
    phone = next((change.phone for change in reversed(describe_all(added, g.game.currency))
                  if change.round_number == number), None)
    return {"number": number, "url": url_for("rounds.show", number=number),
            "edit": url_for("rounds.edit", number=number), "phone": phone,
            "hands": {str(player): {"outcome": entry.outcome, "cards": entry.cards}
                      for player, entry in hands.items()}}


@bp.post("/<int:player_id>")
@takes_json
@once(json_of=_kept)
def save(player_id: int):
    sent = read_sent_hand(request.get_json())  # a body that is no JSON: a 400 (sent_json)
    if sent is None:
        return {"error": "This is not a hand: an outcome, the cards, the hand's version and "
                         "the round's number are needed."}, 400
    if g.game.is_finished:
        return {"error": "This session has ended: its rounds can't be changed."}, 409
    try:
        saved = services.save_hand(changing(), player_id, sent.outcome, sent.cards,
                                   base=sent.base, number=sent.number, typing=sent.typing)
    except services.HandConflict as conflict:
        return {"error": refusal(conflict), "hand": _hand(conflict.hand),
                "state": _state(conflict.draft, True)}, 409
    except services.RoundGone as gone:
        return {"error": refusal(gone), "state": _state(gone.draft, True)}, 409
    except services.ServiceError as error:
        return {"error": refusal(error)}, 409
    return _saved(saved, player_id)


def _saved(saved: services.Saved, player_id: int) -> dict:
    """The answer to a hand saved: the hand, its problems, the round now, and
    the round's number if the save recorded it."""
    return {**_kept(saved), "hand": _hand(saved.hand),
            "problems": all_words(saved.draft.place_of(player_id).problems),
            "state": _state(saved.draft, True)}


def _state(draft: Draft, is_open: bool) -> dict:
    """The coming round as this phone shows it: who is done, each hand, the
    problems of the hands this phone answers for (``_problems``), the
    round's, and the versions that tell a phone what it has seen."""
    return {
        "number": draft.number, "version": draft.version, "draft": draft.draft_version,
        "open": is_open, "complete": draft.complete,
        "players": [{"id": p.player.id, "name": p.player.name, "done": p.done,
                     "problems": _problems(p), "hand": _hand(p.hand) if p.hand else None}
                    for p in draft.places],
        "problems": all_words(draft.problems),
        "warnings": all_words(draft.warnings),
        "lapse": LAPSE_WORDS,
    }


def _problems(place: Place) -> list[str]:
    """A hand's problems for the phone that entered it and a phone of its
    player; for any other phone, that it is to be checked, and where: the
    strip shows "! to check" on every phone all the same; nothing while it
    is being typed (what is half typed is not yet wrong)."""
    hand = place.hand
    if hand is None or not place.problems or _answers_for(hand):
        return all_words(place.problems)
    if hand.typing:
        return []
    return [f"{isolated(place.player.name)}'s hand is to be checked on "
            f"{phone_words(hand.device)}."]


def _answers_for(hand: Hand) -> bool:
    """Whether this phone entered ``hand``, or is its player's."""
    own = phone_player_id()
    entered_here = hand.device == device_label()[:DEVICE_MAX]
    return entered_here or (own is not None and own == hand.player_id)


def _hand(hand: Hand) -> dict:
    """A hand as a phone shows it; ``typing`` if it is still being typed on
    a phone (``here``: this one), with the seconds it waits for that phone
    (``left``: then it counts as sent, and together.js asks again)."""
    typing = hand.typing and {
        "here": hand.phone == sign_in_public_id(),
        "left": max(0, round((hand.typed_until - utcnow()).total_seconds()))}
    return {"outcome": hand.outcome, "cards": hand.cards, "version": hand.version,
            "phone": phone_words(hand.device), "from": entered_words(hand.device, hand.at),
            "by_player": hand.phone_player_id == hand.player_id, "typing": typing or None}


def _to_form(_=None) -> str:
    return url_for("rounds.new")


@bp.post("/clear")
@once(redirect_to=_to_form)
def clear():
    """ "Clear this round's hands" (confirmed on the form's page): audited,
    and every phone's form and strip empty, live."""
    form = ClearHandsForm()
    if not form.validate():
        abort(400)
    try:
        cleared = services.clear_hands(changing(), form.number.data)
    except services.ServiceError as error:
        flash(refusal(error))
        return redirect(_to_form())
    flash(ngettext("Round %(number)s's hands are cleared: %(hands)s hand, from every phone.",
                   "Round %(number)s's hands are cleared: %(hands)s hands, from every phone.",
                   cleared, number=form.number.data, hands=cleared))
    return answered(cleared)
