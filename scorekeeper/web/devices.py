"""The device cookie: OWASP's "slow brute-force protection using device
cookies".

A phone that shows it knows a group's passphrase (it signs in, creates the
group, imports it, changes the passphrase) gets a cookie, signed with the
secret key, naming that group, the passphrase it knew
(services.passphrase_mark) and a random nonce. Its later passphrase checks
for that group count against that cookie alone (services.groups): a
stranger's wrong guesses never lock out the table's phones, and the cookie's
own wrong guesses lock only the cookie. It is a cookie of its own, so it
outlives sign-out; it names the last few groups the phone signed in to.
A new passphrase voids the cookies earned under the old one.
"""

import hashlib
import secrets

from flask import after_this_request, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

from .. import services
from ..limits import ID_MAX
from ..models import Group

COOKIE = "device"
SALT = "device-cookie"
KEPT = 5  # groups a phone is known to, the latest first
NONCE_BYTES = 16
# Ours are about 300 characters with five groups; anything much longer is not ours.
COOKIE_MAX = 1000
PART_MAX = 64  # a nonce (22 characters) or a mark (16)


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT,
                             signer_kwargs={"digest_method": hashlib.sha256})


def known_devices() -> list[services.KnownDevice]:
    """What this phone's device cookie says; nothing if it has none, or one
    that is not ours."""
    text = request.cookies.get(COOKIE, "")
    if not text or len(text) > COOKIE_MAX:
        return []
    try:
        entries = _serializer().loads(text)
    except BadSignature:
        return []
    known = []
    for entry in entries if isinstance(entries, list) else []:
        match entry:
            case [int() as group_id, str() as nonce, str() as mark] if (
                    type(group_id) is int and 1 <= group_id <= ID_MAX
                    and 0 < len(nonce) <= PART_MAX and 0 < len(mark) <= PART_MAX):
                known.append(services.KnownDevice(group_id, nonce, mark))
    return known[:KEPT]


def trust(group: Group) -> None:
    """This phone has shown it knows ``group``'s passphrase: the response
    sends it a device cookie naming the group first, with a new nonce."""
    entry = services.KnownDevice(group.id, secrets.token_urlsafe(NONCE_BYTES),
                                 services.passphrase_mark(group))
    kept = [entry, *(known for known in known_devices() if known.group_id != group.id)]
    value = _serializer().dumps([[known.group_id, known.nonce, known.mark]
                                 for known in kept[:KEPT]])
    config = current_app.config

    @after_this_request
    def send(response):
        response.set_cookie(COOKIE, value, max_age=config["PERMANENT_SESSION_LIFETIME"],
                            secure=config["SESSION_COOKIE_SECURE"], httponly=True,
                            samesite="Lax")
        return response
