"""Every change a phone makes carries a key made for it with its form (the
hidden field ``key``; a hand sent as JSON, its "key" member), so that a double
tap or a retry after a timeout applies it once, and is answered as the first.

The key is written in the change's transaction (services.versioning), unique
in the group: a repeat that gets as far is rolled back (services.Repeated);
a repeat refused before (its page's version is old now, its round moved) is
answered with the first one's answer if the key has been applied by then. A
POST without a key (a page cached before keys, a script) is applied as
before, unguarded; a key that is not one is a 400.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import abort, g, make_response, redirect, request
from werkzeug.exceptions import HTTPException

from .. import services
from ..limits import KEY_MAX
from .access import signed_in_group

KEY = re.compile(rf"[A-Za-z0-9_-]{{16,{KEY_MAX}}}")


def new_key() -> str:
    """A key for one change, as a form is shown (a template global): a form
    shown again after a refusal gets a new one too, which is always safe."""
    return secrets.token_urlsafe(16)


def once(view):
    """For a view whose POST changes a session: its key is applied at most once."""

    @wraps(view)
    def guarded(*args, **kwargs):
        key = g.change_key = _posted_key()
        try:
            if key is None:
                return view(*args, **kwargs)
            return _once(key, view, *args, **kwargs)
        finally:
            g.pop("change_key")

    return guarded


def _once(key: str, view, *args, **kwargs):
    try:
        response = make_response(view(*args, **kwargs))
    except services.Repeated as repeated:
        return _answer(repeated.answer)
    except HTTPException:  # a 404 for a round that the first one moved, say
        first = services.applied(signed_in_group().id, key)
        if first is None:
            raise
        return _answer(first)
    if _refused(response):
        first = services.applied(signed_in_group().id, key)
        if first is not None:
            return _answer(first)
    return response


def redirecting(to: Callable[[Any], str]) -> services.Once | None:
    """This request's key, if it has one, for a change answered by a redirect
    to ``to(what the change returns)``."""
    key = g.get("change_key")
    return None if key is None else services.Once(key, lambda result: {"redirect": to(result)})


def answering(body: Callable[[Any], dict]) -> services.Once | None:
    """This request's key, if it has one, for a change answered with the JSON
    ``body(what the change returns)`` (status 200)."""
    key = g.get("change_key")
    return None if key is None else services.Once(
        key, lambda result: {"status": 200, "json": body(result)})


def _posted_key() -> str | None:
    if request.method != "POST":
        return None
    if request.is_json:
        document = request.get_json()  # a body that is no JSON: a 400 (sent_json)
        sent = document.get("key") if isinstance(document, dict) else None
    else:
        sent = request.form.get("key")
    if sent is None:
        return None
    if not isinstance(sent, str) or not KEY.fullmatch(sent):
        message = "This change's key is not one: reload the page and make the change again."
        if request.is_json:
            abort(make_response({"error": message}, 400))
        abort(400, message)
    return sent


def _refused(response) -> bool:
    """Whether a response is not the answer of a change made: a change made
    answers with a redirect (a form) or a 2xx JSON document (a hand)."""
    status = response.status_code
    return not (300 <= status < 400 or (response.is_json and status < 300))


def _answer(stored: dict):
    """A change's answer as ChangeKey.answer keeps it."""
    if "redirect" in stored:
        return redirect(stored["redirect"])
    return stored["json"], stored["status"]
