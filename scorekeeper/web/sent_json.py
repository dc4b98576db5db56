"""JSON sent to the app (a hand of the round filled in together), read with
Flask's ``request.get_json`` through this app's JSON provider, which refuses
what no page of the app sends and no database can store: lists or objects
nested more than MAX_DEPTH deep (100,000 ``[`` overflowed the parser), half
of a surrogate pair (``"\\ud800"``, which no UTF-8 text holds), NUL (which
PostgreSQL's text can't hold), NaN and numbers too long to read. A body
refused so, or not JSON at all, is a 400 whose JSON ``error`` says why. (A
backup file is read by backup.fields, with the same refusals in its own words.)

Only views marked ``takes_json`` read a JSON body: Flask-WTF reads one as a
form's data, and a form of ours given ``false`` or a list failed with a 500,
so a JSON body sent to any other view is a 400 before it is read."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import abort, current_app, make_response, request
from flask.json.provider import DefaultJSONProvider
from flask.wrappers import Request

from ..limits import unstorable

MAX_DEPTH = 20
MAX_DIGITS = 20  # in a whole number: int() of a longer one takes time, then fails


class StrictJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """A ValueError, which get_json turns into a 400, for a document the
        app can't use; the session cookie, made by the app, passes too."""
        kwargs.setdefault("parse_int", _whole)
        kwargs.setdefault("parse_constant", _no_constant)
        try:
            document = super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError(f"it nests lists or objects more than {MAX_DEPTH} deep") from None
        _check(document)
        return document


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"it holds a number of more than {MAX_DIGITS} digits")
    return int(text)


def _no_constant(name: str) -> None:
    raise ValueError(f"it holds {name}, which is no number JSON allows")


def _check(document: Any) -> None:
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, (list, dict)):
            if depth > MAX_DEPTH:
                raise ValueError(f"it nests lists or objects more than {MAX_DEPTH} deep")
            if isinstance(value, dict):
                for key in value:
                    _check_text(key)
                value = list(value.values())
            stack.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    found = unstorable(text)
    if found is not None:
        raise ValueError(f"it holds {found}, which can't be stored")


class JSONRequest(Request):
    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        """A 400 saying why, as JSON: the one who reads it is a script."""
        if e is None:
            why = "This request must send a JSON document (Content-Type: application/json)."
        else:
            why = f"This request's body is not JSON that the app can read: {_reason(e)}."
        abort(make_response({"error": why + " Nothing was saved."}, 400))


def _reason(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    if isinstance(error, UnicodeDecodeError):
        return f"byte {error.start + 1} is not UTF-8"
    return str(error)


def takes_json(view: Callable) -> Callable:
    """Mark a view that reads a JSON body."""
    view.takes_json = True  # type: ignore[attr-defined]
    return view


def refuse_json_elsewhere() -> None:
    """A before_request hook: a JSON body for a view that reads none is a 400."""
    if request.method in ("GET", "HEAD", "OPTIONS") or not request.is_json:
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None and not getattr(view, "takes_json", False):
        abort(make_response({"error": "This address takes a form, not JSON: nothing was saved."},
                            400))
