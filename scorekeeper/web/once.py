"""Every change a phone makes carries a key made for it with its form (the
hidden field ``key``; a hand sent as JSON, its "key" member), so that a double
tap or a retry after a timeout applies it once, and is answered as the first.

A key is the time its form was made, in seconds since 1970 by the server's
clock, a dot and 16 to 43 random characters: "1764403200.kP3…". The server
makes the keys of the forms it renders; the browser makes more from them,
keeping their time (together.js for each hand, offline.js for a page
shown again from its copy). A key is taken for KEY_LIFE after its time: a
form older than that may have been applied once, its key deleted since
(services.protocol deletes the old ones), so it is refused (KeyTooOld),
saying so, never applied twice. The time is not signed: a key only guards the
phone that made it against its own repeats, and a key made later than now is
not one.

A view that changes a session says, with its decorator, how the change is
answered; ``changing`` makes the services.Change the view hands its
service, once, from the request: the page's session, the version it was
built on, the key with that answer, and the phone. The key is written in
the change's transaction (services.protocol), unique in the group: a
repeat that gets as far is rolled back (services.Repeated); a repeat
refused before (its page's version is old now, its round moved, its key
too old) is answered with the first one's answer if the key has been
applied and is still kept. A POST without a key (a page cached before keys,
a script) is applied as before, unguarded; a key that is not one is a 400.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from typing import Any

from flask import abort, g, make_response, redirect, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.exceptions import HTTPException

from .. import services
from ..limits import CLOCK_SLACK, KEY_DAYS, KEY_MAX
from ..models import utcnow
from .access import device_label, phone_player_id, sign_in_public_id, signed_in_group

KEY = re.compile(r"(?P<made>[0-9]{10})\.[A-Za-z0-9_-]{16,43}")
# A key made before keys told their time (migration 0013): taken as too old.
UNTIMED = re.compile(rf"[A-Za-z0-9_-]{{16,{KEY_MAX}}}")


@dataclass(frozen=True)
class Key:
    text: str
    made_at: datetime | None  # None: untimed


def new_key() -> str:
    """A key for one change, as a form is shown (a template global): a form
    shown again after a refusal gets a new one too, which is always safe."""
    seconds = int(utcnow().replace(tzinfo=UTC).timestamp())
    return f"{seconds}.{secrets.token_urlsafe(16)}"


def once(*, redirect_to: Callable[[Any], str] | None = None,
         json_of: Callable[[Any], dict] | None = None):
    """For a view whose POST changes a session: its key is applied at most
    once, and the change is answered (``answered``), and its repeats too, by
    a redirect to ``redirect_to(what the change returns)``, or with the JSON
    ``json_of(what it returns)`` (status 200; only what the repeats need)."""
    if redirect_to is not None:
        def answer(result) -> dict:
            return {"redirect": redirect_to(result)}
    elif json_of is not None:
        def answer(result) -> dict:
            return {"status": 200, "json": json_of(result)}
    else:
        raise TypeError("once: how is the change answered?")

    def decorator(view):
        @wraps(view)
        def guarded(*args, **kwargs):
            key = g.change_key = _posted_key()
            g.change_answer = answer
            try:
                if key is None:
                    return view(*args, **kwargs)
                return _once(key, view, *args, **kwargs)
            finally:
                g.pop("change_key")
                g.pop("change_answer")
                g.pop("change_refused", None)
                g.pop("key_too_old", None)

        return guarded

    return decorator


def _once(key: Key, view, *args, **kwargs):
    try:
        response = make_response(view(*args, **kwargs))
    except services.Repeated as repeated:
        return _answer(repeated.answer)
    except (HTTPException, services.KeyTooOld) as refusal:  # a 404 for a round moved, say
        first = services.applied(signed_in_group().id, key.text)
        if first is not None:
            return _answer(first)
        if isinstance(refusal, services.KeyTooOld):
            return _too_old()
        raise
    if _refused(response):
        first = services.applied(signed_in_group().id, key.text)
        if first is not None:
            return _answer(first)
        if g.get("key_too_old"):  # the view showed why itself, with what was typed
            response.status_code = 409
    return response


def changing(seen: int | None = None) -> services.Change:
    """What this request brings to the change its view makes, for the
    service: the session of the page (g.game; none: the signed-in group's
    own change), ``seen``, the session's version the page was built on (None:
    the page carries none), the key (KeyTooOld if it is too old), and this
    phone. Made as the service is called, once."""
    return services.Change(signed_in_group(), g.get("game"), seen, _this_once(),
                           device_label(), phone_player_id(), sign_in_public_id())


def answered(result: Any):
    """The answer to a change made (``result``: what it returned), as its
    repeats are answered."""
    return _answer(g.change_answer(result))


def fresh_token() -> dict | None:
    """A GET asking for JSON, of a page whose changes a phone may keep to
    send later (a round's form, a payment's page: core/sending.js): the
    CSRF token they are sent with, which may have expired while they waited.
    None for any other request: the view answers it."""
    if request.method == "GET" and request.accept_mimetypes.best_match(
            ["text/html", "application/json"]) == "application/json":
        return {"token": generate_csrf()}
    return None


def _this_once() -> services.Once | None:
    key: Key | None = g.get("change_key")
    if key is None:
        return None
    try:
        return services.Once(key.text, key.made_at, g.change_answer)
    except services.KeyTooOld:
        g.key_too_old = True
        raise


def _too_old():
    """For a view that lets KeyTooOld through (a button's form: nothing typed;
    the hand's view answers it as JSON itself)."""
    game = g.get("game")
    back = url_for("sessions.board", session_id=game.id) if game else url_for("home.index")
    return render_template("errors/too_old.html", days=KEY_DAYS, back=back), 409


def _posted_key() -> Key | None:
    if request.method != "POST":
        return None
    if request.is_json:
        document = request.get_json()  # a body that is no JSON: a 400 (sent_json)
        sent = document.get("key") if isinstance(document, dict) else None
    else:
        sent = request.form.get("key")
    if sent is None:
        return None
    made = KEY.fullmatch(sent) if isinstance(sent, str) else None
    if made is not None:
        made_at = datetime.fromtimestamp(int(made["made"]), UTC).replace(tzinfo=None)
        if made_at <= utcnow() + CLOCK_SLACK:
            return Key(sent, made_at)
    elif isinstance(sent, str) and UNTIMED.fullmatch(sent):
        return Key(sent, None)
    message = "This change's key is not one: reload the page and make the change again."
    if request.is_json:
        abort(make_response({"error": message}, 400))
    abort(400, message)


def refused(response):
    """``response``, a redirect, answers a change that was not made (the round
    that another phone saved, shown to a phone that sent the same): a repeat
    of a key applied meanwhile still gets the first answer, as for any refusal."""
    g.change_refused = True
    return response


def _refused(response) -> bool:
    """Whether a response is not the answer of a change made: a change made
    answers with a redirect (a form) or a 2xx JSON document (a hand)."""
    status = response.status_code
    return g.get("change_refused", False) or not (
        300 <= status < 400 or (response.is_json and status < 300))


def _answer(stored: dict):
    """A change's answer as ChangeKey.answer keeps it."""
    if "redirect" in stored:
        return redirect(stored["redirect"])
    return stored["json"], stored["status"]
