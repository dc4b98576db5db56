"""Who may see what: the group this phone is signed in to, and the check that
every page of a group makes before anything is loaded."""

import hashlib
from datetime import date
from functools import wraps
from urllib.parse import urlsplit

from flask import abort, g, redirect, request, session, url_for

from .. import queries, services
from ..limits import ID_MAX, PHONE_ID_LENGTH
from ..models import Group
from ..services.sign_ins import TOKEN_MAX
from . import devices


def current_group() -> Group | None:
    """The group the signed cookie names, if that phone's sign-in has not
    ended (signed out, or a new passphrase). Pages ask often (every date
    shown is in the group's time zone), so the answer is kept on ``g`` for as
    long as the cookie says the same: signing in again during a request (as a
    passphrase change does) asks anew."""
    signed = (session.get("group_id"), session.get("sign_in"))
    known = g.get("signed_in")
    if known is None or known[0] != signed:
        known = g.signed_in = (signed, _group_signed_in(*signed))
    return known[1]


def sign_in_public_id() -> str:
    """What names this phone's sign-in to its service worker: the start of
    its token's hash, never the token (the page's scripts can read it), and
    never the same for two sign-ins (an id the database hands out again
    would let the worker show one sign-in's pages to the next)."""
    signed_in_group()  # the token is checked: a sign-in that has not ended
    return services.token_hash(session["sign_in"])[:PHONE_ID_LENGTH]


def signed_in_group() -> Group:
    """The group of a page that only signed-in phones reach (require_group or
    signed_in has sent the others to sign in)."""
    group = current_group()
    if group is None:
        raise LookupError("no group is signed in: the page should have required one")
    return group


def _group_signed_in(group_id, token) -> Group | None:
    """A cookie from before migration 0012 names its sign-in by a number, which
    opens nothing: that phone signs in again."""
    if not (_is_id(group_id) and _is_token(token)):
        return None
    return queries.group_of_sign_in(group_id, services.token_hash(token))


# What a phone's cookie names as its sign-in, kept by a live stream to check
# again as it runs (still_signed_in).
HeldSignIn = tuple[object, object]


def held_sign_in() -> HeldSignIn:
    return (session.get("group_id"), session.get("sign_in"))


def still_signed_in(held: HeldSignIn) -> bool:
    """Whether the sign-in is still on: not signed out, nor ended by a new
    passphrase."""
    return _group_signed_in(*held) is not None


def sign_in_key(held: HeldSignIn) -> str:
    """A name for the sign-in to count its live streams by: a digest, so that
    whatever the cookie holds is never written down."""
    return "sign-in:" + hashlib.sha256(repr(held).encode()).hexdigest()[:40]


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= ID_MAX


def _is_token(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= TOKEN_MAX


def template_context() -> dict:
    return {"signed_in_group": current_group()}


def sign_in(group: Group, device: str) -> None:
    """This phone, which has just shown it knows ``group``'s passphrase (or
    opened an invite link), is signed in to it: its sign-in before (to any
    group) ends, and its device cookie names the group. It keeps whose phone
    it is."""
    before = session.get("sign_in")
    phones = _phones()
    session.clear()
    session.permanent = True
    session["group_id"] = group.id
    session["sign_in"] = services.sign_in_phone(
        group, replacing=before if _is_token(before) else None)
    session["device"] = device
    session["day"] = today()
    _keep_phones(phones)
    devices.trust(group)


def today() -> int:
    return date.today().toordinal()


def keep_signed_in() -> None:
    """Renew the cookie on a phone's first group page of the day, so that it
    stays signed in for 400 days after it was last used; its sign-in's row
    says so too (a row unused for longer is deleted)."""
    day = today()
    if session.get("day") != day:
        session["day"] = day
        services.sign_in_used(session["sign_in"])


def sign_out() -> None:
    """End this phone's sign-in for good; the phone keeps its name, and whose
    phone it is, for the next sign-in."""
    if _is_token(session.get("sign_in")):
        services.sign_out_phone(session["sign_in"])
    device = session.get("device")
    phones = _phones()
    session.clear()
    if device:
        session["device"] = device
    _keep_phones(phones)


def client_address() -> str:
    """The phone's address (its own, behind PROXY_FIX proxies): sign-in limits
    count per address."""
    return request.remote_addr or ""


def device_label() -> str:
    return session.get("device", "")


def set_device_label(label: str) -> None:
    session["device"] = label


# Whose phone this is, for the last few groups it signed in to: kept in its
# cookie as [group id, player id], the player id None for "nobody's phone"
# (said so); a group with no entry is "not chosen yet".
PHONES_KEPT = 5


def _phones() -> list[list]:
    kept = session.get("phones")
    if kept is None and _is_id(session.get("player")):  # a cookie from before: one group's
        kept = [[session.get("group_id"), session["player"]]]
    if not isinstance(kept, list):
        return []
    return [entry for entry in kept if isinstance(entry, list) and len(entry) == 2
            and _is_id(entry[0]) and (entry[1] is None or _is_id(entry[1]))][:PHONES_KEPT]


def _keep_phones(phones: list[list]) -> None:
    if phones:
        session["phones"] = phones


def _phone_entry(group_id: object = None) -> list | None:
    group_id = group_id or session.get("group_id")
    return next((entry for entry in _phones() if entry[0] == group_id), None)


def phone_choice_in(group_id: int) -> tuple[bool, int | None]:
    """Whether this phone has said whose it is in that group, and whose (None:
    nobody's): for a phone about to sign in to it."""
    entry = _phone_entry(group_id)
    return (entry is not None, entry[1] if entry is not None else None)


def phone_chosen() -> bool:
    """Whether this phone has said whose it is in its group (a player's, or
    nobody's): if not, the home page asks."""
    return _phone_entry() is not None


def phone_player_id() -> int | None:
    """The player whose phone this is ("This is Ann's phone"), as the phone
    said; None for nobody's phone, or not said yet. Kept in its cookie for
    its group, through sign-outs and sign-ins."""
    entry = _phone_entry()
    return entry[1] if entry is not None else None


def set_phone_player(player_id: int | None) -> None:
    """This phone is ``player_id``'s in its group (None: nobody's, said so)."""
    group_id = session["group_id"]
    session["phones"] = [[group_id, player_id], *(
        entry for entry in _phones() if entry[0] != group_id)][:PHONES_KEPT]


def require_group(endpoint, values):
    """A url_value_preprocessor for a group's pages: signed-out phones go to
    sign in and come back."""
    if current_group() is None:
        abort(redirect(url_for("groups.sign_in", next=request.full_path.rstrip("?"))))
    keep_signed_in()


def signed_in(view):
    """For a view of a group's page outside the blueprints that check already."""
    @wraps(view)
    def checked(*args, **kwargs):
        require_group(request.endpoint, None)
        return view(*args, **kwargs)
    return checked


def safe_next(target: str | None) -> str | None:
    """``target`` if it is a path on this site, so sign-in never redirects away."""
    if not target or not target.isprintable():  # no control characters, no line breaks
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target
