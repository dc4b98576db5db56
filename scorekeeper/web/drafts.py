"""The round filled in together, as JSON for together.js: the coming round's
hands and problems, and a player's hand saved from a phone (a POST with the
CSRF token in its X-CSRFToken header). Without JavaScript the round form
shows the saved hands and posts every row, as on one phone."""

from __future__ import annotations

from flask import Blueprint, g, request, url_for

from .. import services
from ..forms.rounds import read_sent_hand
from ..services import Draft, Hand
from .loading import add_session_id, load_game_session
from .once import changing, once
from .presenters.changes import phone_words
from .sent_json import takes_json

bp = Blueprint("drafts", __name__, url_prefix="/sessions/<int:session_id>/draft")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)


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
        return {"error": str(conflict), "hand": _hand(conflict.hand),
                "state": _state(conflict.draft, True)}, 409
    except services.RoundGone as gone:
        return {"error": str(gone), "state": _state(gone.draft, True)}, 409
    except services.ServiceError as error:
        return {"error": str(error)}, 409
    return _saved(saved, player_id)


def _saved(saved: services.Saved, player_id: int) -> dict:
    """The answer to a hand saved: the hand, its problems, the round now, and
    the round's number if the save recorded it."""
    return {**_kept(saved), "hand": _hand(saved.hand),
            "problems": list(saved.draft.place_of(player_id).problems),
            "state": _state(saved.draft, True)}


def _state(draft: Draft, is_open: bool) -> dict:
    """The coming round as the phones show it: who is done, each hand, the
    round's problems, and the versions that tell a phone what it has seen."""
    return {
        "number": draft.number, "version": draft.version, "draft": draft.draft_version,
        "open": is_open, "complete": draft.complete,
        "players": [{"id": p.player.id, "name": p.player.name, "done": p.done,
                     "problems": list(p.problems), "hand": _hand(p.hand) if p.hand else None}
                    for p in draft.places],
        "problems": [problem.message for problem in draft.problems],
        "warnings": [warning.message for warning in draft.warnings],
    }


def _hand(hand: Hand) -> dict:
    return {"outcome": hand.outcome, "cards": hand.cards, "version": hand.version,
            "phone": phone_words(hand.device), "by_player": hand.phone_player_id == hand.player_id}
