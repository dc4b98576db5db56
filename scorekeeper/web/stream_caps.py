"""How many live streams may be open, so that no one client can take the
server: per process, a ceiling below the connections a worker takes, so pages
always find room (kept here: it is about this process's own connections); per
sign-in, per share link and per client address, caps counted in the database
(services.streams), so that they hold across workers and app servers.

A stream past any of them is not held: live.py answers it as it would under a
sync worker, one event and a short retry (polling).
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable
from datetime import timedelta

from flask import Flask, current_app
from sqlalchemy import exc as sa_exc

from .. import services
from ..models import utcnow
from .access import client_address

log = logging.getLogger(__name__)


class OpenStreams:
    """This process's open streams: how many (against its ceiling), and the
    database rows that count them, for the watch's reader to renew."""

    def __init__(self, ceiling: int):
        self.ceiling = ceiling
        self._lock = threading.Lock()
        self._taken = 0
        self._rows: set[int] = set()

    def take(self) -> bool:
        with self._lock:
            if self._taken >= self.ceiling:
                return False
            self._taken += 1
            return True

    def hold(self, row: int) -> None:
        with self._lock:
            self._rows.add(row)

    def give_back(self, row: int | None = None) -> bool:
        """The place of a stream that ends (``row``: its row, if it got one);
        False if that row's place was given back already."""
        with self._lock:
            if row is not None:
                if row not in self._rows:
                    return False
                self._rows.remove(row)
            self._taken -= 1
            return True

    def rows(self) -> list[int]:
        with self._lock:
            return list(self._rows)

    @property
    def open(self) -> int:
        return self._taken


def init_app(app: Flask) -> None:
    app.extensions["live_streams"] = OpenStreams(app.config["LIVE_STREAMS_PER_PROCESS"])


def admit(holder: str, per_holder: int) -> Callable[[], None] | None:
    """Room for one more stream held by ``holder`` (a sign-in or a share
    link) from this request's address: the function that gives it back when
    the stream ends, or None when a ceiling or a cap is reached."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    streams: OpenStreams = app.extensions["live_streams"]
    if not streams.take():
        return None
    try:
        row = services.open_stream(
            holder, address_key(client_address()),
            services.StreamCaps(per_holder, app.config["LIVE_STREAMS_PER_ADDRESS"]),
            until=_lease_end(app))
    except BaseException:
        streams.give_back()
        raise
    if row is None:
        streams.give_back()
        return None
    streams.hold(row)
    return lambda: _close(app, streams, row)


def renew(app: Flask) -> None:
    """This process's streams are still open: push their rows' expiry on."""
    streams: OpenStreams = app.extensions["live_streams"]
    rows = streams.rows()
    if rows:
        with app.app_context():
            services.renew_streams(rows, _lease_end(app))


def renew_every(app: Flask) -> float:
    """Three renewals a lease: one missed (the database away a moment) costs nothing."""
    return app.config["LIVE_STREAM_LEASE_SECONDS"] / 3


def address_key(address: str) -> str:
    """The address to count streams by: an IPv6 client holds a whole /64 (a
    phone on a mobile network gets one of its own), so it counts as one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _close(app: Flask, streams: OpenStreams, row: int) -> None:
    """Once a stream: its events end, or its response is closed unread."""
    if not streams.give_back(row):
        return
    try:
        with app.app_context():
            services.close_stream(row)
    except sa_exc.SQLAlchemyError:  # the database away: the row lapses by itself
        log.warning("could not delete the row of a closed live stream", exc_info=True)


def _lease_end(app: Flask):
    return utcnow() + timedelta(seconds=app.config["LIVE_STREAM_LEASE_SECONDS"])
