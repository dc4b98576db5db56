"""Waiting for sessions (and groups' sessions in play) to change, for the
pages that show them live.

A process keeps one reader (a thread; a greenlet under gevent's workers) for as
long as any of its streams is open. Every ``interval`` seconds it reads, in one
statement a kind, the state of everything its streams watch (a session, a
group: each a key, ``("session", id)``, that the reader's ``read_states``
reads), and wakes the streams of what changed. The state lives in the database, so a change
saved by any worker of any app server reaches every stream within an interval;
a stream holds no database connection while it waits, only its socket. The
same reader also calls ``renew`` every ``renew_every`` seconds: the streams'
rows in the database lapse unless their process renews them (stream_caps.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

# The state of a session that is no longer there (a key read_states leaves out).
GONE = (0, 0, "")


class _Watched:
    """One key's latest state, and the event its streams wait on: set, and
    replaced by a fresh one, each time the state changes."""

    __slots__ = ("changed", "state", "streams")

    def __init__(self, state: object):
        self.state = state
        self.changed = threading.Event()
        self.streams = 0


class Watch:
    def __init__(self, read_states: Callable[[list[Hashable]], dict[Hashable, object]],
                 interval: float,
                 renew: Callable[[], None] | None = None, renew_every: float = 20):
        self._read_states = read_states
        self.interval = interval
        self._renew = renew
        self.renew_every = renew_every
        self._lock = threading.Lock()
        self._watched: dict[Hashable, _Watched] = {}
        self._reading = False
        self._closed = threading.Event()
        self._reader: threading.Thread | None = None

    @contextmanager
    def watching(self, key: Hashable,
                 state: object) -> Iterator[Callable[[object, float], object]]:
        """While open: ``wait(known, timeout)``, which returns the key's state
        as soon as it differs from ``known``, or after ``timeout`` seconds."""
        with self._lock:
            watched = self._watched.get(key)
            if watched is None:
                watched = self._watched[key] = _Watched(state)
            watched.streams += 1
            if self._closed.is_set():
                _changed(watched, GONE)
            elif not self._reading:
                self._reading = True
                self._reader = threading.Thread(target=self._read, name="live-watch", daemon=True)
                self._reader.start()
        try:
            yield lambda known, timeout: _wait(watched, known, timeout)
        finally:
            with self._lock:
                watched.streams -= 1
                if not watched.streams:
                    del self._watched[key]

    @property
    def watched(self) -> int:
        return len(self._watched)

    def close(self) -> None:
        """End every stream (as if its session were gone) and stop reading,
        waiting for a read under way: for a server shutting down."""
        with self._lock:
            self._closed.set()
            for watched in self._watched.values():
                _changed(watched, GONE)
            reader = self._reader
        if reader is not None:
            reader.join()

    def _read(self) -> None:
        renew_at = time.monotonic() + self.renew_every
        while True:
            self._closed.wait(self.interval)
            with self._lock:
                keys = list(self._watched)
                if not keys or self._closed.is_set():
                    self._reading = False
                    return
            if self._renew is not None and time.monotonic() >= renew_at:
                renew_at = time.monotonic() + self.renew_every
                try:
                    self._renew()
                except Exception:  # the database is away: the rows last a while yet
                    log.exception("could not renew the open streams")
            try:
                states = self._read_states(keys)
            except Exception:  # the database is away: try again next time
                log.exception("could not read the watched sessions")
                continue
            with self._lock:
                if self._closed.is_set():
                    continue  # its streams were told the end: the loop stops
                for key in keys:
                    watched = self._watched.get(key)
                    state = states.get(key, GONE)
                    if watched is not None and watched.state != state:
                        _changed(watched, state)


def _changed(watched: _Watched, state: object) -> None:
    watched.state = state
    woken, watched.changed = watched.changed, threading.Event()
    woken.set()


def _wait(watched: _Watched, known: object, timeout: float) -> object:
    changed = watched.changed  # taken before the state is compared: no wake-up missed
    if watched.state == known:
        changed.wait(timeout)
    return watched.state
